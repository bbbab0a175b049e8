"""The search tree as arrays and the UCT-RAVE steps over it, for any two-player game.

A tree is two arrays of nodes, ``ni`` (int32 rows MOVE, FIRST, COUNT, COLOR) and ``nf``
(float64 rows below), plus ``hdr`` (int64: nodes in use, simulations run). Node 0 is the
root; a node's children sit side by side from FIRST, COUNT of them (COUNT 0: not expanded).
COLOR is the player (1 or 2) who made the node's move, and every win count is from that
player's view: the root's COLOR is the opponent of the player to move.

The game protocol. A game's simulation loop (Go's is `tengen.ai.go.search`) walks down with
`select`, grows a leaf with `expand` once `ready`, plays out and calls `backup`. It brings
three compiled operations of its own over a position held in arrays (Go: the kernels'
``st``/``zh`` and a small int64 ``meta`` whose slot 0 is the player to move); moves are
integers in ``[0, st.shape[1]]``:

``candidates(st, zh, meta, table, moves, prior_n, prior_w) -> int``
    the moves to consider, with prior knowledge as virtual visits (> 0) and wins for the
    player to move; 0 at the end of the game.
``play(st, zh, meta, move)``
    play for the player to move and pass the turn.
``rollout(st, zh, meta, table, rng, amaf, own) -> float``
    play to the end; player 1's margin (> 0 a win, 0 a draw); mark in ``amaf`` the player
    who first made each move and add the final owners (+1 / -1) to ``own``.

(The loop is the game's, not a function here taking the operations as arguments, because
numba cannot cache code that takes functions as arguments and recompiling it costs seconds.)

The value of a child is Gelly and Silver's RAVE blend of its own win rate, the game's prior
knowledge counted as virtual results, and its all-moves-as-first (AMAF) rate, plus an
optional UCT term.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

MOVE, FIRST, COUNT, COLOR = range(4)
NI_ROWS = 4
VISITS, WINS, PRIOR_N, PRIOR_W, AMAF_N, AMAF_W, SCORE = range(7)
NF_ROWS = 7
NODES, SIMULATIONS = 0, 1

# Search parameters (a float64 array, so tuning needs no recompilation).
P_EXPAND, P_RAVE, P_UCT = range(3)
DEFAULT_PARAMS = (2.0, 1500.0, 0.0)

MAX_DEPTH = 512


def new_tree(capacity: int, root_color: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An empty tree (just the root) with room for `capacity` nodes; `root_color` made the
    move into the root (the opponent of the player to move)."""
    ni = np.empty((NI_ROWS, capacity), np.int32)
    nf = np.empty((NF_ROWS, capacity), np.float64)
    hdr = np.zeros(2, np.int64)
    ni[:, 0] = (0, -1, 0, root_color)
    nf[:, 0] = 0.0
    hdr[NODES] = 1
    return ni, nf, hdr


@njit(cache=True, nogil=True)
def select(
    ni: np.ndarray, nf: np.ndarray, node: int, allowed: np.ndarray, params: np.ndarray
) -> int:
    """The child with the best RAVE value (first of equals); -1 if none is allowed. At the
    root (node 0) only moves with `allowed[move]` set are considered."""
    first = ni[FIRST, node]
    rave = params[P_RAVE]
    uct = params[P_UCT]
    logn = math.log(nf[VISITS, node] + 1.0)
    best = -1
    best_value = -1e300
    for c in range(first, first + ni[COUNT, node]):
        if node == 0 and allowed[ni[MOVE, c]] == 0:
            continue
        n = nf[VISITS, c] + nf[PRIOR_N, c]
        q = (nf[WINS, c] + nf[PRIOR_W, c]) / n
        an = nf[AMAF_N, c]
        if an > 0.0:
            beta = an / (an + n + an * n / rave)
            q = (1.0 - beta) * q + beta * nf[AMAF_W, c] / an
        if uct > 0.0:
            q += uct * math.sqrt(logn / n)
        if q > best_value:
            best_value = q
            best = c
    return best


