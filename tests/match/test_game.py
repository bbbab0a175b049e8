"""One match game: against GNU Go, and against engines that crash, hang or answer garbage."""

from __future__ import annotations

from pathlib import Path

import pytest

from tengen.clock import TimeControl
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.match.game import GameConfig, GameOutcome, play_game
from tengen.match.players import PlayerSpec
from tengen.sgf import parse
from tests.match.fakes import fake_engine


def play(black: PlayerSpec, white: PlayerSpec, config: GameConfig) -> GameOutcome:
    """Make the players, play, close them."""
    b, w = black.make(1), white.make(2)
    try:
        return play_game(b, w, config)
    finally:
        b.close()
        w.close()


def test_gnugo_beats_the_builtin_player_and_the_referee_agrees(gnugo: str) -> None:
    gnu = PlayerSpec("gnugo", f"{gnugo} --mode gtp --level 1")
    config = GameConfig(
        size=9,
        time=TimeControl.parse("byoyomi:60+3x10"),
        referee=f"{gnugo} --mode gtp",
        opening=((Color.BLACK, Point(4, 4)),),
    )
    outcome = play(PlayerSpec("random", "builtin"), gnu, config)
    assert outcome.result.winner is Color.WHITE, outcome.ending
    assert outcome.referee is not None and outcome.referee.startswith("W+")
    root = parse(outcome.sgf).games[0].root
    assert root.get("PB") == "random" and root.get("PW") == "gnugo"
    assert root.get("RE") == outcome.result.to_sgf() and root.get("OT") == "3x10 byo-yomi"
    first = root.children[0]
    assert first.get("B") == Point(4, 4) and first.get("BL") is None  # the opening: no time
    assert first.children[0].get("WL") is not None


@pytest.mark.parametrize(
    ("mode", "reason", "says"),
    [
        ("crash", "forfeit", "out of cheese"),  # stderr's tail reaches the record
        ("garbage", "forfeit", "lorem ipsum"),
        ("offboard", "forfeit", "Z99"),
        ("hang", "time", "lost on time"),
    ],
)
def test_a_failing_engine_loses_mid_game(tmp_path: Path, mode: str, reason: str, says: str) -> None:
    bad = PlayerSpec("bad", fake_engine(tmp_path, mode, 3), timeout=1.0)
    outcome = play(PlayerSpec("random", "builtin"), bad, GameConfig(size=9))
    assert outcome.result.winner is Color.BLACK and outcome.result.reason == reason
    assert outcome.moves == 5 and says in outcome.ending


def test_the_clock_flags_a_slow_engine(tmp_path: Path) -> None:
    slow = PlayerSpec("slow", fake_engine(tmp_path, "hang", 2))
    config = GameConfig(size=9, time=TimeControl.parse("absolute:0.5"))
    outcome = play(slow, PlayerSpec("random", "builtin"), config)
    assert outcome.result.to_sgf() == "W+T" and outcome.moves == 2


def test_move_limit_adjudicates_by_counting() -> None:
    config = GameConfig(size=9, max_moves=20)
    outcome = play(PlayerSpec("a", "builtin"), PlayerSpec("b", "builtin"), config)
    assert outcome.moves == 20 and outcome.result.reason in ("score", "draw")
    assert "move limit" in outcome.ending
