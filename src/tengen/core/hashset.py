"""An open-addressing set of 64-bit position hashes for compiled code: the superko history
of `core.replay` and `tengen.batch`.

The table is an int64 array whose length is a power of two, kept well under full by the
caller; 0 marks a free slot, so 0, the hash of the empty board every game starts from, always
reads as present.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def _slot(table: np.ndarray, h: int) -> int:
    """The slot holding `h`, else the free slot it would take."""
    mask: int = table.shape[0] - 1
    i = h & mask
    while table[i] != 0 and table[i] != h:
        i = (i + 1) & mask
    return i


@njit(cache=True, inline="always")
def contains(table: np.ndarray, h: int) -> bool:
    """Whether hash `h` is in the set."""
    return bool(table[_slot(table, h)] == h)


@njit(cache=True, inline="always")
def add(table: np.ndarray, h: int) -> None:
    """Put hash `h` in the set."""
    table[_slot(table, h)] = h
