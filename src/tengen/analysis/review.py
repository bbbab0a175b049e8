"""Review a whole game: every position of its main line analysed, each move's cost in points
and win rate, the results written into the record as other programs read them.

Each move node gets ``SBKV`` (Black's win rate in percent after it, as Sabaki writes it),
``SBKS`` (Black's score lead after it) and, in its comment, the engine's better move with its
line and the points lost. Points lost are the drop, for the player who moved, from the value
before the move to the value after it; a position's value is the root's, averaged over its
whole search.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from tengen.ai.analysis import Analysis
from tengen.analysis.engine import Engine, EngineError
from tengen.analysis.position import Position
from tengen.core.color import Color
from tengen.core.coords import Move, to_gtp
from tengen.sgf import Node

WINRATE = "SBKV"  # Black's win rate in percent (Sabaki's property)
LEAD = "SBKS"  # Black's score lead in points
MARK = "tengen analysis:"  # starts the comment block written here (replaced on a re-run)
SHOWN = 3  # mistakes printed per player
THRESHOLD = 1.5  # points lost below which a move is not called a mistake (KaTrain's "inaccuracy")


@dataclass(frozen=True)
class MoveReview:
    """One move of the line: what it cost and what the engine preferred."""

    number: int  # from 1
    color: Color
    move: Move
    black_winrate: float  # after the move, in [0, 1]
    black_lead: float  # after the move, in points
    points_lost: float  # for the player who moved; negative when the move gained
    winrate_lost: float
    best: Move | None  # the engine's choice before the move, when it was another
    best_line: tuple[Move, ...]


@dataclass(frozen=True)
class GameReview:
    """The whole line's review: the start position's value and every move's."""

    engine: str
    visits: int
    start: tuple[float, float]  # Black's win rate and score lead before the first move
    moves: tuple[MoveReview, ...]

    def mistakes(self, color: Color, count: int = SHOWN) -> list[MoveReview]:
        """`color`'s moves losing at least `THRESHOLD` points, the costliest first."""
        own = [m for m in self.moves if m.color is color and m.points_lost >= THRESHOLD]
        return sorted(own, key=lambda m: -m.points_lost)[:count]


def black_value(analysis: Analysis) -> tuple[float, float]:
    """Black's win rate and score lead in the position: the root's, averaged over the whole
    search (smoother than the best move's, as KataGo's docs say; KaTrain reads these too)."""
    if analysis.to_play is Color.BLACK:
        return analysis.winrate, analysis.score_lead
    return 1.0 - analysis.winrate, -analysis.score_lead


def review(
    engine: Engine,
    position: Position,
    visits: int,
    *,
    stop: threading.Event | None = None,
    done: Callable[[int], None] | None = None,
) -> GameReview:
    """Analyse every position of `position`'s line with `visits` each; `done` is called with
    the count of positions finished. Raises EngineError (also when stopped early)."""
    n = len(position.moves)
    results: dict[int, Analysis] = {}
    for turn, analysis in engine.analyse_line(position, range(n + 1), visits, stop=stop):
        results[turn] = analysis
        if done is not None:
            done(len(results))
    if len(results) < n + 1:
        raise EngineError(f"{engine.name} stopped after {len(results)} of {n + 1} positions")
    return judge(engine.name, visits, position, results)


def judge(engine: str, visits: int, position: Position, results: dict[int, Analysis]) -> GameReview:
    """The review of `position`'s line from the analysis of every position of it (`results`
    by turn, 0 to the number of moves): each move's values, points lost and better move."""
    n = len(position.moves)
    values = [black_value(results[t]) for t in range(n + 1)]
    moves = []
    for k, (color, move) in enumerate(position.moves):
        sign = 1.0 if color is Color.BLACK else -1.0
        before, after = values[k], values[k + 1]
        top = [m for m in results[k].moves if m.visits > 0]
        best = max(top, key=lambda m: m.visits) if top else None
        other = best is not None and best.move != move
        moves.append(
            MoveReview(
                number=k + 1,
                color=color,
                move=move,
                black_winrate=after[0],
                black_lead=after[1],
                points_lost=sign * (before[1] - after[1]),
                winrate_lost=sign * (before[0] - after[0]),
                best=best.move if best is not None and other else None,
                best_line=tuple(best.pv) if best is not None and other else (),
            )
        )
    return GameReview(engine, visits, values[0], tuple(moves))


def annotate(root: Node, nodes: list[Node], game: GameReview, height: int) -> None:
    """Write the review into the record: the root gets the start's values, each move node
    (``nodes[k]`` made move k+1) its own and a comment block (an earlier one replaced)."""
    _values(root, *game.start)
    for node, m in zip(nodes, game.moves, strict=True):
        _values(node, m.black_winrate, m.black_lead)
        lines = [
            f"{MARK} {game.engine}, {game.visits} visits",
            f"Black {100 * m.black_winrate:.1f}%, {_lead(m.black_lead)}",
            f"{m.points_lost:.1f} points lost" if m.points_lost > 0 else "no points lost",
        ]
        if m.best is not None:
            line = " ".join(to_gtp(p, height) for p in m.best_line[:10])
            lines.append(f"better: {to_gtp(m.best, height)} ({line})")
        try:
            old = node.get("C") or ""
        except ValueError:
            old = ""
        kept = str(old).split(MARK)[0].rstrip()
        node.set("C", (kept + "\n\n" if kept else "") + "\n".join(lines))


def summary(game: GameReview, height: int) -> list[str]:
    """Each player's biggest mistakes, a line per player."""
    out = []
    for color in Color:
        found = game.mistakes(color)
        listed = "; ".join(
            f"move {m.number} {to_gtp(m.move, height)} -{m.points_lost:.1f}"
            + (f" (better {to_gtp(m.best, height)})" if m.best is not None else "")
            for m in found
        )
        out.append(f"{color.name.title()}: {listed or 'no mistakes'}")
    return out


def _values(node: Node, winrate: float, lead: float) -> None:
    node.properties[WINRATE] = [f"{100 * winrate:.2f}"]
    node.properties[LEAD] = [f"{lead:.2f}"]


def _lead(lead: float) -> str:
    return f"B+{lead:.1f}" if lead >= 0 else f"W+{-lead:.1f}"
