"""What every game session shares, Go or Gomoku: errors with an HTTP status, seats held by
secret tokens, saving to the store, and the websocket listeners.

`session.GameSession` (Go) and `gomoku_session.GomokuSession` build on `SessionBase`, through
`go_base` and `gomoku_base`. Each session is the single owner of its game's state: every
change happens under its lock and is saved before the call returns.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from typing import Any, Generic, Protocol, TypeVar

from tengen.core.color import Color
from tengen.core.coords import Move, from_gtp
from tengen.sgf import GameTree, serialise
from tengen.web.meta import Seats, SessionMeta
from tengen.web.store import Store, StoredGame

COMPUTER = ("random", "builtin", "engine")
COLORS = {"black": Color.BLACK, "white": Color.WHITE}
# The game-info fields the app edits, and the root properties that hold them.
INFO = {
    "black": "PB",
    "white": "PW",
    "black_rank": "BR",
    "white_rank": "WR",
    "event": "EV",
    "date": "DT",
    "komi": "KM",
    "handicap": "HA",
    "rules": "RU",
    "result": "RE",
    "name": "GN",
}


class WebError(Exception):
    """A request the app refuses: an HTTP status and a message for the person."""

    status = 400

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason


class BadRequest(WebError):
    """Malformed or invalid input."""


class Forbidden(WebError):
    """A token that does not hold the seat the action needs."""

    status = 403


class NotFound(WebError):
    """No such game."""

    status = 404


class Conflict(WebError):
    """The action does not fit the game now: an illegal move, a game over, nothing to undo."""

    status = 409


def parse_vertex(vertex: Any, width: int, height: int) -> Move:
    """A request's ``vertex`` (``D4``, ``pass``) on a `width` x `height` board; None passes.

    Raises BadRequest naming what is wrong, for Go and Gomoku sessions alike.
    """
    if not isinstance(vertex, str):
        raise BadRequest(f"'vertex' must be a coordinate such as D4 or 'pass', not {vertex!r}")
    try:
        return from_gtp(vertex, width, height)
    except ValueError as err:
        raise BadRequest(str(err)) from None


def new_token() -> str:
    """A fresh seat token."""
    return secrets.token_urlsafe(16)


def new_seats(black: str, white: str) -> Seats:
    """Seat metadata of a new game; one screen holding both seats gets one token for both."""
    seats = {
        "black": {"kind": black, "token": new_token()},
        "white": {"kind": white, "token": new_token()},
    }
    if black == white == "human":
        seats["white"]["token"] = seats["black"]["token"]
    return seats


def _offer(queue: asyncio.Queue[dict[str, Any]], state: dict[str, Any]) -> None:
    """Put `state` on `queue`, dropping the oldest entry of a full queue (a slow page)."""
    if queue.full():
        queue.get_nowait()
    queue.put_nowait(state)


class ComputerPlayer(Protocol):
    """What a session needs of a computer player it holds: a way to stop it."""

    def close(self) -> None:
        """Stop the player (an engine process, say)."""
        ...


P = TypeVar("P", bound=ComputerPlayer)


class SessionBase(Generic[P]):
    """One game's record, metadata, seats, lock, listeners and computer players (of type P);
    subclasses add the game."""

    def __init__(
        self,
        game_id: str,
        tree: GameTree,
        meta: SessionMeta,
        store: Store,
        created: float | None = None,
    ) -> None:
        self.id = game_id
        self.tree = tree
        self.meta = meta
        self.created = time.time() if created is None else created
        self.version = int(meta.version)  # kept, so a restart never goes back
        self.lock = threading.RLock()
        self.deleted = False  # set under the lock; a late save (an analysis ending) is dropped
        self._store = store
        self._listeners: dict[asyncio.Queue[dict[str, Any]], asyncio.AbstractEventLoop] = {}
        self._players: dict[Color, P] = {}

    def close(self) -> None:
        """Stop the computer players (engine processes)."""
        for player in self._players.values():
            player.close()
        self._players.clear()

    # -- seats -------------------------------------------------------------------------------

    @property
    def mode(self) -> str:
        """ "play" (seats, opponents, undo) or "review" (navigate, variations, comments)."""
        return str(self.meta.mode)

    def seat_kind(self, color: Color) -> str:
        """Who holds the seat: human, remote, random, builtin or engine."""
        return str(self.meta.seats[color.name.lower()]["kind"])

    def tokens(self, remote: bool = False) -> dict[str, str]:
        """The tokens of the seats that people hold: same-screen ones, or with `remote` all."""
        return {
            name: seat["token"]
            for name, seat in self.meta.seats.items()
            if seat["kind"] == "human" or (remote and seat["kind"] == "remote")
        }

    def _held(self, token: str | None) -> set[Color]:
        """The colours whose seat this token holds (computer seats are never held)."""
        if not token:
            return set()
        given = token.encode("utf-8", "surrogatepass")  # any header text; never a TypeError
        return {
            COLORS[name]
            for name, seat in self.meta.seats.items()
            if seat["kind"] not in COMPUTER
            and secrets.compare_digest(seat["token"].encode("utf-8"), given)
        }

    def _people(self) -> set[Color]:
        """The colours whose seats people hold (not computers)."""
        return {COLORS[n] for n, seat in self.meta.seats.items() if seat["kind"] not in COMPUTER}

    @property
    def seated(self) -> bool:
        """Whether no one token holds every person's seat: two people play each other, so
        each acts only for their own colour and the shared game is never reviewed in place
        (a seat reviews a copy, see `Sessions.copy`)."""
        seats = self.meta.seats.values()
        return len({seat["token"] for seat in seats if seat["kind"] not in COMPUTER}) > 1

    def _require_any(self, token: str | None) -> set[Color]:
        held = self._held(token)
        if not held:
            raise Forbidden(
                "this action needs a seat token of this game (X-Token header)"
                if not token
                else "the token holds no seat of this game"
            )
        return held

    def _require_all(self, token: str | None) -> set[Color]:
        """The colours the token may act for when it holds every person's seat (then also
        the computer's: a game against a computer is its one person's to review and edit).
        Raises Forbidden for a seat of a game between two people."""
        held = self._require_any(token)
        if not self._people() <= held:
            raise Forbidden(
                "a seat of a game between two people acts only for its own colour;"
                " review a copy of the game instead",
                "seated",
            )
        return {Color.BLACK, Color.WHITE}

    def _require_seat(self, token: str | None, color: Color) -> None:
        """Let the token add a move of `color`: in every mode, only its own seat's colour
        (or any colour when it holds every person's seat outside play)."""
        held = self._require_any(token)
        if color in held:
            return
        if self.mode == "play" or not self._people() <= held:
            raise Forbidden(f"the token does not hold the {color.name.lower()} seat")

    # -- game information ----------------------------------------------------------------------

    def set_info(self, info: dict[str, Any], token: str | None) -> None:
        """Change the record's game information (`INFO` fields; "" removes one). Needs every
        person's seat: in a game between two people neither changes it alone.
        Raises BadRequest for a value the game cannot take (see `_check_info`)."""
        with self.lock:
            self._require_all(token)
            self._check_info(info)
            root = self.tree.root
            for field, value in info.items():
                prop = INFO[field]
                if value == "":
                    root.delete(prop)
                else:
                    root.set(prop, value)
            self._info_changed()
            self.save()

    def info(self) -> dict[str, Any]:
        """The record's game information by `INFO` field (absent ones left out)."""
        root = self.tree.root
        found = {field: root.get(prop) for field, prop in INFO.items()}
        return {field: value for field, value in found.items() if value is not None}

    def _check_info(self, info: dict[str, Any]) -> None:
        """Raise BadRequest for information this game cannot take."""
        if "result" in info and self.mode == "play":
            raise BadRequest("a game in play gets its result from the game, not from its info")
        if "handicap" in info and self.mode == "play":
            raise BadRequest("a game in play has its handicap stones on the board already")

    def _info_changed(self) -> None:
        """Follow a change of the record's root (komi and rules count in a Go game)."""

    # -- undo, asked of the other person in a game between two people ------------------------

    def undo(self, token: str | None) -> None:
        """Take back the token's player's last move (and a computer's replies after it); in a
        game between two people, ask the other to agree instead (`answer_undo`).

        Raises Forbidden if the last move by a person was the other player's, Conflict when
        there is nothing to undo or an undo is already asked."""
        with self.lock:
            held = self._require_any(token)
            self._undo_check(held)
            if not self.seated:
                self._take_back(held)
                return
            if self.meta.undo_request:
                raise Conflict("an undo is already asked: wait for the answer", "undo asked")
            self.meta.undo_request = next(iter(held)).letter
            self.save()

    def answer_undo(self, accept: bool, token: str | None) -> None:
        """The other player agrees to (`accept`) or declines the undo asked; the player who
        asked may withdraw it (decline). Raises Conflict when none is asked, Forbidden when
        the asker tries to accept their own."""
        with self.lock:
            held = self._require_any(token)
            asked = self.meta.undo_request
            if not asked:
                raise Conflict("no undo is asked", "no undo asked")
            asker = COLORS["black" if asked == "B" else "white"]
            if accept and asker in held:
                raise Forbidden("the other player answers an undo request, not the one who asked")
            self.meta.undo_request = None
            if accept:
                self._take_back({asker})
            else:
                self.save()

    def undo_request(self) -> str | None:
        """The colour that asked for an undo still unanswered ("black", "white"), or None."""
        asked = self.meta.undo_request
        return None if not asked else ("black" if asked == "B" else "white")

    def _moved_on(self) -> None:
        """A new move: what was taken back (redo) and an undo asked before it are gone."""
        self.meta.redo = []
        self.meta.undo_request = None

    def _undo_check(self, held: set[Color]) -> object:
        """Raise Forbidden or Conflict when `held` may not undo now (the game's own rules)."""
        raise NotImplementedError

    def _take_back(self, held: set[Color]) -> None:
        """Undo for `held`, as `undo` describes, and save."""
        raise NotImplementedError

    def _warn(self, text: str) -> None:
        warnings: list[str] = self.meta.warnings
        warnings.append(text)
        del warnings[:-20]

    def _engine_failed(self, err: Exception) -> Conflict:
        """Note a computer player's failure in the warnings and save; the error to raise."""
        self._warn(f"engine failed: {err}")
        self.save()
        return Conflict(f"the engine failed: {err}", "engine")

    # -- the record --------------------------------------------------------------------------

    def title(self) -> str:
        """GN, or "Black vs White", for lists and the page header."""
        root = self.tree.root
        name = root.get("GN")
        if name:
            return str(name)
        return f"{root.get('PB') or 'Black'} vs {root.get('PW') or 'White'}"

    def state(self) -> dict[str, Any]:
        """Everything a page needs to draw the game, the same for every viewer."""
        raise NotImplementedError

    def common_state(self) -> dict[str, Any]:
        """The fields of `state` that Go and Gomoku share, in the page's order: the seats,
        redo and undo, the game information, where the record came from, the players."""
        root = self.tree.root
        return {
            "seats": {name: seat["kind"] for name, seat in self.meta.seats.items()},
            "seated": self.seated,
            "can_redo": self.mode == "play" and bool(self.meta.redo),
            "info": self.info(),
            "undo_request": self.undo_request(),
            "copy_of": self.meta.copy_of,
            "imported": bool(self.meta.imported),
            "players": {"black": root.get("PB") or "Black", "white": root.get("PW") or "White"},
        }

    def _sync_record(self) -> None:
        """Bring `tree` and `meta` up to date with the game before a save."""
        raise NotImplementedError

    def set_mode(self, mode: Any, token: str | None) -> None:
        """Switch between play and review. A game that was imported stays in review."""
        if mode not in ("play", "review"):
            raise BadRequest("'mode' must be 'play' or 'review'")
        with self.lock:
            # Back to play is always safe; review (navigating, editing) needs every person seat.
            self._require_all(token) if mode == "review" else self._require_any(token)
            if mode == "play" and self.meta.imported:
                raise Conflict("an imported record is reviewed, not played")
            self.meta.mode = mode
            if mode == "play":
                self._show_latest()
            self.save()

    def _show_latest(self) -> None:
        """Show the position play goes on from (play mode shows nothing else)."""
        raise NotImplementedError

    def save(self) -> None:
        """Write the record and metadata in one transaction, and bump the version (unless
        the game has been deleted)."""
        if self.deleted:
            return
        self._sync_record()
        self.version += 1
        self.meta.version = self.version
        self._store.save(
            StoredGame(
                self.id,
                self.title(),
                self.mode,
                self.created,
                time.time(),
                self.sgf(),
                self.meta.to_json(),
            )
        )

    def sgf(self) -> str:
        """The record as SGF text."""
        return serialise(self.tree).decode("utf-8")

    # -- listeners ---------------------------------------------------------------------------

    def subscribe(self) -> asyncio.Queue[dict[str, Any]]:
        """A queue, on the running event loop, that receives the state after every change."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=64)
        self._listeners[queue] = asyncio.get_running_loop()
        return queue

    def unsubscribe(self, queue: asyncio.Queue[dict[str, Any]]) -> None:
        """Stop sending changes to `queue`."""
        self._listeners.pop(queue, None)

    def snapshot(self) -> dict[str, Any]:
        """The state, taken under the lock."""
        with self.lock:
            return self.state()

    def publish(self) -> dict[str, Any]:
        """Send the current state to every listener, from any thread; return it."""
        state = self.snapshot()
        self.broadcast(state)
        return state

    def broadcast(self, message: dict[str, Any]) -> None:
        """Send `message` (a state, or an analysis's progress) to every listener, from any
        thread."""
        for queue, loop in list(self._listeners.items()):
            loop.call_soon_threadsafe(_offer, queue, message)
