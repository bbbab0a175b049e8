"""KataGo's JSON analysis protocol, both ways: queries and results as JSON objects.

`query` and `read_result` are what tengen sends to ``katago analysis`` and reads back;
`read_query` and `result` are the other side, for `tengen analysis` (the built-in search as
an engine for KaTrain and other tools). Field names and meanings follow KataGo's
docs/Analysis_Engine.md. Results are reported for Black (``reportAnalysisWinratesAs`` BLACK,
as KataGo's example config and KaTrain ask), for White, or for the side to move. No I/O.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeGuard

from tengen.ai.analysis import Analysis, MoveInfo
from tengen.analysis.position import Position
from tengen.core.color import Color
from tengen.core.coords import Move, Point, from_gtp, to_gtp
from tengen.core.rules import Ruleset

PERSPECTIVES = ("BLACK", "WHITE", "SIDETOMOVE")
MAX_SIZE = 25  # the GTP letters end at Z (no I)
MAX_VISITS = 10_000_000
DEFAULT_VISITS = 500  # KataGo's example analysis config
PV_LENGTH = 15

# Fields of a query (docs/Analysis_Engine.md): those read here, and those accepted and not
# used, which get a warning as KataGo gives for what it cannot honour.
READ = frozenset((
    "id", "moves", "initialStones", "initialPlayer", "rules", "komi", "boardXSize",
    "boardYSize", "analyzeTurns", "maxVisits", "includeOwnership", "includePolicy",
    "reportDuringSearchEvery", "overrideSettings", "priority", "priorities", "analysisPVLen",
    "whiteHandicapBonus",
))  # fmt: skip
UNUSED = frozenset((
    "rootPolicyTemperature", "rootFpuReductionMax", "includeOwnershipStdev",
    "includeMovesOwnership", "includeMovesOwnershipStdev", "includePVVisits",
    "includeNoResultValue", "avoidMoves", "allowMoves",
))  # fmt: skip
# overrideSettings read here; others are ignored with a warning.
SETTINGS = frozenset(("reportAnalysisWinratesAs", "maxVisits", "maxTime"))


class QueryError(ValueError):
    """A query tengen cannot run; `field` names the culprit when there is one."""

    def __init__(self, message: str, field: str | None = None) -> None:
        self.field = field
        super().__init__(message)


@dataclass(frozen=True)
class Query:
    """One analysis query as read: the whole line of moves and the turns to analyse."""

    id: str
    position: Position
    turns: tuple[int, ...]
    visits: int
    seconds: float | None = None
    ownership: bool = False
    policy: bool = False
    report_every: float | None = None
    perspective: str = "BLACK"
    priorities: tuple[int, ...] = ()
    pv_length: int = PV_LENGTH
    warnings: tuple[tuple[str, str], ...] = field(default=())  # (field, message)


# -- tengen asking KataGo --------------------------------------------------------------------


def query(
    id: str,
    position: Position,
    turns: Sequence[int],
    visits: int,
    *,
    ownership: bool = True,
    report_every: float | None = None,
) -> dict[str, Any]:
    """The query for `turns` of `position`'s line; results for the side to move."""
    h = position.height
    q: dict[str, Any] = {
        "id": id,
        "moves": [[c.letter, to_gtp(m, h)] for c, m in position.moves],
        "initialStones": [[c.letter, to_gtp(p, h)] for c, p in position.initial],
        "initialPlayer": position.initial_player.letter,
        "rules": _rules_object(position.ruleset),
        "komi": position.ruleset.komi,
        "boardXSize": position.width,
        "boardYSize": h,
        "analyzeTurns": list(turns),
        "maxVisits": visits,
        "includeOwnership": ownership,
        "overrideSettings": {"reportAnalysisWinratesAs": "SIDETOMOVE"},
    }
    if report_every is not None:
        q["reportDuringSearchEvery"] = report_every
    return q


