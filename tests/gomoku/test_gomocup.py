"""The Gomocup protocol both ways: the brain spoken to as a manager would, in process and as
``tengen gomocup``, and the manager side driving that brain."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tengen import __version__
from tengen.ai.gomoku_player import WARM_WAIT, GomokuPlayer
from tengen.core import jit
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.gomoku import GomokuGame, GomokuRules, Rule, forbidden_points, gomocup
from tengen.gomoku.gomocup import Brain, Lag, Limits
from tengen.gomoku.manager import (
    GomocupEngine,
    GomocupEngineDied,
    GomocupError,
    GomocupRefused,
    GomocupTimeout,
    play_game,
)
from tests.gomoku.support import shut_out_stones

BRAIN = [sys.executable, "-m", "tengen", "gomocup"]
_MOVE = re.compile(r"(\d+),(\d+)")


def make_brain(*setup: str) -> Brain:
    brain = Brain(GomokuPlayer(seed=1, time_limit=0.05))
    for line in setup:
        say(brain, line)
    return brain


def say(brain: Brain, *lines: str) -> list[str]:
    """Every reply line to `lines`, in order."""
    return [reply for line in lines for reply in brain.handle(line)]


def move_of(reply: str) -> Point:
    match = _MOVE.fullmatch(reply)
    assert match is not None, reply
    return Point(int(match.group(1)), int(match.group(2)))


def one_error(replies: list[str], word: str = "ERROR") -> str:
    (reply,) = replies
    assert reply.startswith(word + " "), reply
    return reply


def stones(brain: Brain) -> list[tuple[Color, Point]]:
    assert brain.game is not None
    return list(brain.game.moves)


# -- identity, start, info, end ------------------------------------------------------------


def test_about_names_tengen() -> None:
    (reply,) = say(make_brain(), "ABOUT")
    pairs = dict(re.findall(r'(\w+)="([^"]*)"', reply))
    assert pairs["name"] == "tengen"
    assert pairs["version"] == __version__
    assert pairs["author"] and pairs["country"]


@pytest.mark.parametrize(
    ("line", "size"),
    [("START 15", (15, 15)), ("start 20", (20, 20)), ("RECTSTART 20,15", (20, 15))],
)
def test_start_sets_an_empty_board(line: str, size: tuple[int, int]) -> None:
    brain = make_brain()
    assert say(brain, line) == ["OK"]
    assert brain.game is not None
    assert (brain.game.rules.width, brain.game.rules.height) == size
    assert not brain.game.moves


@pytest.mark.parametrize("line", ["START 4", "START 53", "START", "START x", "RECTSTART 20"])
def test_start_refuses_bad_sizes(line: str) -> None:
    one_error(say(make_brain(), line))


@pytest.mark.parametrize("line", ["BEGIN", "TURN 7,7", "BOARD", "RESTART", "YXSHOWFORBID"])
def test_board_commands_need_start(line: str) -> None:
    assert "START" in one_error(say(make_brain(), line))


@pytest.mark.parametrize(
    ("value", "rule"),
    [
        ("0", Rule.FREESTYLE),
        ("1", Rule.STANDARD),
        ("2", Rule.FREESTYLE),  # Gomocup: continuous game only (not renju as in Yixin-Board)
        ("3", Rule.STANDARD),  # exactly five + continuous game
        ("4", Rule.RENJU),
        ("8", Rule.CARO),
        ("9", Rule.CARO),
    ],
)
def test_info_rule_before_and_after_start(value: str, rule: Rule) -> None:
    before = make_brain(f"INFO rule {value}", "START 15")
    after = make_brain("START 15", f"INFO rule {value}")
    for brain in (before, after):
        assert brain.game is not None
        assert brain.game.rules.rule is rule


def test_info_rule_keeps_the_stones() -> None:
    brain = make_brain("START 15", "BEGIN")
    say(brain, "INFO rule 4")
    assert brain.game is not None and brain.game.rules.rule is Rule.RENJU
    assert len(stones(brain)) == 1


def test_info_rule_keeps_a_position_with_a_stone_renju_forbids_to_moves() -> None:
    """The stones are a position: a black stone on a point forbidden to a move stands when
    renju comes in (the board was once cleared), and Black's next move is judged."""
    brain = make_brain("START 15")
    # Black (the opponent's field 2) ends on 7,7: a double-three, legal until renju applies.
    black = ["5,7,2", "6,7,2", "7,5,2", "7,6,2", "7,7,2"]
    white = ["0,0,1", "0,14,1", "14,0,1", "14,14,1"]
    lines = [line for pair in zip(black, [*white, ""], strict=True) for line in pair if line]
    assert say(brain, "YXBOARD", *lines, "DONE") == []
    assert say(brain, "INFO rule 4") == []
    assert brain.game is not None and brain.game.rules.rule is Rule.RENJU
    assert len(stones(brain)) == 9 and (Color.BLACK, Point(7, 7)) in stones(brain)


