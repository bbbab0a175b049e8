"""The command table of a GTP engine, derived from its handlers rather than kept by hand.

A handler is a method marked ``@command("name")`` with the name the controller sends (GTP
names mix ``-`` and ``_``: ``kgs-time_settings``, ``kata-set-rules``, so the name is given, not
guessed from the method's). `table` reads the marks of a class in the order its methods are
defined; `list_commands` and `known_command` answer from it, and dispatch goes through it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

_F = TypeVar("_F", bound=Callable[..., object])
_MARK = "_gtp_command"


@dataclass(frozen=True)
class Entry:
    """One GTP command: its name, the method that runs it, and whether it needs a search."""

    name: str
    method: str
    analysis: bool


def command(name: str, *, analysis: bool = False) -> Callable[[_F], _F]:
    """Mark a method as the handler of the GTP command `name`; `analysis` commands are offered
    only by an engine that has an analysing search."""

    def mark(handler: _F) -> _F:
        handler.__dict__[_MARK] = (name, analysis)
        return handler

    return mark


def table(cls: type) -> dict[str, Entry]:
    """The commands of `cls` and its bases by name, in the order the handlers are defined.
    Raises ValueError if two handlers claim one name."""
    entries: dict[str, Entry] = {}
    for klass in reversed(cls.__mro__):
        for method, value in vars(klass).items():
            mark = getattr(value, "__dict__", {}).get(_MARK)
            if mark is None:
                continue
            name, analysis = mark
            if name in entries and entries[name].method != method:
                raise ValueError(f"GTP command {name!r} has two handlers")
            entries[name] = Entry(name, method, analysis)
    return entries