def read_result(data: dict[str, Any], position: Position) -> tuple[int, Analysis]:
    """The turn and analysis of a result to `query` (values for the side to move).

    Raises QueryError for an error response or one missing its fields."""
    if "error" in data:
        raise QueryError(str(data["error"]), data.get("field"))
    try:
        turn = int(data["turnNumber"])
        root = data["rootInfo"]
        to_play = position.prefix(turn).to_play
        w, h = position.width, position.height
        moves = tuple(
            MoveInfo(
                move=_vertex(m["move"], w, h),
                visits=int(m["visits"]),
                winrate=float(m["winrate"]),
                prior=float(m.get("prior", 0.0)),
                pv=tuple(_vertex(v, w, h) for v in m.get("pv", [])) or (_vertex(m["move"], w, h),),
                score_lead=float(m.get("scoreLead", 0.0)),
            )
            for m in sorted(data.get("moveInfos", []), key=lambda m: int(m.get("order", 0)))
        )
        sign = 1.0 if to_play is Color.BLACK else -1.0
        ownership = tuple(sign * float(v) for v in data.get("ownership", []))
        return turn, Analysis(
            to_play=to_play,
            visits=int(root["visits"]),
            winrate=float(root["winrate"]),
            score_lead=float(root["scoreLead"]),
            moves=moves,
            ownership=ownership,
            width=w,
            height=h,
        )
    except (KeyError, TypeError, ValueError) as err:
        raise QueryError(f"unreadable result: {type(err).__name__}: {err}") from None


# -- tengen answering KaTrain ----------------------------------------------------------------


def read_query(data: Any) -> Query:
    """Check and read one query object. Raises QueryError naming the bad field."""
    if not isinstance(data, dict):
        raise QueryError("a query must be a JSON object")
    ident = data.get("id")
    if not isinstance(ident, str):
        raise QueryError("'id' must be a string", "id")
    warnings: list[tuple[str, str]] = []
    for key in data:
        if key in UNUSED:
            warnings.append((key, f"{key} is not supported by tengen and was ignored"))
        elif key not in READ and key != "action":
            warnings.append((key, f"unknown field {key!r} ignored"))
    width, height = _size(data, "boardXSize"), _size(data, "boardYSize")
    ruleset = _ruleset(data)
    initial = tuple(
        (c, p) for c, p in _moves(data, "initialStones", width, height) if p is not None
    )
    moves = tuple(_moves(data, "moves", width, height, required=True))
    first = data.get("initialPlayer")
    if first is None:
        player = moves[0][0] if moves else Color.BLACK
    else:
        player = _color(first, "initialPlayer")
    position = Position(width, height, ruleset, initial, moves, player)
    turns = data.get("analyzeTurns", [len(moves)])
    if not isinstance(turns, list) or not all(_is_int(t) and 0 <= t <= len(moves) for t in turns):
        raise QueryError(f"analyzeTurns must be a list of turns from 0 to {len(moves)}",
                         "analyzeTurns")  # fmt: skip
    settings = data.get("overrideSettings", {})
    if not isinstance(settings, dict):
        raise QueryError("overrideSettings must be an object", "overrideSettings")
    for key in settings:
        if key not in SETTINGS:
            warnings.append(("overrideSettings", f"setting {key!r} is not used by tengen"))
    visits = settings.get("maxVisits", data.get("maxVisits", DEFAULT_VISITS))
    if not (_is_int(visits) and 1 <= visits <= MAX_VISITS):
        raise QueryError(f"maxVisits must be a whole number from 1 to {MAX_VISITS}", "maxVisits")
    seconds = settings.get("maxTime")
    if seconds is not None and not (_is_number(seconds) and seconds > 0):
        raise QueryError("maxTime must be a positive number of seconds", "overrideSettings")
    perspective = str(settings.get("reportAnalysisWinratesAs", "BLACK")).upper()
    if perspective not in PERSPECTIVES:
        raise QueryError(f"reportAnalysisWinratesAs must be one of {', '.join(PERSPECTIVES)}",
                         "overrideSettings")  # fmt: skip
    every = data.get("reportDuringSearchEvery")
    if every is not None and not (_is_number(every) and every > 0):
        raise QueryError(
            "reportDuringSearchEvery must be a positive number", "reportDuringSearchEvery"
        )
    priorities = data.get("priorities", [data.get("priority", 0)] * len(turns))
    if not (isinstance(priorities, list) and len(priorities) == len(turns)
            and all(_is_int(p) for p in priorities)):  # fmt: skip
        raise QueryError("priorities must be whole numbers, one per turn", "priorities")
    pv_length = data.get("analysisPVLen", PV_LENGTH)
    if not (_is_int(pv_length) and pv_length >= 0):
        raise QueryError("analysisPVLen must be a whole number", "analysisPVLen")
    return Query(
        id=ident,
        position=position,
        turns=tuple(turns),
        visits=int(visits),
        seconds=None if seconds is None else float(seconds),
        ownership=_flag(data, "includeOwnership"),
        policy=_flag(data, "includePolicy"),
        report_every=None if every is None else float(every),
        perspective=perspective,
        priorities=tuple(priorities),
        pv_length=pv_length,
        warnings=tuple(warnings),
    )