def test_info_limits_and_unknown_keys() -> None:
    brain = make_brain()
    assert say(brain, "INFO timeout_turn 1000", "INFO time_left 60000", "INFO max_memory 0") == []
    assert say(brain, "INFO folder C:\\tmp", "INFO evaluate 3,4", "INFO no_such_key 5") == []
    assert brain.limits.timeout_turn == 1000 and brain.limits.time_left == 60000
    assert 0.8 <= brain.limits.move_seconds() <= 0.9  # the turn's second, less a reserve
    assert say(brain, "INFO time_left 5000") == []
    assert brain.limits.move_seconds() == 0.2  # the match's time, shared over 25 moves
    assert say(brain, "INFO timeout_turn 0") == []
    assert brain.limits.move_seconds() == 0


def test_a_moves_lag_is_kept_back_for_every_move_still_to_come() -> None:
    """0.02 s of lag, 100 moves to come: 2 s of the 5 s left are kept back, and the rest shared
    over 25 moves; the turn's limit loses the lag once. A lag decays by a tenth a move."""
    limits = Limits(timeout_turn=1000, time_left=5000)
    assert limits.move_seconds(0.02, 100) == pytest.approx((5 - 2) / 25)
    assert Limits(timeout_turn=1000).move_seconds(0.02, 100) == pytest.approx(0.85 - 0.02)
    assert limits.move_seconds(0.06, 100) == 0  # more lag than time: move at once
    lag = Lag()
    lag.moved(allowed=0.2, took=0.15)  # under its time: no lag
    assert lag.seconds == 0
    lag.moved(allowed=0.2, took=0.3)
    assert lag.seconds == pytest.approx(0.1)
    lag.moved(allowed=0.2, took=0.21)
    assert lag.seconds == pytest.approx(0.09)


class _FakeTime:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now


class _CostlyPlayer(GomokuPlayer):
    """Thinks exactly its time limit, and every move costs `cost` seconds more; plays the
    points of `own` in order (stones that never make a five)."""

    def __init__(self, clock: _FakeTime, cost: float, own: list[Point]) -> None:
        super().__init__()
        self.clock, self.cost, self.own = clock, cost, iter(own)

    def warm(self) -> None:
        """Nothing to load."""

    def genmove(self, game: GomokuGame) -> Point:
        self.clock.now += self.time_limit + self.cost
        return next(self.own)


