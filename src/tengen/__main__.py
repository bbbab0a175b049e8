"""``python -m tengen``: the command line."""

from tengen.cli import main

raise SystemExit(main())
