"""The Gomoku player's compiled search (`ai.gomoku.pvs` under `ai.gomoku.search`) and its foul
test (`ai.gomoku.fouls`): forced wins and blocks on the VCF puzzle set, renju's fouls as the one
judge says, the position left as it was, the deadline kept, and legal moves under every rule;
the transposition table's entries (shared by the threads: a half-written one reads as empty),
the horizon's win by fours looked for only below beta, a node near the horizon far above beta
ended on its static worth (futility), a renju black three whose straight fours are all
fouls not answered as a three, a node new to the table searched a ply
shallower, a node one of whose moves leads to a position the table proves refutes it ended
there, forced wins kept in the table counted from their node (the player keeps its table
from move to move), and the search on two threads held to the same forced wins and real ties,
sharing out even one root move's tree and leaving no move marked as being searched; the
line the search expects, read back from its table; and the set-up points the player adds to
its root moves, against a slow VCF written from the rule."""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tengen.ai.gomoku import search
from tengen.ai.gomoku.patterns import DOUBLE_THREE, FOUR, FOUR_THREE, OPEN_FOUR, THREE
from tengen.ai.gomoku.position import Position
from tengen.ai.gomoku.pvs import (
    _CHECK_EVERY,
    _FUTILE_DEPTH,
    _FUTILE_MARGIN,
    _IMPROVING,
    EXACT,
    LOWER,
    PLIES,
    TT_SIZE,
    UPPER,
    WIDTH,
    WIN,
    fields,
    probe,
    store,
    tables,
)
from tengen.ai.gomoku.search import MAX_DEPTH, WON, Report, Search, k
from tengen.ai.gomoku.threats import ThreatSearch
from tengen.ai.gomoku_player import GomokuPlayer, _threatens
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.gomoku import GomokuGame, GomokuRules, Rule
from tengen.gomoku.board import GomokuBoard, wins_at
from tengen.gomoku.renju import forbidden, forbidden_points

PUZZLES = Path(__file__).resolve().parent.parent / "data" / "gomoku_vcf.txt"
_STATE = ("cells", "key", "pat", "val", "kd", "total", "near")


def _puzzle_games() -> list[GomokuGame]:
    """The puzzle set's positions: the side to move wins by continuous fours."""
    games = []
    for text in PUZZLES.read_text().splitlines():
        rule, moves = text.split("\t")
        game = GomokuGame(GomokuRules(Rule(rule)))
        for m in moves.split():
            game.play(Point(*map(int, m.split(","))))
        games.append(game)
    return games


def _random_game(rule: Rule, seed: int, stones: tuple[int, int] = (10, 40)) -> GomokuGame:
    """A crowded position: random legal stones in the board's central 8x8 (the game not over)."""
    rng = random.Random(seed)
    while True:
        game = GomokuGame(GomokuRules(rule))
        for _ in range(rng.randint(*stones)):
            points = [p for p in game.legal_moves() if 3 <= p.col < 11 and 3 <= p.row < 11]
            if game.is_over or not points:
                break
            game.play(rng.choice(points))
        if not game.is_over and game.legal_moves():
            return game


def _roots(game: GomokuGame, pos: Position) -> list[int]:
    """The player's root moves: the 16 best-ranked legal points (all legal ones if none is
    ranked)."""
    legal = {pos.index(p) for p in game.legal_moves()}
    return [m for m in pos.ranked(int(game.to_play)) if m in legal][:16] or sorted(legal)


def _search(
    game: GomokuGame,
    seconds: float,
    pos: Position | None = None,
    threads: int = 1,
    max_depth: int = MAX_DEPTH,
) -> Report:
    """The search over the player's root moves (the 16 best-ranked legal points)."""
    pos = pos or Position.of(game)
    start = time.monotonic()
    return Search(pos, start + seconds, threads).run(
        int(game.to_play), _roots(game, pos), start + seconds, max_depth
    )


@pytest.fixture(scope="module", autouse=True)
def _compiled() -> None:
    """Compile the search (or load it from numba's cache) before any test times it: on a
    fresh clone compiling takes longer than a test's deadline, which would then stop the
    search before its first depth."""
    game = _puzzle_games()[0]
    pos = Position.of(game)
    Search(pos, time.monotonic() + 600).run(
        int(game.to_play), [pos.ranked(int(game.to_play))[0]], 0, 2
    )