@pytest.mark.parametrize("cost", [0.005, 0.02])
def test_a_short_match_is_not_lost_to_the_cost_of_each_move(
    monkeypatch: pytest.MonkeyPatch, cost: float
) -> None:
    """A brain whose every move costs `cost` beyond its thinking, 3 s for the whole match and
    112 moves to make (the stones never make a five), ends with time left: it measures the lag
    and keeps it back for the moves to come. Sharing the time left over 25 moves and ignoring
    the lag, 0.02 s a move runs out after about 50 moves."""
    clock = _FakeTime()
    monkeypatch.setattr(gomocup, "time", clock)
    cells = [Point(c, r) for r in range(15) for c in range(15)]
    black = [p for p in cells if (p.col // 2 + p.row) % 2 == 0]
    white = [p for p in cells if (p.col // 2 + p.row) % 2 == 1]
    brain = Brain(_CostlyPlayer(clock, cost, white))
    left = 3.0
    say(brain, "START 15", "INFO timeout_match 3000", "INFO timeout_turn 3000")
    for point in black[:112]:
        asked = clock.now
        (reply,) = say(brain, f"INFO time_left {int(left * 1000)}", f"TURN {point.col},{point.row}")
        move_of(reply)
        left -= clock.now - asked
        assert left > 0, f"out of time after {black.index(point) + 1} moves"
    assert brain.game is not None and brain.game.move_number == 224 and not brain.game.is_over


def test_info_thread_num_sets_the_search_threads() -> None:
    brain = make_brain()
    assert say(brain, "INFO thread_num 3") == []
    assert brain.player.threads == 3
    for bad in ("0", "65", "-1", "two", "99999999999"):
        (reply,) = say(brain, f"INFO thread_num {bad}")
        assert reply.startswith("MESSAGE ignored INFO thread_num"), bad
    assert brain.player.threads == 3


@pytest.mark.parametrize("line", ["INFO rule x", "INFO rule 16", "INFO timeout_turn soon"])
def test_info_with_a_bad_value_says_a_message_only(line: str) -> None:
    brain = make_brain("START 15")
    (reply,) = say(brain, line)
    assert reply.startswith("MESSAGE ")
    assert brain.game is not None and brain.game.rules.rule is Rule.FREESTYLE


def test_end_stops_without_a_reply() -> None:
    brain = make_brain("START 15")
    assert say(brain, "END") == []
    assert brain.ended


# -- moves -----------------------------------------------------------------------------------


def test_begin_opens_in_the_centre_and_turn_answers() -> None:
    brain = make_brain("START 15", "INFO rule 4")
    assert say(brain, "BEGIN") == ["7,7"]
    (reply,) = say(brain, "TURN 8,8")
    answer = move_of(reply)
    assert answer not in (Point(7, 7), Point(8, 8))
    assert stones(brain) == [
        (Color.BLACK, Point(7, 7)),
        (Color.WHITE, Point(8, 8)),
        (Color.BLACK, answer),
    ]


def test_begin_on_a_board_with_stones_is_an_error() -> None:
    brain = make_brain("START 15", "BEGIN")
    one_error(say(brain, "BEGIN"))


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("TURN 7,7", "occupied"),
        ("TURN 15,3", "off the 15x15 board"),
        ("TURN -1,3", "off the 15x15 board"),
        ("TURN 3", "wants x,y"),
        ("TURN a,b", "wants x,y"),
    ],
)
def test_turn_errors_leave_the_board_alone(line: str, reason: str) -> None:
    brain = make_brain("START 15", "BEGIN")
    assert reason in one_error(say(brain, line))
    assert stones(brain) == [(Color.BLACK, Point(7, 7))]


def test_turn_on_a_forbidden_point_is_refused() -> None:
    brain = make_brain("START 15", "INFO rule 4")
    # Black (the opponent) gets 5,7 6,7 and 7,5 7,6: 7,7 is a double-three.
    moves = ["5,7", "0,0", "6,7", "0,14", "7,5", "14,0", "7,6", "14,14"]
    assert say(brain, *(f"PLAY {m}" for m in moves)) == moves
    assert "forbidden: double-three" in one_error(say(brain, "TURN 7,7"))
    assert len(stones(brain)) == 8


def test_play_imposes_the_move() -> None:
    brain = make_brain("START 15")
    assert say(brain, "PLAY 3,4") == ["3,4"]
    assert stones(brain) == [(Color.BLACK, Point(3, 4))]


def test_a_move_after_the_game_ended_is_an_error() -> None:
    brain = make_brain("START 15")
    moves = ["3,5", "0,0", "4,5", "2,0", "5,5", "4,0", "6,5", "6,0"]
    say(brain, *(f"PLAY {m}" for m in moves))
    assert "the game is over (B+5)" in one_error(say(brain, "TURN 7,5"))
    assert brain.game is not None and brain.game.winner is Color.BLACK


# -- BOARD and YXBOARD ---------------------------------------------------------------------


def test_board_with_own_four_wins_in_one() -> None:
    brain = make_brain("START 15")
    lines = ["5,5,1", "0,0,2", "6,6,1", "14,0,2", "7,7,1", "0,14,2", "8,8,1", "14,14,2"]
    (reply,) = say(brain, "BOARD", *lines, "DONE")
    assert move_of(reply) in (Point(4, 4), Point(9, 9))
    assert brain.game is not None and brain.game.winner is Color.BLACK


def test_board_blocks_the_opponents_four() -> None:
    brain = make_brain("START 15")
    # The opponent (black: one stone more) has 3..6 on row 2, blocked on the left.
    lines = ["3,2,2", "2,2,1", "4,2,2", "10,10,1", "5,2,2", "11,11,1", "6,2,2"]
    assert say(brain, "BOARD", *lines, "DONE") == ["7,2"]
    assert stones(brain)[0] == (Color.BLACK, Point(3, 2))
    assert stones(brain)[-1] == (Color.WHITE, Point(7, 2))


def test_board_where_the_brain_has_only_fouls_left_is_a_named_error() -> None:
    """Under renju, a position where the brain is Black with only forbidden points left is a
    drawn game: the brain says so, not an internal error."""
    brain = make_brain("START 15", "INFO rule 4")
    black, white = shut_out_stones()
    lines = [f"{p.col},{p.row},1" for p in black] + [f"{p.col},{p.row},2" for p in white]
    reply = one_error(say(brain, "BOARD", *lines, "DONE"))
    assert reply == "ERROR the game is over (draw: Black has only forbidden points left)"


def test_board_field_3_lines_are_skipped() -> None:
    brain = make_brain("START 15")
    (reply,) = say(brain, "BOARD", "7,7,2", "8,8,3", "DONE")
    assert move_of(reply) != Point(7, 7)
    assert len(stones(brain)) == 2  # the opponent's stone and the reply: 8,8 was not put down


@pytest.mark.parametrize(
    ("lines", "reason"),
    [
        (["7,7"], "board line 1 '7,7' is not x,y,field"),
        (["7,7,1", "8,8,4"], "field 4"),
        (["7,7,1", "15,8,2"], "off the 15x15 board"),
        (["7,7,1", "8,8,1"], "2 own and 0 opponent stones"),
        (["7,7,1", "7,7,2"], "occupied"),
    ],
)
def test_board_errors_keep_the_old_position(lines: list[str], reason: str) -> None:
    brain = make_brain("START 15", "BEGIN")
    assert reason in one_error(say(brain, "BOARD", *lines, "DONE"))
    assert stones(brain) == [(Color.BLACK, Point(7, 7))]


def test_board_without_done_is_dropped_when_a_command_comes() -> None:
    brain = make_brain("START 15")
    replies = say(brain, "BOARD", "7,7,2", "ABOUT")
    assert replies[0] == "ERROR BOARD ended without DONE"
    assert replies[1].startswith('name="tengen"')
    assert stones(brain) == []


def test_done_alone_is_an_error() -> None:
    one_error(say(make_brain("START 15"), "DONE"))


def test_yxboard_sets_the_position_silently() -> None:
    brain = make_brain("START 15")
    assert say(brain, "YXBOARD", "7,7,2", "8,7,1", "9,9,2", "DONE") == []
    assert stones(brain) == [
        (Color.BLACK, Point(7, 7)),
        (Color.WHITE, Point(8, 7)),
        (Color.BLACK, Point(9, 9)),
    ]


# Black (field 2, the opponent of the brain playing White) stands on 3,12, a double-three
# vertex that a move there would foul: a set-up position, it is accepted in any order.
_FOUL_BLACK = ["1,12,2", "2,12,2", "3,12,2", "3,10,2", "3,11,2"]
_FOUL_WHITE = ["0,0,1", "2,0,1", "4,0,1", "6,0,1"]


@given(st.permutations(_FOUL_BLACK + _FOUL_WHITE))
def test_yxboard_sets_up_a_foul_stone_in_any_order(lines: list[str]) -> None:
    brain = make_brain("START 15", "INFO rule 4")
    assert say(brain, "YXBOARD", *lines, "DONE") == []
    assert brain.game is not None and brain.game.to_play is Color.WHITE
    assert {p for c, p in stones(brain) if c is Color.BLACK} == {
        move_of(line.rsplit(",", 1)[0]) for line in _FOUL_BLACK
    }


def test_board_with_a_set_up_foul_stone_gets_a_move() -> None:
    brain = make_brain("START 15", "INFO rule 4", "BEGIN")
    vertex_last = [*_FOUL_BLACK[:2], *_FOUL_BLACK[3:], _FOUL_BLACK[2]]
    (reply,) = say(brain, "BOARD", *vertex_last, *_FOUL_WHITE, "DONE")
    assert move_of(reply) in {p for c, p in stones(brain) if c is Color.WHITE}
    assert len(stones(brain)) == 10


# -- TAKEBACK and RESTART ------------------------------------------------------------------


def test_takeback_undoes_the_last_moves() -> None:
    brain = make_brain("START 15")
    say(brain, "BEGIN")
    (reply,) = say(brain, "TURN 8,8")
    assert say(brain, f"TAKEBACK {reply}") == ["OK"]
    assert "not the last move" in one_error(say(brain, "TAKEBACK 7,7"))
    assert say(brain, "TAKEBACK 8,8", "TAKEBACK 7,7") == ["OK", "OK"]
    assert stones(brain) == []
    one_error(say(brain, "TAKEBACK 7,7"))


def test_restart_clears_the_board_and_keeps_size_and_rule() -> None:
    brain = make_brain("RECTSTART 20,15", "INFO rule 1", "BEGIN")
    assert say(brain, "RESTART") == ["OK"]
    assert brain.game is not None
    assert brain.game.rules == GomokuRules(Rule.STANDARD, 20, 15)
    assert not brain.game.moves
    assert say(brain, "BEGIN") == ["9,7"]


# -- YXSHOWFORBID ----------------------------------------------------------------------------

# Black, to move under renju, has three forbidden points, each found by reading the diagram:
#   4,1   row 1 holds X X X . X X: a stone there makes six, an overline;
#   4,10  makes 2..4 on row 10 and 8..10 on column 4, both open threes: a double-three;
#   11,7  makes 11,4..7 on column 11 (five-points 11,3 and 11,8) and 11..14 on row 7 (five-point
#         10,7; the edge closes it): two fours, a double-four.
# White's fifteen stones lie apart on rows 12 and 14, far from every black line.
_BLACK = [(1, 1), (2, 1), (3, 1), (5, 1), (6, 1), (2, 10), (3, 10), (4, 8), (4, 9)]
_BLACK += [(11, 4), (11, 5), (11, 6), (12, 7), (13, 7), (14, 7)]
_WHITE = [(c, 14) for c in range(0, 15, 2)] + [(c, 12) for c in range(1, 15, 2)]


def test_yxshowforbid_lists_blacks_forbidden_points() -> None:
    brain = make_brain("START 15", "INFO rule 4")
    lines = [
        f"{c},{r},{k}"
        for b, w in zip(_BLACK, _WHITE, strict=True)
        for (c, r), k in ((b, 1), (w, 2))
    ]
    assert say(brain, "YXBOARD", *lines, "DONE") == []
    assert brain.game is not None and brain.game.to_play is Color.BLACK
    assert say(brain, "YXSHOWFORBID") == ["FORBID 040111070410."]
    expected = {Point(4, 1), Point(4, 10), Point(11, 7)}
    assert set(forbidden_points(brain.game.board)) == expected


def test_yxshowforbid_is_empty_outside_renju_and_for_white() -> None:
    brain = make_brain("START 15")
    lines = [
        f"{c},{r},{k}"
        for b, w in zip(_BLACK, _WHITE, strict=True)
        for (c, r), k in ((b, 1), (w, 2))
    ]
    say(brain, "YXBOARD", *lines, "DONE")
    assert say(brain, "YXSHOWFORBID") == ["FORBID ."]
    renju = make_brain("START 15", "INFO rule 4", "BEGIN")
    assert say(renju, "YXSHOWFORBID") == ["FORBID ."]


# -- robustness ------------------------------------------------------------------------------


@pytest.mark.parametrize("line", ["", "   ", "\r\n"])
def test_blank_lines_are_ignored(line: str) -> None:
    assert say(make_brain(), line) == []


@pytest.mark.parametrize("line", ["FOO", "SWAP3BOARD", "YXNBEST 3", "__init__", "_cmd_end"])
def test_unknown_commands(line: str) -> None:
    brain = make_brain("START 15")
    one_error(say(brain, line), "UNKNOWN")
    assert not brain.ended


_WORDS = ["START", "RECTSTART", "RESTART", "INFO", "BEGIN", "TURN", "BOARD", "YXBOARD", "DONE"]
_WORDS += ["TAKEBACK", "PLAY", "YXSHOWFORBID", "ABOUT", "STOP", "rule", "timeout_turn", "7,7,1"]
_WORDS += ["SWAP2BOARD", "7,7", "opening"]
_ARGUMENT = st.one_of(
    st.integers(-3, 60).map(str),
    st.tuples(st.integers(-2, 25), st.integers(-2, 25)).map(lambda t: f"{t[0]},{t[1]}"),
    st.tuples(st.integers(-1, 16), st.integers(-1, 16), st.integers(0, 4)).map(
        lambda t: f"{t[0]},{t[1]},{t[2]}"
    ),
    st.text(max_size=12),
)
_LINE = st.one_of(
    st.text(max_size=30),
    st.tuples(st.sampled_from(_WORDS), st.lists(_ARGUMENT, max_size=3)).map(
        lambda t: " ".join([t[0], *t[1]])
    ),
)


def _well_formed(reply: str) -> bool:
    first = reply.split(" ", 1)[0]
    known = first in ("OK", "ERROR", "UNKNOWN", "MESSAGE", "FORBID", "SWAP", 'name="tengen",')
    stones = all(_MOVE.fullmatch(word) for word in reply.split(" "))
    return "\n" not in reply and "\r" not in reply and (known or stones)


@given(st.lists(_LINE, max_size=25))
def test_random_lines_never_crash_the_brain(lines: list[str]) -> None:
    brain = make_brain("START 15")
    for line in lines:
        replies = brain.handle(line)
        assert all(_well_formed(reply) for reply in replies), replies
    assert brain.handle("ABOUT")[-1].startswith('name="tengen"')


# -- the brain as a program ----------------------------------------------------------------


def test_the_module_runs_as_a_brain() -> None:
    script = "START 15\r\nINFO rule 4\r\nBEGIN\r\nTURN 8,8\r\nABOUT\r\nFOO\r\nEND\r\nABOUT\r\n"
    done = subprocess.run(BRAIN, input=script, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:2] == ["OK", "7,7"]
    move_of(lines[2])
    assert lines[3].startswith('name="tengen"')
    assert lines[4].startswith("UNKNOWN")
    assert len(lines) == 5  # nothing after END


def test_the_brain_stops_at_end_of_input() -> None:
    done = subprocess.run(BRAIN, input="START 15\n", capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "OK\n")


# -- the manager side ------------------------------------------------------------------------


def test_manager_speaks_to_the_brain() -> None:
    with GomocupEngine(BRAIN, timeout=30) as engine:
        assert engine.about()["name"] == "tengen"
        engine.set_rules(GomokuRules(Rule.RENJU))
        engine.start(15)
        assert engine.begin() == Point(7, 7)
        answer = engine.turn(Point(8, 8))
        engine.takeback(answer)
        game = GomokuGame(GomokuRules(Rule.RENJU))
        for p in (Point(7, 7), Point(8, 8), Point(6, 6)):
            game.play(p)
        engine.restart()
        reply = engine.board(game)
        assert reply in game.legal_moves()
        engine.start(20, 15)
        with pytest.raises(GomocupRefused, match="TURN 30,3"):
            engine.turn(Point(30, 3))
        with pytest.raises(GomocupRefused, match="START 4"):
            engine.start(4)
    assert engine.returncode == 0


def _fake(script: str) -> list[str]:
    """A brain made of a Python one-off that answers every line with `script`'s logic."""
    body = "import sys\nfor line in sys.stdin:\n    line = line.strip()\n" + script
    return [sys.executable, "-c", body]


def test_manager_skips_messages_and_accepts_suggestions() -> None:
    brain = _fake(
        "    if line.startswith('START'):\n"
        "        print('MESSAGE hello', 'DEBUG thinking', 'OK', sep='\\n', flush=True)\n"
        "    elif line == 'BEGIN':\n"
        "        print('SUGGEST 3,4', flush=True)\n"
        "    elif line.startswith('PLAY'):\n"
        "        print(line[5:], flush=True)\n"
    )
    with GomocupEngine(brain, timeout=30) as engine:
        engine.start(15)
        assert engine.begin() == Point(3, 4)
        assert list(engine.messages) == ["MESSAGE hello", "DEBUG thinking"]


def test_manager_reports_a_nonsense_answer() -> None:
    with GomocupEngine(_fake("    print('hmm', flush=True)\n"), timeout=30) as engine:
        with pytest.raises(GomocupError, match="not x,y"):
            engine.begin()
        with pytest.raises(GomocupRefused, match="hmm"):
            engine.start(15)


def test_manager_times_out_and_kills_a_silent_brain() -> None:
    engine = GomocupEngine(_fake("    pass\n"), timeout=0.5)
    with pytest.raises(GomocupTimeout, match=r"no answer to 'START 15' within 0\.5 s"):
        engine.start(15)
    assert engine.returncode is not None
    with pytest.raises(GomocupEngineDied):
        engine.begin()
    engine.end()


def test_manager_reports_a_dead_brain_with_its_stderr() -> None:
    brain = [sys.executable, "-c", "import sys; print('no board for you', file=sys.stderr)"]
    with (
        GomocupEngine(brain, timeout=30) as engine,
        pytest.raises(GomocupEngineDied, match=r"(?s)exited with status 0.*no board for you"),
    ):
        engine.start(15)


def test_manager_reports_a_missing_program() -> None:
    with pytest.raises(GomocupEngineDied, match="cannot start"):
        GomocupEngine(["/nonexistent/pbrain-nothing"])


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.RENJU])
def test_brain_against_brain_plays_a_legal_game_to_the_end(rule: Rule) -> None:
    rules = GomokuRules(rule)
    with GomocupEngine(BRAIN, timeout=30) as black, GomocupEngine(BRAIN, timeout=30) as white:
        black.info("timeout_turn", 200)
        white.info("timeout_turn", 200)
        game = play_game(black, white, rules)
    assert game.is_over
    replay = GomokuGame(rules)
    for color, point in game.moves:
        assert color is replay.to_play
        assert point in replay.legal_moves()
        replay.play(point)
    assert replay.result == game.result
    assert game.winner is not None or game.drawn_because


