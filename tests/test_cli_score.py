"""`tengen score` and the RE[] check of `tengen sgf check`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tengen.cli import main

RECORDS = Path(__file__).resolve().parent / "data" / "records"
# 5x5, Chinese, komi 0.5: Black walls column C, White column D, then a dead white stone at A4
# and two passes. Area: Black 15 (A4's point included), White 10 + 0.5, so B+4.5.
FINISHED = RECORDS / "finished.sgf"
WRONG = RECORDS / "wrong-result.sgf"  # the same game with RE[W+1.5]


def test_score_estimates_the_dead_stone_and_prints_the_map(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["score", str(FINISHED)]) == 0
    out = capsys.readouterr().out
    assert "Black: 5 stones + 10 territory = 15" in out
    assert "(B+4.5)" in out
    assert "Dead stones: A4 (estimated)" in out
    rows = [line for line in out.splitlines() if len(line) == 9 and line[1] == " "]
    assert rows == ["b b X O w", "o b X O w", "b b X O w", "b b X O w", "b b X O w"]


def test_score_with_given_dead_stones_and_other_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(FINISHED), "--dead", "A4", "--rules", "japanese"]) == 0
    out = capsys.readouterr().out
    # Territory: 10 points (A4's included) + 1 dead stone as a prisoner; White 5 + komi 0.5.
    assert "Black: 10 territory + 1 dead = 11" in out and "(B+5.5)" in out
    assert "Dead stones: A4 (given)" in out


@pytest.mark.parametrize(
    ("dead", "message"), [("Z9", "off the 5x5 board"), ("B4", "no stone at B4")]
)
def test_score_refuses_bad_dead_stones(
    dead: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", str(FINISHED), "--dead", dead]) == 1
    assert message in capsys.readouterr().err


def test_check_compares_a_counted_result_with_the_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["sgf", "check", "--no-progress", str(FINISHED), str(WRONG)]) == 0
    out = capsys.readouterr().out
    assert out.strip() == (
        f"{WRONG}: warning: RE[W+1.5] but tengen counts B+4.5 (chinese rules, komi 0.5)"
    )
    assert main(["sgf", "check", "--no-progress", "--strict", str(WRONG)]) == 1