@pytest.mark.parametrize("threads", [1, 2])
def test_the_search_wins_every_puzzle_and_the_defender_blocks_and_sees_the_loss(
    threads: int,
) -> None:
    """Each puzzle played out by the search on both sides, a five to make made first (as the
    player does before it searches): the attacker's every search proves a win (not always by
    a four: a shorter win by threes comes first), the defender's every search sees the loss
    and blocks a lone four, and the attacker makes five."""
    for game in _puzzle_games():
        attacker = int(game.to_play)
        while not game.is_over:
            pos = Position.of(game)
            me = int(game.to_play)
            fives = pos.fives(me)
            if fives:
                game.play(pos.point(fives[0]))
                continue
            report = _search(game, 5.0, pos, threads)
            if me == attacker:
                assert report.score >= WON, game.moves
            else:
                assert report.score <= -WON, game.moves
                lone = pos.fives(attacker)
                if len(lone) == 1:
                    assert report.move == lone[0], game.moves
            game.play(pos.point(report.move))
        assert game.winner == attacker, game.moves


def test_the_horizon_looks_for_a_win_by_fours_only_below_beta() -> None:
    """At the horizon the small VCF runs only when the static worth is below beta: at or
    above it the node fails high without it (no node searched); below it, the answer is the
    VCF's as when beta is unbounded, a win in the puzzles its 40 nodes reach."""

    def leaf(game: GomokuGame, beta: int | None) -> tuple[int, int, int]:
        """The horizon's value (beta None: just above the static worth), the static worth and
        the nodes searched, on a fresh position (the VCF's refutation table starts empty)."""
        pos = Position.of(game)
        me = int(game.to_play)
        static = int(k.evaluate(pos.s, me))
        value = k._leaf(pos.s, tables(pos.n, time.monotonic() + 60), me, 0, True,
                        static + 1 if beta is None else beta, static)  # fmt: skip
        return int(value), static, pos.nodes

    wins = 0
    for game in _puzzle_games():
        below, static, nodes = leaf(game, None)
        assert leaf(game, static) == (static, static, 0)
        assert nodes > 0
        assert leaf(game, 2 * WIN) == (below, static, nodes)
        assert below == static or below >= WON
        wins += below >= WON
    assert wins >= len(_puzzle_games()) // 2


def test_a_null_window_node_near_the_horizon_far_above_beta_returns_its_static_worth() -> None:
    """Futility: a null-window node up to `_FUTILE_DEPTH` plies from the horizon, not facing a
    four-three or better, whose static worth w beats beta by `_FUTILE_MARGIN` a ply returns w
    in one node, and by `_IMPROVING` less when w is above the side's own worth two plies up;
    a beta nearer w, a wider window, a node deeper, or one facing an open three is searched."""

    def node(moves: list[tuple[int, int]], depth: int, beta: int, ply: int = 1,
             before: int | None = None, window: int = 1) -> tuple[int, int, int]:  # fmt: skip
        """The node's score, its static worth w and its nodes, searched from empty tables
        at `ply` in (beta - `window`, beta), its side's worth two plies up set to `before`."""
        game = GomokuGame(GomokuRules(Rule.FREESTYLE))
        for c, r in moves:
            game.play(Point(c, r))
        pos = Position.of(game)
        me = int(game.to_play)
        t = tables(pos.n, time.monotonic() + 600)
        if before is not None:
            t.statics[ply - 2] = before
        score = int(k.root(pos.s, t, me, depth, beta - window, beta, ply))
        return score, pos.evaluate(me), pos.nodes

    quiet = [(7, 7), (8, 8), (7, 8), (6, 6), (9, 7)]
    w = node(quiet, 1, 2 * WIN)[1]
    for depth in range(1, _FUTILE_DEPTH + 1):
        edge = w - _FUTILE_MARGIN * depth
        assert node(quiet, depth, edge) == (w, w, 1)
        assert node(quiet, depth, edge + 1)[2] > 1
        assert node(quiet, depth, edge, window=2)[2] > 1
        grown = edge + _IMPROVING
        assert node(quiet, depth, grown, ply=3, before=w - 1) == (w, w, 1)
        assert node(quiet, depth, grown, ply=3, before=w)[2] > 1
        assert node(quiet, depth, grown + 1, ply=3, before=w - 1)[2] > 1
    assert node(quiet, _FUTILE_DEPTH + 1, w - _FUTILE_MARGIN * (_FUTILE_DEPTH + 2))[2] > 1
    three = [(7, 5), (0, 0), (7, 6), (14, 14), (7, 7)]  # White faces Black's open three
    assert node(three, 1, -WIN // 2)[2] > 1


def test_a_node_the_table_knows_nothing_of_is_searched_a_ply_shallower() -> None:
    """Internal iterative reduction: at depth 4 or more a node with no table entry is searched
    a ply shallower (its entry says so), and to its depth once the table holds it; shallower
    nodes, and a forced block (which costs no depth), keep theirs."""

    def stored(moves: list[tuple[int, int]], depth: int) -> tuple[int, int]:
        """The depth the root's entry holds after one search from empty tables, and after a
        second search with the first's tables."""
        game = GomokuGame(GomokuRules(Rule.FREESTYLE))
        for c, r in moves:
            game.play(Point(c, r))
        pos = Position.of(game)
        me = int(game.to_play)
        key = int(pos.s.hash[0] ^ pos.s.side[me - 1])
        t = tables(pos.n, time.monotonic() + 600)
        depths = []
        for _ in range(2):
            k.root(pos.s, t, me, depth, -2 * WIN, 2 * WIN, 1)
            depths.append(int(fields(probe(t, key, key & (TT_SIZE - 1)))[1]))
        return depths[0], depths[1]

    quiet = [(7, 7), (8, 8), (7, 8), (6, 6), (9, 7)]
    assert stored(quiet, 3) == (3, 3)
    assert stored(quiet, 4) == (3, 4)
    assert stored(quiet, 6) == (5, 6)
    four = [(7, 3), (7, 2), (7, 4), (0, 0), (7, 5), (14, 14), (7, 6)]  # White must block (7, 7)
    assert stored(four, 6) == (7, 7)


def test_a_depth_cut_short_counts_only_when_a_root_move_beat_the_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The deadline stops a depth after its first `done` root moves (the search in between
    the real one, on fresh positions and tables, so both runs search alike up to the cut): the
    report is that depth's when one of those beat the first (the last depth's best), which it
    then names; otherwise the depth before's, as if the cut depth had not started."""
    real = search._searched
    far = time.monotonic() + 600
    seen = {True: 0, False: 0}
    for game in _puzzle_games():
        while len(game.moves) > 12:
            game.undo()
        me = int(game.to_play)
        roots = _roots(game, Position.of(game))
        for depth in (4, 5):
            calls: list[tuple[int, int, int]] = []

            def recorded(*args: Any, calls: list[tuple[int, int, int]] = calls) -> int:
                score = real(*args)
                calls.append((args[4], args[3], score))
                return score

            monkeypatch.setattr(search, "_searched", recorded)
            full = Search(Position.of(game), far).run(me, roots, far, depth)
            before = Search(Position.of(game), far).run(me, roots, far, depth - 1)
            last = [(m, score) for d, m, score in calls if d == depth]
            if full.depth != depth or abs(full.score) >= WON:
                continue
            for done in (2, 4):
                (first, first_score), searched = last[0], last[:done]
                best_move, best_score = max(searched, key=lambda ms: (ms[1], ms[0] == first))
                better = best_score > first_score

                def cut(*args: Any, done: int = done, depth: int = depth) -> int:
                    nonlocal count
                    if args[4] == depth:
                        count += 1
                        if count > done:
                            args[1].stop[0] = 1
                            return 0
                    return real(*args)

                count = 0
                monkeypatch.setattr(search, "_searched", cut)
                report = Search(Position.of(game), far).run(me, roots, far, depth)
                if better:
                    assert (report.depth, report.move, report.score) == (
                        depth, best_move, best_score)  # fmt: skip
                    assert set(report.scores) == {m for m, _ in searched}
                else:
                    assert (report.depth, report.move) == (depth - 1, before.move)
                seen[better] += 1
    assert min(seen.values()) >= 1, seen


