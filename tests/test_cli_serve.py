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
