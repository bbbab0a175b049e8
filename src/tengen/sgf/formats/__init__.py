"""Importers for the records that Go servers and Gomoku programs write, each to an SGF game tree.

One module a format, each with ``load(path_or_bytes) -> GameTree``: `gib` (Tygem), `ngf`
(WBaduk / CyberOro), `ugf` (Pandanet ``.ugf`` and ``.ugi``) and `psq` (Piskvork Gomoku).
Every malformed file raises `RecordError`, naming the line, and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tengen.sgf.formats import gib, ngf, psq, ugf
from tengen.sgf.formats.common import RecordError, Source
from tengen.sgf.tree import GameTree

Loader = Callable[[Source], GameTree]

FORMATS: dict[str, Loader] = {
    ".gib": gib.load,
    ".ngf": ngf.load,
    ".ugf": ugf.load,
    ".ugi": ugf.load,
    ".psq": psq.load,
}


def load_record(path: str | Path) -> GameTree:
    """Read the record at `path` with the importer its extension names (case ignored).

    Raises RecordError for an extension no importer reads or a malformed file, OSError if the
    file cannot be read.
    """
    loader = FORMATS.get(Path(path).suffix.lower())
    if loader is None:
        known = ", ".join(FORMATS)
        raise RecordError(f"{Path(path).name}: not a format tengen imports ({known})")
    return loader(path)


__all__ = ["FORMATS", "Loader", "RecordError", "load_record"]