def test_a_forced_win_in_the_table_counts_from_its_node_not_from_the_root() -> None:
    """The player keeps its table from move to move, so a position one search met at ply 3
    the next meets at ply 1: the win stored there must read as as many plies from the node.
    A puzzle searched at ply 3 and then at ply 1 with that table scores as at ply 1 from
    empty tables (read as stored, the win would be two plies too far)."""
    for game in _puzzle_games():
        pos = Position.of(game)
        me = int(game.to_play)
        far = time.monotonic() + 600
        fresh = int(k.root(pos.s, tables(pos.n, far), me, 3, -2 * WIN, 2 * WIN, 1))
        assert fresh >= WON
        t = tables(pos.n, far)
        assert int(k.root(pos.s, t, me, 3, -2 * WIN, 2 * WIN, 3)) == fresh - 2
        assert int(k.root(pos.s, t, me, 3, -2 * WIN, 2 * WIN, 1)) == fresh


def test_a_move_whose_position_the_table_proves_refutes_the_node_ends_it_unsearched() -> None:
    """Enhanced transposition cutoff: a node whose move leads to a position the table holds,
    as an upper bound or exact for the opponent at or below -beta, returns that bound as its
    own lower bound without searching (one node), and keeps it in its own entry with the move;
    only when the entry was searched deep enough (a ply less than the node, or as deep after a
    move making a four, whose forced block costs no depth) and is not a lower bound. The
    position the move leads to, searched by the node itself, gives the same cut."""

    def parent(moves: list[tuple[int, int]]) -> tuple[Position, int, int]:
        game = GomokuGame(GomokuRules(Rule.FREESTYLE))
        for c, r in moves:
            game.play(Point(c, r))
        pos = Position.of(game)
        me = int(game.to_play)
        return pos, me, int(pos.s.hash[0] ^ pos.s.side[me - 1])

    def cut(moves: list[tuple[int, int]], m: int, stored: int, flag: int) -> tuple[int, int]:
        """The node's score above its static worth w (depth 3, window (w - 1, w), which the
        futility cut never ends) and its nodes, after the position `m` leads to is stored with
        score -(w + 5) (w + 5 for the node) at depth `stored` with `flag`."""
        pos, me, key = parent(moves)
        w = pos.evaluate(me)
        t = tables(pos.n, time.monotonic() + 600)
        child = key ^ int(pos.s.zob[me - 1, m]) ^ int(pos.s.side[0] ^ pos.s.side[1])
        store(t, child, child & (TT_SIZE - 1), -(w + 5), stored, flag, 0)
        score = int(k.root(pos.s, t, me, 3, w - 1, w, 1))
        data = probe(t, key, key & (TT_SIZE - 1))
        if pos.nodes == 1:
            assert fields(data)[1:] == (3, LOWER, m)
        return score - w, pos.nodes

    quiet = [(7, 7), (8, 8), (7, 8), (6, 6), (9, 7)]
    pos, me, _ = parent(quiet)
    m = pos.ranked(me)[0]
    assert pos.kind_of(m, me) < FOUR
    assert cut(quiet, m, 2, UPPER) == (5, 1)
    assert cut(quiet, m, 2, EXACT) == (5, 1)
    assert cut(quiet, m, 1, UPPER)[1] > 1  # searched too shallow
    assert cut(quiet, m, 2, LOWER)[1] > 1  # the opponent's score is at least -5: no proof
    closed = [(7, 3), (0, 0), (7, 4), (7, 2), (7, 5), (14, 14)]  # Black to make a closed four
    pos, me, _ = parent(closed)
    four = next(i for i in pos.ranked(me) if pos.kind_of(i, me) == FOUR)  # in the move list
    assert cut(closed, four, 3, UPPER) == (5, 1)
    assert cut(closed, four, 2, UPPER)[1] > 1

    pos, me, _ = parent(quiet)
    t = tables(pos.n, time.monotonic() + 600)
    pos.place(m, me)
    value = int(k.root(pos.s, t, 3 - me, 2, -2 * WIN, 2 * WIN, 2))
    pos.remove(m)
    before = pos.nodes
    assert int(k.root(pos.s, t, me, 3, -value - 1, -value, 1)) == -value
    assert pos.nodes == before + 1


