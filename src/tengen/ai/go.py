"""Go's simulation loop for the tree search (`tengen.ai.tree`), with `policy`'s operations.

Compiled and cached as one function: the rules calls (`core.kernels`), the playout policy
and the tree steps all inline into it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tengen.ai import tree
from tengen.ai.policy import go_candidates, go_play, go_rollout
from tengen.ai.tree import COUNT, MAX_DEPTH, MOVE, SIMULATIONS, VISITS


@njit(cache=True, nogil=True)
def search(
    table: np.ndarray,
    st0: np.ndarray,
    zh0: np.ndarray,
    meta0: np.ndarray,
    ni: np.ndarray,
    nf: np.ndarray,
    hdr: np.ndarray,
    allowed: np.ndarray,
    params: np.ndarray,
    rng: np.ndarray,
    own: np.ndarray,
    simulations: int,
    stop: np.ndarray,
) -> int:
    """Run up to `simulations` simulations from the root position (left unchanged), fewer if
    `stop[0]` is set meanwhile; return how many ran. At the root only moves with
    `allowed[move]` set are searched; final owners are added to `own`."""
    st = np.empty_like(st0)
    zh = np.empty_like(zh0)
    meta = np.empty_like(meta0)
    cells = st0.shape[1]
    moves = np.empty(cells + 1, np.int64)
    pn = np.empty(cells + 1, np.float64)
    pw = np.empty(cells + 1, np.float64)
    an = np.empty(cells + 1, np.float64)
    aw = np.empty(cells + 1, np.float64)
    amaf = np.zeros(cells + 1, np.int8)
    path = np.empty(MAX_DEPTH + 1, np.int64)
    for done in range(simulations):
        if stop[0]:
            return done
        st[:, :] = st0
        zh[:] = zh0
        meta[:] = meta0
        node = 0
        depth = 0
        path[0] = 0
        while depth < MAX_DEPTH:
            if ni[COUNT, node] == 0:
                if not tree.ready(ni, nf, node, params):
                    break
                n = go_candidates(st, zh, meta, table, moves, pn, pw, an, aw)
                if not tree.expand(ni, nf, hdr, node, meta[0], moves, pn, pw, an, aw, n):
                    break
            child = tree.select(ni, nf, node, allowed, params)
            if child < 0:
                break
            go_play(st, zh, meta, ni[MOVE, child])
            depth += 1
            path[depth] = child
            node = child
            if nf[VISITS, node] == 0.0:
                break  # a fresh leaf: play it out from here
        amaf[:] = 0
        margin = go_rollout(st, zh, meta, table, rng, amaf, own)
        hdr[SIMULATIONS] += 1
        tree.backup(ni, nf, path, depth, margin, amaf)
    return simulations
