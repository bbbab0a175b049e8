"""Principal variation search over the pattern state, compiled: the tree below a root move.

Each node: a five to make wins; the opponent's five-point must be blocked (the block costs no
depth, so a four costs one ply, not two; under renju a block on Black's foul point loses); a
move making an open four or a double four wins when the opponent has no four to answer with;
facing the opponent's three, the moves are the own fours and the points of the opponent's
line (under renju, a black three whose straight fours would all be fouls is no three: White
is free); otherwise the best-ranked points near the stones (`kernels.ranked`). At the horizon a
small VCF (`ai.gomoku.vcf`) runs when the static evaluation does not already reach beta (a
win found there would fail high all the same; the VCF was two thirds of the nodes, and this
halves them to a depth: bench/STRENGTH.md); a few plies before it, a null-window node whose
static worth is far above beta returns it (futility pruning, which the static worth's
evenness between plies allows: `state.evaluate`; a smaller margin when the side to move's worth
has grown since its last move), late quiet moves are searched shallower
first (late-move reductions), as are a few moves past the width (`_WIDE`), and a node the
table has no entry for is searched a ply shallower (internal iterative reduction). A
transposition table (`Tables`: a hash-indexed array, always replaced; the player keeps it
from move to move, so a forced win in it counts its plies from its own node, not from the
root) and a history table order the moves (no killer moves: put first, they were the first
move to fail high less often than the best-ranked point, bench/STRENGTH.md); a node one of whose
moves leads to a position the table already proves refutes it ends there (enhanced
transposition cutoff, `_ETC_DEPTH`). Threads searching one root share the table
(`ai.gomoku.search`): an entry is a word of data and a lock word, the position's key xor that
data, so an entry half written by another thread fails the check and reads as empty; the two
words lie side by side, so that a look-up touches one cache line, not two (0.96 times the time
to a depth on one thread, 0.91 on two: bench/STRENGTH.md). They share
too a table of the moves being searched, so that threads on one tree put off the moves another
is on and take different siblings (`_SPLIT_DEPTH`). Past the deadline the search sets ``stop``
and unwinds; what it returns then is meaningless (the caller drops the iteration). Python
(`ai.gomoku.search`, looping over the root moves) calls `root`, which pins the state and
tables, so that `node` and what it calls take a pointer to each (`core.refs`): passing their
arrays by value copied some 300 words a call, and the search takes 0.85 times the time without
(bench/STRENGTH.md). For the root's list, `setups` finds the quiet points after which a side,
moving again, wins by the horizon's VCF.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from tengen.ai.gomoku import kernels
from tengen.ai.gomoku.fouls import may_play
from tengen.ai.gomoku.patterns import FOUR, FOUR_THREE, OPEN_FOUR, POOL
from tengen.ai.gomoku.state import clock, evaluate, play, survey, undo
from tengen.ai.gomoku.vcf import vcf
from tengen.core.jit import lean, lean_inline
from tengen.core.refs import deref, pin

WIN = 1_000_000
WON = WIN - 1_000  # scores beyond this are forced wins
WIDTH = (14, 10, 8)  # moves searched at ply 0, 1, and deeper
EXACT, LOWER, UPPER = 0, 1, 2
PLIES = 128  # the deepest ply (forced blocks extend the search past its depth)
_HORIZON = 60  # plies past which the search evaluates instead
_LEAF_VCF_NODES = 40
_LEAF_VCF_DEPTH = 10
# Futility: a null-window node this near the horizon, not facing a four-three or better, whose
# static worth beats beta by this margin a ply returns it unsearched; by `_IMPROVING` less when
# that worth is above the side's own two plies before (Rapfi's "improving"). How far a search
# of 1-5 plies falls below the static worth, over 2,127 positions of head-to-head games: 95th
# percentile 570-1,130, 99th 880-1,690; a margin of 1,000 a ply to 3 plies (the 99th percentile
# and more) played 39 Elo below this one, head to head (bench/STRENGTH.md).
_FUTILE_DEPTH = 6
_FUTILE_MARGIN = 400
_IMPROVING = 200
# Late-move reductions: at this depth or more, the moves searched after the first `_LATE` that
# neither make nor stop a four are searched a ply shallower (two after `_LATER`), and again at
# full depth when they beat alpha.
_LATE_DEPTH, _LATE, _LATER = 3, 3, 7
# Past the width: a node with this depth or more left (every node here, ply 1 included, is
# below the root, which is Python's: `ai.gomoku.search`) lists `_WIDE` more of the best-ranked
# points than `WIDTH` allows and searches them `_WIDE_CUT` plies shallower first (again at
# full depth when they beat alpha), so that a refutation ranked just past the width is not out
# of sight. Ply 1, the opponent's reply to a root move, has them too: Rapfi's reply was past
# tengen's 10th point in a fifth of positions, and with them there the player scored 26.9%
# against Rapfi in freestyle at 1 s over 156 games, against 21.8% over 728 (bench/STRENGTH.md).
_WIDE_DEPTH, _WIDE, _WIDE_CUT = 3, 4, 3
# Moves past this many are the wide ones: the width and the next two ranked points (the two
# places the killer moves held until they were dropped; measured with them so: bench/STRENGTH.md).
_NARROW = WIDTH[-1] + 2
# Internal iterative reduction: a node this deep or deeper, not facing a four, that the table
# holds no entry for (so no move to try first) is searched a ply shallower; its entry then
# orders the next iteration's search of it at full depth. Half the nodes to depth 10; in
# freestyle stronger against Rapfi at every rung measured, in renju level (bench/STRENGTH.md).
_IIR_DEPTH = 4
# Threads searching one tree (simplified ABDADA): at a node this deep or deeper, a move after the
# first that another thread is searching from the same position is put off to the end of the
# list, by when that thread's table entries answer it; each thread so takes its own siblings.
_SPLIT_DEPTH = 2
# Enhanced transposition cutoff: a node this deep or deeper first looks up the positions its
# moves lead to; one the table already proves refutes the node (its bound, searched deep
# enough, reaches beta) ends it unsearched. Stones commute, so Gomoku's lines transpose often:
# 13% fewer nodes to depth 10 (bench/STRENGTH.md).
_ETC_DEPTH = 2
BUSY_SIZE = 1 << 14  # entries of the table of (position, move) pairs being searched
_CHECK_EVERY = 256  # nodes between two looks at the clock
_ROW = max(max(WIDTH) + _WIDE, POOL)  # a move list: the best-ranked points
# Transposition table entries, a power of two: 16 MB. Kept from move to move, the table holds
# much of the last move's search only this large (2^18 kept scored no better than a fresh
# table a move; 2^22 no better than 2^20: bench/STRENGTH.md).
TT_SIZE = 1 << 20
_SCORE_BIAS = 1 << 31  # a table entry's fields (`store`)
_SCORE_MASK = (1 << 32) - 1
_DEPTH_SHIFT, _FLAG_SHIFT, _MOVE_SHIFT = 32, 40, 42


class Tables(NamedTuple):
    """One search's memory: the transposition table, history, move lists, clock."""

    tt: npt.NDArray[np.int64]  # [TT_SIZE, 2]: each entry's lock word and data word (`store`)
    history: npt.NDArray[np.int64]  # [2, n]: by colour index
    moves: npt.NDArray[np.int32]  # [PLIES, n + _ROW]: each ply's move list
    keys: npt.NDArray[np.int64]  # [PLIES, _ROW]: their ranks while a list is made
    deadline: npt.NDArray[np.float64]  # [1]: time.monotonic() when the search stops
    stop: npt.NDArray[np.int8]  # [1]: set past the deadline
    check: npt.NDArray[np.int64]  # [1]: the node count of the next look at the clock
    busy: npt.NDArray[np.int64]  # [BUSY_SIZE]: (position, move) keys being searched, or 0
    split: npt.NDArray[np.int8]  # [1]: set when other threads search the same tree
    statics: npt.NDArray[np.int64]  # [PLIES]: each ply's static worth, for its side to move


