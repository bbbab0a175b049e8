"""A run on a Dask cluster (a LocalCluster of two worker processes, started here) ends as a
run on the local process pool does, and resumes the same way."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from distributed import LocalCluster

from tengen.cli import main
from tengen.match import cluster as cluster_module
from tengen.match.runner import RESULTS, load_results

ARGV = ["match", "a=random", "b=random", "--games", "4", "--size", "7", "--max-moves", "40"]


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a fresh local cluster: two worker processes of one thread each."""
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as local:
        yield local.scheduler_address


def games(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (out / "games").glob("*.sgf")}


def test_a_cluster_run_equals_a_local_run_and_resumes_without_replaying(
    tmp_path: Path, scheduler: str, capsys: pytest.CaptureFixture[str]
) -> None:
    local, remote = tmp_path / "local", tmp_path / "remote"
    assert main([*ARGV, "--workers", "2", "-o", str(local)]) == 0
    local_table = capsys.readouterr().out
    assert main([*ARGV, "--cluster", scheduler, "-o", str(remote)]) == 0
    assert capsys.readouterr().out == local_table
    assert load_results(remote / RESULTS) == load_results(local / RESULTS)
    assert games(remote) == games(local) and len(games(local)) == 4

    lines = (remote / RESULTS).read_text().splitlines()
    (remote / RESULTS).write_text("\n".join(lines[:2]) + "\n")  # as if killed after two games
    kept = [load_results(remote / RESULTS)[i].file for i in load_results(remote / RESULTS)]
    for name in games(remote):
        if f"games/{name}" not in kept:
            (remote / "games" / name).unlink()
    stamps = {f: (remote / f).stat().st_mtime_ns for f in kept}
    assert main([*ARGV, "--cluster", scheduler, "-o", str(remote)]) == 0
    out, err = capsys.readouterr()
    assert "resuming: 2 of 4" in err and out == local_table
    assert len((remote / RESULTS).read_text().splitlines()) == 4  # the other two, once each
    assert {f: (remote / f).stat().st_mtime_ns for f in kept} == stamps
    assert games(remote) == games(local)


def test_an_unreachable_scheduler_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", 0.5)
    assert main([*ARGV, "--cluster", "tcp://127.0.0.1:9", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err
    assert main([*ARGV, "--cluster", "nonsense://x", "-o", str(tmp_path)]) == 2
    assert "unknown address scheme" in capsys.readouterr().err