@njit(cache=True, nogil=True)
def ready(ni: np.ndarray, nf: np.ndarray, node: int, params: np.ndarray) -> bool:
    """Whether a leaf has been visited enough to grow children (the root always has)."""
    return node == 0 or nf[VISITS, node] >= params[P_EXPAND]


@njit(cache=True, nogil=True)
def expand(
    ni: np.ndarray,
    nf: np.ndarray,
    hdr: np.ndarray,
    node: int,
    color: int,
    moves: np.ndarray,
    pn: np.ndarray,
    pw: np.ndarray,
    an: np.ndarray,
    aw: np.ndarray,
    n: int,
) -> bool:
    """Give `node` the `n` children the game's `candidates` wrote, for `color` to play, with
    their priors as virtual visits and wins (`pn`, `pw`) and virtual AMAF results (`an`,
    `aw`); False when there are none (the game is over) or the tree is full."""
    start = hdr[NODES]
    if n == 0 or start + n > ni.shape[1]:
        return False
    for i in range(n):
        c = start + i
        ni[MOVE, c] = moves[i]
        ni[FIRST, c] = -1
        ni[COUNT, c] = 0
        ni[COLOR, c] = color
        nf[VISITS, c] = 0.0
        nf[WINS, c] = 0.0
        nf[PRIOR_N, c] = pn[i]
        nf[PRIOR_W, c] = pw[i]
        nf[AMAF_N, c] = an[i]
        nf[AMAF_W, c] = aw[i]
        nf[SCORE, c] = 0.0
    ni[FIRST, node] = start
    ni[COUNT, node] = n
    hdr[NODES] = start + n
    return True


@njit(cache=True, nogil=True)
def backup(
    ni: np.ndarray, nf: np.ndarray, path: np.ndarray, depth: int, margin: float, amaf: np.ndarray
) -> None:
    """Add the result to every node on the path and AMAF results to their siblings."""
    for i in range(depth, -1, -1):
        node = path[i]
        color = ni[COLOR, node]
        if margin > 0.0:
            win = 1.0 if color == 1 else 0.0
        elif margin < 0.0:
            win = 0.0 if color == 1 else 1.0
        else:
            win = 0.5
        nf[VISITS, node] += 1.0
        nf[WINS, node] += win
        nf[SCORE, node] += margin if color == 1 else -margin
        if i == 0:
            break
        move = ni[MOVE, node]
        if move > 0:
            amaf[move] = color  # played earlier than any deeper occurrence
        parent = path[i - 1]
        first = ni[FIRST, parent]
        for c in range(first, first + ni[COUNT, parent]):
            m = ni[MOVE, c]
            if m > 0 and amaf[m] == color:
                nf[AMAF_N, c] += 1.0
                nf[AMAF_W, c] += win


@njit(cache=True, nogil=True)
def subtree(ni: np.ndarray, nf: np.ndarray, root: int, ni2: np.ndarray, nf2: np.ndarray) -> int:
    """Copy the subtree under `root` into the empty arrays `ni2`/`nf2`, `root` becoming node
    0, children kept side by side (tree reuse). Returns the nodes copied."""
    ni2[:, 0] = ni[:, root]
    nf2[:, 0] = nf[:, root]
    queue = np.empty(ni.shape[1], np.int64)  # old index of each new node, in order
    queue[0] = root
    used = 1
    head = 0
    while head < used:
        old = queue[head]
        count = ni[COUNT, old]
        if count > 0:
            first = ni[FIRST, old]
            ni2[FIRST, head] = used
            for i in range(count):
                ni2[:, used + i] = ni[:, first + i]
                nf2[:, used + i] = nf[:, first + i]
                queue[used + i] = first + i
            used += count
        head += 1
    return used