def tables(n: int, deadline: float, kept: Tables | None = None, split: bool = False) -> Tables:
    """Empty tables for a board of `n` points; with `kept`, its transposition table (an
    earlier search's, of the same board and rule: what it found of the positions it reached
    still holds, and orders this search's first depths). With `split`, another thread's
    search of the same tree, `kept`: its busy table too (see `_SPLIT_DEPTH`)."""
    return Tables(
        np.zeros((TT_SIZE, 2), dtype=np.int64) if kept is None else kept.tt,
        np.zeros((2, n), dtype=np.int64),
        np.zeros((PLIES, n + _ROW), dtype=np.int32),
        np.zeros((PLIES, _ROW), dtype=np.int64),
        np.array([deadline], dtype=np.float64),
        np.zeros(1, dtype=np.int8),
        np.zeros(1, dtype=np.int64),
        kept.busy if split and kept is not None else np.zeros(BUSY_SIZE, dtype=np.int64),
        np.array([split], dtype=np.int8),
        np.zeros(PLIES, dtype=np.int64),
    )


@lean
def root(s, t, me, depth, alpha, beta, ply):  # type: ignore[no-untyped-def]
    """`node` from Python: the state and tables pinned, so that its calls pass a pointer to
    each (`core.refs`), not their arrays."""
    return node(pin(s), pin(t), me, depth, alpha, beta, ply)


