"""The OpenAPI 3.1 document of the API, built from the endpoint table (`routes.ENDPOINTS`) and
the pydantic schemas, so what is served, validated and documented is one declaration.

Responses are described as far as a client relies on them: the error shape exactly, a game's
state and the lists by their main fields (states carry more, for the page).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema
from starlette.requests import Request
from starlette.responses import Response


@dataclass(frozen=True)
class Endpoint:
    """One HTTP endpoint: where, its handler, and what it takes and answers.

    ``body`` is the JSON body's model, ``upload`` a raw record body instead, ``query`` the
    model of the query parameters, ``token`` whether it takes a seat token (``X-Token``),
    ``response`` the name of the answer's schema (or ``media`` for a file)."""

    path: str
    method: str
    handler: Callable[[Request], Awaitable[Response]]
    body: type[BaseModel] | None = None
    query: type[BaseModel] | None = None
    upload: bool = False
    token: bool = False
    status: int = 200
    response: str | None = None
    media: str | None = None
    summary: str | None = None


_ERROR = {
    "type": "object",
    "required": ["error", "reason"],
    "properties": {"error": {"type": "string"}, "reason": {"type": ["string", "null"]}},
    "additionalProperties": False,
}
_TOKENS = {"type": "object", "additionalProperties": {"type": "string"}}
_STATE = {
    "type": "object",
    "required": ["id", "version", "title", "mode", "phase", "width", "height", "board"],
    "properties": {
        "id": {"type": "string"},
        "version": {"type": "integer"},
        "title": {"type": "string"},
        "mode": {"enum": ["play", "review"]},
        "phase": {"enum": ["handicap", "play", "scoring", "over", "review"]},
        "width": {"type": "integer", "minimum": 1},
        "height": {"type": "integer", "minimum": 1},
        "board": {"type": "array", "items": {"type": "string"}},
        "to_play": {"enum": ["black", "white"]},
        "seated": {"type": "boolean"},
        "can_redo": {"type": "boolean"},
        "info": {"type": "object"},
        "undo_request": {"enum": ["black", "white", None]},
        "copy_of": {"type": ["string", "null"]},
        "imported": {"type": "boolean"},
    },
}
_SUMMARY = {
    "type": "object",
    "required": ["id", "title", "mode", "game", "created", "updated", "seats"],
    "properties": {
        "id": {"type": "string"},
        "title": {"type": "string"},
        "mode": {"type": "string"},
        "game": {"enum": ["go", "gomoku"]},
        "created": {"type": "number"},
        "updated": {"type": "number"},
        "seats": {"type": "object", "additionalProperties": {"type": "string"}},
    },
}
_REF = "#/components/schemas/{model}"
RESPONSES: dict[str, dict[str, Any]] = {
    "Error": _ERROR,
    "GameState": _STATE,
    "GameList": {
        "type": "object",
        "required": ["games", "total", "limit", "offset"],
        "properties": {
            "games": {"type": "array", "items": _SUMMARY},
            "total": {"type": "integer", "minimum": 0},
            "limit": {"type": "integer", "minimum": 1},
            "offset": {"type": "integer", "minimum": 0},
        },
    },
    "Created": {
        "type": "object",
        "required": ["id", "tokens", "links", "state"],
        "properties": {
            "id": {"type": "string"},
            "tokens": _TOKENS,
            "links": _TOKENS,
            "state": {"$ref": _REF.format(model="GameState")},
        },
    },
    "Opened": {
        "type": "object",
        "required": ["id", "tokens", "state"],
        "properties": {
            "id": {"type": "string"},
            "tokens": _TOKENS,
            "state": {"$ref": _REF.format(model="GameState")},
        },
    },
    "Deleted": {"type": "object", "required": ["deleted"]},
    "Config": {"type": "object", "required": ["rulesets", "seats", "levels", "gomoku"]},
    "AnalysisView": {"type": "object", "required": ["analysis", "graph"]},
    "Engines": {
        "type": "object",
        "required": ["engines", "editable"],
        "properties": {
            "engines": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "source"],
                    "properties": {
                        "name": {"type": "string"},
                        "command": {"type": "string"},
                        "cwd": {"type": "string"},
                        "source": {"enum": ["command line", "settings"]},
                    },
                },
            },
            "editable": {"type": "boolean"},
        },
    },
}
_REFUSALS = {
    "400": "malformed or invalid input",
    "403": "the token holds no seat the action needs (engines: set from another machine)",
    "404": "no such game",
    "409": "the action does not fit the game now",
    "413": "the body is over its cap",
}


def document(endpoints: list[Endpoint]) -> dict[str, Any]:
    """The OpenAPI document of `endpoints`."""
    models = {m for e in endpoints for m in (e.body, e.query) if m is not None}
    _, defs = models_json_schema(
        [(m, "validation") for m in sorted(models, key=lambda m: m.__name__)],
        ref_template=_REF,
    )
    schemas = {**defs.get("$defs", {}), **RESPONSES}
    paths: dict[str, dict[str, Any]] = {}
    for endpoint in endpoints:
        operation = _operation(endpoint)
        paths.setdefault(endpoint.path, {})[endpoint.method.lower()] = operation
    return {
        "openapi": "3.1.0",
        "info": {"title": "tengen", "version": "1"},
        "paths": paths,
        "components": {"schemas": schemas},
    }


def _operation(e: Endpoint) -> dict[str, Any]:
    """One path operation: its parameters, body and answers."""
    doc = (e.handler.__doc__ or "").strip()
    name = re.sub(r"[^a-z0-9]+", "_", f"{e.method} {e.path}".lower()).strip("_")
    operation: dict[str, Any] = {
        "operationId": name,
        "summary": e.summary or doc.split("\n\n")[0].replace("\n", " "),
        "parameters": _parameters(e),
        "responses": _responses(e),
    }
    if e.body is not None:
        ref = {"$ref": _REF.format(model=e.body.__name__)}
        operation["requestBody"] = {
            "required": False,
            "content": {"application/json": {"schema": ref}},
        }
    if e.upload:
        operation["requestBody"] = {
            "required": True,
            "content": {"application/octet-stream": {"schema": {"type": "string"}}},
        }
    return operation


def _parameters(e: Endpoint) -> list[dict[str, Any]]:
    params: list[dict[str, Any]] = []
    if "{game_id}" in e.path:
        schema = {"type": "string", "maxLength": 64}
        params.append({"name": "game_id", "in": "path", "required": True, "schema": schema})
    if "{name}" in e.path:
        schema = {"type": "string", "maxLength": 40}
        params.append({"name": "name", "in": "path", "required": True, "schema": schema})
    if e.query is not None:
        for field, schema in e.query.model_json_schema()["properties"].items():
            params.append({"name": field, "in": "query", "required": False, "schema": schema})
    if e.token:
        schema = {"type": "string", "maxLength": 256}
        params.append({"name": "X-Token", "in": "header", "required": False, "schema": schema})
    return params


def _responses(e: Endpoint) -> dict[str, Any]:
    if e.media is not None:
        ok: dict[str, Any] = {"description": "the file", "content": {e.media: {}}}
    else:
        schema = {"$ref": _REF.format(model=e.response)} if e.response else {}
        ok = {"description": "done", "content": {"application/json": {"schema": schema}}}
    error = {"application/json": {"schema": {"$ref": _REF.format(model="Error")}}}
    refusals = {code: {"description": why, "content": error} for code, why in _REFUSALS.items()}
    return {str(e.status): ok, **refusals}
