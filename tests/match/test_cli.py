"""``tengen match`` and ``tengen tournament`` from the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tengen.cli import main
from tests.match.fakes import fake_engine


def test_gauntlet_tournament_of_builtin_players_prints_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tournament", "a=random", "b=random", "c=random", "--format", "gauntlet"]
    argv += ["--games", "2", "--size", "7", "--max-moves", "30", "-o", str(tmp_path)]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    rows = out.splitlines()
    assert rows[0].startswith("a vs b: ") and rows[1].startswith("a vs c: ")
    assert "Elo" in rows[0] and len(rows) == 5
    assert err.count("\n") == 4 and err.startswith("[1/4] ")
    assert len(list((tmp_path / "games").glob("*.sgf"))) == 4
    assert main(argv) == 0  # all played: nothing to do, the same table
    assert capsys.readouterr().out == out


def test_match_with_openings_and_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    openings = tmp_path / "openings"
    openings.mkdir()
    (openings / "one.sgf").write_text("(;GM[1]SZ[7];B[dd];W[cc];B[ee])")
    argv = ["match", "x=random", "y=random", "--games", "2", "--size", "7"]
    argv += ["--openings", str(openings), "--opening-moves", "2", "--time", "fischer:60+1"]
    argv += ["-o", str(tmp_path / "out")]
    assert main(argv) == 0
    game = next((tmp_path / "out" / "games").glob("0000-*.sgf")).read_text()
    assert ";B[dd];W[cc];B[" in game and "OT[1 fischer]" in game and "BL[" in game


def test_a_results_file_of_another_run_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["match", "x=random", "y=random", "--games", "1", "--size", "5", "-o", str(tmp_path)])
        == 0
    )
    assert (
        main(["match", "p=random", "q=random", "--games", "1", "--size", "5", "-o", str(tmp_path)])
        == 2
    )
    assert "another run" in capsys.readouterr().err


def test_sprt_stops_a_one_sided_match_early(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    passer = f"passer={fake_engine(tmp_path, 'never', 0)}"
    argv = ["match", "random=random", passer, "--games", "40", "--size", "5"]
    argv += ["--sprt", "0,200", "-o", str(tmp_path / "out")]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("random vs passer: +4 -0 =0")  # of 40: the SPRT said H1
