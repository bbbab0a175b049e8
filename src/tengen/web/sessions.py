"""The open games of one app: `Sessions` opens them from the store on demand, and creates new
ones from the new-game form, an imported record, a copy for review or a node to play on from.
Each game is a `session.GameSession` (Go) or a `gomoku_session.GomokuSession`.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import asdict
from typing import Any

from tengen.ai.mcts import MctsPlayer
from tengen.ai.players import RandomPlayer
from tengen.clock import TimeControl
from tengen.sgf import GameTree, SgfError, parse, serialise
from tengen.web.clocks import GameClocks
from tengen.web.gomoku_session import GomokuSession
from tengen.web.meta import SessionMeta
from tengen.web.newgame import (
    GOMOKU,
    NOT_CARRIED,
    go_tree,
    gomoku_tree,
    play_meta,
    player_name,
    read_record,
)
from tengen.web.players import (
    BRAIN_TURN,
    BuiltinGomoku,
    EngineError,
    GomocupPlayer,
    GomokuComputer,
    GoSeat,
    engine_seat,
    gomocup_engine_name,
    gtp_engine_name,
)
from tengen.web.schemas import MAX_TITLE, NewGame, PlayFrom
from tengen.web.seats import BadRequest, Conflict, NotFound, new_seats
from tengen.web.session import GameSession
from tengen.web.store import Store
from tengen.web.upload import check_record

AnySession = GameSession | GomokuSession


class Sessions:
    """The open game sessions of one app, loaded from the store on first use."""

    def __init__(
        self,
        store: Store,
        engine: list[str] | None,
        seed: int | None = None,
        gomoku_engine: list[str] | None = None,
        gomoku_seconds: float = BRAIN_TURN,
    ) -> None:
        self.store = store
        self.engine = engine
        self.gomoku_engine = gomoku_engine
        self.gomoku_seconds = gomoku_seconds
        self.seed = seed
        self._open: dict[str, AnySession] = {}
        self._lock = threading.Lock()
        self._engine_names: dict[bool, str] = {}  # gomoku? -> the engine's name and version

    def _make_player(self, kind: str, level: int) -> GoSeat:
        if kind == "engine":
            if not self.engine:
                raise Conflict("no engine was given: start the server with --engine COMMAND")
            return engine_seat(self.engine)
        if kind == "builtin":
            return MctsPlayer(level, seed=self.seed or 0)
        return RandomPlayer(self.seed)

    def _make_gomoku_player(self, kind: str) -> GomokuComputer:
        if kind == "engine":
            if not self.gomoku_engine:
                raise Conflict("no Gomoku engine was given: start the server with --gomoku-engine")
            return GomocupPlayer(self.gomoku_engine, self.gomoku_seconds)
        return BuiltinGomoku(self.seed)

    def _session(
        self, game_id: str, tree: GameTree, meta: SessionMeta, created: float | None = None
    ) -> AnySession:
        """The session class the record's game needs (GM[4]: Gomoku, else Go)."""
        if tree.game_type == GOMOKU:
            return GomokuSession(game_id, tree, meta, self.store, self._make_gomoku_player, created)
        return GameSession(game_id, tree, meta, self.store, self._make_player, created)

    def create(self, options: NewGame) -> AnySession:
        """Start and save a new game in play mode."""
        gomoku = options.game == "gomoku"
        if "engine" in (options.black, options.white):
            if gomoku and not self.gomoku_engine:
                raise BadRequest(
                    "no Gomoku engine was given: start the server with --gomoku-engine"
                )
            if not gomoku and not self.engine:
                raise BadRequest("no engine was given: start the server with --engine COMMAND")
        meta = play_meta(options.black, options.white)
        if gomoku:
            meta.opening = options.opening
        else:
            meta.level = options.level
        if options.time:
            meta.clock = GameClocks(TimeControl.parse(options.time)).to_meta()
        tree = gomoku_tree(options) if gomoku else go_tree(options)
        for kind, prop in ((options.black, "PB"), (options.white, "PW")):
            if kind == "engine":
                tree.root.set(prop, self._engine_name(gomoku))
        return self._add(tree, meta)

    def _engine_name(self, gomoku: bool) -> str:
        """The engine's own name and version, asked once per server (a game with an engine
        that does not start is refused at once, not at its first move)."""
        with self._lock:
            name = self._engine_names.get(gomoku)
        if name is None:
            try:
                if gomoku:
                    name = gomocup_engine_name(self.gomoku_engine or [])
                else:
                    name = gtp_engine_name(self.engine or [])
            except EngineError as err:
                raise Conflict(f"the engine did not start: {err}", "engine") from None
            with self._lock:
                self._engine_names[gomoku] = name
        return name

    def import_record(self, data: bytes, filename: str = "") -> AnySession:
        """Open a record (SGF or another format) as a new game in review mode.

        Raises BadRequest for a record the app could not open again once stored: it is checked
        at the door (`upload.check_record`) and opened back from its stored text first."""
        tree = read_record(data, filename)
        try:
            tree = parse(serialise(tree)).games[0]
        except (SgfError, IndexError) as err:
            raise BadRequest(f"the record does not read back: {err}") from None
        meta = SessionMeta(
            mode="review", imported=True, filename=filename, seats=new_seats("human", "human")
        )
        return self._add(tree, meta)

    def copy(self, game_id: str) -> AnySession:
        """A new game in review holding a copy of the game's record: how a seat of a game
        between two people reviews it without touching the shared game."""
        session = self.get(game_id)
        with session.lock:
            text = session.sgf()
        copy = self.import_record(text.encode("utf-8"), f"{session.id}.sgf")
        with copy.lock:
            copy.meta.copy_of = session.id  # the page's way back to the live game
            copy.save()
        return copy

    def play_from(self, game_id: str, options: PlayFrom) -> AnySession:
        """A new game in play mode whose record is the game's line up to the node shown: its
        moves kept (so captures and the ko stand as they were), play going on from there,
        with `options`' seats. Raises Conflict for a Gomoku game or a finished position."""
        session = self.get(game_id)
        if not isinstance(session, GameSession):
            raise Conflict("play from here is for Go records", "gomoku")
        with session.lock:
            tree = session.cursor.node.line_copy()
            if session.cursor.game.consecutive_passes >= 2:
                raise Conflict("both players passed here: go back a move to play on", "game over")
        root = tree.root
        for ident in NOT_CARRIED:
            root.delete(ident)
        root.set("PB", player_name(options.black, options.level, "Black"))
        root.set("PW", player_name(options.white, options.level, "White"))
        root.set("GN", f"From move {session.cursor.move_number} of {session.title()}"[:MAX_TITLE])
        for kind, prop in ((options.black, "PB"), (options.white, "PW")):
            if kind == "engine":
                if not self.engine:
                    raise BadRequest("no engine was given: start the server with --engine COMMAND")
                root.set(prop, self._engine_name(False))
        meta = play_meta(options.black, options.white)
        meta.level = options.level
        meta.played_from = {"game": game_id, "move": session.cursor.move_number}
        return self._add(tree, meta)

    def _add(self, tree: GameTree, meta: SessionMeta) -> AnySession:
        session = self._session(secrets.token_hex(6), tree, meta)
        session.snapshot()  # a game whose state cannot be drawn is never stored
        session.save()
        game_id = session.id
        with self._lock:
            self._open[game_id] = session
        return session

    def get(self, game_id: str) -> AnySession:
        """The open session of a game, loading it from the store. Raises NotFound."""
        with self._lock:
            session = self._open.get(game_id)
            if session is not None:
                return session
            stored = self.store.load(game_id)
            if stored is None:
                raise NotFound(f"no game {game_id!r}")
            try:
                tree = parse(stored.sgf).games[0]
                check_record(tree)  # the door's check: a game stored before it may fail it
            except (SgfError, IndexError, BadRequest) as err:
                raise Conflict(f"game {game_id} cannot be read back: {err}") from None
            meta = SessionMeta.from_json(stored.meta)
            session = self._session(game_id, tree, meta, stored.created)
            self._open[game_id] = session
            return session

    def list(self, limit: int = 50, offset: int = 0) -> dict[str, Any]:
        """A page of the stored games, newest change first (id, title, mode, game, dates,
        seat kinds), with the total count."""
        games, total = self.store.page(limit, offset)
        return {
            "games": [asdict(g) for g in games],
            "total": total,
            "limit": limit,
            "offset": offset,
        }

    def delete(self, game_id: str, token: str | None) -> None:
        """Delete a game: the holder of one of its seats may. Raises NotFound or Forbidden."""
        session = self.get(game_id)
        with session.lock:
            session._require_any(token)
            session.close()
            session.deleted = True
            self.store.delete(game_id)
        with self._lock:
            self._open.pop(game_id, None)

    def close(self) -> None:
        """Stop every engine."""
        with self._lock:
            for session in self._open.values():
                session.close()
