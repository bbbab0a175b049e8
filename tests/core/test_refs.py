"""Tuples of arrays passed by reference to compiled calls (`core.refs`)."""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np
import numpy.typing as npt
from hypothesis import given, settings
from hypothesis import strategies as st

from tengen.core.jit import interpreted, lean_options
from tengen.core.refs import deref, pin

_OPTIONS = {**lean_options(), "cache": False}  # the kernels' options, no cache files here


class _Pair(NamedTuple):
    counts: npt.NDArray[np.int64]
    marks: npt.NDArray[np.int32]
    step: int
    double: bool


@numba.njit(**_OPTIONS)
def _walk(ref, depth):  # type: ignore[no-untyped-def]
    """Writes through the tuple at every level of a recursion, reads them back after it."""
    p = deref(ref)
    p.counts[depth] += p.step * (2 if p.double else 1)
    p.marks[depth, 1] = depth
    if depth == 0:
        return p.counts[0]
    below = _walk(pin(ref), depth - 1)  # a pointer pinned again is itself
    return below + p.counts[depth] + p.marks[depth - 1, 1]


@numba.njit(**_OPTIONS)
def _start(pair, depth):  # type: ignore[no-untyped-def]
    return _walk(pin(pair), depth)


def _pair(size: int, step: int, double: bool) -> _Pair:
    return _Pair(np.zeros(size, np.int64), np.zeros((size, 2), np.int32), step, double)


@settings(max_examples=25, deadline=None)
@given(depth=st.integers(0, 12), step=st.integers(-5, 5), double=st.booleans())
def test_compiled_calls_through_a_pinned_tuple_do_what_python_does(
    depth: int, step: int, double: bool
) -> None:
    compiled, python = _pair(13, step, double), _pair(13, step, double)
    got = _start(compiled, depth)
    expected = interpreted(_start)(python, depth)  # pin and deref are the identity there
    assert got == expected
    assert np.array_equal(compiled.counts, python.counts)
    assert np.array_equal(compiled.marks, python.marks)
    assert compiled.counts[depth] == step * (2 if double else 1)


def test_deref_of_a_tuple_by_value_is_the_tuple() -> None:
    pair = _pair(3, 2, False)
    assert _walk(pair, 2) == interpreted(_walk)(_pair(3, 2, False), 2)
    assert deref(pair) is pair and pin(pair) is pair
