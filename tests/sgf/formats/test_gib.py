"""Tygem GIB: the Sabaki and KaTrain samples, own fixtures for the edge cases, and errors."""

from __future__ import annotations

import pytest

from tengen.sgf.formats import RecordError, gib
from tests.sgf.formats.support import DATA, corpus, info, moves, replay

KEYS = ("PB", "BR", "PW", "WR", "DT", "KM", "HA", "AB", "RE", "EV", "PC", "SZ", "GM")


def test_utf8_handicap_game() -> None:
    tree = gib.load(corpus("sabaki_app_tests/gib/utf8.gib"))
    # INI 0 1 3: three stones; GAMEGONGJE=0, so komi 0 (GAMEDUM=5 is only in the comment);
    # GRLT:255 is an unfinished game, hence no RE.
    assert info(tree, *KEYS) == {
        "PB": ["jy512"],
        "BR": ["15k"],
        "PW": ["leejw977"],
        "WR": ["10k"],
        "DT": ["2016-03-26"],
        "KM": ["0"],
        "HA": ["3"],
        "AB": ["pd", "dp", "dd"],
        "EV": ["Free"],
        "PC": ["Tygem Baduk"],
        "SZ": ["19"],
        "GM": ["1"],
    }
    assert tree.root.properties["GC"] == ["3 Handicap : White Dum(5)"]
    line = tree.main_line()
    # STO 0 2 2 15 15: White at column 15, row 15 from the top; then Black 13,16 ...
    assert moves(line[1:5]) == ["W[pp]", "B[nq]", "W[qn]", "B[no]"]
    assert len(line) - 1 == 118
    replay(line)


def test_euc_kr_even_game_won_on_time() -> None:
    tree = gib.load(corpus("sabaki_app_tests/gib/euc-kr.gib"))
    # GAMEGONGJE=65 is 6.5 (the condition reads "흑 공제 6집반", Black gives 6.5);
    # GRLT:7 is Black winning on time ("흑 시간승"); names are "dustkd1015 (1급)".
    assert info(tree, "PB", "BR", "PW", "WR", "DT", "KM", "RE", "EV", "PC") == {
        "PB": ["dustkd1015"],
        "BR": ["1k"],
        "PW": ["dongjik"],
        "WR": ["1k"],
        "DT": ["2015-08-29"],
        "KM": ["6.5"],
        "RE": ["B+T"],
        "EV": ["승강급 대국"],
        "PC": ["타이젬 바둑"],
    }
    assert "HA" not in tree.root.properties
    assert info(tree, "TM", "OT") == {"TM": ["1200"], "OT": ["3x30 byo-yomi"]}
    line = tree.main_line()
    assert len(line) - 1 == 49
    assert moves(line[1:4]) == ["B[qc]", "W[dp]", "B[qo]"]  # STO 0 2 1 16 2 ...
    replay(line)


def test_gb2312_five_stones_won_by_points() -> None:
    tree = gib.load(corpus("sabaki_app_tests/gib/gb2312.gib"))
    # GAMEDATE is Chinese ("2012年11月22日 下午 6:3"); GRLT:1 with ZIPSU:110 is White by 11;
    # INI 0 1 5 is a five-stone handicap, komi 0.
    assert info(tree, "PB", "BR", "PW", "WR", "DT", "KM", "HA", "AB", "RE") == {
        "PB": ["石下之臣"],
        "BR": ["2d"],
        "PW": ["harpmaster"],
        "WR": ["3d"],
        "DT": ["2012-11-22"],
        "KM": ["0"],
        "HA": ["5"],
        "AB": ["pd", "dp", "dd", "pp", "jj"],
        "RE": ["W+11"],
    }
    line = tree.main_line()
    assert len(line) - 1 == 268
    assert moves(line[1:3]) == ["W[qn]", "B[nq]"]  # STO 0 2 2 16 13, STO 0 3 1 13 16
    replay(line)


