"""Alpha-beta (principal variation search) with iterative deepening over the pattern state.

Each node: a five to make wins; the opponent's five-point must be blocked (a search
extension; under renju a block on Black's foul point loses); a move making an open four or a
double four wins when the opponent has no four to answer with; facing the opponent's three,
the moves are the own fours and the points of the opponent's line; otherwise the best-ranked
points near the stones (`kernels.ranked`). At the horizon a small VCF search runs before the
static evaluation. A transposition table (by Zobrist hash), two killer moves per ply and a
history table order the moves.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from tengen.ai.gomoku.patterns import FOUR, OPEN_FOUR
from tengen.ai.gomoku.position import Position
from tengen.ai.gomoku.threats import OutOfBudget, ThreatSearch

WIN = 1_000_000
WON = WIN - 1_000  # scores beyond this are forced wins
WIDTH = (14, 10, 8)  # moves searched at ply 0, 1, and deeper
EXACT, LOWER, UPPER = 0, 1, 2
_LEAF_VCF_NODES = 40


@dataclass
class Entry:
    """A transposition table entry."""

    depth: int
    score: int
    flag: int
    move: int


@dataclass
class Report:
    """What a search found: its move, score, depth reached and nodes."""

    move: int
    score: int = 0
    depth: int = 0
    nodes: int = 0
    scores: dict[int, int] = field(default_factory=dict)


class Search:
    """Iterative deepening PVS for the side `me` over `pos`, until `deadline`."""

    def __init__(self, pos: Position, deadline: float) -> None:
        self.pos = pos
        self.deadline = deadline
        self.tt: dict[tuple[int, int], Entry] = {}
        self.killers: list[list[int]] = [[-1, -1] for _ in range(64)]
        self.history = [[0] * pos.n, [0] * pos.n]

    def run(self, me: int, roots: list[int], soft: float, max_depth: int = 20) -> Report:
        """The best of `roots` (legal, non-empty) for `me`, deepening until the deadline;
        no new depth starts after `soft`."""
        report = Report(roots[0])
        order = list(roots)
        for depth in range(1, max_depth + 1):
            if depth > 1 and time.monotonic() > soft:
                break
            try:
                move, score, scores = self._root(me, order, depth)
            except OutOfBudget:
                break
            report = Report(move, score, depth, self.pos.nodes, scores)
            order.sort(key=lambda m: -scores.get(m, -2 * WIN))
            if abs(score) >= WON:
                break
        return report

    def _root(self, me: int, roots: list[int], depth: int) -> tuple[int, int, dict[int, int]]:
        pos = self.pos
        alpha, best = -2 * WIN, roots[0]
        scores: dict[int, int] = {}
        for n, m in enumerate(roots):
            pos.place(m, me)
            try:
                if n == 0:
                    score = -self._pvs(3 - me, depth - 1, -2 * WIN, -alpha, 1)
                else:
                    score = -self._pvs(3 - me, depth - 1, -alpha - 1, -alpha, 1)
                    if score > alpha:
                        score = -self._pvs(3 - me, depth - 1, -2 * WIN, -alpha, 1)
            finally:
                pos.remove(m)
            scores[m] = score
            if score > alpha:
                alpha, best = score, m
        return best, alpha, scores

    def _pvs(self, me: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        pos = self.pos
        pos.nodes += 1
        if pos.nodes & 127 == 0 and time.monotonic() > self.deadline:
            raise OutOfBudget
        opp = 3 - me
        if pos.fives(me):
            return WIN - ply
        theirs = pos.fives(opp)
        if len(theirs) > 1:
            return -(WIN - ply - 1)
        if theirs:
            if not pos.may_play(theirs[0], me):
                return -(WIN - ply - 1)
            moves = theirs
            depth = max(depth, 1)  # a forced block extends the search
        else:
            if self._open_four(me, opp):
                return WIN - ply - 2
            if depth <= 0 or ply >= 60:
                return self._leaf(me, ply)
            moves = self._moves(me, opp, ply)
        entry = self.tt.get((pos.hash, me))
        if entry is not None:
            if entry.depth >= depth:
                if entry.flag == EXACT:
                    return entry.score
                if entry.flag == LOWER and entry.score >= beta:
                    return entry.score
                if entry.flag == UPPER and entry.score <= alpha:
                    return entry.score
            if entry.move in moves:
                moves.remove(entry.move)
                moves.insert(0, entry.move)
        start_alpha, best, best_score, played = alpha, -1, -2 * WIN, 0
        for m in moves:
            if not pos.may_play(m, me):
                continue
            pos.place(m, me)
            try:
                if played == 0:
                    score = -self._pvs(opp, depth - 1, -beta, -alpha, ply + 1)
                else:
                    score = -self._pvs(opp, depth - 1, -alpha - 1, -alpha, ply + 1)
                    if alpha < score < beta:
                        score = -self._pvs(opp, depth - 1, -beta, -alpha, ply + 1)
            finally:
                pos.remove(m)
            played += 1
            if score > best_score:
                best_score, best = score, m
            if score > alpha:
                alpha = score
            if alpha >= beta:
                self._cutoff(me, m, depth, ply)
                break
        if not played:
            return -(WIN - ply - 1)  # every move is a foul: Black is forced to lose
        flag = UPPER if best_score <= start_alpha else LOWER if best_score >= beta else EXACT
        self.tt[(pos.hash, me)] = Entry(depth, best_score, flag, best)
        return best_score

    def _open_four(self, me: int, opp: int) -> bool:
        """Whether `me` can make an open four or double four that the opponent, having no
        four of its own to make, cannot stop."""
        pos = self.pos
        if pos.threats(opp, FOUR):
            return False
        return any(pos.may_play(m, me) for m in pos.threats(me, OPEN_FOUR))

    def _leaf(self, me: int, ply: int) -> int:
        """The horizon: a win by fours if a small VCF finds one, else the static worth."""
        if self.pos.threats(me, FOUR):
            found = ThreatSearch(self.pos, _LEAF_VCF_NODES, 1.0).vcf(me, 10)
            if found is not None:
                return WIN - ply - 10
        return self.pos.evaluate(me)

    def _moves(self, me: int, opp: int, ply: int) -> list[int]:
        """The moves to search at a node with no five-point on the board, best first."""
        pos = self.pos
        ranked = pos.ranked(me)
        if pos.threats(opp, OPEN_FOUR):  # the opponent has a three: fours or blocks only
            mine, theirs = pos.kd[me - 1], pos.kd[opp - 1]
            ranked = [m for m in ranked if mine[m] >= FOUR or theirs[m] >= FOUR]
        width = WIDTH[min(ply, len(WIDTH) - 1)]
        moves = ranked[:width]
        history = self.history[me - 1]
        killers = [k for k in self.killers[ply] if k in ranked]
        mine = pos.kd[me - 1]
        rest = sorted(moves, key=lambda m: (-int(mine[m]), -history[m])) if ply > 1 else moves
        return list(dict.fromkeys(killers + rest))

    def _cutoff(self, me: int, move: int, depth: int, ply: int) -> None:
        """Remember a move that refuted a line: a killer for this ply, a history bonus."""
        killers = self.killers[ply]
        if killers[0] != move:
            killers[1], killers[0] = killers[0], move
        self.history[me - 1][move] += depth * depth
