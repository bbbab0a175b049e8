"""Errors of the rules core, typed so that callers can say exactly why a move was refused."""

from __future__ import annotations

from enum import Enum

from tengen.core.coords import Move


class IllegalReason(Enum):
    """Why a move is not allowed."""

    OCCUPIED = "occupied"
    SUICIDE = "suicide"
    KO = "ko"
    SUPERKO = "superko"
    OFF_BOARD = "off board"
    WRONG_TURN = "wrong turn"
    GAME_OVER = "game over"


class IllegalMove(ValueError):
    """A move the rules refuse: carries the reason, the move and its move number."""

    def __init__(self, reason: IllegalReason, move: Move, move_number: int | None = None) -> None:
        self.reason = reason
        self.move = move
        self.move_number = move_number
        where = f" at move {move_number}" if move_number is not None else ""
        what = "pass" if move is None else f"({move.col}, {move.row})"
        super().__init__(f"illegal move {what}{where}: {reason.value}")
