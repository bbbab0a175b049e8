"""The swap opening's actions on a Gomoku session: a person's choice (swap, keep, or swap2's
two stones), a computer's answer, the seats changing colour, and undo step by step.

A mixin of `gomoku_session.GomokuSession` on `gomoku_base.GomokuSessionBase`; who acts and
what they may choose are `opening`'s, the rules `tengen.gomoku`'s.
"""

from __future__ import annotations

from typing import Any

from tengen.core.coords import Point
from tengen.gomoku import GomokuIllegal
from tengen.web import opening
from tengen.web.gomoku_base import GomokuSessionBase
from tengen.web.seats import COMPUTER, Conflict


class GomokuOpening(GomokuSessionBase):
    """The swap opening's actions of a Gomoku session."""

    def choose_opening(self, choice: str, token: str | None) -> None:
        """The opening's choice of the player who owes it: "swap" (the other colour), "keep"
        (swap2's player 1 stays Black), "two" (swap2's player 2 places stones 4 and 5).
        Raises Forbidden for another seat, Conflict for a choice not open now."""
        with self.lock:
            self._check_playing()
            color = opening.actor(self.game)
            self._require_seat(token, color)
            if self.seat_kind(color) in COMPUTER:
                raise Conflict(f"it is the computer's turn ({color.name.lower()})", "wrong turn")
            open_now = opening.options(self.game, bool(self.meta.opening_two))
            if choice not in open_now:
                now = ", ".join(open_now) or "none"
                raise Conflict(f"{choice!r} is not a choice now (open: {now})", "opening")
            n = self.game.move_number
            if choice == "two":
                self.meta.opening_two = True
            else:
                if choice == "swap":
                    self.game.swap()
                    self._swap_seats()
                else:
                    self.game.decide_opening(None)
                self._log_choice(n, choice)
            self._moved_on()
            self.save()

    def _place_two(self, point: Point) -> None:
        """Swap2's stones 4 and 5: the first click is held, the second places both (the same
        point twice lets go of the first)."""
        held = self.meta.opening_pending
        if held is None:
            if self.game.board[point] is not None:
                raise GomokuIllegal("occupied", self.game.move_number + 1, point)
            self.meta.opening_pending = [point.col, point.row]
            return
        self.meta.opening_pending = None
        first = Point(*held)
        if first == point:
            return
        self.game.place_opening([first, point])
        self.meta.opening_two = False
        self._log_choice(3, "two")

    def _decide_opening(self, answer: list[Point] | None) -> None:
        """Carry out a computer's opening answer (as ``SWAP2BOARD`` gives it) and note the
        choice it makes. Raises GomokuIllegal for an answer the opening does not allow."""
        n = self.game.move_number
        self.game.decide_opening(answer)
        if answer is None:
            choice = "swap" if n == 3 else "keep"
        elif len(answer) == 2:
            choice = "two"
        else:
            choice = "swap" if n == 5 else ""
        if choice == "swap":
            self._swap_seats()
        if choice:
            self._log_choice(n, choice)

    def _log_choice(self, after: int, choice: str) -> None:
        log: list[list[Any]] = self.meta.opening_log
        log.append([after, choice])

    def _swap_seats(self) -> None:
        """The people (and computers) change colours; so do the record's names."""
        seats = self.meta.seats
        seats["black"], seats["white"] = seats["white"], seats["black"]
        self._players = {c.opponent: p for c, p in self._players.items()}
        root = self.tree.root
        black, white = root.get("PB"), root.get("PW")
        for prop, name in (("PB", white), ("PW", black)):
            if name is None:
                root.delete(prop)
            else:
                root.set(prop, name)

    def _undo_actions(self) -> None:
        """Under a swap opening: take back the last action (a stone, the opening's stones, a
        choice), and the computer's after it, until a person is to act."""
        while True:
            self._undo_action()
            person = self.seat_kind(opening.actor(self.game)) not in COMPUTER
            if person or not self.game.move_number:
                break
        self.shown = self.game.move_number
        self.save()

    def _undo_action(self) -> None:
        """Take back one action of a swap opening's game, with the choice it noted."""
        if self.meta.opening_two:
            self.meta.opening_two, self.meta.opening_pending = False, None
            return
        log: list[list[Any]] = self.meta.opening_log
        n = self.game.move_number
        last = log[-1] if log else None
        if last is not None and int(last[0]) == n and last[1] in ("swap", "keep"):
            log.pop()
            if last[1] == "swap":
                self._swap_seats()
        elif last is not None and last == [3, "two"] and n == 5:
            log.pop()
        self.game.undo()
