"""``tengen serve``: the web app, which parses its own options."""

from __future__ import annotations


def main(argv: list[str]) -> int:
    """``tengen serve``: the web app; it reads its own options (--host, --port, --db, ...)."""
    from tengen.web import serve as serve_web  # uvicorn and starlette load only for this

    try:
        return serve_web(argv)
    except KeyboardInterrupt:
        return 130
