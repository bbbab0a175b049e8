"""The kernels' interpreted twins and the switch to the compiled kernels (`core.jit`)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tengen.core import jit, kernels, rebuild
from tengen.core.board import Board


def run_python(code: str, env: dict[str, str], timeout: float = 120) -> list[str]:
    """Run `code` in a fresh interpreter with `env` added; its output lines."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@given(
    size=st.integers(2, 7),
    moves=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=60),
    suicide=st.booleans(),
)
def test_twins_play_exactly_as_the_compiled_kernels(
    size: int, moves: list[tuple[int, int]], suicide: bool
) -> None:
    compiled, twin = Board(size), Board(size)
    try_play, legal_points, undo = (
        jit.interpreted(kernels.try_play),
        jit.interpreted(kernels.legal_points),
        jit.interpreted(rebuild.undo),
    )
    cells = compiled.state.shape[1]
    played = []
    for i, (col, row) in enumerate(moves):
        if col >= size or row >= size:
            continue
        loc = (row + 1) * (size + 1) + col + 1
        color = 1 + i % 2
        want = kernels.try_play(compiled.state, compiled.hashes, loc, color, suicide, False)
        got = try_play(twin.state, twin.hashes, loc, color, suicide, False)
        assert tuple(int(x) for x in got) == tuple(int(x) for x in want)
        if want[1]:
            played.append(want)
        listed = []
        for board, fn in ((compiled, kernels.legal_points), (twin, legal_points)):
            locs, hashes = np.zeros(cells, np.int32), np.zeros(cells, np.int64)
            n = fn(board.state, board.hashes, 3 - color, suicide, True, locs, hashes)
            listed.append((int(n), locs.tolist(), hashes.tolist()))
        assert listed[0] == listed[1]
        assert np.array_equal(compiled.state, twin.state)
        assert np.array_equal(compiled.hashes, twin.hashes)
    for _, packed, prev_order, prev_hash, _ in reversed(played):
        rebuild.undo(compiled.state, compiled.hashes, packed, prev_order, prev_hash)
        undo(twin.state, twin.hashes, packed, prev_order, prev_hash)
        assert np.array_equal(compiled.state, twin.state)


def test_a_cold_start_plays_at_once_then_switches_to_the_compiled_kernels(
    tmp_path: Path,
) -> None:
    lines = run_python(
        """
        from tengen import Game, Point
        from tengen.core import game, jit, kernels
        g = Game(9)
        g.play(Point(2, 2))
        g.legal_moves()
        print(jit.ready(), game.k.try_play is kernels.try_play)
        """,
        {"TENGEN_JIT": "background", "NUMBA_CACHE_DIR": str(tmp_path)},
    )
    # On an empty cache nothing is compiled by the time the first move is played.
    assert lines == ["False", "False"]


def test_the_warm_up_hands_over_the_compiled_kernels() -> None:
    lines = run_python(
        """
        from tengen import Game, Point
        from tengen.core import game, jit, kernels
        g = Game(9)
        g.play(Point(2, 2))
        print(jit.wait(300), game.k.try_play is kernels.try_play)
        g.play(Point(3, 3))
        print(sorted(str(s) for s in kernels.try_play.signatures) != [])
        """,
        {"TENGEN_JIT": "background"},
        timeout=400,  # on an empty cache the warm-up compiles what the suite has not yet
    )
    assert lines == ["True", "True", "True"]


def test_interpreted_mode_never_compiles() -> None:
    lines = run_python(
        """
        from tengen import Game, Point
        from tengen.core import jit, kernels
        g = Game(9)
        g.play(Point(2, 2))
        print(jit.wait(0.5), len(kernels.try_play.signatures))
        """,
        {"TENGEN_JIT": "interpreted"},
    )
    assert lines == ["False", "0"]


def test_a_caller_kept_waiting_for_the_kernels_is_told_why(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A first call after an install may wait minutes for numba: the wait says so once it
    passes a second, and a short wait says nothing."""
    monkeypatch.setenv("TENGEN_JIT", "background")
    monkeypatch.setattr(jit, "_ready", threading.Event())  # kernels still compiling
    monkeypatch.setattr(jit, "_started", True)  # no warm-up thread: they never get ready
    monkeypatch.setattr(jit, "NOTICE_AFTER", 0.2)
    assert jit.wait(0.1) is False
    assert not caplog.records
    assert jit.wait(0.4) is False
    assert [r.getMessage().split(" (")[0] for r in caplog.records] == [
        "tengen: waiting for its compiled kernels"
    ]
    assert caplog.records[0].levelname == "WARNING"


def test_an_unknown_mode_is_named() -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TENGEN_JIT", "eager")
        with pytest.raises(ValueError, match=r"TENGEN_JIT must be one of .* not 'eager'"):
            jit.mode()


def test_an_edit_of_a_called_module_drops_the_cached_kernels(tmp_path: Path) -> None:
    # numba checks a cached kernel against its own file only: `outer` keeps the `inner` it
    # was compiled with. This test first shows that of numba itself, then that the check of
    # the package's sources drops the cache so that the edit counts.
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "inner.py").write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef value():\n    return 1\n"
    )
    (package / "outer.py").write_text(
        "from numba import njit\nfrom pkg.inner import value\n\n"
        "@njit(cache=True)\ndef outer():\n    return value() + 10\n"
    )
    env = {"PYTHONPATH": str(tmp_path), "NUMBA_CACHE_DIR": ""}
    check = f"""
        import sys
        from pathlib import Path
        from tengen.core import jit
        if sys.argv[-1] == "check":
            jit.drop_stale_cache(Path({str(package)!r}), Path({str(tmp_path / "marks")!r}))
        from pkg.outer import outer
        print(outer())
        """

    def run(*args: str) -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(check), *args],
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert run("check") == ["11"]
    (package / "inner.py").write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef value():\n    return 2\n"
    )
    assert run() == ["11"]  # numba alone: the old `value`
    assert run("check") == ["12"]
    assert run() == ["12"]
    assert not jit.drop_stale_cache(package, tmp_path / "marks")  # the mark holds
