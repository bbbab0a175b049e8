"""The opening book: its symmetries, its lines, and the player's use of it.

The shipped books are checked line by line against the game's own rules (each move legal in
its position, the position not over, renju's fouls by the one judge), and found again from
every turned and mirrored copy of their positions, as a match's turned openings reach them.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tengen.ai.gomoku import book
from tengen.ai.gomoku_player import GomokuPlayer
from tengen.core.coords import Point
from tengen.gomoku import GomokuGame, GomokuRules, Opening, Rule

points = st.builds(Point, st.integers(0, book.SIZE - 1), st.integers(0, book.SIZE - 1))
RULES = [Rule.FREESTYLE, Rule.RENJU]
ROOT = Path(__file__).resolve().parents[2]
SWAP2_RULES = [Rule.FREESTYLE, Rule.STANDARD, Rule.RENJU]


def turn_by_hand(p: Point, t: int) -> Point:
    """Symmetry `t` written out as the eight maps of the square (a second statement of
    `book.turned`, checked against it)."""
    m = book.SIZE - 1
    c, r = p
    return Point(
        *[(c, r), (m - c, r), (c, m - r), (m - c, m - r), (r, c), (r, m - c), (m - r, c),
          (m - r, m - c)][t]
    )  # fmt: skip


@given(points, st.integers(0, 7))
def test_turned_is_a_symmetry_of_the_square_and_unturned_undoes_it(p: Point, t: int) -> None:
    assert book.turned(p, t) == turn_by_hand(p, t)
    assert book.unturned(book.turned(p, t), t) == p


@given(st.lists(points, min_size=1, max_size=12, unique=True), st.integers(0, 7))
def test_every_orientation_of_a_position_has_one_key(stones: list[Point], t: int) -> None:
    black, white = stones[::2], stones[1::2]
    key, s = book.canonical(black, white)
    twin_key, u = book.canonical([book.turned(p, t) for p in black],
                                 [book.turned(p, t) for p in white])  # fmt: skip
    assert twin_key == key
    assert key == (tuple(sorted(book.turned(p, s) for p in black)),
                   tuple(sorted(book.turned(p, s) for p in white)))  # fmt: skip
    assert u in range(8)


@given(st.lists(points, min_size=2, max_size=12, unique=True))
def test_a_line_reads_back_as_written(stones: list[Point]) -> None:
    *placed, move = stones
    key, _ = book.canonical(placed[::2], placed[1::2])
    assert book.parse(book.line(key, move, "depth 9"), "here") == (key, move)


@pytest.mark.parametrize(
    "text", ["hh / : ", "hh ii : jj", "hh / ii : jj kk", "hz / ii : jj", "hhh / ii : jj", ""]
)
def test_a_malformed_line_is_refused_naming_where(text: str) -> None:
    with pytest.raises(ValueError, match=r"freestyle\.txt line 3"):
        book.parse(text, "freestyle.txt line 3")


def game_of(black: list[Point], white: list[Point], rule: Rule) -> GomokuGame:
    game = GomokuGame(GomokuRules(rule))
    for i in range(len(black) + len(white)):
        game.play((black if i % 2 == 0 else white)[i // 2])
    return game


def after(game: GomokuGame, move: Point) -> book.Key:
    """The canonical key of `game`'s stones with `move` added for the side to move."""
    black, white = book.stones(game)
    (black if len(black) == len(white) else white).append(move)
    return book.canonical(black, white)[0]


@pytest.mark.parametrize("rule", RULES)
def test_the_shipped_book_is_legal_and_found_from_every_orientation(rule: Rule) -> None:
    table = book.table(rule)
    assert len(table) >= 100, f"the {rule.value} book holds {len(table)} positions"
    for (black, white), move in table.items():
        assert len(black) - len(white) in (0, 1)
        for t in range(8):
            game = game_of([book.turned(p, t) for p in black],
                           [book.turned(p, t) for p in white], rule)  # fmt: skip
            assert not game.is_over
            expected = book.turned(move, t)
            if t == 0:  # the whole list once: the judge's every foul point
                assert expected in game.legal_moves(), (black, white, move)
            found = book.move(game)
            assert found is not None
            # A position that some symmetry keeps has as many equal moves: compare what
            # each leaves on the board.
            assert after(game, found) == after(game, expected), (black, white, move, t)


