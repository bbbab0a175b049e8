"""``python -m tengen``: the command line."""

from tengen.cli import main

if __name__ == "__main__":  # not when a match's worker process re-imports this module
    raise SystemExit(main())