def result(
    q: Query,
    turn: int,
    analysis: Analysis,
    *,
    during: bool,
    policy: Sequence[float] | None = None,
) -> dict[str, Any]:
    """The result object of `turn` of query `q`; `policy` is included when asked for."""
    to_play = analysis.to_play
    viewer = {"BLACK": Color.BLACK, "WHITE": Color.WHITE}.get(q.perspective, to_play)
    flip = viewer is not to_play
    h = analysis.height

    def rate(value: float) -> float:
        return 1.0 - value if flip else value

    def lead(value: float) -> float:
        return -value if flip else value

    infos = []
    for order, m in enumerate(m for m in analysis.moves if m.visits > 0):
        winrate = rate(m.winrate)
        infos.append({
            "move": to_gtp(m.move, h),
            "visits": m.visits,
            "edgeVisits": m.visits,
            "winrate": winrate,
            "scoreLead": lead(m.score_lead),
            "scoreMean": lead(m.score_lead),
            "prior": m.prior,
            "lcb": _lcb(winrate, m.visits),
            "utility": 2 * winrate - 1,
            "order": order,
            "pv": [to_gtp(p, h) for p in m.pv[: q.pv_length + 1]],
        })  # fmt: skip
    root_rate = rate(analysis.winrate)
    out: dict[str, Any] = {
        "id": q.id,
        "isDuringSearch": during,
        "turnNumber": turn,
        "moveInfos": infos,
        "rootInfo": {
            "currentPlayer": to_play.letter,
            "visits": analysis.visits,
            "winrate": root_rate,
            "scoreLead": lead(analysis.score_lead),
            "scoreSelfplay": lead(analysis.score_lead),
            "utility": 2 * root_rate - 1,
        },
    }
    if q.ownership and analysis.ownership:
        sign = -1.0 if viewer is Color.WHITE else 1.0
        out["ownership"] = [round(sign * v, 6) for v in analysis.ownership]
    if q.policy and policy is not None:
        out["policy"] = list(policy)
    return out


def policy_of(analysis: Analysis, legal: Sequence[Point]) -> list[float]:
    """The search's priors as KataGo's ``policy`` array: row by row, then the pass; -1 for
    illegal points."""
    w, h = analysis.width, analysis.height
    out = [-1.0] * (w * h + 1)
    for p in legal:
        out[p.row * w + p.col] = 0.0
    out[-1] = 0.0
    for m in analysis.moves:
        index = w * h if m.move is None else m.move.row * w + m.move.col
        if out[index] >= 0:
            out[index] = m.prior
    total = sum(v for v in out if v > 0)
    return [v / total if v > 0 and total else v for v in out]


