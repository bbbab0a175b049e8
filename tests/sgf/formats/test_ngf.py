"""WBaduk NGF: the Sabaki and KaTrain samples, both header dialects, passes, and errors."""

from __future__ import annotations

import pytest

from tengen.sgf.formats import RecordError, ngf
from tests.sgf.formats.support import DATA, corpus, info, moves, replay


def test_even_game() -> None:
    tree = ngf.load(corpus("sabaki_app_tests/ngf/even.ngf"))
    # Komi line "7" with no handicap is 7.5 (the half point is implied); "9DP" is 9 pro.
    assert info(tree, "PB", "BR", "PW", "WR", "DT", "KM", "HA", "RE", "EV", "PC", "SZ") == {
        "PB": ["CYY"],
        "BR": ["9p"],
        "PW": ["LQC"],
        "WR": ["9p"],
        "DT": ["2017-03-16"],
        "KM": ["7.5"],
        "RE": ["B+0.5"],
        "EV": ["Rated game"],
        "PC": ["www.cyberoro.com"],
        "SZ": ["19"],
    }
    line = tree.main_line()
    # PMABBREER: Black at column R (16, letters from B), row E (3) -> qd.
    assert moves(line[1:5]) == ["B[qd]", "W[dd]", "B[pq]", "W[dp]"]
    assert len(line) - 1 == 333  # the header's twelfth line says 333 too
    replay(line)


@pytest.mark.parametrize("folder", ["sabaki_app_tests/ngf", "katrain_test_data"])
def test_handicap_game(folder: str) -> None:
    tree = ngf.load(corpus(f"{folder}/handicap2.ngf"))
    # Handicap 2 with komi line "0": no half point in a handicap game.
    assert info(tree, "PB", "BR", "PW", "WR", "DT", "KM", "HA", "AB", "RE") == {
        "PB": ["p81587"],
        "BR": ["5d*"],
        "PW": ["ace550"],
        "WR": ["7d*"],
        "DT": ["2017-03-16"],
        "KM": ["0"],
        "HA": ["2"],
        "AB": ["pd", "dp"],
        "RE": ["W+R"],  # "White wins by  resign!"
    }
    line = tree.main_line()
    assert moves(line[1:3]) == ["W[pq]", "B[dd]"]  # PMABWQRRQ, PMACBEEEE
    assert len(line) - 1 == 189
    replay(line)


def test_gi_dialect_in_gb2312() -> None:
    tree = ngf.load(corpus("sabaki_app_tests/ngf/gb2312.ngf"))
    # GI lines: 韩国十段战 (event), 朴承华 初段 (White, 1 dan), 李载雄 五段 (Black, 5 dan),
    # date 2006-9-5, size 19, handicap 0, komi 6 (+0.5), 211 moves; "IDB[211] 黑中盘胜" is
    # Black winning by resignation.
    assert info(tree, "PB", "BR", "PW", "WR", "DT", "KM", "HA", "RE", "EV") == {
        "PB": ["李载雄"],
        "BR": ["5d"],
        "PW": ["朴承华"],
        "WR": ["1d"],
        "DT": ["2006-09-05"],
        "KM": ["6.5"],
        "RE": ["B+R"],
        "EV": ["韩国十段战"],
    }
    line = tree.main_line()
    assert len(line) - 1 == 211
    assert moves(line[1:5]) == ["B[qd]", "W[dd]", "B[pq]", "W[oc]"]
    replay(line)


def test_small_board_passes_and_loss_on_time() -> None:
    tree = ngf.load(DATA / "pass.ngf")
    assert info(tree, "SZ", "PB", "BR", "PW", "WR", "KM", "RE", "DT") == {
        "SZ": ["9"],
        "PB": ["blackguy"],
        "BR": ["3k*"],
        "PW": ["whiteguy"],
        "WR": ["2k"],
        "KM": ["6.5"],
        "RE": ["B+T"],  # "White loses on time"
        "DT": ["2020-01-01"],
    }
    line = tree.main_line()
    # AAAA (one below the board) and KKKK (one past a 9x9 board) are both passes.
    assert moves(line[1:]) == ["B[ee]", "W[cc]", "B[]", "W[]", "B[gc]"]
    replay(line)


@pytest.mark.parametrize(
    ("change", "line", "message"),
    [
        (("\n9\n", "\nnine\n"), 2, "bad board size"),
        (("\n9\n", "\n30\n"), 2, "not 2 to 25"),
        (("www.wbaduk.com\n0\n", "www.wbaduk.com\n12\n"), 6, "invalid handicap 12"),
        (("PMAFBHDDH", "PMAFBHMMH"), 17, "off the 9x9 board"),
        (("PMAFBHDDH", "PMAFXHDDH"), 17, "bad move line"),
    ],
)
def test_malformed_files_name_the_line(change: tuple[str, str], line: int, message: str) -> None:
    text = (DATA / "pass.ngf").read_text().replace(*change)
    with pytest.raises(RecordError, match=message) as caught:
        ngf.load(text.encode())
    assert caught.value.line == line


def test_short_header() -> None:
    with pytest.raises(RecordError, match="header has 3 of its 11 lines"):
        ngf.load(b"Rated game\n19\nsomeone 1k")
