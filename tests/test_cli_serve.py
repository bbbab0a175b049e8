"""`tengen serve` hands its options to the web app's own parser."""

from __future__ import annotations

import pytest

from tengen.cli import main


def test_serve_help_lists_the_web_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["serve", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "tengen serve" in out and "--port" in out and "--engine" in out


def test_serve_refuses_an_unknown_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["serve", "--colour", "blue"])
    assert done.value.code == 2
    assert "--colour" in capsys.readouterr().err


@pytest.mark.parametrize("seconds", ["0", "-1", "3601", "nan"])
def test_serve_refuses_a_brain_time_it_cannot_give(
    capsys: pytest.CaptureFixture[str], seconds: str
) -> None:
    # 0 is the protocol's "as fast as possible", but Rapfi reads a 0 turn and match as no limit.
    with pytest.raises(SystemExit) as done:
        main(["serve", "--gomoku-engine-seconds", seconds])
    assert done.value.code == 2
    assert "--gomoku-engine-seconds" in capsys.readouterr().err
