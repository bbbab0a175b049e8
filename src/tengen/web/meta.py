"""What the app keeps of a game beside its record: seats, mode, the marking of dead stones,
undo and redo, the clock, Gomoku's opening. Typed here, stored as JSON with the same keys
(the store's game list reads ``seats`` and ``game`` in SQL); keys this version does not know
are kept as they were, so an older server never loses what a newer one wrote.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from tengen.ai.levels import DEFAULT_LEVEL

Seats = dict[str, dict[str, str]]  # colour name -> {"kind": ..., "token": ...}
_RENAMED = {"played_from": "from"}  # field -> JSON key, where the key is a Python keyword


@dataclass
class SessionMeta:
    """A game's metadata. `dead` is None outside the counting (else the dead stones marked,
    as [col, row]); `resigned` and `timeout` hold the loser's letter; `redo` the moves taken
    back that redo plays again; `node` the node shown (Go), `shown` the move shown (Gomoku)."""

    mode: str = "review"
    seats: Seats = field(default_factory=dict)
    game: str = "go"
    level: int = DEFAULT_LEVEL
    dead: list[list[int]] | None = None
    seki: list[list[int]] = field(default_factory=list)
    accepted: list[str] = field(default_factory=list)
    resigned: str | None = None
    timeout: str | None = None
    warnings: list[str] = field(default_factory=list)
    clock: dict[str, Any] | None = None
    imported: bool = False
    filename: str = ""
    copy_of: str | None = None
    played_from: dict[str, Any] | None = None
    undo_request: str | None = None
    redo: list[Any] = field(default_factory=list)
    node: int = 0
    shown: int | None = None
    version: int = 0
    opening: str = "none"
    opening_pending: list[int] | None = None
    opening_two: bool = False
    opening_log: list[list[Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)  # keys of another version, kept

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SessionMeta:
        """The metadata stored as `data` (missing keys take their defaults; a null where a
        list is wanted is an empty list)."""
        names = {f.name: _RENAMED.get(f.name, f.name) for f in dataclasses.fields(cls)}
        keys = set(names.values())
        values: dict[str, Any] = {}
        for name, key in names.items():
            if key in data and name != "extra":
                values[name] = data[key]
        for name in ("seki", "accepted", "warnings", "redo", "opening_log"):
            if values.get(name, []) is None:
                values[name] = []
        return cls(**values, extra={k: v for k, v in data.items() if k not in keys})

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for the store, with the keys `from_json` reads."""
        data = {**self.extra}
        for f in dataclasses.fields(self):
            if f.name != "extra":
                data[_RENAMED.get(f.name, f.name)] = getattr(self, f.name)
        return data
