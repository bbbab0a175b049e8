"""Gomoku records: SGF GM[4] both ways, and Piskvork .psq through the SGF tree."""

from __future__ import annotations

from pathlib import Path

import pytest

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.gomoku import GomokuGame, GomokuIllegal, GomokuRules, Rule
from tengen.gomoku.record import game_from_tree, game_to_psq, game_to_tree
from tengen.sgf import parse, serialise
from tengen.sgf.formats import psq

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"


def test_psq_five_is_a_black_win() -> None:
    """five.psq: Black fills column 8 (1-based) from row 7 to 11 on move 9."""
    game = game_from_tree(psq.load(DATA / "five.psq"))
    assert game.rules == GomokuRules(Rule.FREESTYLE, 15, 15)
    assert game.move_number == 9 and game.result == "B+5"
    assert game.winning_line == [Point(7, r) for r in range(6, 11)]


def test_psq_corners_of_a_twenty_board() -> None:
    game = game_from_tree(psq.load(DATA / "corners.psq"))
    assert (game.board.width, game.board.height) == (20, 20)
    assert game.moves[-1] == (Color.BLACK, Point(19, 19)) and not game.is_over


def test_sgf_round_trip_with_rule_and_result() -> None:
    game = GomokuGame(GomokuRules(Rule.RENJU))
    for col in range(4):
        game.play(Point(3 + col, 7))
        game.play(Point(3 + col, 0))
    game.play(Point(7, 7))
    tree = game_to_tree(game)
    assert tree.root.properties["RU"] == ["renju"] and tree.root.properties["RE"] == ["B+"]
    (again,) = parse(serialise(tree)).games
    copy = game_from_tree(again)
    assert copy.moves == game.moves and copy.result == "B+5" and copy.rules == game.rules


def test_resignation_is_read_from_re() -> None:
    (tree,) = parse(b"(;GM[4]SZ[15]RE[W+R];B[hh];W[ii])").games
    game = game_from_tree(tree)
    assert game.result == "W+R"
    assert game_to_tree(game).root.properties["RE"] == ["W+R"]


def test_rules_argument_overrides_the_record() -> None:
    (tree,) = parse(b"(;GM[4]SZ[15]RU[renju];B[hh])").games
    assert game_from_tree(tree, GomokuRules(Rule.CARO)).rules.rule is Rule.CARO


# Black's double three at hh (h-column three and h-row three), White far away on the a-column.
DOUBLE_THREE = b"(;GM[4]SZ[15]RU[renju];B[hf];W[aa];B[hg];W[ac];B[fh];W[ae];B[gh];W[ag];B[hh]%s)"


def test_a_renju_record_ending_on_blacks_foul_is_a_white_win() -> None:
    (tree,) = parse(DOUBLE_THREE % b"").games
    game = game_from_tree(tree)
    assert game.result == "W+F" and game.is_over and game.winning_line is None
    assert game.foul == (Point(7, 7), "double-three (lines: horizontal, vertical)")
    assert game.moves[-1] == (Color.BLACK, Point(7, 7))
    (again,) = parse(serialise(game_to_tree(game))).games
    assert again.root.properties["RE"] == ["W+F"] and game_from_tree(again).foul == game.foul
    game.undo()
    assert game.result == "" and game.foul is None and game.to_play is Color.BLACK


def test_moves_after_a_foul_are_refused_by_number() -> None:
    (tree,) = parse(DOUBLE_THREE % b";W[oo]").games
    with pytest.raises(GomokuIllegal, match=r"move 10 .*game over"):
        game_from_tree(tree)


def test_a_foul_is_still_refused_in_play() -> None:
    (tree,) = parse(DOUBLE_THREE % b"").games
    game = game_from_tree(tree)
    game.undo()
    with pytest.raises(GomokuIllegal, match="forbidden: double-three"):
        game.play(Point(7, 7))


@pytest.mark.parametrize(
    ("sgf", "error", "message"),
    [
        (b"(;GM[1]SZ[19];B[dd])", ValueError, "not a Gomoku record"),
        (b"(;GM[4]RU[omok];B[hh])", ValueError, "unknown Gomoku rule"),
        (b"(;GM[4]AB[hh];W[ii])", ValueError, "setup stones"),
        (b"(;GM[4];B[hh];W[])", ValueError, "no pass"),
        (b"(;GM[4];B[hh];B[ii])", GomokuIllegal, "wrong turn"),
        (b"(;GM[4];B[hh];W[hh])", GomokuIllegal, "occupied"),
    ],
)
def test_bad_records(sgf: bytes, error: type[Exception], message: str) -> None:
    (tree,) = parse(sgf).games
    with pytest.raises(error, match=message):
        game_from_tree(tree)


def test_default_size_is_fifteen() -> None:
    (tree,) = parse(b"(;GM[4];B[oo])").games
    assert game_from_tree(tree).moves == [(Color.BLACK, Point(14, 14))]


def test_psq_written_reads_back_as_the_same_game() -> None:
    game = GomokuGame(GomokuRules(Rule.FREESTYLE, 20, 20))
    for col, row in ((9, 9), (10, 10), (9, 10), (10, 9), (9, 11), (10, 11), (9, 8)):
        game.play(Point(col, row))
    text = game_to_psq(game)
    assert text.splitlines()[:2] == ["Piskvorky 20x20, 11:11, 0", "10,10,0"]
    again = game_from_tree(psq.load(text.encode()))
    assert again.moves == game.moves and again.rules.width == 20
