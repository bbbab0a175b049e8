"""Pandanet UGF/UGI: the Sabaki samples, review trees with variations and comments, errors."""

from __future__ import annotations

import pytest

from tengen.sgf import Node
from tengen.sgf.formats import RecordError, ugf
from tests.sgf.formats.support import DATA, corpus, info, moves, replay


def _data_only(text: str) -> str:
    """The record with its review sections dropped, so that [Data] gives the moves."""
    return text.partition("[ReviewNode]")[0]


def test_amateur_game() -> None:
    tree = ugf.load(corpus("sabaki_app_tests/ugf/amateur.ugf"))
    # Hdcp=0,-5.50: no handicap, a komi of -5.5; Winner=B,7.50.
    assert info(tree, "PB", "BR", "PW", "WR", "DT", "KM", "HA", "RE", "RU", "CP", "SZ") == {
        "PB": ["kaziwami"],
        "BR": ["7d"],
        "PW": ["YINNI"],
        "WR": ["8d"],
        "DT": ["2019-03-08"],
        "KM": ["-5.5"],
        "RE": ["B+7.5"],
        "RU": ["Japanese"],
        "CP": ["PANDANET INC."],
        "SZ": ["19"],
    }
    line = tree.main_line()
    # QP: column Q (16 from A), row P (15) counted from the bottom -> row 3 from the top: qd.
    assert moves(line[1:5]) == ["B[qd]", "W[dd]", "B[pq]", "W[dq]"]
    assert len(line) - 1 == 254
    replay(line)


@pytest.mark.parametrize("name", ["amateur.ugf", "review.ugi"])
def test_review_main_line_matches_the_data_section(name: str) -> None:
    path = corpus(f"sabaki_app_tests/ugf/{name}")
    review = moves(ugf.load(path).main_line())
    data = moves(ugf.load(_data_only(path.read_text()).encode()).main_line())
    assert review == data


def test_review_with_variations_and_comments() -> None:
    tree = ugf.load(corpus("sabaki_app_tests/ugf/review.ugi"))
    assert info(tree, "PB", "BR", "PW", "WR", "KM", "RE", "DT") == {
        "PB": ["ken03110"],
        "BR": ["2k"],
        "PW": ["apetresc"],
        "WR": ["2k?"],
        "KM": ["6.5"],
        "RE": ["B+2.5"],
        "DT": ["2020-06-23"],
    }
    assert tree.root.properties["C"] == [
        "apetresc 2k?: Let's begin and enjoy a great game.\nken03110 2k : Hi!"
    ]
    line = tree.main_line()
    # 222 moves, the last three passes (YA / NODE ...,20,20), then the empty node 224.
    assert len(line) == 224
    assert moves(line[-4:]) == ["W[]", "B[]", "W[]"]
    assert line[-1].properties == {}
    # ".Comment,N" is on node N, the root being node 1, so node 19 is line[18].
    # Raw values keep the SGF escape of "]"; the typed value is the text as written.
    assert line[18].properties["C"] == ["apetresc [ 2k?\\]: I think white is ahead already?"]
    assert line[54].get("C").startswith("apetresc [ 2k?]: Game-losing move")
    # The first VARIATION block follows NODE 54 (Black's move 53); its NODE 225 is White's
    # alternative to NODE 55.
    branch = line[53]
    # NODE,55,2,12,11 (x 12 from the left, y 11 from the bottom) first, then NODE,225,2,14,7.
    assert moves(branch.children) == ["W[li]", "W[nm]"]
    for leaf in _leaves(tree.root):
        replay(_path(leaf))


def _leaves(root: Node) -> list[Node]:
    """Every node without children."""
    stack, leaves = [root], []
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if not node.children:
            leaves.append(node)
    return leaves


def _path(node: Node) -> list[Node]:
    """The nodes from the root down to `node`."""
    path = [node]
    while path[-1].parent is not None:
        path.append(path[-1].parent)
    return path[::-1]


def test_handicap_pass_and_resignation() -> None:
    tree = ugf.load(DATA / "handicap.ugf")
    assert info(tree, "SZ", "HA", "AB", "KM", "RE", "PB", "BR", "PW", "WR", "GN", "PC") == {
        "SZ": ["13"],
        "HA": ["2"],
        "AB": ["jd", "dj"],  # 4-4 points from 12x12 up
        "KM": ["0.5"],
        "RE": ["W+R"],
        "PB": ["kuro"],
        "BR": ["3k"],
        "PW": ["shiro"],
        "WR": ["1d"],
        "GN": ["2021, PANDA-NET"],
        "PC": ["PANDA-NET"],
    }
    line = tree.main_line()
    # KC on 13x13: column K (10), row C (2) from the bottom = row 10 from the top.
    assert moves(line[1:]) == ["W[kk]", "B[dk]", "W[]", "B[cc]"]
    replay(line)


def test_declared_shift_jis() -> None:
    text = (DATA / "handicap.ugf").read_text().replace("kuro,3k", "黒田,3級")
    tree = ugf.load(text.encode("cp932"))
    assert info(tree, "PB", "BR") == {"PB": ["黒田"], "BR": ["3級"]}


@pytest.mark.parametrize(
    ("change", "line", "message"),
    [
        (("[Header]", "[Head]"), 1, "no \\[Header\\]"),
        (("Size=13", "Size=x"), 8, "bad board size"),
        (("Hdcp=2,", "Hdcp=two,"), 9, "bad handicap"),
        (("CK,B1", "CZ,B1"), 19, "point 'CZ' is off the 13x13 board"),
        (("CK,B1", "CK,X1"), 19, "bad move line"),
        (("CoordinateType=IGS", "CoordinateType=XY"), 12, "unknown coordinate type"),
        (("[Header]\n", "junk\n[Header]\n"), 1, "text before the first section"),
    ],
)
def test_malformed_files_name_the_line(change: tuple[str, str], line: int, message: str) -> None:
    text = (DATA / "handicap.ugf").read_text().replace(*change)
    with pytest.raises(RecordError, match=message) as caught:
        ugf.load(text.encode())
    assert caught.value.line == line


@pytest.mark.parametrize(
    ("review", "line", "message"),
    [
        ("NODE,1,0,0,0\nVARIATIONEND,\n", 22, "VARIATIONEND without VARIATION"),
        ("NODE,1,0,0,0\nVARIATION,\nNODE,2,1,1,1\n", 22, "VARIATION without VARIATIONEND"),
        ("NODE,1,0,0,0\nNODE,2,1,1,x\n", 22, "bad review node"),
        ("NODE,1,0,0,0\nNODE,2,1,1,14\n", 22, "off the 13x13 board"),
    ],
)
def test_malformed_reviews(review: str, line: int, message: str) -> None:
    text = (DATA / "handicap.ugf").read_text() + "[ReviewNode]\n" + review
    with pytest.raises(RecordError, match=message) as caught:
        ugf.load(text.encode())
    assert caught.value.line == line + (review.count("\n") - 2 if "VARIATIONEND," in review else 0)
