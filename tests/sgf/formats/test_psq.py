"""Piskvork PSQ: Gomoku records on 15x15 and 20x20 boards, the trailer, and errors."""

from __future__ import annotations

import pytest

from tengen.sgf.formats import RecordError, psq
from tests.sgf.formats.support import DATA, info, moves, replay


def test_fifteen_by_fifteen_with_trailer() -> None:
    tree = psq.load(DATA / "five.psq")
    assert info(tree, "GM", "SZ", "GC") == {
        "GM": ["4"],
        "SZ": ["15"],
        "GC": ["pbrain-alpha.zip\npbrain-beta.zip\n-1"],
    }
    line = tree.main_line()
    # "8,8" is column 8, row 8 counted from 1 -> hh; Black then fills column h, rows g to k.
    assert moves(line[1:4]) == ["B[hh]", "W[ii]", "B[hi]"]
    assert len(line) - 1 == 9
    assert moves(line[-1:]) == ["B[hk]"]
    replay(line)


def test_corners_of_a_twenty_board_with_crlf() -> None:
    tree = psq.load((DATA / "corners.psq").read_bytes())
    assert info(tree, "GM", "SZ", "GC") == {"GM": ["4"], "SZ": ["20"]}
    assert moves(tree.main_line()[1:]) == ["B[jj]", "W[aa]", "B[tt]"]  # tt: a point on 20x20


def test_rectangular_board() -> None:
    tree = psq.load(b"Piskvorky 20x15, 11:11, 0\n20,15,0\n")
    assert tree.root.properties["SZ"] == ["20:15"]
    assert moves(tree.main_line()[1:]) == ["B[to]"]


@pytest.mark.parametrize(
    ("data", "line", "message"),
    [
        (b"Gomoku 15x15\n8,8,0\n", 1, "not a Piskvork record"),
        (b"", 1, "not a Piskvork record"),
        (b"Piskvorky 60x60, 11:11, 0\n", 1, "outside"),
        (b"Piskvorky 15x15, 11:11, 0\n8,8,0\n16,1,0\n", 3, "point '16,1' is off the 15x15"),
        (b"Piskvorky 15x15, 11:11, 0\n8,8,0\n0,1,0\n", 3, "off the 15x15 board"),
    ],
)
def test_malformed_files_name_the_line(data: bytes, line: int, message: str) -> None:
    with pytest.raises(RecordError, match=message) as caught:
        psq.load(data)
    assert caught.value.line == line