def test_the_player_keeps_its_table_from_move_to_move_on_one_board_and_rule() -> None:
    """After the player's move and a reply, its next search starts from the last one's
    transposition table; another rule starts afresh, as the patterns' worths differ."""
    game = GomokuGame(GomokuRules(Rule.FREESTYLE))
    for p in (Point(7, 7), Point(8, 8), Point(7, 8), Point(6, 6), Point(9, 7)):
        game.play(p)
    player = GomokuPlayer(time_limit=0.5, threads=1, book=False)
    game.play(player.genmove(game))
    ((board, t),) = player.kept.items()
    assert board == (15, 15, Rule.FREESTYLE)
    game.play(GomokuPlayer(time_limit=0.5, threads=1, book=False).genmove(game))
    player.genmove(game)
    assert player.kept[board].tt is t.tt
    renju = GomokuGame(GomokuRules(Rule.RENJU))
    for move in game.moves[:5]:
        renju.play(move[1])
    player.genmove(renju)
    ((other, fresh),) = player.kept.items()
    assert other == (15, 15, Rule.RENJU) and fresh.tt is not t.tt


def test_the_search_blocks_an_open_three() -> None:
    game = GomokuGame(GomokuRules(Rule.FREESTYLE))
    black = [Point(1, 3), Point(5, 4), Point(7, 5)]
    white = [Point(2, 1), Point(3, 1), Point(4, 1)]
    for b, w in zip(black, white, strict=True):
        game.play(b)
        game.play(w)
    pos = Position.of(game)
    report = _search(game, 0.5, pos)
    assert pos.point(report.move) in {Point(1, 1), Point(5, 1)}


def test_white_need_not_answer_a_black_three_whose_open_fours_are_all_fouls() -> None:
    """Under renju a three is a row that can become a straight four by an allowed move: Black's
    row `X.X.X.X` has one straight-four point, a double-four foul by the judge, so it is no
    three, and White's node is not held to the fours and blocks. Here White wins by a quiet
    move, a double three at (3, 12), which the node finds by 6 plies."""
    game = GomokuGame(GomokuRules(Rule.RENJU))
    black = [(6, 8), (8, 8), (10, 8), (12, 8), (7, 7), (8, 6), (0, 0), (12, 0), (14, 0), (14, 3)]
    white = [(5, 5), (9, 5), (11, 5), (11, 9), (10, 10), (1, 12), (2, 12), (3, 10), (3, 11)]
    game.set_up([Point(*p) for p in black], [Point(*p) for p in white])
    pos = Position.of(game)
    white_stone = int(game.to_play)
    assert white_stone == 2
    straight = [j for j in range(pos.n) if not pos.cells[j] and pos.kind_of(j, 1) >= OPEN_FOUR]
    assert [pos.point(j) for j in straight] == [Point(9, 8)]
    assert forbidden(game.board, Point(9, 8)) is not None
    assert pos.kind_of(pos.index(Point(3, 12)), white_stone) == DOUBLE_THREE
    t = tables(pos.n, time.monotonic() + 600)
    assert int(k.root(pos.s, t, white_stone, 6, -2 * WIN, 2 * WIN, 1)) >= WON
    assert pos.point(int(k.expected(pos.s, t, white_stone))) == Point(3, 12)


