"""Victory by continuous fours (VCF), compiled: each attacker move makes a four, and the
defender's one reply is its five-point.

It wins when a four leaves two five-points (an open four, a double four) or when the defender
may not block (under renju, a five-point that is Black's foul: White forces Black onto it).
Every four is tried, strongest first, so a refutation is a fact about the position: it is kept
in the state's fail table (by hash, attacker and depth) for every later search of the position.
The search gives up past its node `limit` or its `deadline`: ``OUT_OF_BUDGET``, never "none".
"""

from __future__ import annotations

from tengen.ai.gomoku import kernels
from tengen.ai.gomoku.fouls import may_play
from tengen.ai.gomoku.patterns import FOUR
from tengen.ai.gomoku.state import clock, play, survey, undo
from tengen.core.jit import lean
from tengen.core.refs import deref, pin

NOT_FOUND, OUT_OF_BUDGET = -1, -2
VCF_ROWS = 32  # depths searched at most (one move list each)
FAIL_SIZE = 1 << 16  # entries of the fail table, a power of two
CLOCK_EVERY = 64  # nodes between two looks at the clock, a power of two (the VCT's too)
# A level's numbers in ``State.frame``: the next of its fours to try, how many it has, the one
# four allowed (facing the defender's four: its five-point) or -1, its fail-table key, and the
# four being tried with the defender's block.
_NEXT, _COUNT, _ONLY, _KEY, _MOVE, _BLOCK = range(6)
FRAME = 6
_ENTERED = -3  # `_enter`: the level is set up


@lean
def vcf(state, a, depth, limit, deadline):  # type: ignore[no-untyped-def]
    """A first move of a win by continuous fours for `a` (to move) in at most `depth` fours:
    the point, ``NOT_FOUND`` or ``OUT_OF_BUDGET`` (``s.nodes`` past `limit`, or the clock
    past `deadline`).

    A depth-first search with its stack in ``s.frame``, a loop rather than recursion (the
    alpha-beta search runs it at its horizon): level ``depth`` is the first four, each level
    below it one four further. `state` is a state or a pointer to one (`core.refs`): what it
    calls gets a pointer."""
    sr = pin(state)
    s = deref(sr)
    d = 3 - a
    top = min(depth, VCF_ROWS - 1)
    entered = _enter(sr, a, top)
    if entered != _ENTERED:
        return entered
    level, frame = top, s.frame
    while True:
        f = frame[level]
        won, deeper = False, False
        while f[_NEXT] < f[_COUNT] and not (won or deeper):
            m = s.fours[level, f[_NEXT]]
            f[_NEXT] += 1
            if (f[_ONLY] >= 0 and m != f[_ONLY]) or not may_play(sr, m, a):
                continue
            s.nodes[0] += 1
            if s.nodes[0] > limit or (s.nodes[0] & (CLOCK_EVERY - 1) == 0 and clock() > deadline):
                _unwind(sr, level + 1, top)
                return OUT_OF_BUDGET
            play(sr, m, a)
            fives, block, _, _, _, _ = survey(s, a)
            if fives >= 2 or (fives == 1 and not may_play(sr, block, d)):
                f[_MOVE] = m
                won = True
                undo(sr, m)
            elif fives == 1:  # the defender's forced block, then the next four
                play(sr, block, d)
                f[_MOVE], f[_BLOCK] = m, block
                entered = _enter(sr, a, level - 1)
                if entered == _ENTERED:
                    deeper = True
                else:
                    undo(sr, block)
                    undo(sr, m)
                    won = entered >= 0
            else:
                undo(sr, m)
        if won:  # every level above wins with its move too
            _unwind(sr, level + 1, top)
            return frame[top, _MOVE]
        if deeper:
            level -= 1
            continue
        s.fail_key[f[_KEY] & (FAIL_SIZE - 1)] = f[_KEY]  # refuted to this depth
        s.fail_depth[f[_KEY] & (FAIL_SIZE - 1)] = level
        if level == top:
            return NOT_FOUND
        level += 1
        undo(sr, frame[level, _BLOCK])
        undo(sr, frame[level, _MOVE])


@lean
def _enter(sr, a, depth):  # type: ignore[no-untyped-def]
    """Start the level of `depth` fours for attacker `a` (to move): its five-point if it has
    one, ``NOT_FOUND`` when no four can win (the defender has two five-points, no depth is
    left, or the fail table says so), else ``_ENTERED`` with its frame and fours set up."""
    s = deref(sr)
    count, first, theirs, block, _, _ = survey(s, a)
    if count:
        return first
    if theirs > 1 or depth <= 0:
        return NOT_FOUND
    key = s.hash[0] ^ s.side[a - 1]
    slot = key & (FAIL_SIZE - 1)
    if s.fail_key[slot] == key and s.fail_depth[slot] >= depth:
        return NOT_FOUND
    f = s.frame[depth]
    f[_NEXT] = 0
    f[_COUNT] = ordered(sr, a, FOUR, s.fours[depth])
    f[_ONLY] = block if theirs else -1
    f[_KEY] = key
    return _ENTERED


@lean
def _unwind(sr, low, top):  # type: ignore[no-untyped-def]
    """Take back the four and block of every level from `low` to `top`."""
    s = deref(sr)
    for level in range(low, top + 1):
        undo(sr, s.frame[level, _BLOCK])
        undo(sr, s.frame[level, _MOVE])


@lean
def ordered(sr, a, least, row):  # type: ignore[no-untyped-def]
    """Write into `row` the attacker's moves of threat class `least` or more, strongest first
    (threat class, then worth; ties in point order); return how many."""
    s = deref(sr)
    count = kernels.collect(s.cells, s.kd, s.tally, a - 1, least, row)
    c = a - 1
    for n in range(1, count):  # insertion sort: a few moves, stable
        m = row[n]
        rank = int(s.kd[c, m]) * (1 << 32) + int(s.val[c, m])
        k = n
        while k > 0:
            q = row[k - 1]
            if int(s.kd[c, q]) * (1 << 32) + int(s.val[c, q]) >= rank:
                break
            row[k] = q
            k -= 1
        row[k] = m
    return count
