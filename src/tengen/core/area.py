"""The area count, compiled: Tromp-Taylor's rule that a point belongs to a colour when it holds
that colour's stone, or is empty and reaches stones of that colour only.

The one implementation of the count over a kernel state (`core.layout`): the playouts'
ownership, the search's result of a playout (`ai.policy`), the batch's scores and the scoring
module's empty regions all call these, so they cannot count differently.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tengen.core.layout import BLACK, COLOR, EMPTY, H_HEIGHT, H_STRIDE, H_WIDTH, HDR, WHITE


@njit(cache=True, nogil=True)
def label_regions(st: np.ndarray, label: np.ndarray, reach: np.ndarray) -> int:
    """Number the empty regions (maximal sets of empty points joined orthogonally): on return
    `label[loc]` is the region of each empty point (-1 for a stone or a wall cell) and
    `reach[region]` the colours of the stones around it (bit BLACK | bit WHITE, 0 for none).
    Returns how many regions there are. `label` and `reach` have one slot per cell."""
    stride = st[HDR, H_STRIDE]
    label[:] = -1
    stack = np.empty(st.shape[1], np.int32)
    regions = 0
    for r in range(st[HDR, H_HEIGHT]):
        for c in range(st[HDR, H_WIDTH]):
            start = (r + 1) * stride + c + 1
            if st[COLOR, start] != EMPTY or label[start] >= 0:
                continue
            label[start] = regions
            stack[0] = start
            top, seen = 1, 0
            while top > 0:
                top -= 1
                loc = stack[top]
                for a in (loc - stride, loc - 1, loc + 1, loc + stride):
                    v = st[COLOR, a]
                    if v == EMPTY:
                        if label[a] < 0:
                            label[a] = regions
                            stack[top] = a
                            top += 1
                    elif v in (BLACK, WHITE):
                        seen |= v
            reach[regions] = seen
            regions += 1
    return regions


@njit(cache=True, nogil=True)
def owners(st: np.ndarray, owner: np.ndarray, label: np.ndarray, reach: np.ndarray) -> int:
    """Write each point's owner by the area rule into `owner[loc]` (BLACK, WHITE, or EMPTY for
    a point that reaches both colours or none; walls EMPTY) and return Black's area minus
    White's. `label` and `reach` are work space for `label_regions`."""
    label_regions(st, label, reach)
    owner[:] = EMPTY
    stride = st[HDR, H_STRIDE]
    margin = 0
    for r in range(st[HDR, H_HEIGHT]):
        for c in range(st[HDR, H_WIDTH]):
            loc = (r + 1) * stride + c + 1
            v = st[COLOR, loc]
            if v == EMPTY:
                v = reach[label[loc]]
            if v == BLACK:
                margin += 1
            elif v == WHITE:
                margin -= 1
            else:
                v = EMPTY
            owner[loc] = v
    return margin
