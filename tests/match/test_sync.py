"""GtpClient for matches: ids, working directory, sync checks, rules and time commands."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tengen.clock import Clock, TimeControl
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.core.game import Game
from tengen.core.rules import CHINESE, JAPANESE
from tengen.gtp.client import GtpClient, GtpClientError, parse_showboard
from tests.match.fakes import fake_engine

TENGEN = [sys.executable, "-m", "tengen", "gtp", "--size", "9"]


def setup(client: GtpClient, game: Game) -> None:
    """Give the engine `game`'s size, komi and moves."""
    client.send(f"boardsize {game.width}")
    client.send("clear_board")
    client.send(f"komi {game.ruleset.komi}")
    for m in game.moves:
        client.send(f"play {m.color.name.lower()} {'pass' if m.move is None else _v(m.move)}")


def _v(p: Point) -> str:
    return "ABCDEFGHJ"[p.col] + str(9 - p.row)


def sample_game() -> Game:
    game = Game(9, ruleset=CHINESE.with_komi(6.5))
    for col, row in ((2, 2), (3, 2), (2, 3), (6, 6)):
        game.play(Point(col, row))
    return game


def test_verify_sync_agrees_then_names_the_first_difference(gnugo: str) -> None:
    game = sample_game()
    with GtpClient([gnugo, "--mode", "gtp"], ids=True) as client:
        setup(client, game)
        assert client.verify_sync(game) is None
        client.send("play white A1")
        assert client.verify_sync(game) == "A1: tengen has empty, the engine has white"
        client.send("undo")
        client.send("komi 0.5")
        assert client.verify_sync(game) == "komi: tengen has 6.5, the engine has 0.5"


def test_verify_sync_reads_showboard_without_list_stones(tmp_path: Path) -> None:
    game = sample_game()
    with GtpClient(TENGEN) as client:
        setup(client, game)
        client._commands = frozenset({"showboard"})  # as an engine without list_stones
        assert client.verify_sync(game) is None
        client.send("play black J9")
        assert client.verify_sync(game) == "J9: tengen has empty, the engine has black"


def test_parse_showboard_of_gnugo_style_text() -> None:
    text = "\n   A B C\n 3 . X . 3\n 2 O + . 2     WHITE (O) has captured 0 stones\n 1 . . . 1\n"
    assert parse_showboard(text, 3, 3) == {Point(1, 0): Color.BLACK, Point(0, 1): Color.WHITE}
    with pytest.raises(GtpClientError):
        parse_showboard(" 3 . X . 3", 3, 3)


def test_rules_and_time_go_by_the_commands_the_engine_lists(gnugo: str, tmp_path: Path) -> None:
    with GtpClient(TENGEN, cwd=str(tmp_path)) as tengen:
        command = tengen.set_rules(JAPANESE)
        assert command is not None and command.startswith("kata-set-rules {")
        assert '"scoring":"TERRITORY"' in tengen.send("kata-get-rules").replace(" ", "")
    with GtpClient([gnugo, "--mode", "gtp"]) as gnu:
        assert gnu.set_rules(JAPANESE) is None  # GNU Go lists neither
        assert gnu.set_time(TimeControl.parse("byoyomi:300+5x30")) == "time_settings 300 30 1"
        clock = Clock(TimeControl.parse("canadian:60+10/120"))
        gnu.time_left(Color.BLACK, clock)
        assert gnu.set_time(TimeControl.parse("fischer:60+5")) == "time_settings 60 0 0"


def test_kgs_time_settings_where_listed(tmp_path: Path) -> None:
    with GtpClient(fake_engine(tmp_path, "never", 0).split()) as client:
        client._commands = frozenset({"kgs-time_settings"})  # as KGS engines list it
        byoyomi = client.set_time(TimeControl.parse("byoyomi:600+5x30"))
        assert byoyomi == "kgs-time_settings byoyomi 600 30 5"
        canadian = client.set_time(TimeControl.parse("canadian:600+25/300"))
        assert canadian == "kgs-time_settings canadian 600 300 25"
