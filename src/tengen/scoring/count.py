"""Count a final position under a `Ruleset`: area, territory, Tromp-Taylor, group tax, komi.

The caller says which stones are dead and which are in seki (by hand, `scoring.deadstones`,
or the estimate of `scoring.life`); this module only counts. Whole chains are marked from any
one of their stones. The rules followed, per `Ruleset` field:

* ``scoring=AREA`` (Chinese, AGA, New Zealand, Ing, Tromp-Taylor, stone scoring): live stones
  plus empty points bordered by one colour only, once dead stones are taken off; the points of
  dead stones count like the empty points around them.
* ``scoring=TERRITORY`` (Japanese, Korean): empty points bordered by one colour only, plus the
  points of the dead stones inside, plus prisoners: stones captured during the game and the dead
  stones taken off at the end. Live stones do not count.
* Points bordered by both colours (dame, shared liberties of a seki) count for nobody. Ing's
  rules share such seki points half and half; that adds the same to both totals, so the
  margin is the same. Ing's "Black wins a tie" is not modelled: `Ruleset` has no field for it.
* Tromp-Taylor counts the board exactly as it stands ("a player's score is the number of points
  of her color, plus the number of empty points that reach only her color"), so dead stones are
  refused with ValueError rather than silently ignored: capture them by playing on.
* ``tax`` follows KataGo's documented rules (``rules.html``; ``Board::
  calculateIndependentLifeArea``): ``NONE`` counts every region; ``SEKI`` gives no points for
  the eyes of groups in seki (Japanese and Korean rules: "no territory in seki"; live stones in
  seki still count under area scoring); ``ALL`` does the same and also takes 2 points from a
  player for each of their independent living groups, a group being a connected set of their
  stones and the points counted for them, and a group in seki (marked so, touching a neutral
  point or holding a chain in atari, as KataGo decides it) paying no tax. Unlike KataGo, the
  seki that loses its eyes' points is the one the caller marks: games under territory rules
  often end with dame open, which KataGo's "touches a neutral point" test would take for seki.
* Komi goes to White. ``handicap_bonus`` gives White a point per handicap stone (``N``,
  Chinese rules), one per stone after the first (``N-1``, AGA rules) or none (``0``: Japanese,
  Korean, New Zealand, Tromp-Taylor); as in KataGo it applies whatever the scoring, and a
  single "handicap" stone is an ordinary first move, so it gets none.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import Enum

from tengen.core.board import Board
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.core.game import Game
from tengen.core.rules import TROMP_TAYLOR, HandicapBonus, Ruleset, Scoring, Tax
from tengen.scoring.regions import (
    adjacent,
    contents,
    empty_regions,
    point_name,
    whole_chains,
    without,
)
from tengen.scoring.result import Result, format_points


class PointStatus(Enum):
    """What one point is at the end of the game, and so whom it counts for."""

    BLACK_STONE = "black stone"
    WHITE_STONE = "white stone"
    BLACK_TERRITORY = "black territory"
    WHITE_TERRITORY = "white territory"
    DAME = "dame"
    SEKI = "seki"  # an empty point of a seki, counted for nobody
    DEAD_BLACK = "dead black stone"  # its point counts like the region around it (White's)
    DEAD_WHITE = "dead white stone"


_STONE = {Color.BLACK: PointStatus.BLACK_STONE, Color.WHITE: PointStatus.WHITE_STONE}
_TERRITORY = {Color.BLACK: PointStatus.BLACK_TERRITORY, Color.WHITE: PointStatus.WHITE_TERRITORY}
_DEAD = {Color.BLACK: PointStatus.DEAD_BLACK, Color.WHITE: PointStatus.DEAD_WHITE}
_LABELS = {"handicap_compensation": "handicap compensation", "tax": "group tax"}


@dataclass(frozen=True)
class Score:
    """A counted position: the result, both totals, and every point with why it counts.

    `details` holds the parts of each total under keys ``black_<part>`` and ``white_<part>``
    (stones, territory, prisoners, dead, tax, komi, handicap_compensation, as the ruleset
    counts them); each side's parts add up to its total.
    """

    result: Result
    black: float
    white: float
    status: dict[Point, PointStatus]
    why: dict[Point, str]
    details: dict[str, float]
    ruleset: Ruleset

    def explain(self) -> str:
        """A few lines a player can read: the rules, each side's sum, the result, what is left."""
        r = self.ruleset
        lines = [f"Rules: {r.name} ({r.scoring.value} scoring), komi {format_points(r.komi)}"]
        for color, total in ((Color.BLACK, self.black), (Color.WHITE, self.white)):
            side = color.name.lower()
            text = ""
            for key, value in self.details.items():
                part = key.removeprefix(side + "_")
                if part != key and (value or part in ("stones", "territory")):
                    sign = "-" if value < 0 else "+"
                    text += f" {sign} {format_points(abs(value))} {_LABELS.get(part, part)}"
            lines.append(f"{color.name.title()}: {text[3:]} = {format_points(total)}")
        lines.append(_describe(self.result))
        dame = sum(1 for v in self.status.values() if v is PointStatus.DAME)
        seki = sum(1 for v in self.status.values() if v is PointStatus.SEKI)
        if dame or seki:
            lines.append(f"Counted for nobody: {dame} dame, {seki} in seki")
        return "\n".join(lines)