def test_the_reply_to_a_root_move_looks_past_the_width() -> None:
    """The node after a root move (ply 1) lists `_WIDE` moves past `WIDTH` too. From a renju
    game against Rapfi (tengen Black at 5 s, its 13th stone scored +948 at depth 15): White's
    win, a quiet move making two closed threes that Rapfi proves mates in 9, is ranked past
    the width at ply 1, and the search of that node sees it a few plies deep."""
    game = GomokuGame(GomokuRules(Rule.RENJU))
    for c, r in [(7, 7), (6, 7), (9, 9), (7, 6), (5, 8), (8, 6), (9, 6), (6, 6), (6, 5),
                 (8, 4), (7, 5), (6, 4), (5, 4)]:  # fmt: skip
        game.play(Point(c, r))
    pos = Position.of(game)
    white = int(game.to_play)
    win = pos.index(Point(9, 4))
    assert pos.ranked(white).index(win) >= WIDTH[1]
    score = int(k.root(pos.s, tables(pos.n, time.monotonic() + 600), white, 6, -WIN, WIN, 1))
    assert score > WIN - PLIES


def test_the_static_worth_does_not_swing_with_the_side_to_move() -> None:
    """The static worth and a one-ply search of crowded positions agree to within an open-four
    point's worth: the open three of the side that just moved is the side to move's to block.
    With the hand-set worths counted whole (an open-four point at 5,500 and more), the median
    gap here was 8,400."""
    gaps = []
    for seed in range(60):
        game = _random_game(Rule.FREESTYLE, seed, (12, 30))
        pos = Position.of(game)
        static = pos.evaluate(int(game.to_play))
        report = _search(game, 60.0, pos, max_depth=1)
        if abs(report.score) < WON:
            gaps.append(abs(report.score - static))
    assert len(gaps) >= 15
    assert statistics.median(gaps) < 3_000


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(("line", "cut", "depth"), [(2, 14, 10), (12, 14, 8)])
def test_a_root_move_tied_with_the_best_does_not_lose_where_the_best_does_not(
    line: int, cut: int, depth: int, threads: int
) -> None:
    # Two puzzle games cut early (freestyle, renju) where a null-window bound used to equal
    # the best score at this depth: the move behind it lets the opponent win by threats
    # (VCF in the first, VCT in the second), and the player picked at random among the ties.
    # (Under renju's refitted shape worths no renju cut meets such a bound at depth 8 now:
    # with the tie's re-search taken out, only the freestyle case fails.)
    # On two threads a root move may be searched against a best score that has since risen:
    # its bound must still not pass for a tie. Two threads share one table as they race, so
    # their best move varies from run to run: under renju, about one run in ten picks a move
    # that loses by VCT beyond depth 8 (with no tie); the claim is then only that no tie loses
    # where the best does not. One thread is repeatable and its best must not lose.
    game = _puzzle_games()[line]
    while len(game.moves) > cut:
        game.undo()
    pos = Position.of(game)
    me = int(game.to_play)
    roots = _roots(game, pos)
    far = time.monotonic() + 600
    report = Search(pos, far, threads).run(me, roots, far, max_depth=depth)
    assert report.depth == depth
    assert set(report.scores) == set(roots)
    best = max(report.scores.values())
    tied = [m for m, score in report.scores.items() if score == best]
    assert report.move in tied
    lost = {m: _loses(pos, me, m) for m in tied}
    if threads == 1:
        assert not lost[report.move], pos.point(report.move)
    if not lost[report.move]:
        assert not any(lost.values()), [pos.point(m) for m in tied if lost[m]]


def _loses(pos: Position, me: int, m: int) -> bool:
    """Whether `me` playing `m` lets the opponent win by fours (VCF) or threes (VCT)."""
    pos.place(m, me)
    try:
        threats = ThreatSearch(pos, 100_000, 600.0)
        return threats.vcf(3 - me) is not None or threats.vct(3 - me) is not None
    finally:
        pos.remove(m)


