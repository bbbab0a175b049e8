"""`EngineSeat`, the one adapter of a GTP engine to a seat (the app's and the match runner's),
against GNU Go and against engines that fail: it follows the game it is asked about (moves
sent once, the game set up again after an undo, handicap and rules told), its stones agree
with tengen's, and a failure closes the engine, which the next question starts again."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.core.game import Game
from tengen.core.rules import JAPANESE
from tengen.gtp.client import GtpClientError
from tengen.gtp.seat import EngineSeat

# Logs every command; lists kgs-rules; dies at its first genmove while `sys.argv[2]` does not
# exist (and creates it), so that only its first life fails.
LOGGING_ENGINE = """
import os, sys
log, marker = open(sys.argv[1], "a"), sys.argv[2]
for line in sys.stdin:
    command = line.strip()
    log.write(command + "\\n"); log.flush()
    if command == "list_commands":
        print("= kgs-rules\\n", flush=True)
    elif command.startswith("genmove"):
        if not os.path.exists(marker):
            open(marker, "w").close()
            sys.exit(3)
        print("= C3\\n", flush=True)
    elif command == "quit":
        print("=\\n", flush=True); break
    else:
        print("=\\n", flush=True)
"""


def test_it_follows_the_game_and_agrees_with_gnugo(gnugo: str) -> None:
    seat = EngineSeat([gnugo, "--mode", "gtp", "--level", "1"], name="gnugo")
    game = Game(9, ruleset=JAPANESE)
    game.place_handicap(2)
    try:
        for _ in range(6):
            move = seat.genmove(game, game.to_play)
            assert move != "resign"
            game.play(move)
            assert seat.differences == []
        game.undo()
        game.undo()
        game.play(Point(0, 0))  # the engine's line is left: it is set up again
        move = seat.genmove(game, game.to_play)
        assert move != "resign" and seat.differences == []
        seat.play(Color.BLACK, None)  # a match's move told at once
        game.play(None, Color.BLACK)
        seat.genmove(game, game.to_play)
        assert seat.differences == []
    finally:
        seat.close()


def test_a_failure_closes_the_engine_and_the_next_move_restarts_it(tmp_path: Path) -> None:
    log, script = tmp_path / "engine.log", tmp_path / "engine.py"
    script.write_text(LOGGING_ENGINE, encoding="utf-8")
    seat = EngineSeat([sys.executable, str(script), str(log), str(tmp_path / "died")])
    game = Game(9)
    game.play(Point(4, 4))
    with pytest.raises(GtpClientError, match="exit"):
        seat.genmove(game, Color.WHITE)
    assert seat.genmove(game, Color.WHITE) == Point(2, 6)  # C3, from a new process
    seat.close()
    commands = log.read_text(encoding="utf-8").splitlines()
    lives = [i for i, c in enumerate(commands) if c == "boardsize 9"]
    assert len(lives) == 2  # set up once per process, and the move replayed in the second
    second = [c for c in commands[lives[1] :] if c != "list_commands"]
    setup = ["boardsize 9", "clear_board", "komi 7.5", "kgs-rules chinese", "play black E5"]
    assert second[:5] == setup


def test_a_program_that_is_missing_is_a_client_error(tmp_path: Path) -> None:
    seat = EngineSeat([str(tmp_path / "no-such-engine")])
    with pytest.raises(GtpClientError, match="cannot start engine"):
        seat.genmove(Game(9), Color.BLACK)