def test_the_player_plays_the_book_and_searches_without_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An opening's first position: three stones, White to move.
    (black, white), move = min(
        (key, move) for key, move in book.table(Rule.FREESTYLE).items() if len(key[0]) == 2
    )
    t = 5
    game = game_of([book.turned(p, t) for p in black], [book.turned(p, t) for p in white],
                   Rule.FREESTYLE)  # fmt: skip
    player = GomokuPlayer(seed=1, time_limit=0.05, threads=1)
    assert after(game, player.genmove(game)) == after(game, book.turned(move, t))
    assert player.last_depth == 0  # no search

    def unread(game: GomokuGame) -> None:
        raise AssertionError("the book was read")

    monkeypatch.setattr(book, "move", unread)
    searching = GomokuPlayer(seed=1, time_limit=0.05, threads=1, book=False)
    assert searching.genmove(game) in game.legal_moves()
    with pytest.raises(AssertionError, match="the book was read"):
        player.genmove(game)


def test_weigh_plays_none_of_the_moves_it_is_told_to_avoid() -> None:
    # The book's check (bench/gomoku_book.py) searches a position again without the moves
    # Rapfi proved lost: the search's own choice, then its next, then only the last legal move.
    game = game_of([Point(7, 7), Point(8, 8)], [Point(7, 8)], Rule.FREESTYLE)
    player = GomokuPlayer(seed=1, time_limit=0.2, threads=1, book=False)
    first = player.weigh(game, 0.2)[0]
    second = player.weigh(game, 0.2, [first])[0]
    assert second != first and second in game.legal_moves()
    third = player.weigh(game, 0.2, {first, second})[0]
    assert third not in (first, second)
    legal = game.legal_moves()
    assert player.weigh(game, 0.2, legal[1:])[0] == legal[0]
    assert player.weigh(game, 0.2, legal)[0] in legal  # nothing left to avoid with: any move


def test_the_check_replaces_a_book_move_that_rapfi_proves_lost(tmp_path: Path) -> None:
    """Against a program tengen did not write: a line of the book as it was built, whose move
    (gf, from the player's 6 s search) Rapfi refuted by force in three of 104 games (bench/
    STRENGTH.md); the check replaces it by a move that Rapfi, asked again here, does not prove
    lost, and leaves a line whose position is lost whatever the move and one whose move is the
    block of a four (Rapfi proves a win after it, and it answers the five of any other move
    without an eval: a check that asked it replaced the block by a four of the player's)."""
    rapfi = rapfi_brain()
    refuted = "fg fi hh / hg ih ii : gf  # depth 12, 6.0 s"
    lost_anyway = "cg dh eg ei fi hh / di eh fh gi ig : bf  # depth 15, 2.0 s"
    block = "ef eh fg gh hh hi ih / fh gi gj hg ij jh : de  # depth 0, 0.0 s"
    text = checked_book(rapfi, tmp_path, [refuted, lost_anyway, block])
    assert "# check: Rapfi at 500000 nodes" in text
    lines = {line.split(":")[0].strip(): line for line in text.splitlines()}
    assert lines["cg dh eg ei fi hh / di eh fh gi ig"] == f"{lost_anyway}; checked 500000, lost"
    assert lines["ef eh fg gh hh hi ih / fh gi gj hg ij jh"] == f"{block}; checked 500000, forced"
    replaced = lines["fg fi hh / hg ih ii"]
    assert replaced.endswith("; checked 500000, replaces gf")
    (black, white), move = book.parse(replaced, "the checked line")
    game = game_of(list(black), list(white), Rule.FREESTYLE)
    for p, refuted_by_force in ((move, False), (Point(6, 5), True)):
        assert p in game.legal_moves()
        # Gomocup's BOARD for the side that answers p: its own stones field 1.
        board = [(q.col, q.row, 2 if c is game.to_play else 1) for c, q in game.moves]
        assert rapfi_wins_by_force(rapfi, [*board, (p.col, p.row, 2)], 500_000) is refuted_by_force


