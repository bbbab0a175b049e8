"""`python -m tengen.web` runs the web app (the same as ``tengen serve``)."""

from tengen.web.app import serve

raise SystemExit(serve())