def error(message: str, id: str | None = None, field: str | None = None) -> dict[str, Any]:
    """An error response, with the query's id and the field when known."""
    out: dict[str, Any] = {"error": message}
    if field is not None:
        out["field"] = field
    if id is not None:
        out["id"] = id
    return out


# -- helpers ---------------------------------------------------------------------------------


def _rules_object(ruleset: Ruleset) -> dict[str, Any]:
    """KataGo's rule object for `ruleset`, without komi (a field of its own)."""
    rules: dict[str, Any] = json.loads(ruleset.to_json())
    rules.pop("komi", None)
    return rules


def _lcb(winrate: float, visits: int) -> float:
    """A lower confidence bound of the win rate (wider with few visits)."""
    return winrate - 1.96 * math.sqrt(max(winrate * (1 - winrate), 0.0) / max(visits, 1))


def _size(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not (_is_int(value) and 2 <= value <= MAX_SIZE):
        raise QueryError(f"{key} must be a whole number from 2 to {MAX_SIZE}", key)
    return int(value)


def _ruleset(data: dict[str, Any]) -> Ruleset:
    rules = data.get("rules")
    try:
        if isinstance(rules, dict):
            ruleset = Ruleset.from_json(rules)
        elif isinstance(rules, str):
            ruleset = Ruleset.parse(rules)
        else:
            raise ValueError("rules must be a name or a rule object")
    except ValueError as err:
        raise QueryError(str(err), "rules") from None
    if "whiteHandicapBonus" in data:
        try:
            bonus = Ruleset.from_json({"whiteHandicapBonus": data["whiteHandicapBonus"]})
        except ValueError as err:
            raise QueryError(str(err), "whiteHandicapBonus") from None
        ruleset = replace(ruleset, handicap_bonus=bonus.handicap_bonus)
    komi = data.get("komi")
    if komi is not None:
        if not (_is_number(komi) and -400 <= komi <= 400 and (2 * komi) == int(2 * komi)):
            raise QueryError("komi must be a whole or half number from -400 to 400", "komi")
        ruleset = ruleset.with_komi(float(komi))
    return ruleset


def _moves(
    data: dict[str, Any], key: str, width: int, height: int, *, required: bool = False
) -> list[tuple[Color, Move]]:
    raw = data.get(key)
    if raw is None and not required:
        return []
    if not isinstance(raw, list):
        raise QueryError(f"{key} must be a list of [player, location] pairs", key)
    out: list[tuple[Color, Move]] = []
    for i, pair in enumerate(raw):
        if not (
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)
        ):
            raise QueryError(f"{key}[{i}] must be a [player, location] pair of strings", key)
        try:
            out.append((_color(pair[0], key), _vertex(pair[1], width, height)))
        except QueryError as err:
            raise QueryError(f"{key}[{i}]: {err}", key) from None
    return out


def _vertex(text: str, width: int, height: int) -> Move:
    """A GTP vertex, ``pass``, or ``(x,y)`` from the top left."""
    t = text.strip()
    try:
        if t.startswith("(") and t.endswith(")"):
            x, y = (int(v) for v in t[1:-1].split(","))
            if not (0 <= x < width and 0 <= y < height):
                raise ValueError(f"{text!r} is off the {width}x{height} board")
            return Point(x, y)
        return from_gtp(t, width, height)
    except ValueError as err:
        raise QueryError(f"bad location: {err}") from None


def _color(value: Any, key: str) -> Color:
    if value in ("B", "b"):
        return Color.BLACK
    if value in ("W", "w"):
        return Color.WHITE
    raise QueryError(f"player must be 'B' or 'W', not {value!r}", key)


def _flag(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise QueryError(f"{key} must be true or false", key)
    return value


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
