"""The thread count of batched calls (`tengen.batch.threads`)."""

from __future__ import annotations

from collections.abc import Iterator

import numba
import pytest

from tengen.batch import threads


@pytest.fixture
def machine(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[float, float, float]]]:
    """Readings `free_cores` will take, in order: (wall, idle seconds, own CPU seconds)."""
    readings: list[tuple[float, float, float]] = []
    monkeypatch.setattr(threads, "_look", lambda cpus: readings.pop(0))
    monkeypatch.setattr(threads, "_last", None)
    monkeypatch.setattr(threads, "cores", lambda: [0, 1])
    monkeypatch.setattr(threads, "FIRST_LOOK", 0.0)
    yield readings


def test_free_cores_count_idle_time_and_this_process_own(
    machine: list[tuple[float, float, float]],
) -> None:
    # Over one second: half a core idle, and this process used one core.
    machine += [(100.0, 50.0, 3.0), (101.0, 50.5, 4.0)]
    assert threads.free_cores() == pytest.approx(1.5)


def test_a_busy_machine_gets_one_thread(
    machine: list[tuple[float, float, float]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(numba, "get_num_threads", lambda: 2)
    # Both cores busy with other processes: no time idle, none of it this process's.
    machine += [(100.0, 50.0, 3.0), (101.0, 50.0, 3.0)]
    assert threads.choose(1024, 64) == 1


def test_an_idle_machine_gets_every_thread_the_games_can_use(
    machine: list[tuple[float, float, float]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(numba, "get_num_threads", lambda: 2)
    machine += [(100.0, 50.0, 3.0), (101.0, 52.0, 3.0)]
    assert threads.choose(1024, 64) == 2


def test_few_games_get_one_thread_without_looking_at_the_machine(
    machine: list[tuple[float, float, float]],
) -> None:
    assert threads.choose(1, 1) == 1
    assert threads.choose(127, 64) == 1
    assert machine == []  # and no reading was asked for


def test_the_callers_thread_setting_comes_back() -> None:
    before = numba.get_num_threads()
    with threads.threads_for(1, 64) as chosen:
        assert chosen == 1 == numba.get_num_threads()
    assert numba.get_num_threads() == before
