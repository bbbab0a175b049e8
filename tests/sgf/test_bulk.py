"""Bulk replay (`sgf.bulk`) gives exactly what parse + replay give: on hand-made records, on
generated ones, and on every record of ../shared/corpus."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tengen.core.color import Color
from tengen.core.coords import SGF_LETTERS
from tengen.sgf import SgfError, parse
from tengen.sgf.bulk import MainLine, fast_main_line, replay_main_line
from tengen.sgf.replay import replay

CORPUS = (Path(__file__).parents[2] / ".." / "shared" / "corpus").resolve()


def _full(data: bytes) -> MainLine:
    game, problems = replay(parse(data).games[0])
    return MainLine.from_game(game, problems)


def _assert_same(fast: MainLine, full: MainLine) -> None:
    assert fast.problems == full.problems
    assert fast.moves.tolist() == full.moves.tolist()
    assert (fast.ruleset, fast.to_play, fast.handicap) == (
        full.ruleset,
        full.to_play,
        full.handicap,
    )
    assert np.array_equal(fast.board.grid(), full.board.grid())
    assert fast.board.hash == full.board.hash
    assert [fast.board.captures(c) for c in Color] == [full.board.captures(c) for c in Color]
    assert (fast.board.ko_point, fast.board.ko_color) == (full.board.ko_point, full.board.ko_color)
    # The whole kernel state (chains, stone order, empty list) is the same too.
    assert np.array_equal(fast.board.state, full.board.state)


def _check(data: bytes, *, fast: bool = True) -> MainLine:
    """Bulk replay of `data` equals the full path; `fast`: and takes the fast path."""
    line = fast_main_line(data)
    assert (line is not None) == fast
    result = replay_main_line(data)
    _assert_same(result, _full(data))
    return result


def test_plain_record_replays_on_the_fast_path() -> None:
    line = _check(b"(;GM[1]FF[4]SZ[5]KM[6.5]RU[Japanese];B[cc];W[dc];B[tt];W[])")
    assert line.moves.tolist() == [[1, 2, 2], [2, 3, 2], [1, -1, -1], [2, -1, -1]]
    assert line.ruleset.name == "japanese" and line.ruleset.komi == 6.5
    assert line.to_play is Color.BLACK and line.problems == ()


def test_handicap_setup_and_player_in_the_root() -> None:
    line = _check(b"(;SZ[9]HA[2]AB[cc][gg]PL[W];W[ee])")
    assert line.handicap == 2 and line.to_play is Color.BLACK


def test_setup_later_in_the_line_and_rectangles() -> None:
    """Problem files (GNU Go's regressions, Cgoban) put the position in the second node."""
    line = _check(b"(;SZ[5];AW[aa:bb]AB[cc]PL[B];B[ca];W[dd];AE[dd]PL[W])")
    assert line.to_play is Color.WHITE and line.handicap == 0
    assert line.board.stones(Color.WHITE) == [(0, 0), (1, 0), (0, 1), (1, 1)]


def test_refused_moves_name_the_move_as_the_full_path_does() -> None:
    occupied = _check(b"(;SZ[5];B[cc];W[dd];B[cc])")
    assert occupied.problems == ("move 3: illegal move B[cc]: occupied",)
    assert len(occupied.moves) == 2  # an occupied point is not played
    ko = b"(;SZ[4]RU[Japanese]AB[ba][ab][bc]AW[ca][bb][cc][db];B[cb];W[bb])"
    assert _check(ko).problems == ("move 2: illegal move W[bb]: ko",)
    suicide = _check(b"(;SZ[3]AB[ba][ab];W[aa])")
    assert suicide.problems == ("move 1: illegal move W[aa]: suicide",)
    in_root = _check(b"(;SZ[3]B[bb]W[bb])")
    assert in_root.problems == ()  # B wins over W in one node, as in Node.move


@pytest.mark.parametrize("rules", ["Chinese", "AGA", "NZ", "Japanese"])
def test_superko_under_each_ko_rule(rules: str) -> None:
    """Black's last stone takes three white stones and leaves the position of move 1, with
    White to play again: positional and situational superko refuse it, simple ko does not."""
    record = f"(;SZ[2]RU[{rules}];B[bb];W[aa];B[ab];W[ba];B[bb];W[ab];B[bb])".encode()
    expected = () if rules == "Japanese" else ("move 7: illegal move B[bb]: superko",)
    assert _check(record).problems == expected


def test_lenient_name_repairs_stay_on_the_fast_path() -> None:
    """Lower-case letters in names (FF[3]) and repeated properties do not move any value."""
    line = _check(b"(;GaMe[1]SiZe[5]AddBlack[aa]AB[bb];Black[cc]B[dd]Comment[x]C[y];W[ee])")
    assert line.moves.tolist() == [[1, 2, 2], [2, 4, 4]]


def test_only_the_first_game_matters() -> None:
    """Whatever follows the first game (more games, junk) only gives warnings when parsed."""
    line = _check(b"(;SZ[5];B[aa](;W[bb])(;W[cc]))\n(;SZ[9];B[ee]) junk (;B[")
    assert line.moves.tolist() == [[1, 0, 0], [2, 1, 1]]


@pytest.mark.parametrize(
    "record",
    [
        b"(B[aa];W[bb])",  # missing ';'
        b"junk(;B[aa])",  # text before the game
        b"(;B[aa](;W[bb])(;W[cc]);B[dd])",  # a node after variations
        b"(;B[aa](;W[bb])C[x])",  # a property after variations joins the main line
        b"(;SZ[5];B[aa]",  # not closed
        b"(;SZ[5];B[ a])",  # not a plain point
        b"(;SZ[5];B[gg])",  # off the board: played as a pass, with a problem
        b"(;SZ[5]AB[aa]AW[aa])",  # one point twice in a setup
        b"(;SZ[3]AB[aa]AW[ab][ba])",  # a setup chain with no liberty
        b"(;SZ[ 5];B[aa])",  # a size the scan leaves to the full path
        b"(;SZ[5]PL[X];B[aa])",  # a player that is not a colour
    ],
)
def test_unusual_records_go_through_the_full_path(record: bytes) -> None:
    _check(record, fast=False)


def test_errors_are_those_of_the_full_path() -> None:
    with pytest.raises(SgfError, match="no SGF game tree"):
        replay_main_line(b"no game here")
    with pytest.raises(ValueError, match="not Go"):
        replay_main_line(b"(;GM[4];B[aa])")
    with pytest.raises(ValueError, match="board size"):
        replay_main_line(b"(;SZ[99];B[aa])")


def test_double_byte_charsets_are_decoded_before_the_scan() -> None:
    """乚 in GBK ends in the byte of ']', 予 in Shift_JIS in that of '\\'."""
    for text, charset in (("乚", "GBK"), ("予", "Shift_JIS")):
        data = f"(;CA[{charset}]SZ[5]PB[{text}];B[cc]C[{text}];W[dd])".encode(charset)
        assert _check(data).moves.tolist() == [[1, 2, 2], [2, 3, 3]]


# -- generated records -------------------------------------------------------------------------


@st.composite
def _records(draw: st.DrawFn) -> bytes:
    """A small board's record: root with rules and setup, a main line of moves (captures, ko,
    suicide and superko come often on 3x3 and 4x4), setup now and then, and variations."""
    width = draw(st.integers(2, 5))
    height = draw(st.sampled_from([width, width, 3]))
    letters = SGF_LETTERS[:5]

    def point() -> str:
        return draw(st.sampled_from(letters[:width])) + draw(st.sampled_from(letters[:height]))

    def setup() -> str:
        parts = []
        for ident in draw(st.lists(st.sampled_from(["AB", "AW", "AE"]), max_size=2)):
            parts.append(ident + "".join(f"[{point()}]" for _ in range(draw(st.integers(1, 3)))))
        if draw(st.booleans()):
            parts.append(f"PL[{draw(st.sampled_from('BW12'))}]")
        return "".join(parts)

    size = f"{width}" if width == height else f"{width}:{height}"
    rules = draw(st.sampled_from(["", "RU[Japanese]", "RU[Chinese]", "RU[AGA]", "RU[NZ]"]))
    root = f";GM[1]SZ[{size}]{rules}KM[{draw(st.sampled_from(['6.5', '0', '750']))}]"
    if draw(st.booleans()):
        root += draw(st.sampled_from(["HA[2]", ""])) + setup()
    nodes = []
    for _ in range(draw(st.integers(0, 40))):
        node = ";"
        if draw(st.integers(0, 9)) == 0:
            node += setup()
        kind = draw(st.integers(0, 19))
        color = draw(st.sampled_from("BW"))
        if kind == 0:
            node += f"{color}[]"
        elif kind == 1:
            node += f"{color}[tt]"
        elif kind > 3:
            node += f"{color}[{point()}]"
        if draw(st.integers(0, 9)) == 0:
            node += "C[a \\] b]"
        nodes.append(node)
    split = draw(st.integers(0, len(nodes)))
    body = "".join(nodes[:split])
    if draw(st.booleans()):
        body += f"({''.join(nodes[split:])})(;B[{point()}])"
    else:
        body += "".join(nodes[split:])
    return f"({root}{body})".encode()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_records())