def test_the_judge_replaces_a_book_move_that_rapfi_finds_far_worse(tmp_path: Path) -> None:
    """Against Rapfi: with ``--drop``, a White move of the book's at three stones (ii after
    ff hh / gh; Rapfi at 500,000 nodes gives White some 0.37 of win rate there and 0.19 after
    ii) is replaced by a move after which Rapfi, asked here, puts White's win rate less than
    the drop below the position's; a line of more than ``--stones`` stones is not judged."""
    rapfi = rapfi_brain()
    weak = "ff hh / gh : ii  # by hand"
    deep = "cg dh eg ei fi hh / di eh fh gi ig : bf  # depth 15, 2.0 s"
    text = checked_book(rapfi, tmp_path, [weak, deep], "--drop", "0.1", "--stones", "4")
    assert "# check: Rapfi at 500000 nodes judging a drop of 0.1, up to 4 stones" in text
    lines = {line.split(":")[0].strip(): line for line in text.splitlines()}
    assert lines["cg dh eg ei fi hh / di eh fh gi ig"] == deep
    judged = lines["ff hh / gh"]
    assert "; judged 500000 drop 0.1, replaces ii" in judged
    (black, white), move = book.parse(judged, "the judged line")
    game = game_of(list(black), list(white), Rule.FREESTYLE)
    board = [(q.col, q.row, 1 if c is game.to_play else 2) for c, q in game.moves]
    floor = win_rate(rapfi_eval(rapfi, board, 500_000)) - 0.1
    for p, below in ((move, False), (Point(8, 8), True)):
        assert p in game.legal_moves()
        after = [(x, y, 3 - field) for x, y, field in board] + [(p.col, p.row, 2)]
        assert (1 - win_rate(rapfi_eval(rapfi, after, 500_000)) < floor) is below


