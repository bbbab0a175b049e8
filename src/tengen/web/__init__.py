"""The local browser app to play and review Go; the only package that knows HTTP."""

from tengen.web.app import Config, create_app, serve

__all__ = ["Config", "create_app", "serve"]