@lean
def node(sr, tr, me, depth, alpha, beta, ply):  # type: ignore[no-untyped-def]
    """The score of the position for `me`, to move, searched to `depth` within (alpha, beta),
    the state and tables by reference (`root`)."""
    s, t = deref(sr), deref(tr)
    s.nodes[0] += 1
    if s.nodes[0] >= t.check[0]:
        t.check[0] = s.nodes[0] + _CHECK_EVERY
        if clock() > t.deadline[0]:
            t.stop[0] = 1
    if t.stop[0]:
        return 0
    opp = 3 - me
    mine, _, theirs, block, top_mine, top_theirs = survey(s, me)
    if mine:
        return WIN - ply
    if theirs > 1:
        return -(WIN - ply - 1)
    row, wide = t.moves[ply], depth >= _WIDE_DEPTH
    static = evaluate(s, me)
    t.statics[ply] = static
    if theirs:
        if not may_play(sr, block, me):
            return -(WIN - ply - 1)
        row[0] = block
        count = 1
        depth = max(depth, 0) + 1  # a forced block costs no depth
    else:
        if top_theirs < FOUR and top_mine >= OPEN_FOUR and _open_four(sr, me):
            return WIN - ply - 2
        if depth <= 0 or ply >= _HORIZON or ply >= PLIES - 1:
            return _leaf(sr, tr, me, ply, top_mine >= FOUR, beta, static)
        if beta - alpha == 1 and depth <= _FUTILE_DEPTH and top_theirs < FOUR_THREE:
            grown = ply >= 3 and static > t.statics[ply - 2]
            if static - _FUTILE_MARGIN * depth + _IMPROVING * grown >= beta:
                return static  # the opponent is not expected to make up the margin
    key = _key(s, me)
    slot = key & (TT_SIZE - 1)
    data = probe(t, key, slot)
    if data:  # looked up before the moves are listed: a cut here needs no list
        score, stored, flag, move = fields(data)
        score = _rebased(score, -ply)
        if stored >= depth:
            if flag == EXACT:
                return score
            if flag == LOWER and score >= beta:
                return score
            if flag == UPPER and score <= alpha:
                return score
    if not theirs:
        three = top_theirs >= OPEN_FOUR
        if three and opp == 1 and s.renju and not _open_four(sr, opp):
            three = False  # each of Black's straight fours would be a foul: a false three
        count = _moves(sr, tr, me, opp, ply, row, three, wide)
    if data:
        _to_front(row, count, move)
    elif depth >= _IIR_DEPTH and not theirs:
        depth -= 1  # no move from the table to try first: a ply less (see `_IIR_DEPTH`)
    if depth >= _ETC_DEPTH and not theirs:
        cut = _transposed_cut(sr, tr, me, opp, row, count, depth, beta, ply)
        if cut > -2 * WIN:
            store(t, key, slot, _rebased(cut, ply), depth, LOWER, row[0])
            return cut
    start_alpha, best, best_score, played = alpha, -1, -2 * WIN, 0
    split = t.split[0] and depth >= _SPLIT_DEPTH
    total, n = count, 0
    while n < total:
        m = row[n]
        n += 1
        if not may_play(sr, m, me):
            continue
        busy = 0
        if split:
            busy = key ^ s.zob[me - 1, m]  # the position after the move
            if played and n <= count and t.busy[busy & (BUSY_SIZE - 1)] == busy:
                row[total] = m  # another thread is on it: last (see `_SPLIT_DEPTH`)
                total += 1
                continue
            t.busy[busy & (BUSY_SIZE - 1)] = busy
        quiet = s.kd[me - 1, m] < FOUR and s.kd[opp - 1, m] < FOUR
        play(sr, m, me)
        if played == 0:
            score = -node(sr, tr, opp, depth - 1, -beta, -alpha, ply + 1)
        else:
            cut = 0
            if quiet and depth >= _LATE_DEPTH and played >= _LATE:
                cut = 1 if played < _LATER else 2
            if wide and played >= _NARROW:
                cut = _WIDE_CUT
            score = -node(sr, tr, opp, depth - 1 - cut, -alpha - 1, -alpha, ply + 1)
            if cut and score > alpha and not t.stop[0]:
                score = -node(sr, tr, opp, depth - 1, -alpha - 1, -alpha, ply + 1)
            if alpha < score < beta and not t.stop[0]:
                score = -node(sr, tr, opp, depth - 1, -beta, -alpha, ply + 1)
        undo(sr, m)
        if busy and t.busy[busy & (BUSY_SIZE - 1)] == busy:
            t.busy[busy & (BUSY_SIZE - 1)] = 0
        if t.stop[0]:
            return 0
        played += 1
        if score > best_score:
            best_score, best = score, m
        if score > alpha:
            alpha = score
        if alpha >= beta:
            _cutoff(t, me, m, depth)
            break
    if not played:
        return -(WIN - ply - 1)  # every move is a foul: Black is forced to lose
    flag = EXACT
    if best_score <= start_alpha:
        flag = UPPER
    elif best_score >= beta:
        flag = LOWER
    store(t, key, slot, _rebased(best_score, ply), depth, flag, best)
    return best_score


