"""Live analysis over GTP: the arguments of ``lz-analyze``/``kata-analyze`` and their lines.

Leela Zero's format (``lz-analyze``, read by Lizzie and Sabaki) gives win rates and priors as
integers in 0-10000; KataGo's (``kata-analyze``) gives floats in [0, 1] and can add the
ownership of every point. Both are from the point of view of the player to move, one line of
``info move ... pv ...`` groups per report. A line that would be empty is not written.
No I/O here: `tengen.gtp.engine` streams the lines and the GTP loop stops them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tengen.core.color import Color
from tengen.core.coords import to_gtp
from tengen.gtp.arguments import whole
from tengen.gtp.protocol import GtpError
from tengen.gtp.search import Analysis, MoveInfo

DEFAULT_INTERVAL = 1.0  # seconds between reports when the controller gives none
_Z = 1.96  # the lower confidence bound (lcb) is Wilson's at 95%


@dataclass(frozen=True)
class AnalyzeRequest:
    """What the controller asked for: the side to analyse for, how often to report, what."""

    color: Color | None  # None: the player to move
    interval: float  # seconds between reports; 0 reports nothing until the end
    max_moves: int | None = None
    ownership: bool = False  # kata only
    root_info: bool = False  # kata only


def parse_request(args: Sequence[str], *, kata: bool) -> AnalyzeRequest:
    """Read ``[color] [interval] [key value]...`` (interval in centiseconds, as both engines).

    Keys: ``interval``, ``maxmoves``, ``minmoves`` (accepted; every searched move is shown
    anyway) and, for ``kata-analyze``, ``ownership`` and ``rootInfo`` (true/false).
    Raises GtpError naming the argument it cannot read.
    """
    words = list(args)
    color: Color | None = None
    interval = DEFAULT_INTERVAL
    if words and not _is_number(words[0]) and words[0].lower() not in _KEYS:
        try:
            color = Color.parse(words.pop(0))
        except ValueError:
            raise GtpError(f"invalid color {args[0]!r}") from None
    if words and _is_number(words[0]):
        interval = _centiseconds(words.pop(0))
    options: dict[str, str] = {}
    while words:
        key = words.pop(0)
        known = _KEYS if kata else _LZ_KEYS
        if key.lower() not in known:
            raise GtpError(f"unknown analyze option {key!r}")
        if not words:
            raise GtpError(f"analyze option {key!r} needs a value")
        options[key.lower()] = words.pop(0)
    if "interval" in options:
        interval = _centiseconds(options["interval"])
    max_moves = _count(options["maxmoves"], "maxmoves") if "maxmoves" in options else None
    if "minmoves" in options:
        _count(options["minmoves"], "minmoves")
    return AnalyzeRequest(
        color,
        interval,
        max_moves,
        ownership=_flag(options.get("ownership", "false"), "ownership"),
        root_info=_flag(options.get("rootinfo", "false"), "rootInfo"),
    )


_LZ_KEYS = ("interval", "maxmoves", "minmoves")
_KEYS = (*_LZ_KEYS, "ownership", "rootinfo")


def lcb(winrate: float, visits: int) -> float:
    """A lower bound of the win rate after `visits` playouts (Wilson's score interval, 95%)."""
    if visits <= 0:
        return 0.0
    n, z2 = visits, _Z * _Z
    centre = winrate + z2 / (2 * n)
    spread = _Z * math.sqrt(max(winrate * (1 - winrate), 0.0) / n + z2 / (4 * n * n))
    return max(0.0, (centre - spread) / (1 + z2 / n))


def lz_line(analysis: Analysis, request: AnalyzeRequest) -> str:
    """One report in Leela Zero's format (win rates and priors x10000, rounded)."""
    parts = []
    for order, info in enumerate(_shown(analysis, request)):
        parts.append(
            f"info move {_vertex(info, analysis)} visits {info.visits}"
            f" winrate {_permyriad(info.winrate)} prior {_permyriad(info.prior)}"
            f" lcb {_permyriad(lcb(info.winrate, info.visits))} order {order}"
            f" pv {_pv(info, analysis)}"
        )
    return " ".join(parts)


def kata_line(analysis: Analysis, request: AnalyzeRequest) -> str:
    """One report in KataGo's format: floats, then ``rootInfo`` and ``ownership`` if asked.

    ``scoreMean`` repeats ``scoreLead``, as KataGo does for the tools that read the older
    name. Ownership is for the player to move, as KataGo reports it (`Analysis` has Black's).
    """
    parts = []
    for order, info in enumerate(_shown(analysis, request)):
        parts.append(
            f"info move {_vertex(info, analysis)} visits {info.visits}"
            f" winrate {info.winrate:.6f} scoreMean {info.score_lead:.3f}"
            f" scoreLead {info.score_lead:.3f} prior {info.prior:.6f}"
            f" lcb {lcb(info.winrate, info.visits):.6f} order {order} pv {_pv(info, analysis)}"
        )
    if not parts:
        return ""
    if request.root_info:
        parts.append(
            f"rootInfo visits {analysis.visits} winrate {analysis.winrate:.6f}"
            f" scoreLead {analysis.score_lead:.3f}"
        )
    if request.ownership:
        sign = 1.0 if analysis.to_play is Color.BLACK else -1.0
        parts.append("ownership " + " ".join(f"{sign * v:.4f}" for v in analysis.ownership))
    return " ".join(parts)


def _shown(analysis: Analysis, request: AnalyzeRequest) -> list[MoveInfo]:
    """The searched moves, best first, at most `max_moves` of them."""
    moves = [m for m in analysis.moves if m.visits > 0]
    return moves if request.max_moves is None else moves[: request.max_moves]


def _vertex(info: MoveInfo, analysis: Analysis) -> str:
    return to_gtp(info.move, analysis.height)


def _pv(info: MoveInfo, analysis: Analysis) -> str:
    return " ".join(to_gtp(m, analysis.height) for m in info.pv or (info.move,))


def _permyriad(value: float) -> int:
    return min(10000, max(0, round(value * 10000)))


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _centiseconds(text: str) -> float:
    if not _is_number(text):
        raise GtpError(f"invalid interval {text[:40]!r} (centiseconds)")
    return whole(text, "interval (centiseconds)") / 100


def _count(text: str, key: str) -> int:
    if not _is_number(text):
        raise GtpError(f"{key} must be a whole number, not {text[:40]!r}")
    return whole(text, key)


def _flag(text: str, key: str) -> bool:
    if text.lower() not in ("true", "false"):
        raise GtpError(f"{key} must be true or false, not {text!r}")
    return text.lower() == "true"