def test_fouls_are_the_judges_on_crowded_renju_positions() -> None:
    fouls = 0
    for seed in range(120):
        game = _random_game(Rule.RENJU, seed)
        pos = Position.of(game)
        forbidden = {pos.index(p) for p in forbidden_points(game.board)}  # either to move
        for i in np.flatnonzero(pos.cells == 0):
            assert pos.may_play(int(i), 1) == (int(i) not in forbidden), (game.moves, i)
            assert pos.may_play(int(i), 2)
        fouls += len(forbidden)
    assert fouls >= 20  # the positions do hold fouls of every kind the test must catch


@settings(max_examples=25, deadline=None)
@given(rule=st.sampled_from(list(Rule)), seed=st.integers(0, 10**6), threads=st.integers(1, 3))
def test_a_search_cut_off_by_its_deadline_leaves_the_position_as_it_was(
    rule: Rule, seed: int, threads: int
) -> None:
    game = _random_game(rule, seed)
    pos = Position.of(game)
    before = {name: getattr(pos, name).copy() for name in _STATE}
    key = pos.hash
    start = time.monotonic()
    search = Search(pos, start + 0.02, threads)
    search.run(int(game.to_play), _roots(game, pos), start + 0.02)
    assert pos.hash == key
    for name in _STATE:
        assert np.array_equal(before[name], getattr(pos, name)), name
    assert not search.tables.busy.any()  # no thread left a move marked as being searched


def test_the_expected_line_starts_with_the_move_and_blocks_each_lone_four() -> None:
    """`Search.line` after each puzzle's proved win: it starts with the search's move, keeps
    to empty points and to the plies asked for, and wherever the side to move faces one five
    to make and has none of its own, its next move is the block (the one move that does not
    lose at once: the table must hold it, or the line is not the search's); and with no forced
    win in reach, the line runs to the depth searched."""
    blocks = 0
    for game in _puzzle_games():
        pos = Position.of(game)
        me = int(game.to_play)
        if pos.fives(me):
            continue
        far = time.monotonic() + 600
        search = Search(pos, far, 1)
        report = search.run(me, _roots(game, pos), far, max_depth=8)
        line = search.line(me, report.move, 8)
        assert line[0] == report.move and len(line) <= 8
        replay, who = pos.copy(), me
        for m in line:
            assert not replay.cells[m], line
            fives = replay.fives(3 - who)
            if len(fives) == 1 and not replay.fives(who):
                assert m == fives[0], line
                blocks += 1
            replay.place(m, who)
            who = 3 - who
    assert blocks  # the lines went past their first move
    game = _puzzle_games()[0]
    for _ in range(3):
        game.undo()  # a few moves back: no forced win in reach
    pos = Position.of(game)
    me, far = int(game.to_play), time.monotonic() + 600
    search = Search(pos, far, 1)
    report = search.run(me, _roots(game, pos), far, max_depth=6)
    assert abs(report.score) < WON
    assert len(search.line(me, report.move, 6)) == 6


def test_two_threads_share_out_the_tree_of_a_single_root_move() -> None:
    # One root move: both threads search its tree (the second taking the siblings the first
    # is not on) to the depth one thread reaches, and neither finds a forced result that the
    # other does not (a few moves back from a puzzle: no forced win in reach).
    game = _puzzle_games()[0]
    for _ in range(3):
        game.undo()
    pos = Position.of(game)
    me = int(game.to_play)
    roots = _roots(game, pos)
    far = time.monotonic() + 600
    alone = Search(pos, far, 1).run(me, roots[:1], far, max_depth=6)
    pos = Position.of(game)
    search = Search(pos, far, 2)
    shared = search.run(me, roots[:1], far, max_depth=6)
    assert shared.depth == alone.depth
    assert abs(shared.score) < WON and abs(alone.score) < WON
    helper, _ = search.helpers[0]
    assert helper.nodes > 0  # the second thread searched too


@settings(max_examples=200, deadline=None)
@given(
    key=st.integers(-(2**63), 2**63 - 1),
    score=st.integers(-2 * WIN, 2 * WIN),
    depth=st.integers(1, 255),
    flag=st.integers(0, 2),
    move=st.integers(0, 1023),
    other=st.integers(-(2**63), 2**63 - 1),
)
def test_a_table_entry_reads_back_and_one_half_written_reads_as_empty(
    key: int, score: int, depth: int, flag: int, move: int, other: int
) -> None:
    t = tables(225, 0.0)
    slot = key & (TT_SIZE - 1)
    assert probe(t, key, slot) == 0  # empty
    store(t, key, slot, score, depth, flag, move)
    data = probe(t, key, slot)
    assert tuple(int(f) for f in fields(data)) == (score, depth, flag, move)
    if other != key:
        assert probe(t, other, slot) == 0  # another position in the same slot
        # Another thread wrote its entry's data word but not yet its lock word (or the
        # other way round): neither position reads the torn pair.
        mixed = tables(225, 0.0)
        store(mixed, other, slot, -score, 1 + depth % 255, (flag + 1) % 3, move ^ 1)
        t.tt[slot, 1] = mixed.tt[slot, 1]
        assert probe(t, key, slot) == 0
        assert probe(t, other, slot) == 0