@lean
def setups(s, a, deadline, out):  # type: ignore[no-untyped-def]
    """Write into `out` the quiet points near the stones (not a four) that `a` may play and
    after which `a`, moving again, wins by the horizon's VCF (`_horizon_vcf`): the moves
    that set up a win by fours; return how many. Past `deadline` it stops with those found
    so far."""
    sr = pin(s)
    st = deref(sr)
    c, count = a - 1, 0
    for j in range(st.cells.shape[0]):
        if st.cells[j] != 0 or st.near[j] == 0 or st.kd[c, j] >= FOUR:
            continue
        if not may_play(sr, j, a):
            continue
        play(sr, j, a)
        found = _horizon_vcf(sr, a, deadline)
        undo(sr, j)
        if found:
            out[count] = j
            count += 1
        if clock() > deadline:
            break
    return count


@lean_inline
def _rebased(score, plies):  # type: ignore[no-untyped-def]
    """`score` with a forced win or loss counted `plies` plies further from where it is read:
    stored at ply p as `_rebased(score, p)`, counted from its node, not from the root, so that
    the entry holds for a later search whose root is nearer (the player keeps its table from
    move to move); read back at ply p as `_rebased(entry, -p)`. Other scores unchanged."""
    if score >= WON:
        return score + plies
    if score <= -WON:
        return score - plies
    return score


