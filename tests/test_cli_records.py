"""The record commands of the CLI: ``sgf info``, ``sgf check``, ``convert`` and ``diagram``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from tengen.cli import main
from tengen.records import UnreadableRecord, open_record, record_files
from tengen.sgf import GameTree, parse_file, trees_equal
from tengen.sgf.formats import load_record

DATA = Path(__file__).resolve().parent / "data"
RECORDS = DATA / "records"
FORMATS = DATA / "formats"
GAME = RECORDS / "game.sgf"  # a clean 9x9 game: ten moves on the main line, one variation
BROKEN = RECORDS / "broken.sgf"  # occupied points at move 3 and at move 6 of a variation
QUIRKS = RECORDS / "quirks.sgf"  # an FF[3] lower-case property name, repaired with a warning
NOTES = RECORDS / "notes.sgf"  # no game tree at all
COLLECTION = RECORDS / "collection.sgf"  # two games


def run(*argv: str | Path) -> subprocess.CompletedProcess[str]:
    """``python -m tengen ARGV`` in a child process."""
    command = [sys.executable, "-m", "tengen", *map(str, argv)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


# -- records ---------------------------------------------------------------------------------


def test_open_record_reads_sgf_and_other_formats() -> None:
    assert len(open_record(COLLECTION).games) == 2
    assert open_record(QUIRKS).warnings
    gib = open_record(FORMATS / "tiny.gib")
    assert gib.warnings == []
    assert trees_equal(gib.games[0].root, load_record(FORMATS / "tiny.gib").root)


@pytest.mark.parametrize(
    ("path", "where"),
    [(NOTES, f"{NOTES}:1:1"), (RECORDS / "missing.sgf", f"{RECORDS / 'missing.sgf'}")],
)
def test_open_record_names_the_file_and_place_of_errors(path: Path, where: str) -> None:
    with pytest.raises(UnreadableRecord) as caught:
        open_record(path)
    assert caught.value.where == where
    assert str(caught.value) == f"{where}: {caught.value.message}"


def test_open_record_names_the_line_of_a_bad_gib(tmp_path: Path) -> None:
    bad = tmp_path / "bad.gib"
    bad.write_text("\\HS\n\\HE\n\\GS\nSTO 0 1 1 99 99\n\\GE\n")
    with pytest.raises(UnreadableRecord) as caught:
        open_record(bad)
    assert caught.value.where.startswith(f"{bad}:")


def test_record_files_expands_directories() -> None:
    found = list(record_files([RECORDS, FORMATS / "tiny.gib"]))
    assert found[-1] == str(FORMATS / "tiny.gib")
    assert str(GAME) in found and str(NOTES) in found
    assert found[:-1] == sorted(found[:-1])


# -- tengen sgf info -------------------------------------------------------------------------


def test_info_lists_the_facts_of_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sgf", "info", str(GAME)]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == str(GAME)
    facts = dict(line.split(None, 1) for line in lines[1:] if line)
    assert facts == {
        "Game": "Go",
        "Black": "Kuro (3k)",
        "White": "Shiro (2d)",
        "Result": "W+R",
        "Rules": "Japanese",
        "Komi": "6.5",
        "Handicap": "0",
        "Board": "9x9",
        "Date": "2024-03-01",
        "Moves": "10",
        "Variations": "2",
        "Nodes": "13",
    }
    assert err.startswith("1 file, 1 game, 0 errors, 0 warnings in ")


def test_info_on_a_collection_and_other_formats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sgf", "info", str(COLLECTION), str(FORMATS / "pass.ngf")]) == 0
    out, _ = capsys.readouterr()
    assert f"{COLLECTION}: game 1\n" in out and f"{COLLECTION}: game 2\n" in out
    assert "  Board       13x13\n" in out and "  Handicap    2\n" in out
    assert "  Black       blackguy (3k*)\n" in out and "  Result      B+T\n" in out


def test_info_reports_an_unreadable_file_and_goes_on(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sgf", "info", str(NOTES), str(GAME)]) == 1
    out, err = capsys.readouterr()
    assert f"{NOTES}:1:1: error: no SGF game tree found" in err
    assert out.startswith(f"{GAME}\n")
    assert "2 files, 1 game, 1 error, 0 warnings" in err


# -- tengen sgf check ------------------------------------------------------------------------


def test_check_a_good_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sgf", "check", str(GAME), str(FORMATS / "tiny.gib")]) == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert "2 files, 2 games, 0 errors, 0 warnings" in err


def test_check_lists_illegal_moves_with_move_number_and_path(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["sgf", "check", str(BROKEN)]) == 1
    out, _ = capsys.readouterr()
    assert out.splitlines() == [
        f"{BROKEN}: move 3: error: illegal move B[cc]: occupied",
        f"{BROKEN}: move 6, path 0*4.1.0: error: illegal move W[bb]: occupied",
    ]


def test_check_warnings_fail_only_under_strict(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sgf", "check", str(QUIRKS)]) == 0
    out, _ = capsys.readouterr()
    assert out.startswith(f"{QUIRKS}:2:1: warning: ")
    assert main(["sgf", "check", "--strict", str(QUIRKS)]) == 1


def test_check_a_directory_reports_every_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sgf", "check", str(RECORDS), str(RECORDS / "missing.sgf")]) == 1
    out, err = capsys.readouterr()
    assert f"{NOTES}:1:1: error: no SGF game tree found" in out
    assert f"{RECORDS / 'missing.sgf'}: error: No such file or directory" in out
    assert "8 files, 7 games, 4 errors, 2 warnings" in err  # one: wrong-result.sgf's RE


def test_progress_bar_only_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    main(["sgf", "check", "--progress", str(GAME), str(QUIRKS)])
    _, err = capsys.readouterr()
    assert f"\r[{'-' * 20}] 0/2 " in err and "game.sgf" in err
    main(["sgf", "check", str(GAME)])  # capsys's stderr is not a terminal
    _, err = capsys.readouterr()
    assert "\r" not in err


def test_check_in_a_child_process_never_shows_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sgf"
    bad.write_bytes(b"(;SZ[9]C[\xff\xfe];B[ee];W[ee]")  # unclosed, no CA
    result = run("sgf", "check", bad, NOTES, GAME)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"{bad}: move 2: error: illegal move W[ee]: occupied" in result.stdout
    assert "3 files, 2 games" in result.stderr


# -- tengen convert --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["tiny.gib", "pass.ngf", "handicap.ugf", "five.psq"])
def test_convert_other_formats_to_sgf(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["convert", str(FORMATS / name), "-o", str(tmp_path)]) == 0
    written = tmp_path / (Path(name).stem + ".sgf")
    data = written.read_bytes()
    assert b"CA[UTF-8]" in data
    again = parse_file(written, strict=True)
    assert trees_equal(again.games[0].root, _with_utf8(load_record(FORMATS / name)).root)
    assert "1 file, 1 game, 1 written, 0 errors" in capsys.readouterr().err


def _with_utf8(tree: GameTree) -> GameTree:
    """The tree as written: convert always declares UTF-8."""
    tree.root.set_raw("CA", ["UTF-8"])
    return tree


def test_convert_refuses_to_overwrite_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "game.sgf"
    target.write_text("keep me")
    assert main(["convert", str(GAME), str(NOTES), str(QUIRKS), "-o", str(tmp_path)]) == 1
    _, err = capsys.readouterr()
    assert f"{GAME}: error: {target} exists (use --force to overwrite)" in err
    assert f"{NOTES}:1:1: error: no SGF game tree found" in err
    assert target.read_text() == "keep me"
    assert (tmp_path / "quirks.sgf").exists()
    assert "3 files, 2 games, 1 written, 2 errors, 1 warning" in err
    assert main(["convert", "--force", str(GAME), "-o", str(tmp_path)]) == 0
    assert trees_equal(
        parse_file(target).games[0].root, _with_utf8(open_record(GAME).games[0]).root
    )


def test_convert_never_overwrites_what_the_run_wrote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "in" / "game.gib"
    other.parent.mkdir()
    other.write_bytes((FORMATS / "tiny.gib").read_bytes())
    out = tmp_path / "out"
    assert main(["convert", "--force", str(GAME), str(other), "-o", str(out)]) == 1
    assert f"{out / 'game.sgf'} was written from {GAME} in this run" in capsys.readouterr().err
    assert b"Kuro" in (out / "game.sgf").read_bytes()


def test_convert_in_a_child_process(tmp_path: Path) -> None:
    result = run("convert", NOTES, FORMATS / "tiny.gib", "-o", tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"{NOTES}:1:1: error: no SGF game tree found" in result.stderr
    assert (tmp_path / "tiny.sgf").exists()
    assert not (tmp_path / "notes.sgf").exists()


# -- tengen diagram --------------------------------------------------------------------------


def test_diagram_as_text_after_a_move(tmp_path: Path) -> None:
    out = tmp_path / "d.txt"
    assert main(["diagram", str(GAME), "--move", "2", "-o", str(out)]) == 0
    text = out.read_text()
    assert text.splitlines()[0].split() == list("ABCDEFGHJ")
    assert text.count("X") == 1 and text.count("O") >= 1


def test_diagram_of_numbered_moves_with_notes(tmp_path: Path) -> None:
    out = tmp_path / "d.txt"
    assert main(["diagram", str(GAME), "--moves", "3-8", "-o", str(out)]) == 0
    text = out.read_text()
    for number in range(3, 9):
        assert f" {number} " in text


def test_diagram_svg_and_png_with_labels(tmp_path: Path) -> None:
    svg, png = tmp_path / "d.svg", tmp_path / "d.png"
    assert main(["diagram", str(GAME), "--labels", "-o", str(svg)]) == 0
    assert "<svg" in svg.read_text()
    assert "B1:" in svg.read_text()
    assert main(["diagram", str(COLLECTION), "--game", "2", "-o", str(png)]) == 0
    with Image.open(png) as image:
        assert image.format == "PNG" and image.width > 100


def test_diagram_failures_are_messages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d.txt"
    assert main(["diagram", str(GAME), "--move", "40", "-o", str(out)]) == 1
    assert "outside the game's moves" in capsys.readouterr().err
    assert main(["diagram", str(COLLECTION), "--game", "3", "-o", str(out)]) == 1
    assert "no game 3: the file holds 2 games" in capsys.readouterr().err
    assert main(["diagram", str(NOTES), "-o", str(out)]) == 1
    assert f"tengen diagram: {NOTES}:1:1: no SGF game tree found" in capsys.readouterr().err
    assert not out.exists()
    with pytest.raises(SystemExit) as exit_:
        main(["diagram", str(GAME), "-o", str(tmp_path / "d.jpg")])
    assert exit_.value.code == 2


def test_diagram_in_a_child_process(tmp_path: Path) -> None:
    out = tmp_path / "d.svg"
    result = run("diagram", FORMATS / "handicap.ugf", "--moves", "1-2", "-o", out)
    assert result.returncode == 0, result.stderr
    assert "<svg" in out.read_text()


def test_check_skips_games_it_does_not_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.sgf"
    other.write_text("(;GM[19];B[aa];W[aa])")
    assert main(["sgf", "check", str(other), str(FORMATS / "five.psq")]) == 0
    out, _ = capsys.readouterr()
    assert out == f"{other}: warning: GM[19] is not a game tengen plays: moves not checked\n"


def test_sgf_without_an_action_shows_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sgf"]) == 2
    help_text = capsys.readouterr().err
    assert help_text.startswith("usage: tengen sgf") and "check" in help_text