def test_katrain_sample() -> None:
    tree = gib.load(corpus("katrain_test_data/test.gib"))
    # GRLT:8 is White on time ("white wins by time"); names "kim (2D)", "wildsim1 (2D)".
    assert info(tree, "PB", "BR", "PW", "WR", "DT", "KM", "RE") == {
        "PB": ["kim"],
        "BR": ["2d"],
        "PW": ["wildsim1"],
        "WR": ["2d"],
        "DT": ["2020-06-14"],
        "KM": ["6.5"],
        "RE": ["W+T"],
    }
    line = tree.main_line()
    assert len(line) - 1 == 232
    assert moves(line[1:3]) == ["B[pd]", "W[dp]"]
    replay(line)


def test_handicap_pass_and_resignation() -> None:
    tree = gib.load(DATA / "tiny.gib")
    assert info(tree, "PB", "BR", "PW", "WR", "DT", "KM", "HA", "AB", "RE", "TM") == {
        "PB": ["bob"],
        "BR": ["1k"],
        "PW": ["alice"],
        "WR": ["3d"],
        "DT": ["2021-01-02"],
        "KM": ["0.5"],
        "HA": ["2"],
        "AB": ["pd", "dp"],
        "RE": ["W+R"],
        "TM": ["600"],
    }
    line = tree.main_line()
    # SKI 0 4 passes for White, the side to move after Black's STO 0 3.
    assert moves(line[1:]) == ["W[pp]", "B[cq]", "W[]", "B[qc]"]
    replay(line)


def test_no_result_nickname_and_multiline_field() -> None:
    tree = gib.load((DATA / "unfinished.gib").read_bytes())
    assert info(tree, "PB", "BR", "PW", "RE", "KM", "HA") == {"PB": ["dave"], "PW": ["carol"]}
    assert moves(tree.main_line()[1:]) == ["B[dd]", "W[pp]"]


def test_result_from_words_without_grlt() -> None:
    text = (
        (DATA / "unfinished.gib").read_text().replace("GAMERESULT=", "GAMERESULT=black wins by 3.5")
    )
    assert gib.load(text.encode()).root.properties["RE"] == ["B+3.5"]


def test_euc_kr_bytes_without_a_country_are_detected() -> None:
    text = (DATA / "unfinished.gib").read_text().replace("=dave", "=김철수 (3단)")
    text = text.replace("GIBOKIND=Global", "GIBOKIND=")
    tree = gib.load(text.encode("euc-kr"))
    assert info(tree, "PB", "BR") == {"PB": ["김철수"], "BR": ["3d"]}


@pytest.mark.parametrize(
    ("change", "line", "message"),
    [
        (("\\HS\n", "HS\n"), 1, "does not open with"),
        (("\\HE\n", ""), 9, "unexpected line in the header"),
        (("STO 0 3 2 15 15", "STO 0 3 2 19 15"), 12, "off the 19x19 board"),
        (("STO 0 3 2 15 15", "STO 0 3 3 15 15"), 12, "bad move line"),
        (("STO 0 3 2 15 15", "INI 0 1 2 &4"), 12, "after the first move"),
        (("\\[GAMEBLACKNAME=dave\\]", "GAMEBLACKNAME=dave"), 8, "unexpected line"),
        (("\\[GAMERESULT=\\]", "\\[GAMERESULT\\]"), 3, "bad header field"),
    ],
)
def test_malformed_files_name_the_line(change: tuple[str, str], line: int, message: str) -> None:
    text = (DATA / "unfinished.gib").read_text().replace(*change)
    with pytest.raises(RecordError, match=message) as caught:
        gib.load(text.encode())
    assert caught.value.line == line


def test_handicap_without_standard_points() -> None:
    text = (DATA / "tiny.gib").read_text().replace("INI 0 1 2", "INI 0 1 12")
    with pytest.raises(RecordError, match="invalid handicap 12") as caught:
        gib.load(text.encode())
    assert caught.value.line == 19


def test_header_cut_short() -> None:
    text = (DATA / "unfinished.gib").read_text().partition("\\HE")[0]
    with pytest.raises(RecordError, match="no closing") as caught:
        gib.load(text.encode())
    assert caught.value.line == 9