def score_position(
    board: Board,
    ruleset: Ruleset,
    dead: Iterable[Point] = (),
    *,
    captures: tuple[int, int] = (0, 0),
    handicap: int = 0,
    seki: Iterable[Point] = (),
) -> Score:
    """Count `board` under `ruleset` with the chains on `dead` taken off and those on `seki`
    in seki. `captures` is (stones Black captured, stones White captured) during the game.

    Raises ValueError naming the point for a dead or seki point that is empty, off the board,
    or marked both ways; for dead stones under Tromp-Taylor; and for negative counts.
    """
    dead_stones = whole_chains(board, dead, "dead")
    seki_stones = whole_chains(board, seki, "seki")
    if both := dead_stones & seki_stones:
        first = min(both, key=lambda p: (p.row, p.col))
        raise ValueError(f"the chain at {point_name(board, first)} is marked dead and in seki")
    if dead_stones and ruleset.name == TROMP_TAYLOR.name:
        raise ValueError(
            "Tromp-Taylor counts the board as it stands: capture dead stones by playing on"
        )
    if min(*captures, handicap) < 0:
        raise ValueError(f"captures {captures} and handicap {handicap} must not be negative")
    status, why, counted = _classify(board, ruleset, dead_stones, seki_stones)
    cleared = without(board, dead_stones) if ruleset.tax is Tax.ALL else board
    details: dict[str, float] = {}
    for color in Color:
        side = color.name.lower()
        if ruleset.scoring is Scoring.AREA:
            details[f"{side}_stones"] = sum(1 for s in status.values() if s is _STONE[color])
        details[f"{side}_territory"] = sum(1 for c in counted.values() if c is color)
        if ruleset.scoring is Scoring.TERRITORY:
            details[f"{side}_prisoners"] = captures[0 if color is Color.BLACK else 1]
            opponent_dead = _DEAD[color.opponent]
            details[f"{side}_dead"] = sum(1 for s in status.values() if s is opponent_dead)
        if ruleset.tax is Tax.ALL:
            groups = _taxed_groups(cleared, color, status, counted, seki_stones)
            details[f"{side}_tax"] = -2 * groups
    details["white_komi"] = ruleset.komi
    details["white_handicap_compensation"] = handicap_compensation(ruleset.handicap_bonus, handicap)
    black = sum(v for k, v in details.items() if k.startswith("black"))
    white = sum(v for k, v in details.items() if k.startswith("white"))
    return Score(Result.from_totals(black, white), black, white, status, why, details, ruleset)