def test_generated_records_replay_as_the_full_path_does(data: bytes) -> None:
    fast = fast_main_line(data)
    full = _full(data)
    if fast is not None:
        _assert_same(fast, full)
    _assert_same(replay_main_line(data), full)


# -- the corpus --------------------------------------------------------------------------------

_FOLDERS = sorted(p.name for p in CORPUS.iterdir() if p.is_dir()) if CORPUS.is_dir() else []


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"SGF corpus not found at {CORPUS}")
@pytest.mark.parametrize("folder", _FOLDERS)
def test_corpus_records_replay_as_the_full_path_does(folder: str) -> None:
    for path in sorted(p for p in (CORPUS / folder).rglob("*") if p.suffix.lower() == ".sgf"):
        data = path.read_bytes()
        try:
            full = _full(data)
        except ValueError:  # no game tree, bad SZ, not Go: bulk replay must raise alike
            with pytest.raises(ValueError):
                replay_main_line(data)
            continue
        line = fast_main_line(data)
        if line is not None:
            try:
                _assert_same(line, full)
            except AssertionError as err:
                pytest.fail(f"{path.relative_to(CORPUS)}: {err}")


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"SGF corpus not found at {CORPUS}")
def test_fast_path_takes_nearly_every_corpus_record() -> None:
    """The fast path is the point: what it leaves to the full path must stay rare."""
    paths = [p for p in CORPUS.rglob("*") if p.suffix.lower() == ".sgf"]
    fast = sum(fast_main_line(p.read_bytes()) is not None for p in paths)
    assert fast >= 0.98 * len(paths)
