"""Threat-space search: wins by continuous fours (VCF) and by threes and fours (VCT).

Both search the attacker's threats only and play out the defence:

* VCF: each attacker move makes a four; the defender's one reply is the five-point. It is
  compiled (`ai.gomoku.vcf`, its refutations kept in the position's fail table).
* VCT: the attacker may also make a threat that wins by fours if left alone (a three); the
  defender then tries every point where the attacker would make a four (the points of the
  three's line) and every four of its own, and a defender with a VCF of its own refutes the
  threat. A counter-four is answered by its block.

A win found is a first move; the search gives up (None) past its node budget or deadline, so
"None" means "not found", never "none exists".
"""

from __future__ import annotations

import time

from tengen.ai.gomoku import vcf as compiled
from tengen.ai.gomoku.patterns import FOUR, THREE
from tengen.ai.gomoku.position import Position
from tengen.core import jit

k = jit.live(compiled)  # interpreted until compiled (see `core.jit`)


class OutOfBudget(Exception):
    """The search spent its nodes or its time."""


class ThreatSearch:
    """VCF and VCT over `pos` within `nodes` nodes and `seconds` seconds."""

    def __init__(self, pos: Position, nodes: int, seconds: float) -> None:
        self.pos = pos
        self.limit = pos.nodes + nodes
        self.deadline = time.monotonic() + seconds
        self.failed: dict[tuple[int, int], int] = {}  # the VCT's: (hash, attacker) -> depth

    def vcf(self, attacker: int, depth: int = 24) -> int | None:
        """A first move of a win by continuous fours for `attacker` (to move), or None."""
        try:
            return self._vcf(attacker, depth)
        except OutOfBudget:
            return None

    def vct(self, attacker: int, depth: int = 8) -> int | None:
        """A first move of a win by threes and fours for `attacker` (to move), or None."""
        try:
            return self._vct(attacker, depth)
        except OutOfBudget:
            return None

    # -- internals ---------------------------------------------------------------------------

    def _tick(self) -> None:
        nodes = self.pos.s.nodes
        nodes[0] += 1
        if nodes[0] > self.limit or (nodes[0] & 63 == 0 and time.monotonic() > self.deadline):
            raise OutOfBudget

    def _ordered(self, attacker: int, least: int) -> list[int]:
        """The attacker's threat moves of class `least` or more, strongest first."""
        pos = self.pos
        moves = pos.threats(attacker, least)
        me = attacker - 1
        moves.sort(key=lambda j: (-int(pos.kd[me, j]), -int(pos.val[me, j])))
        return moves

    def _vcf(self, a: int, depth: int) -> int | None:
        """The compiled VCF within this search's budget (`OutOfBudget` when it is spent)."""
        found = int(k.vcf(self.pos.s, a, depth, self.limit, self.deadline))
        if found == compiled.OUT_OF_BUDGET:
            raise OutOfBudget
        return None if found == compiled.NOT_FOUND else found

    def _vct(self, a: int, depth: int) -> int | None:
        pos = self.pos
        own = pos.fives(a)
        if own:
            return own[0]
        d = 3 - a
        if pos.fives(d) or depth <= 0:
            return None
        found = self._vcf(a, 2 * depth)
        if found is not None:
            return found
        key = (pos.hash, a)
        if self.failed.get(key, -1) >= depth:
            return None
        for m in self._ordered(a, THREE)[:12]:
            if not pos.may_play(m, a):
                continue
            self._tick()
            pos.place(m, a)
            try:
                if self._defence_fails(a, depth - 1):
                    return m
            finally:
                pos.remove(m)
        self.failed[key] = depth
        return None

    def _defence_fails(self, a: int, depth: int) -> bool:
        """Defender to move after the attacker's threat: whether every defence loses."""
        pos = self.pos
        d = 3 - a
        if pos.fives(d):
            return False
        points = pos.fives(a)
        if len(points) >= 2:
            return True
        if points:
            replies = points
        else:
            # A threat is real only if the attacker, moving again, would win by fours.
            if self._vcf(a, 2 * depth + 2) is None or self._vcf(d, 2 * depth + 2) is not None:
                return False
            replies = pos.threats(a, FOUR)
            replies = list(dict.fromkeys(replies + pos.threats(d, FOUR)))
        for r in replies:
            if not pos.may_play(r, d):
                continue
            self._tick()
            pos.place(r, d)
            try:
                if not self._after_defence(a, depth):
                    return False
            finally:
                pos.remove(r)
        return True

    def _after_defence(self, a: int, depth: int) -> bool:
        """Attacker to move after a defence: whether it still wins (a counter-four first)."""
        pos = self.pos
        d = 3 - a
        theirs = pos.fives(d)
        if not theirs:
            return self._vct(a, depth) is not None
        if len(theirs) > 1 or pos.fives(a):
            return bool(pos.fives(a))
        block = theirs[0]
        if not pos.may_play(block, a) or depth <= 0:
            return False
        pos.place(block, a)
        try:
            return self._defence_fails(a, depth - 1)
        finally:
            pos.remove(block)