def test_the_book_learns_the_positions_of_match_games_it_lacks(tmp_path: Path) -> None:
    """``--games``: every position of a match game's first ``--stones`` stones that the book
    lacks, either side to move, gets the player's move, legal there; a position the book holds
    keeps its line, and one past the stones is not searched."""
    moves = ["hh", "gh", "fj", "gi", "gg", "ff", "gk", "hj", "ei"]
    games = tmp_path / "match" / "games"
    games.mkdir(parents=True)
    (games / "0000-rapfi-new.sgf").write_text(
        "(;GM[4]FF[4]SZ[15]RU[freestyle]PB[rapfi]PW[new]"
        + "".join(f";{'BW'[i % 2]}[{m}]" for i, m in enumerate(moves)) + ")"
    )  # fmt: skip
    points = [Point(ord(m[0]) - 97, ord(m[1]) - 97) for m in moves]
    held = game_of(points[0:6:2], points[1:6:2], Rule.FREESTYLE)  # 6 stones, Black to move
    key, t = book.canonical(*book.stones(held))
    kept = book.line(key, book.turned(Point(0, 0), t), "by hand")  # a corner: no search's move
    out = tmp_path / "freestyle.txt"
    out.write_text(f"# run: by hand\n{kept}\n")
    script = str(ROOT / "bench" / "gomoku_book.py")
    command = [sys.executable, script, "--rule", "freestyle", "--games", str(tmp_path / "match")]
    command += ["--stones", "7", "--seconds", "0.2", "--threads", "1", "--out", str(out)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    text = out.read_text()
    run_line = "# run: --games (1 match games) --seconds 0.2 --stones 7 --threads 1: 4 positions"
    assert run_line in text
    table = {book.parse(line, "the book")[0]: line for line in text.splitlines()
             if line.strip() and not line.startswith("#")}  # fmt: skip
    assert table.pop(key) == kept
    for stones in (3, 4, 5, 7):
        game = game_of(points[0:stones:2], points[1:stones:2], Rule.FREESTYLE)
        key, t = book.canonical(*book.stones(game))
        move = book.parse(table.pop(key), "a learnt line")[1]
        assert book.unturned(move, t) in game.legal_moves()
    assert not table  # nothing past 7 stones


def checked_book(rapfi: str, tmp_path: Path, lines: list[str], *options: str) -> str:
    """The text of a freestyle book of `lines` after bench/gomoku_book.py has checked it with
    `rapfi` at 500,000 nodes (the player searching 1 s on one thread) and `options`."""
    out = tmp_path / "freestyle.txt"
    out.write_text("# run: by hand\n" + "".join(f"{line}\n" for line in lines))
    script = str(ROOT / "bench" / "gomoku_book.py")
    command = [sys.executable, script, "--rule", "freestyle", "--check", "500000", *options]
    command += ["--seconds", "1", "--threads", "1", "--out", str(out)]
    env = {**os.environ, "RAPFI": rapfi}
    run = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    return out.read_text()


def win_rate(value: str) -> float:
    """Rapfi's eval (its text: a number, or a mate ``+M..``/``-M..``) as the side to move's
    win rate: logistic, 200 of its units a unit (its ``ScalingFactor``)."""
    if "M" in value:
        return 1.0 if value.startswith("+") else 0.0
    return 1 / (1 + math.exp(-int(value) / 200))


def rapfi_brain() -> str:
    """Rapfi's brain (``$RAPFI``, else build/rapfi/pbrain-rapfi); the test skips without it."""
    found = Path(os.environ.get("RAPFI", ROOT / "build" / "rapfi" / "pbrain-rapfi"))
    if not found.is_file():
        pytest.skip(f"Rapfi not found at {found} (make rapfi, or set RAPFI)")
    return str(found)


def rapfi_wins_by_force(rapfi: str, board: list[tuple[int, int, int]], nodes: int) -> bool:
    """Whether Rapfi (freestyle, one thread, at most `nodes` nodes), given Gomocup's ``BOARD``
    lines `board` (x, y, field), calls the position a forced win for itself (a mate, ``+M``)."""
    return rapfi_eval(rapfi, board, nodes).startswith("+M")


def rapfi_eval(rapfi: str, board: list[tuple[int, int, int]], nodes: int) -> str:
    """Rapfi's eval (freestyle, one thread, at most `nodes` nodes, its text) of the position
    of Gomocup's ``BOARD`` lines `board` (x, y, field) for the side to move (field 1); a
    position with a five to make, which it answers with no eval, as a mate (``+M1``)."""
    commands = ["START 15", "INFO rule 0", "INFO thread_num 1", f"INFO max_node {nodes}",
                "INFO timeout_turn 60000", "INFO timeout_match 0", "INFO time_left 2147483647",
                "INFO show_detail 0", "BOARD"]  # fmt: skip
    commands += [f"{x},{y},{field}" for x, y, field in board] + ["DONE"]
    with subprocess.Popen(
        [rapfi], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as brain:
        assert brain.stdin is not None and brain.stdout is not None
        brain.stdin.write("\n".join(commands) + "\n")
        brain.stdin.flush()
        value = "+M1"
        for line in brain.stdout:
            found = re.search(r"Eval (\S+)", line)
            value = found.group(1) if found else value
            if re.fullmatch(r"\d+,\d+", line.strip()):
                break
        brain.stdin.write("END\n")
        brain.stdin.close()
    return value


def test_no_book_move_on_another_board_or_off_the_book() -> None:
    (black, white), _ = next(iter(book.table(Rule.FREESTYLE).items()))
    big = GomokuGame(GomokuRules(Rule.FREESTYLE, width=19, height=19))
    for i in range(len(black) + len(white)):
        big.play((black if i % 2 == 0 else white)[i // 2])
    assert book.move(big) is None
    far = game_of([Point(0, 0), Point(14, 14)], [Point(0, 14)], Rule.FREESTYLE)
    assert book.move(far) is None
    assert book.table(Rule.CARO) == {}
    assert book.stones(far) == ([Point(0, 0), Point(14, 14)], [Point(0, 14)])


@pytest.mark.parametrize("rule", SWAP2_RULES)
def test_the_shipped_swap2_openings_are_legal_and_distinct(rule: Rule) -> None:
    openings = book.swap2_openings(rule)
    assert len(openings) >= 3, f"the {rule.value} swap2 table holds {len(openings)}"
    keys = [key for key, _ in openings]
    assert len(set(keys)) == len(keys)
    for (b1, b2), (w,) in keys:
        assert book.canonical([b1, b2], [w])[0] == ((b1, b2), (w,))
        game = GomokuGame(GomokuRules(rule, opening=Opening.SWAP2))
        game.decide_opening([b1, w, b2])  # legal as swap2's three stones
        assert not game.is_over


def test_renju_opens_swap2_where_its_book_plays_on() -> None:
    # renju's table is drawn from the standard openings so that the book answers its stones
    keys = [key for key, _ in book.swap2_openings(Rule.RENJU)]
    assert keys
    for (b1, b2), (w,) in keys:
        for t in range(8):
            game = GomokuGame(GomokuRules(Rule.RENJU))
            for p in (b1, w, b2):
                game.play(book.turned(p, t))
            assert book.move(game) is not None, (b1, w, b2, t)


@pytest.mark.parametrize(
    "text",
    ["hh ii / jj", "hh / jj : 5", "hh ii / jj kk : 5", "hh ii / jj : x", "hh iz / jj : 5"],
)
def test_a_malformed_swap2_line_is_refused_naming_where(
    text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "swap2-caro.txt").write_text(f"# a header\nhh ii / jj : -40  # fine\n{text}\n")
    monkeypatch.setattr(book, "FOLDER", tmp_path)
    book.swap2_openings.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"swap2-caro\.txt line 3: not a swap2 line"):
            book.swap2_openings(Rule.CARO)
    finally:
        book.swap2_openings.cache_clear()


@pytest.mark.parametrize("rule", SWAP2_RULES)
def test_the_player_opens_swap2_from_its_table_turned_at_random(rule: Rule) -> None:
    table = {key for key, _ in book.swap2_openings(rule)}
    seen, turns = set(), set()
    for seed in range(24):
        b1, w, b2 = GomokuPlayer(seed=seed).open_three(GomokuGame(GomokuRules(rule)))
        key, _ = book.canonical([b1, b2], [w])
        assert key in table
        seen.add(key)
        turns.add((b1, w, b2))
    assert len(seen) >= min(len(table), 4) > 1  # not one opening every game
    assert len(turns) >= 12


def test_without_a_table_the_player_opens_at_the_centre() -> None:
    assert book.swap2_openings(Rule.CARO) == []
    for rules in (GomokuRules(Rule.CARO), GomokuRules(Rule.FREESTYLE, width=19, height=19)):
        b1, w, b2 = GomokuPlayer(seed=2).open_three(GomokuGame(rules))
        assert b1 == Point((rules.width - 1) // 2, (rules.height - 1) // 2)
        assert max(abs(w.col - b1.col), abs(w.row - b1.row)) == 1
        assert max(abs(b2.col - b1.col), abs(b2.row - b1.row)) <= 2


def test_unseeded_players_open_swap2_differently() -> None:
    """The brain and the app's unseeded player draw their seed: one seed for every game gave
    every swap2 game the same three stones (a match's 26 games as the opener)."""
    game = GomokuGame(GomokuRules(Rule.FREESTYLE))
    openings = {tuple(GomokuPlayer(seed=None).open_three(game)) for _ in range(12)}
    assert len(openings) >= 6
    seeded = {tuple(GomokuPlayer(seed=5).open_three(game)) for _ in range(3)}
    assert len(seeded) == 1
