"""GTP time on the engine side: the controller's time settings reach the player as clocks."""

from __future__ import annotations

import time

import pytest

from tengen.ai.mcts import MctsPlayer
from tengen.clock import Clock, TimeControl
from tengen.core.color import Color
from tengen.core.coords import Move, from_gtp
from tengen.core.game import Game
from tengen.gtp.engine import GtpEngine
from tests.gtp.test_engine import ask, refused


class _Recorder:
    """Plays the first free point and remembers the clock it was given."""

    def __init__(self) -> None:
        self.clocks: list[Clock | None] = []

    def genmove(self, game: Game, color: Color, clock: Clock | None = None) -> Move:
        self.clocks.append(clock)
        return game.legal_moves(color)[0]


def recorder_engine() -> tuple[GtpEngine, _Recorder]:
    player = _Recorder()
    return GtpEngine(player, size=9), player


@pytest.mark.parametrize(
    ("line", "control"),
    [
        ("time_settings 300 0 0", TimeControl("absolute", 300)),
        ("time_settings 600 30 5", TimeControl("canadian", 600, 30, stones=5)),
        ("time_settings 0 60 25", TimeControl("canadian", 0, 60, stones=25)),
        ("kgs-time_settings absolute 120", TimeControl("absolute", 120)),
        ("kgs-time_settings byoyomi 600 30 5", TimeControl("byoyomi", 600, 30, periods=5)),
        ("kgs-time_settings canadian 0 300 25", TimeControl("canadian", 0, 300, stones=25)),
    ],
)
def test_time_settings_give_both_colours_a_clock(line: str, control: TimeControl) -> None:
    engine, player = recorder_engine()
    ask(engine, line)
    ask(engine, "genmove b")
    ask(engine, "genmove w")
    assert [c.control if c else None for c in player.clocks] == [control, control]
    assert player.clocks[0] is not player.clocks[1]


@pytest.mark.parametrize("line", ["time_settings 10 5 0", "kgs-time_settings none"])
def test_no_limit_means_no_clock(line: str) -> None:
    engine, player = recorder_engine()
    ask(engine, "time_settings 60 0 0")
    ask(engine, line)
    ask(engine, "genmove b")
    assert player.clocks == [None]


def test_time_left_sets_main_time_then_overtime() -> None:
    engine, player = recorder_engine()
    ask(engine, "kgs-time_settings byoyomi 600 30 5")
    ask(engine, "time_left b 412 0")
    ask(engine, "genmove b")
    clock = player.clocks[-1]
    assert clock is not None and clock.main == 412 and not clock.in_overtime
    ask(engine, "time_left b 30 3")
    ask(engine, "genmove b")
    assert clock.in_overtime and clock.periods == 3 and clock.allowance() == 90
    ask(engine, "time_settings 0 300 20")
    ask(engine, "time_left w 200 7")
    ask(engine, "genmove w")
    canadian = player.clocks[-1]
    assert canadian is not None and (canadian.period_left, canadian.stones) == (200, 7)
    assert canadian.allowance() == 200


def test_time_left_without_settings_is_accepted_and_ignored() -> None:
    engine, player = recorder_engine()
    ask(engine, "time_left b 30 0")
    ask(engine, "genmove b")
    assert player.clocks == [None]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("time_settings 300 0", "time_settings takes"),
        ("time_settings 300 x 0", "not a number: 'x'"),
        ("time_settings -5 0 0", "not a time or count: '-5'"),
        ("kgs-time_settings hourglass 60", "unknown time system 'hourglass'"),
        ("kgs-time_settings byoyomi 600 30", "byoyomi takes 3 numbers"),
        ("kgs-time_settings byoyomi 600 0 5", "byo-yomi needs"),
        ("time_left b 30", "syntax error"),
        ("time_left q 30 0", "invalid color"),
    ],
)
def test_bad_time_commands_are_refused_by_name(line: str, message: str) -> None:
    engine, _ = recorder_engine()
    assert message in refused(engine, line)


def test_the_built_in_player_answers_within_the_controllers_clock() -> None:
    """Level 10 thinks 10 s a move unless the clock says less: here one second for a stone."""
    player = MctsPlayer(10, threads=1)
    player.analyse(Game(9), playouts=20)  # compile the search (a cold numba cache) untimed
    engine = GtpEngine(player, size=9)
    ask(engine, "time_settings 0 1 1")
    start = time.monotonic()
    answer = ask(engine, "genmove b")
    assert time.monotonic() - start < 6  # the clock's 1 s, not level 10's own 10 s
    point = from_gtp(answer, 9, 9)
    assert point is not None and engine.game.board[point] is Color.BLACK
