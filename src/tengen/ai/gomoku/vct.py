"""Victory by continuous threats (VCT), compiled: the attacker may also make a threat that wins
by fours if left alone (a three), and the defender then tries every defence.

The defences are the points where the attacker would make a four (the points of the three's
line) and every four of the defender's own, and a defender with a VCF of its own refutes the
threat; a counter-four is answered by its block. The attacker tries its 12 strongest threats a
position. A refuted (position, attacker) is kept with its depth in the state's fail table (with
the VCF's, under another key). One function, `threat`, does the three steps (``VCT``: the
attacker's threat, ``DEFENCE``: every defence, ``AFTER``: the attacker after a defence), so that
it recurses into itself only: numba cannot load from its cache two functions that call each
other. Python calls `root`, which pins the state (`core.refs`). Its recursive calls
name the next step by arithmetic on `step` (``step + 1``), never by a constant: numba would
compile a second `threat` for the constant's literal type, and the two would call each other.
"""

from __future__ import annotations

from tengen.ai.gomoku import kernels
from tengen.ai.gomoku.fouls import may_play
from tengen.ai.gomoku.patterns import FOUR, THREE
from tengen.ai.gomoku.state import clock, play, survey, undo
from tengen.ai.gomoku.vcf import CLOCK_EVERY, FAIL_SIZE, NOT_FOUND, OUT_OF_BUDGET, ordered, vcf
from tengen.core.jit import lean
from tengen.core.refs import deref, pin

VCT, DEFENCE, AFTER = 0, 1, 2  # `threat`'s steps
VCT_ROWS = 64  # recursion levels at most (one move list each)
# Every VCF the VCT runs (the attacker's, and after a threat the attacker's and the defender's)
# goes at least this deep, whatever the threats left: the fail table's entries then serve every
# step and every depth of `ThreatSearch.vct`'s deepening (an entry serves a search no deeper
# than it), and a defender's long counter-VCF is seen near the leaves too. Against VCF depths
# of twice the threats left: of 100 self-play positions with a mate Rapfi sees, 20 found
# within 20,000 nodes (16 before), 33 within 100,000 (30), 48 within 500,000 (44), and on the
# VCT puzzles 10 of 18 within 20,000 (7), in 2-24% fewer nodes.
_VCF_DEPTH = 18
_THREATS = 12  # the attacker's threats tried a position, strongest first
_SALT = 0x5DEECE66D1F0C3A7  # the VCT's fail-table keys differ from the VCF's by this


@lean
def root(s, step, a, depth, limit, deadline, level):  # type: ignore[no-untyped-def]
    """`threat` from Python: the state pinned, so that its calls pass a pointer to it
    (`core.refs`), not its arrays."""
    return threat(pin(s), step, a, depth, limit, deadline, level)


@lean
def threat(sr, step, a, depth, limit, deadline, level):  # type: ignore[no-untyped-def]
    """One step of the VCT for attacker `a` within `depth` threats (``s.nodes`` past `limit`
    or the clock past `deadline`: ``OUT_OF_BUDGET``). ``VCT`` (attacker to move): a first move
    of a win, or ``NOT_FOUND``; ``DEFENCE`` (defender to move, after a threat) and ``AFTER``
    (attacker to move, after a defence): 1 when the attacker wins, else 0. `level` counts the
    steps above (from 0)."""
    s = deref(sr)
    d = 3 - a
    mine, first, theirs, block, _, _ = survey(s, a)
    if step == VCT:
        if mine:
            return first
        if theirs or depth <= 0 or level >= VCT_ROWS - 1:
            return NOT_FOUND
        found = vcf(sr, a, max(2 * depth + 2, _VCF_DEPTH), limit, deadline)
        if found != NOT_FOUND:
            return found  # a win by fours, or out of budget
        key = s.hash[0] ^ s.side[a - 1] ^ _SALT
        slot = key & (FAIL_SIZE - 1)
        if s.fail_key[slot] == key and s.fail_depth[slot] >= depth:
            return NOT_FOUND
        row = s.threes[level]
        count = min(ordered(sr, a, THREE, row), _THREATS)
        for n in range(count):
            m = row[n]
            if not may_play(sr, m, a):
                continue
            if _spent(sr, limit, deadline):
                return OUT_OF_BUDGET
            play(sr, m, a)
            wins = threat(sr, step + 1, a, depth - 1, limit, deadline, level + 1)  # DEFENCE
            undo(sr, m)
            if wins == OUT_OF_BUDGET:
                return OUT_OF_BUDGET
            if wins == 1:
                return m
        s.fail_key[slot] = key
        s.fail_depth[slot] = depth
        return NOT_FOUND
    if step == DEFENCE:
        if theirs:  # the defender makes a five
            return 0
        if mine >= 2:
            return 1
        row = s.threes[level]
        if mine:
            row[0] = first
            count = 1
        else:
            if level >= VCT_ROWS - 1:
                return 0
            # A threat is real only if the attacker, moving again, would win by fours.
            found = vcf(sr, a, max(2 * depth + 2, _VCF_DEPTH), limit, deadline)
            if found < 0:
                return found if found == OUT_OF_BUDGET else 0
            found = vcf(sr, d, max(2 * depth + 2, _VCF_DEPTH), limit, deadline)
            if found != NOT_FOUND:
                return OUT_OF_BUDGET if found == OUT_OF_BUDGET else 0
            count = _defences(sr, a, row)
        for n in range(count):
            r = row[n]
            if not may_play(sr, r, d):
                continue
            if _spent(sr, limit, deadline):
                return OUT_OF_BUDGET
            play(sr, r, d)
            wins = threat(sr, step + 1, a, depth, limit, deadline, level + 1)  # AFTER
            undo(sr, r)
            if wins != 1:
                return wins  # refuted, or out of budget
        return 1
    # AFTER: a counter-four must be blocked first
    if not theirs:
        found = threat(sr, step - 2, a, depth, limit, deadline, level + 1)  # VCT
        return found if found == OUT_OF_BUDGET else int(found >= 0)
    if theirs > 1 or mine:
        return int(mine > 0)
    if not may_play(sr, block, a) or depth <= 0:
        return 0
    play(sr, block, a)
    wins = threat(sr, step - 1, a, depth - 1, limit, deadline, level + 1)  # DEFENCE
    undo(sr, block)
    return wins


@lean
def _defences(sr, a, row):  # type: ignore[no-untyped-def]
    """Write into `row` the defences against a threat: the attacker's fours, then the
    defender's own not among them (each in point order); return how many."""
    s = deref(sr)
    count = kernels.collect(s.cells, s.kd, s.tally, a - 1, FOUR, row)
    for j in range(s.cells.shape[0]):
        if s.cells[j] == 0 and s.kd[2 - a, j] >= FOUR and s.kd[a - 1, j] < FOUR:
            row[count] = j
            count += 1
    return count


@lean
def _spent(sr, limit, deadline):  # type: ignore[no-untyped-def]
    """Count a node; whether the budget is spent (the clock is read every `CLOCK_EVERY` nodes)."""
    s = deref(sr)
    s.nodes[0] += 1
    return s.nodes[0] > limit or (s.nodes[0] & (CLOCK_EVERY - 1) == 0 and clock() > deadline)