@lean_inline
def _key(s, me):  # type: ignore[no-untyped-def]
    """The table's key of the position of `s` with `me` to move: its hash and the side's."""
    return s.hash[0] ^ s.side[me - 1]


@lean
def expected(s, t, me):  # type: ignore[no-untyped-def]
    """The move the table holds for the position of `s` with `me` to move (the best a search
    found there, or the one that refuted it), or -1 if it holds none."""
    key = _key(s, me)
    data = probe(t, key, key & (TT_SIZE - 1))
    return fields(data)[3] if data else np.int64(-1)


@lean_inline
def store(t, key, slot, score, depth, flag, move):  # type: ignore[no-untyped-def]
    """Write an entry into `slot`: one word of data (the score biased to be positive, 32
    bits; the depth, 8; the flag, 2; the move plus one, 16: never 0) and the lock word, the
    position's `key` xor that data."""
    data = (
        np.int64(score + _SCORE_BIAS)
        | (np.int64(min(depth, 0xFF)) << _DEPTH_SHIFT)
        | (np.int64(flag) << _FLAG_SHIFT)
        | (np.int64(move + 1) << _MOVE_SHIFT)
    )
    t.tt[slot, 1] = data
    t.tt[slot, 0] = key ^ data


@lean_inline
def probe(t, key, slot):  # type: ignore[no-untyped-def]
    """The data word in `slot` if it holds the position `key`, else 0: an empty slot, another
    position's entry, or one whose two words another thread has written only half of."""
    data = t.tt[slot, 1]
    if data != 0 and t.tt[slot, 0] ^ data == key:
        return data
    return np.int64(0)


@lean_inline
def fields(data):  # type: ignore[no-untyped-def]
    """The score, depth, flag and move of an entry's data word (`store`)."""
    score = (data & _SCORE_MASK) - _SCORE_BIAS
    return (
        score,
        (data >> _DEPTH_SHIFT) & 0xFF,
        (data >> _FLAG_SHIFT) & 3,
        (data >> _MOVE_SHIFT) - 1,
    )


@lean
def _transposed_cut(sr, tr, me, opp, row, count, depth, beta, ply):  # type: ignore[no-untyped-def]
    """A score of at least `beta` that the table proves for the node from the entry of a
    position one of `row[:count]` leads to (that move put first in `row`), or -2 * WIN if none
    does. The entry must be an upper bound (or exact) for the opponent searched at least to
    `depth` - 1, or to `depth` after a move making a four (the block it forces costs none)."""
    s, t = deref(sr), deref(tr)
    base = _key(s, opp)
    for n in range(count):
        m = row[n]
        child = base ^ s.zob[me - 1, m]
        data = probe(t, child, child & (TT_SIZE - 1))
        if not data:
            continue
        score, stored, flag, _ = fields(data)
        need = depth if s.kd[me - 1, m] >= FOUR else depth - 1
        if stored < need or flag == LOWER:
            continue
        score = -_rebased(score, -(ply + 1))
        if score >= beta and may_play(sr, m, me):
            _to_front(row, count, m)
            return score
    return -2 * WIN


@lean
def _open_four(sr, me):  # type: ignore[no-untyped-def]
    """Whether `me` may make an open four or double four: a point of that class that is not
    a foul (with no four of the opponent's to answer it, a win)."""
    s = deref(sr)
    for j in range(s.cells.shape[0]):
        if s.cells[j] == 0 and s.kd[me - 1, j] >= OPEN_FOUR and may_play(sr, j, me):
            return True
    return False


