"""The collector pause around parse and replay: the caller's setting survives, and the cyclic
garbage of parsed trees is still collected when nothing else allocates."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from tengen.sgf import SgfError, collector, parse
from tengen.sgf.replay import replay

_RECORD = "(;GM[1]SZ[9];B[ee];W[cc];B[gg]C[ok];W[cg](;B[gc])(;B[dd]))"


@pytest.fixture
def collecting() -> Iterator[None]:
    """Run with automatic collection on, and leave it as the test found it."""
    was_on = gc.isenabled()
    gc.enable()
    yield
    if not was_on:
        gc.disable()


@pytest.mark.usefixtures("collecting")
def test_pause_and_resume_restore_the_callers_setting() -> None:
    outer = collector.pause()
    assert outer is True and not gc.isenabled()
    inner = collector.pause()  # a pause inside a pause must not switch collection back on
    collector.resume(inner)
    assert inner is False and not gc.isenabled()
    collector.resume(outer)
    assert gc.isenabled()


@pytest.mark.usefixtures("collecting")
@pytest.mark.parametrize("enabled", [True, False])
def test_parse_and_replay_leave_collection_as_they_found_it(enabled: bool) -> None:
    if not enabled:
        gc.disable()
    game, _ = replay(parse(_RECORD).games[0])
    assert game.move_number == 5
    assert gc.isenabled() is enabled
    with pytest.raises(SgfError):
        parse("no game here")
    assert gc.isenabled() is enabled


@pytest.mark.usefixtures("collecting")
def test_trees_dropped_between_parses_are_collected() -> None:
    """Each tree is cyclic (nodes point to their parents) and is made while collection is
    paused; a loop that only parses must still see them freed, not piling up. The young
    generation's count is read, as any other probe would allocate and so collect."""
    text = "(;GM[1]SZ[19]" + ";B[dd];W[pp]" * 200 + ")"
    gc.collect()
    parse(text)
    one_tree = gc.get_count()[0]
    gc.collect()
    for _ in range(50):
        parse(text)
    assert gc.get_count()[0] < 3 * one_tree  # the last tree or two, not fifty
