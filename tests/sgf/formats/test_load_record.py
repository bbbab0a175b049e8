"""Dispatch on the file extension, and the SGF the imported trees serialise to."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tengen.sgf import parse, serialise
from tengen.sgf.formats import FORMATS, RecordError, load_record
from tests.sgf.formats.support import DATA, moves


def test_formats() -> None:
    assert sorted(FORMATS) == [".gib", ".ngf", ".psq", ".ugf", ".ugi"]


@pytest.mark.parametrize(
    "name", ["tiny.gib", "unfinished.gib", "pass.ngf", "handicap.ugf", "five.psq", "corners.psq"]
)
def test_every_fixture_survives_sgf(name: str) -> None:
    tree = load_record(DATA / name)
    again = parse(serialise(tree), strict=True)
    assert not again.warnings
    (game,) = again.games
    assert game.root.properties == {"CA": ["UTF-8"], **tree.root.properties}
    assert moves(game.main_line()) == moves(tree.main_line())


def test_extension_case_is_ignored(tmp_path: Path) -> None:
    copy = tmp_path / "GAME.NGF"
    shutil.copy(DATA / "pass.ngf", copy)
    assert load_record(str(copy)).root.properties["SZ"] == ["9"]


def test_unknown_extension(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="not a format tengen imports"):
        load_record(tmp_path / "game.sgf")


def test_missing_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_record(tmp_path / "missing.gib")
