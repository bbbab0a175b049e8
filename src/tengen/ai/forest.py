"""The built-in Go player's search trees, one per thread, and what they say added up.

The player grows one tree per thread from the same root (`mcts`); `summarize` adds up their
root statistics and ownership counts into one `Analysis`, each move's principal variation read
from the tree that searched the move most.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tengen.ai.analysis import Analysis, MoveInfo
from tengen.ai.position import Position
from tengen.ai.tree import (
    COUNT,
    FIRST,
    MOVE,
    PRIOR_N,
    PRIOR_W,
    SCORE,
    SIMULATIONS,
    VISITS,
    WINS,
)
from tengen.core.coords import Move, Point


@dataclass
class Tree:
    """One thread's search tree and random state."""

    ni: np.ndarray
    nf: np.ndarray
    hdr: np.ndarray
    rng: np.ndarray
    own: np.ndarray = field(default_factory=lambda: np.zeros(0))
    start: int = 0  # simulations run before the current search


def summarize(trees: list[Tree], pos: Position) -> Analysis:
    """Add up the trees' root statistics into an `Analysis`."""
    stats: dict[int, list[float]] = {}  # move -> visits, wins, score, prior n, prior w
    best_tree: dict[int, tuple[float, Tree, int]] = {}
    root_visits = root_wins = root_score = 0.0
    own = np.zeros(pos.st.shape[1], np.float64)
    for tr in trees:
        ni, nf = tr.ni, tr.nf
        root_visits += nf[VISITS, 0]
        root_wins += nf[WINS, 0]
        root_score += nf[SCORE, 0]
        own += tr.own
        first, count = int(ni[FIRST, 0]), int(ni[COUNT, 0])
        for c in range(first, first + count):
            move = int(ni[MOVE, c])
            if not pos.allowed[move]:
                continue
            s = stats.setdefault(move, [0.0, 0.0, 0.0, nf[PRIOR_N, c], nf[PRIOR_W, c]])
            s[0] += nf[VISITS, c]
            s[1] += nf[WINS, c]
            s[2] += nf[SCORE, c]
            if move not in best_tree or nf[VISITS, c] > best_tree[move][0]:
                best_tree[move] = (nf[VISITS, c], tr, c)
    width, height = pos.width, pos.height
    stride = width + 1
    total_prior = sum(s[4] / s[3] for s in stats.values()) or 1.0
    infos = []
    for move, (visits, wins, score, pn, pw) in stats.items():
        _, tr, node = best_tree[move]
        infos.append(
            MoveInfo(
                move=_point(move, stride),
                visits=int(visits),
                winrate=float(wins / visits if visits else pw / pn),
                prior=float((pw / pn) / total_prior),
                pv=tuple(_point(m, stride) for m in _pv(tr, node)),
                score_lead=score / visits if visits else 0.0,
            )
        )
    infos.sort(key=lambda m: (-m.visits, -m.prior))
    rollouts = max(sum(int(tr.hdr[SIMULATIONS]) - tr.start for tr in trees), 1)
    share = own / rollouts
    ownership = tuple(
        float(share[(r + 1) * stride + c + 1]) for r in range(height) for c in range(width)
    )
    return Analysis(
        to_play=pos.color,
        visits=int(root_visits),
        winrate=1.0 - root_wins / root_visits if root_visits else 0.5,
        score_lead=-root_score / root_visits if root_visits else 0.0,
        moves=tuple(infos),
        ownership=ownership,
        width=width,
        height=height,
    )


def _point(loc: int, stride: int) -> Move:
    """The point at a kernel location (0 is a pass)."""
    return None if loc == 0 else Point(loc % stride - 1, loc // stride - 1)


def _pv(tr: Tree, node: int) -> list[int]:
    """The moves from `node` down its most visited children, `node`'s own move first."""
    line = [int(tr.ni[MOVE, node])]
    while tr.ni[COUNT, node] > 0 and len(line) < 30:
        first = int(tr.ni[FIRST, node])
        children = range(first, first + int(tr.ni[COUNT, node]))
        node = max(children, key=lambda c: tr.nf[VISITS, c])
        if tr.nf[VISITS, node] < 1:
            break
        line.append(int(tr.ni[MOVE, node]))
    return line