def test_the_brain_moves_at_once_on_the_interpreted_kernels() -> None:
    """A fresh brain answers its first TURN before the compiled kernels are ready, on their
    interpreted twins (`core.jit`): it once failed there with an int8 overflow (numpy does
    int8 arithmetic where numba widens), losing the game by forfeit at its first move."""
    env = {**os.environ, "TENGEN_JIT": "interpreted", "PYTHONWARNINGS": "error::RuntimeWarning"}
    done = subprocess.run(
        BRAIN,
        input="START 15\nTURN 6,2\nTURN 7,3\nEND\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    ok, first, second = done.stdout.splitlines()
    assert ok == "OK"
    moves = [move_of(first), move_of(second)]
    assert len({Point(6, 2), Point(7, 3), *moves}) == 4
    assert all(0 <= p.col < 15 and 0 <= p.row < 15 for p in moves)


class _Noting(GomokuPlayer):
    """The built-in player, noting the brain's calls to it in order."""

    def __init__(self) -> None:
        super().__init__(seed=1, time_limit=0.05)
        self.calls: list[str] = []

    def warm(self) -> None:
        self.calls.append("warm")
        super().warm()

    def genmove(self, game: GomokuGame) -> Point:
        self.calls.append("genmove")
        return super().genmove(game)


def test_start_loads_the_compiled_code_before_the_first_move_is_timed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Loading the kernels on the first move's clock lost bench matches on time at that move;
    START, which managers do not time as a move, pays for it, and only the first time."""
    waits: list[float | None] = []
    monkeypatch.setattr(jit, "wait", lambda timeout=None: waits.append(timeout) or True)
    player = _Noting()
    brain = Brain(player)
    assert say(brain, "START 15") == ["OK"]
    assert player.calls == ["warm"] and waits == [WARM_WAIT]
    move_of(*say(brain, "BEGIN"))
    assert say(brain, "RESTART") == ["OK"] and say(brain, "START 20") == ["OK"]
    assert player.calls == ["warm", "genmove", "warm", "warm"] and waits == [WARM_WAIT]
