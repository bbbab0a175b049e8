"""Errors and warnings of the SGF layer; both say where in the file (1-based line and column)."""

from __future__ import annotations

from dataclasses import dataclass


def _where(path: str | None, line: int, col: int) -> str:
    return f"{path}:{line}:{col}" if path else f"line {line}, col {col}"


class SgfError(ValueError):
    """SGF data that cannot be read: carries the message, line, column and, once known, the file."""

    def __init__(self, message: str, line: int, col: int, path: str | None = None) -> None:
        self.message = message
        self.line = line
        self.col = col
        self.path = path
        super().__init__(f"{_where(path, line, col)}: {message}")

    def with_path(self, path: str) -> SgfError:
        """The same error, naming the file it came from."""
        return SgfError(self.message, self.line, self.col, path)


@dataclass(frozen=True)
class SgfWarning:
    """A deviation from FF[4] that lenient reading repaired; columns count characters."""

    message: str
    line: int
    col: int
    path: str | None = None

    def __str__(self) -> str:
        return f"{_where(self.path, self.line, self.col)}: {self.message}"