@lean
def _leaf(sr, tr, me, ply, fours, beta, static):  # type: ignore[no-untyped-def]
    """The horizon: `static`, the node's static worth, or a win by fours if a small VCF finds
    one when `me` has `fours` and the worth is below `beta` (at or above it the node fails high
    either way)."""
    t = deref(tr)
    if fours and static < beta and _horizon_vcf(sr, me, t.deadline[0]):
        return WIN - ply - _LEAF_VCF_DEPTH
    return static


@lean_inline
def _horizon_vcf(sr, a, deadline):  # type: ignore[no-untyped-def]
    """Whether `a`, to move, wins by the horizon's small VCF: `_LEAF_VCF_DEPTH` fours at
    most, `_LEAF_VCF_NODES` nodes."""
    limit = deref(sr).nodes[0] + _LEAF_VCF_NODES
    return vcf(sr, a, _LEAF_VCF_DEPTH, limit, deadline) >= 0


@lean
def _moves(sr, tr, me, opp, ply, row, three, wide):  # type: ignore[no-untyped-def]
    """Write into `row` the moves to search at a node with no five-point on the board, best
    first: the best-ranked points near the stones (`kernels.ranked`'s order: the top `POOL`
    by `kernels.rank_key`, re-ranked by `kernels.refine`; the first `WIDTH` of them,
    `_WIDE` more if `wide`), past ply 1 by threat tier and history; return how many. Facing
    the opponent's `three`, only the own fours and the blocks."""
    s, t = deref(sr), deref(tr)
    c, o = me - 1, opp - 1
    width = WIDTH[min(ply, len(WIDTH) - 1)] + (_WIDE if wide else 0)
    pool = max(width, POOL)
    keys = t.keys[ply]
    kept = 0
    for j in range(s.cells.shape[0]):
        if s.cells[j] != 0 or s.near[j] == 0:
            continue
        if three and s.kd[c, j] < FOUR and s.kd[o, j] < FOUR:
            continue
        key = kernels.rank_key(s.val, s.kd, c, j)
        if kept == pool and key >= keys[kept - 1]:
            continue
        k = min(kept, pool - 1)  # a full list drops its last
        while k > 0 and keys[k - 1] > key:  # insertion: ties keep the lower point first
            keys[k], row[k] = keys[k - 1], row[k - 1]
            k -= 1
        keys[k], row[k] = key, j
        kept = min(kept + 1, pool)
    kernels.refine(s.worth, s.code, c, row, 0, kept, keys)
    found = min(kept, width)
    if ply > 1:  # insertion sort: threat class, then history; stable
        for n in range(1, found):
            m = row[n]
            k = n
            while k > 0 and _before(s, t, c, m, row[k - 1]):
                row[k] = row[k - 1]
                k -= 1
            row[k] = m
    return found


@lean_inline
def _before(s, t, c, m, q):  # type: ignore[no-untyped-def]
    """Whether move `m` sorts strictly before `q` for colour `c`: a threat of a higher tier
    (`patterns.TIER`), or of the same tier and more history."""
    a, b = kernels.tier(s.kd[c, m]), kernels.tier(s.kd[c, q])
    if a != b:
        return a > b
    return t.history[c, m] > t.history[c, q]


@lean_inline
def _to_front(row, count, move):  # type: ignore[no-untyped-def]
    """Move `move` to the front of `row[:count]` if it is there."""
    for n in range(count):
        if row[n] == move:
            for k in range(n, 0, -1):
                row[k] = row[k - 1]
            row[0] = move
            return


@lean_inline
def _cutoff(t, me, move, depth):  # type: ignore[no-untyped-def]
    """Remember a move that refuted a line: a history bonus."""
    t.history[me - 1, move] += depth * depth
