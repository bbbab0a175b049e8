"""Read the reports of ``kata-analyze`` and ``lz-analyze`` (one line of ``info move ...``
groups each) into `Analysis` values: the inverse of `tengen.gtp.analyze`'s formats.

Values are for the player to move. Leela Zero's win rates and priors are in 0-10000 and it
has no score; KataGo's are floats, with ``rootInfo`` and ``ownership`` (for the player to move,
turned into Black's here) when asked for. No I/O.
"""

from __future__ import annotations

import math

from tengen.ai.analysis import Analysis, MoveInfo
from tengen.core.color import Color
from tengen.core.coords import Move, from_gtp

_FIELDS = ("info", "rootInfo", "ownership", "ownershipStdev", "movesOwnership")


class BadReport(ValueError):
    """A report line that cannot be read."""


def parse_report(line: str, to_play: Color, width: int, height: int, *, kata: bool) -> Analysis:
    """One report line. Raises BadReport naming what cannot be read."""
    words = line.split()
    groups: list[tuple[str, list[str]]] = []
    for word in words:
        if word in _FIELDS:
            groups.append((word, []))
        elif not groups:
            raise BadReport(f"report starts with {word!r}, not 'info'")
        else:
            groups[-1][1].append(word)
    moves: list[MoveInfo] = []
    root: dict[str, str] = {}
    ownership: tuple[float, ...] = ()
    for kind, values in groups:
        if kind == "info":
            moves.append(_move(values, width, height, kata))
        elif kind == "rootInfo":
            root = dict(zip(values[::2], values[1::2], strict=False))
        elif kind == "ownership":
            sign = 1.0 if to_play is Color.BLACK else -1.0
            ownership = tuple(sign * _number(v, "ownership") for v in values)
            if len(ownership) != width * height:
                raise BadReport(f"ownership has {len(ownership)} values, not {width * height}")
    moves.sort(key=lambda m: -m.visits)
    visits = _int(root["visits"], "visits") if "visits" in root else sum(m.visits for m in moves)
    best = moves[0] if moves else None
    winrate = _number(root["winrate"], "winrate") if "winrate" in root else None
    lead = _number(root["scoreLead"], "scoreLead") if "scoreLead" in root else None
    return Analysis(
        to_play=to_play,
        visits=visits,
        winrate=winrate if winrate is not None else (best.winrate if best else 0.5),
        score_lead=lead if lead is not None else (best.score_lead if best else 0.0),
        moves=tuple(moves),
        ownership=ownership,
        width=width,
        height=height,
    )


def _move(values: list[str], width: int, height: int, kata: bool) -> MoveInfo:
    """One ``info`` group: ``move X visits N winrate W ... pv A B C``."""
    fields: dict[str, str] = {}
    pv: list[Move] = []
    i = 0
    while i < len(values):
        key = values[i]
        if key == "pv":
            pv = [_vertex(v, width, height) for v in values[i + 1 :]]
            break
        if i + 1 >= len(values):
            raise BadReport(f"info field {key!r} has no value")
        fields[key] = values[i + 1]
        i += 2
    if "move" not in fields or "visits" not in fields:
        raise BadReport("an info group without move or visits")
    scale = 1.0 if kata else 10000.0
    move = _vertex(fields["move"], width, height)
    return MoveInfo(
        move=move,
        visits=_int(fields["visits"], "visits"),
        winrate=_number(fields.get("winrate", "0"), "winrate") / scale,
        prior=_number(fields.get("prior", "0"), "prior") / scale,
        pv=tuple(pv) or (move,),
        score_lead=_number(fields.get("scoreLead", fields.get("scoreMean", "0")), "scoreLead"),
    )


def _vertex(text: str, width: int, height: int) -> Move:
    try:
        return from_gtp(text, width, height)
    except ValueError as err:
        raise BadReport(str(err)) from None


def _number(text: str, key: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise BadReport(f"{key} is not a number: {text!r}")
    return value


def _int(text: str, key: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise BadReport(f"{key} is not a whole number: {text!r}") from None
