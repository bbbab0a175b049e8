"""The two colours of Go and Gomoku stones; an empty point is ``None`` in the public API."""

from __future__ import annotations

from enum import IntEnum


class Color(IntEnum):
    """A player or a stone. The values are those the compiled kernels store."""

    BLACK = 1
    WHITE = 2

    @property
    def opponent(self) -> Color:
        """The other colour."""
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def letter(self) -> str:
        """``B`` or ``W``, as SGF and GTP write it."""
        return "B" if self is Color.BLACK else "W"

    @classmethod
    def parse(cls, text: str) -> Color:
        """Read ``b``/``black``/``w``/``white`` in any case. Raises ValueError otherwise."""
        t = text.strip().lower()
        if t in ("b", "black"):
            return cls.BLACK
        if t in ("w", "white"):
            return cls.WHITE
        raise ValueError(f"invalid colour: {text!r}")
