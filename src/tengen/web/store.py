"""SQLite persistence of games (the SGF text plus a little metadata, one row per game) and of
the analysis engines set in the app's settings.

Every save is one transaction (WAL journal, synchronous=FULL), so a server killed at any moment
finds each game as it was after its last completed move or edit. The store knows nothing of Go:
it keeps text and JSON for `session`, which is the only caller.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       TEXT PRIMARY KEY,
    title    TEXT NOT NULL,
    mode     TEXT NOT NULL,
    created  REAL NOT NULL,
    updated  REAL NOT NULL,
    sgf      TEXT NOT NULL,
    meta     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_update ON games (updated DESC, id);
CREATE TABLE IF NOT EXISTS engines (
    name     TEXT PRIMARY KEY,
    command  TEXT NOT NULL,
    cwd      TEXT NOT NULL,
    added    REAL NOT NULL
)
"""
# What the game list shows, read from the metadata in SQL so that no record is loaded.
_SUMMARY = (
    "SELECT id, title, mode, created, updated, COALESCE(json_extract(meta, '$.game'), 'go'),"
    " json_extract(meta, '$.seats.black.kind'), json_extract(meta, '$.seats.white.kind')"
    " FROM games ORDER BY updated DESC, id LIMIT ? OFFSET ?"
)


@dataclass(frozen=True)
class StoredGame:
    """One row: the record as SGF text and the session metadata as a dict."""

    id: str
    title: str
    mode: str
    created: float
    updated: float
    sgf: str
    meta: dict[str, Any]


@dataclass(frozen=True)
class GameSummary:
    """What the game list shows of a game: no record, the seat kinds only (no tokens)."""

    id: str
    title: str
    mode: str
    created: float
    updated: float
    game: str
    seats: dict[str, str | None]


@dataclass(frozen=True)
class StoredEngine:
    """An analysis engine set in the app: its name, command line and working folder ("" for
    the server's own)."""

    name: str
    command: str
    cwd: str


class Store:
    """A SQLite file of games, safe to use from several threads (one connection, one lock)."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = str(path)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=FULL")
        self._conn.executescript(_SCHEMA)

    def save(self, game: StoredGame) -> None:
        """Insert or replace the game in one transaction, stamping `updated` now."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.execute(
                    "INSERT INTO games (id, title, mode, created, updated, sgf, meta)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT(id) DO UPDATE SET title=excluded.title, mode=excluded.mode,"
                    " updated=excluded.updated, sgf=excluded.sgf, meta=excluded.meta",
                    (
                        game.id,
                        game.title,
                        game.mode,
                        game.created,
                        time.time(),
                        game.sgf,
                        json.dumps(game.meta),
                    ),
                )
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def load(self, game_id: str) -> StoredGame | None:
        """The game with this id, or None."""
        with self._lock:
            row = self._conn.execute(
                "SELECT id, title, mode, created, updated, sgf, meta FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
        return None if row is None else _row(row)

    def page(self, limit: int, offset: int) -> tuple[list[GameSummary], int]:
        """`limit` games from `offset`, the most recently updated first, and how many there
        are; from the index on `updated`, without loading a record."""
        with self._lock:
            rows = self._conn.execute(_SUMMARY, (limit, offset)).fetchall()
            (total,) = self._conn.execute("SELECT COUNT(*) FROM games").fetchone()
        games = [
            GameSummary(gid, title, mode, created, updated, game, {"black": b, "white": w})
            for gid, title, mode, created, updated, game, b, w in rows
        ]
        return games, total

    def delete(self, game_id: str) -> bool:
        """Remove the game; False if there was none."""
        with self._lock:
            cursor = self._conn.execute("DELETE FROM games WHERE id = ?", (game_id,))
        return cursor.rowcount > 0

    def engines(self) -> list[StoredEngine]:
        """The analysis engines set in the app, in the order they were added."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT name, command, cwd FROM engines ORDER BY added, name"
            ).fetchall()
        return [StoredEngine(*row) for row in rows]

    def save_engine(self, engine: StoredEngine) -> None:
        """Add the engine, or change the command and folder of the one of that name."""
        with self._lock:
            self._conn.execute(
                "INSERT INTO engines (name, command, cwd, added) VALUES (?, ?, ?, ?)"
                " ON CONFLICT(name) DO UPDATE SET command=excluded.command, cwd=excluded.cwd",
                (engine.name, engine.command, engine.cwd, time.time()),
            )

    def delete_engine(self, name: str) -> bool:
        """Remove the engine; False if there was none."""
        with self._lock:
            cursor = self._conn.execute("DELETE FROM engines WHERE name = ?", (name,))
        return cursor.rowcount > 0

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()


def _row(row: tuple[Any, ...]) -> StoredGame:
    gid, title, mode, created, updated, sgf, meta = row
    return StoredGame(gid, title, mode, created, updated, sgf, json.loads(meta))