def score_game(game: Game, dead: Iterable[Point] = (), seki: Iterable[Point] = ()) -> Score:
    """Count a game's board with its ruleset, handicap and captures (see `score_position`).

    After a resignation the result is the resignation; the count is still given.
    """
    board = game.board
    score = score_position(
        board,
        game.ruleset,
        dead,
        captures=(board.captures(Color.BLACK), board.captures(Color.WHITE)),
        handicap=game.handicap_stones,
        seki=seki,
    )
    if game.winner is None:
        return score
    return replace(score, result=Result(game.winner, None, "resign"))


def handicap_compensation(bonus: HandicapBonus, handicap: int) -> int:
    """Points White gets for `handicap` black stones: N, N-1 or 0 (none below two stones)."""
    if handicap < 2 or bonus is HandicapBonus.ZERO:
        return 0
    return handicap if bonus is HandicapBonus.N else handicap - 1


def _classify(
    board: Board, ruleset: Ruleset, dead: frozenset[Point], seki: frozenset[Point]
) -> tuple[dict[Point, PointStatus], dict[Point, str], dict[Point, Color]]:
    """Each point's status and reason, and the colour each empty or dead-stone point counts for."""
    status: dict[Point, PointStatus] = {}
    why: dict[Point, str] = {}
    counted: dict[Point, Color] = {}
    cells = contents(board)
    for point, stone in cells.items():
        if stone is not None and point not in dead:
            status[point] = _STONE[stone]
            why[point] = f"{stone.name.lower()} stone" + (" in seki" if point in seki else "")
    for region in empty_regions(board, dead):
        owner = region.owner
        in_seki = not region.border.isdisjoint(seki)
        if owner is None:
            kind = PointStatus.SEKI if in_seki else PointStatus.DAME
            reason = (
                "empty point of a seki"
                if in_seki
                else "bordered by both colours"
                if region.colors
                else "bordered by no stone"
            )
        elif in_seki and ruleset.tax is not Tax.NONE:
            kind = PointStatus.SEKI
            reason = f"eye of a {owner.name.lower()} group in seki: no points in seki"
        else:
            kind = _TERRITORY[owner]
            reason = f"bordered by {owner.name.lower()} only" + (", in seki" if in_seki else "")
        for point in region.points:
            stone = cells[point]
            status[point] = kind if stone is None else _DEAD[stone]
            why[point] = reason if stone is None else f"dead {stone.name.lower()} stone; {reason}"
            if kind is not PointStatus.SEKI and owner is not None:
                counted[point] = owner
    return {p: status[p] for p in cells}, {p: why[p] for p in cells}, counted


def _taxed_groups(
    board: Board,
    color: Color,
    status: dict[Point, PointStatus],
    counted: dict[Point, Color],
    seki: frozenset[Point],
) -> int:
    """How many independent living groups `color` has on `board` (dead stones taken off):
    connected sets of its live stones and counted points that hold no seki stone, touch no
    neutral point and hold no chain in atari."""
    own = {p for p, s in status.items() if s is _STONE[color]}
    own |= {p for p, c in counted.items() if c is color}
    neutral = {PointStatus.DAME, PointStatus.SEKI}
    seen: set[Point] = set()
    groups = 0
    for start in own:
        if start in seen:
            continue
        seen.add(start)
        stack, independent = [start], True
        while stack:
            point = stack.pop()
            if point in seki or (
                status[point] is _STONE[color] and board.liberty_count(point) == 1
            ):
                independent = False
            for q in adjacent(point, board.width, board.height):
                if status[q] in neutral:
                    independent = False
                elif q in own and q not in seen:
                    seen.add(q)
                    stack.append(q)
        groups += independent
    return groups


def _describe(result: Result) -> str:
    """One line for the result, with its SGF form."""
    if result.reason == "score" and result.winner is not None:
        return (
            f"{result.winner.name.title()} wins by {format_points(result.margin or 0)} ({result})"
        )
    if result.reason == "resign" and result.winner is not None:
        return f"{result.winner.name.title()} wins by resignation ({result})"
    return f"Draw ({result})" if result.reason == "draw" else f"Result: {result}"
