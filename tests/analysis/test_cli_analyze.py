"""`tengen analyze`: annotated copies under the output folder, mistakes printed, resumable
(also after Ctrl-C), parallel workers, and clear refusals."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tengen.cli import main
from tengen.sgf import parse

DATA = Path(__file__).parent / "data"
END = DATA / "abandoned_group_end.sgf"


def _inputs(tmp_path: Path, count: int) -> Path:
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    for i in range(count):
        shutil.copy(END, folder / ("sub" if i % 2 else ".") / f"g{i}.sgf")
    return folder


def test_records_are_annotated_and_mistakes_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    args = ["analyze", str(_inputs(tmp_path, 2)), "--visits", "300", "--threads", "2"]
    assert main([*args, "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.count("Black: move 11 J9 -") == 2 and "(better E5)" in printed
    for written in (out / "g0.sgf", out / "sub" / "g1.sgf"):
        line = parse(written.read_bytes()).games[0].main_line()
        assert all(n.get_raw("SBKV") and n.get_raw("SBKS") for n in line)
        assert float(line[-1].get_raw("SBKS")[0]) < -8  # White far ahead after the capture
        assert "better: E5" in line[-2].get("C")
    # The same command again: nothing left to do.
    stamp = (out / "g0.sgf").stat().st_mtime_ns
    assert main([*args, "-o", str(out)]) == 0
    assert "resuming: 2 of 2" in capsys.readouterr().err
    assert (out / "g0.sgf").stat().st_mtime_ns == stamp


def test_parallel_workers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    folder = _inputs(tmp_path, 3)
    args = [str(folder), "--visits", "20", "--threads", "1", "--workers", "2", "-o", str(out)]
    assert main(["analyze", *args]) == 0
    assert sorted(p.name for p in out.rglob("*.sgf")) == ["g0.sgf", "g1.sgf", "g2.sgf"]


def test_bad_records_are_reported_and_engines_that_cannot_analyse_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], gnugo: str
) -> None:
    bad = tmp_path / "bad.sgf"  # missing
    assert main(["analyze", str(bad), "--visits", "5", "-o", str(tmp_path / "o")]) == 1
    assert "bad.sgf: cannot read" in capsys.readouterr().out
    args = ["analyze", str(END), "--engine", f"{gnugo} --mode gtp", "-o", str(tmp_path / "p")]
    assert main(args) == 2
    assert "cannot analyse" in capsys.readouterr().err


def test_ctrl_c_stops_and_the_same_command_resumes(tmp_path: Path) -> None:
    out = tmp_path / "out"
    folder = _inputs(tmp_path, 3)
    command = [sys.executable, "-m", "tengen", "analyze", str(folder), "--visits", "1500",
               "--threads", "1", "-o", str(out)]  # fmt: skip
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as run:
        while not list(out.rglob("*.sgf")) and run.poll() is None:
            time.sleep(0.1)
        run.send_signal(signal.SIGINT)
        _, err = run.communicate(timeout=120)
    assert run.returncode == 130, err
    assert b"the same command analyses the rest" in err
    first = {p.name for p in out.rglob("*.sgf")}
    assert 1 <= len(first) < 3 and not list(out.rglob("*.tmp"))
    again = subprocess.run(command, capture_output=True, timeout=600)
    assert again.returncode == 0
    assert f"resuming: {len(first)} of 3".encode() in again.stderr
    assert len(list(out.rglob("*.sgf"))) == 3


def test_a_dask_cluster_analyses_the_records(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed", reason="the cluster extra is not installed")
    out = tmp_path / "out"
    folder = _inputs(tmp_path, 2)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as local:
        args = [str(folder), "--visits", "20", "--threads", "1", "-o", str(out)]
        assert main(["analyze", *args, "--cluster", local.scheduler_address]) == 0
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.sgf"))
    assert written == ["g0.sgf", "sub/g1.sgf"]
    assert all(b"SBKV[" in (out / name).read_bytes() for name in written)
