"""The line a review analyses, and the graph kept in its record.

A graph has a point for the line's start and one after each move: Black's win rate and score
lead there (`graph_point`). The record keeps them as ``SBKV`` (Black's win rate in percent, as
Sabaki writes it) and ``SBKS`` (Black's score lead; ``V``, FF[4]'s value of a node, is read
where another program left no SBKS), so `saved_graph` reads a graph back from any record,
ours or Sabaki's. An engine gets a line as a `Position` (`position_at`).
"""

from __future__ import annotations

import math
from typing import Any

from tengen.ai.analysis import Analysis
from tengen.analysis.position import Position, line_positions
from tengen.analysis.review import LEAD, WINRATE
from tengen.core.color import Color
from tengen.core.coords import to_gtp
from tengen.sgf import Node

VALUE = "V"  # FF[4]'s value of a node: another program's Black score lead, read when no SBKS


def graph_point(move: int, analysis: Analysis) -> dict[str, Any]:
    """One point of the graph: Black's win rate and score lead after `move` moves, who is to
    play, and the search's best move there with its line (what the mistake list shows)."""
    black = analysis.to_play is Color.BLACK
    h = analysis.height
    searched = [m for m in analysis.moves if m.visits > 0]
    best = max(searched, key=lambda m: m.visits) if searched else None
    return {
        "move": move,
        "to_play": analysis.to_play.name.lower(),
        "black_winrate": analysis.winrate if black else 1 - analysis.winrate,
        "black_lead": analysis.score_lead if black else -analysis.score_lead,
        "best": None if best is None else to_gtp(best.move, h),
        "pv": [] if best is None else [to_gtp(p, h) for p in best.pv[:8]],
    }


def line_through(node: Node) -> list[Node]:
    """The nodes from the root to `node` and on through first children to the end."""
    line = [node]
    while line[-1].parent is not None:
        line.append(line[-1].parent)
    line.reverse()
    while line[-1].children:
        line.append(line[-1].children[0])
    return line


def saved_graph(node: Node) -> dict[str, Any] | None:
    """The graph written in the record for the line through `node`: a finished graph view of
    the positions holding a win rate (``SBKV``), or None if none does."""
    points: list[dict[str, Any]] = []
    line = line_through(node)
    for moves, n in enumerate([line[0], *filter(has_move, line[1:])]):
        try:
            rate = float(n.properties[WINRATE][0]) / 100
            kept = n.properties.get(LEAD) or n.properties.get(VALUE)
            lead: float | None = float(kept[0]) if kept else None
        except (KeyError, IndexError, ValueError):
            continue
        if 0 <= rate <= 1 and (lead is None or math.isfinite(lead)):
            point: dict[str, Any] = {"move": moves, "black_winrate": rate, "black_lead": lead}
            mover = "B" if "B" in n.properties else "W" if "W" in n.properties else None
            if mover is not None:  # after a move, its opponent is to play
                point["to_play"] = "white" if mover == "B" else "black"
            points.append(point)
    return {"running": False, "total": positions(line), "points": points} if points else None


def with_lines(saved: dict[str, Any], found: dict[str, Any] | None) -> dict[str, Any]:
    """The saved graph with the best moves and lines of the job that found its values (the
    record keeps the values only), where a point's win rate is the job's."""
    known = {p["move"]: p for p in (found or {}).get("points", [])}
    for point in saved["points"]:
        job = known.get(point["move"])
        if job is not None and abs(job["black_winrate"] - point["black_winrate"]) < 1e-4:
            point.update({k: job[k] for k in ("to_play", "best", "pv") if k in job})
    return saved


def positions(line: list[Node]) -> int:
    """The positions of a graph of `line`: the start and one after each move."""
    return 1 + sum(map(has_move, line[1:]))


def has_move(node: Node) -> bool:
    return "B" in node.properties or "W" in node.properties


def position_at(node: Node) -> Position:
    """The position at `node` for an engine: the record's line to it, setup and moves.
    Raises ValueError (Unanalysable) for setup stones after the first move."""
    return line_positions(node.line_copy())[0]


def reviewable(node: Node) -> Position | None:
    """`position_at`, or None for a line no engine takes (setup after the first move)."""
    try:
        return position_at(node)
    except ValueError:
        return None
