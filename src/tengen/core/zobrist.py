"""Zobrist keys for position hashing, fixed by a named seed so hashes are stable across runs.

Each (colour, cell) of a padded board gets a 64-bit key; an empty board hashes to 0. Tables are
built once per board shape and shared.
"""

from __future__ import annotations

import hashlib
from functools import cache

import numpy as np
from numba import njit

_SEED_NAME = b"tengen zobrist v1"


@cache
def table(width: int, height: int, cells: int) -> np.ndarray:
    """Read-only int64 keys, laid out as the kernels expect: ``[1 + (colour-1) * cells + loc]``.

    Slot 0 is left 0 (the kernels keep the running hash there in each board's copy).
    """
    seed = int.from_bytes(hashlib.sha256(_SEED_NAME + f"{width}x{height}".encode()).digest()[:8])
    rng = np.random.Generator(np.random.PCG64(seed))
    keys = rng.integers(
        np.iinfo(np.int64).min,
        np.iinfo(np.int64).max,
        size=1 + 2 * cells,
        dtype=np.int64,
        endpoint=True,
    )
    keys[0] = 0
    keys.flags.writeable = False
    return keys


def side_key(width: int, height: int) -> int:
    """The key XORed into a hash to mark "white to play" (situational superko)."""
    seed = hashlib.sha256(_SEED_NAME + f"side {width}x{height}".encode()).digest()[:8]
    return int.from_bytes(seed, signed=True)


def situation(position: int, white_to_play: bool, side: int) -> int:
    """What situational superko remembers: the position's hash with `side` (`side_key`) XORed
    in when White is to play. With `side` 0 it is the position's hash: positional superko.
    The one definition of the key; `situation_compiled` is it for the kernels."""
    return position ^ side if white_to_play else position


situation_compiled = njit(cache=True, inline="always")(situation)