def test_the_search_stops_at_the_first_look_at_the_clock_past_its_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fake clock that moves one second at each look (compiled code reads `time.monotonic`
    too): the search runs on until a look reads a time past its deadline, then searches at most
    one more clock interval of nodes and reports its last whole depth, the cut one dropped."""
    game = _puzzle_games()[0]
    for _ in range(3):  # a few moves back: no forced win to end the search early
        game.undo()
    pos = Position.of(game)
    me = int(game.to_play)
    roots = pos.ranked(me)[:16]
    looks: list[int] = []  # the node count at each look at the clock

    def tick() -> float:
        looks.append(pos.nodes)
        return float(len(looks))

    monkeypatch.setattr(time, "monotonic", tick)
    deadline = 40.5
    search = Search(pos, deadline)
    report = search.run(me, roots, soft=10**9, max_depth=60)
    monkeypatch.undo()
    assert search.tables.stop[0] == 1
    assert len(looks) > deadline
    past = looks[int(deadline)]  # nodes when the clock was first read past the deadline
    assert 0 <= pos.nodes - past <= _CHECK_EVERY
    assert report.depth >= 2
    # The depth the deadline cut is not reported: the report's nodes were all searched by the
    # first look past the deadline (which may be the look between two depths) and the cut
    # depth searched more.
    assert report.nodes <= past
    assert report.nodes < pos.nodes


@settings(max_examples=40, deadline=None)
@given(rule=st.sampled_from(list(Rule)), seed=st.integers(0, 10**6))
def test_the_players_move_is_legal_under_every_rule(rule: Rule, seed: int) -> None:
    game = _random_game(rule, seed, stones=(4, 30))
    move = GomokuPlayer(seed, time_limit=0.05).genmove(game)
    assert move in game.legal_moves()
    if rule is Rule.RENJU and game.to_play is Color.BLACK:
        assert move not in game.forbidden_points()


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.RENJU])
def test_the_search_reaches_depth_in_a_fraction_of_a_second(rule: Rule) -> None:
    game = _random_game(rule, 5, stones=(12, 12))
    report = _search(game, 0.3)
    assert report.depth >= 4 or abs(report.score) >= WON


def test_a_lone_closed_four_ranks_among_the_threes_by_worth() -> None:
    """The move order's first look (`kernels.rank_key`: `Position.ranked` with no pool to
    re-rank): a move whose only threat is a closed four comes before a three only when it is
    worth more there (its own worth plus three quarters of the opponent's), and four-threes
    and open fours still come before both. Fours ranked first filled the search's few slots
    a node."""
    pairs = 0
    for seed in range(40):
        game = _random_game(Rule.FREESTYLE, seed)
        pos = Position.of(game)
        c = int(game.to_play) - 1
        order = [j for j in pos.ranked(c + 1, 0) if pos.kd[1 - c, j] < FOUR]  # no block at stake
        worth = {j: int(pos.val[c, j]) + int(pos.val[1 - c, j]) * 3 // 4 for j in order}
        for a, j in enumerate(order):
            for q in order[a + 1 :]:
                kinds = pos.kd[c, j], pos.kd[c, q]
                if kinds == (FOUR, THREE):
                    pairs += 1
                    assert worth[j] >= worth[q], (seed, pos.point(j), pos.point(q))
                assert not (kinds[1] >= FOUR_THREE and kinds[0] in (THREE, FOUR)), (seed, j, q)
    assert pairs > 20


def _slow_fives(board: GomokuBoard, color: Color, rule: Rule, near: Point) -> list[Point]:
    """The empty points on the four lines within four of `near` where a `color` stone wins
    by the judge (`wins_at`): every five-point a stone on `near` could have made."""
    found = []
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for step in range(-4, 5):
            p = Point(near.col + dc * step, near.row + dr * step)
            if not (0 <= p.col < board.width and 0 <= p.row < board.height) or board[p]:
                continue
            board.place(p, color)
            if wins_at(board, p, color, rule) is not None and p not in found:
                found.append(p)
            board.remove(p)
    return found


def _slow_four_points(board: GomokuBoard, a: Color) -> list[Point]:
    """The empty points where an `a` stone may make a four: some five points in a line
    through it hold three `a` stones and nothing else (a superset, which the judge narrows)."""
    w, h = board.width, board.height
    grid = np.full((h + 8, w + 8), -1)  # off the board: -1
    for p in board.points():
        stone = board[p]
        grid[p.row + 4, p.col + 4] = 0 if stone is None else int(stone)
    hot = np.zeros((h + 8, w + 8), dtype=bool)
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        # cells[n]: the n-th point of the five starting at each (row, col)
        cells = [np.roll(grid, (-n * dr, -n * dc), axis=(0, 1)) for n in range(5)]
        mine = sum((c == int(a)).astype(int) for c in cells)
        empty = sum((c == 0).astype(int) for c in cells)
        window = (mine == 3) & (empty == 2)
        for n in range(5):
            hot |= np.roll(window & (cells[n] == 0), (n * dr, n * dc), axis=(0, 1))
    rows, cols = np.nonzero(hot[4 : h + 4, 4 : w + 4])
    return [Point(int(c), int(r)) for r, c in zip(rows, cols, strict=True)]


def _slow_vcf(board: GomokuBoard, a: Color, rule: Rule, fours: int, block: Point | None) -> bool:
    """Whether `a`, to move on `board` with no five-point, wins by at most `fours` fours,
    straight from the rule: each move of `a` (not a foul) makes a five-point, on `block`
    when the defender has one there; two five-points, or one the defender may not take
    (Black's foul under renju), win; else the defender takes it and `a` goes on."""
    if fours == 0:
        return False
    d = a.opponent
    for p in [block] if block else _slow_four_points(board, a):
        if a is Color.BLACK and forbidden(board, p, rule):
            continue
        board.place(p, a)
        mine = _slow_fives(board, a, rule, p)
        if len(mine) >= 2 or (
            len(mine) == 1 and d is Color.BLACK and forbidden(board, mine[0], rule)
        ):
            board.remove(p)
            return True
        won = False
        if mine:
            board.place(mine[0], d)
            theirs = _slow_fives(board, d, rule, mine[0])
            if len(theirs) < 2:
                won = _slow_vcf(board, a, rule, fours - 1, theirs[0] if theirs else None)
            board.remove(mine[0])
        board.remove(p)
        if won:
            return True
    return False


@pytest.mark.parametrize("rule", list(Rule))
def test_the_set_up_points_are_those_after_which_a_slow_vcf_wins(rule: Rule) -> None:
    """`pvs.setups` against a slow VCF written from the rule and the judge: every point it
    lists is empty, near the stones, not a four, playable (no foul for Black under renju),
    and after it the side, moving again, wins by fours; every such point with a win of two
    fours at most is listed (deeper ones may lie past its small budget); the position is
    left as it was."""
    listed = 0
    for seed in range(8):
        game = _random_game(rule, seed, stones=(8, 24))
        pos = Position.of(game)
        me = int(game.to_play)
        if pos.fives(me) or pos.fives(3 - me):
            continue
        a = Color(me)
        before = pos.cells.copy(), pos.hash
        found = Search(pos, time.monotonic() + 600).setups(me)
        assert (pos.cells == before[0]).all() and pos.hash == before[1]
        board = game.board.copy()
        for i in range(pos.n):
            if pos.cells[i] or not pos.near[i] or pos.kind_of(i, me) >= FOUR:
                continue
            p = pos.point(i)
            if a is Color.BLACK and forbidden(board, p, rule):
                assert i not in found, (game.moves, p)
                continue
            board.place(p, a)
            if i in found:
                assert any(_slow_vcf(board, a, rule, n, None) for n in range(1, 11)), (
                    game.moves,
                    p,
                )
            else:
                assert not _slow_vcf(board, a, rule, 2, None), (game.moves, p)
            board.remove(p)
        listed += len(found)
    assert listed


def test_the_player_searches_its_set_up_points_past_its_ranked_roots(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no threat of the opponent's to stop, the player's search weighs, besides its 16
    best-ranked points, its set-up points ranked past them (each a real set-up by the slow
    VCF)."""
    searched: list[list[int]] = []
    run = Search.run

    def spy(
        self: Search, me: int, roots: list[int], soft: float, max_depth: int = MAX_DEPTH
    ) -> Report:
        searched.append(list(roots))
        return run(self, me, roots, soft, max_depth)

    monkeypatch.setattr(Search, "run", spy)
    checked = 0
    for seed in range(200):
        game = _random_game(Rule.FREESTYLE, seed, stones=(10, 30))
        pos = Position.of(game)
        me = int(game.to_play)
        ranked = _roots(game, pos)
        outside = [m for m in Search(pos, time.monotonic() + 600).setups(me) if m not in ranked]
        if not outside or pos.fives(me) or pos.fives(3 - me):
            continue
        searched.clear()
        GomokuPlayer(seed, time_limit=0.2, threads=1, book=False).genmove(game)
        if not searched:
            continue  # decided before the search: a win by threats
        if _threatens(pos, 3 - me, 5.0):
            continue  # the roots are the defences (when the player's own look finds it)
        assert set(outside) <= set(searched[0]), (game.moves, outside)
        board = game.board.copy()
        for m in outside:
            board.place(pos.point(m), Color(me))
            assert any(_slow_vcf(board, Color(me), Rule.FREESTYLE, n, None) for n in range(1, 11))
            board.remove(pos.point(m))
        checked += 1
    assert checked >= 3
