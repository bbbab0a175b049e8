"""Clocks in web games: kept by the server on its wall clock, saved with the game, charged per
move, written into the record (TM/OT, BL/WL/OB/OW), a loss on time recorded, engines told."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tengen.ai.mcts import MctsPlayer
from tengen.clock import Clock, TimeControl
from tengen.sgf import parse
from tengen.web import Config, clocks, create_app
from tests.web.conftest import Games


class FakeTime:
    """A wall clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def wall(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    fake = FakeTime()
    monkeypatch.setattr(clocks, "wall_clock", fake)
    return fake


def _record(games: Games, game: str) -> Any:
    return parse(games.client.get(f"/api/games/{game}/sgf").content).games[0]


@pytest.mark.parametrize(
    ("time", "message"),
    [
        ("soon", "unrecognised time control"),
        ("absolute:0", "needs some main time"),
        ("byoyomi:600+0x30", "at least one period"),
        ("canadian:600+0/300", "some stones"),
        ("absolute:100000", "at most 86400"),
        ("byoyomi:60+5000x30", "at most 1000"),
    ],
)
def test_bad_time_controls_are_refused_by_name(client: TestClient, time: str, message: str) -> None:
    response = client.post("/api/games", json={"size": 9, "time": time})
    assert response.status_code == 400
    assert message in response.json()["error"]


def test_gomoku_games_have_no_clock(client: TestClient) -> None:
    response = client.post("/api/games", json={"game": "gomoku", "time": "absolute:60"})
    assert response.status_code == 400 and "clocks are for Go" in response.json()["error"]


def test_a_game_without_a_clock_shows_none(games: Games) -> None:
    game, _ = games.new()
    assert games.client.get(f"/api/games/{game}").json()["clock"] is None


def test_byoyomi_clocks_charge_each_move_and_write_the_record(games: Games, wall: FakeTime) -> None:
    game, tokens = games.new(time="byoyomi:60+3x10")
    state = games.client.get(f"/api/games/{game}").json()
    clock = state["clock"]
    assert clock["running"] == "black" and clock["system"] == "byoyomi"
    assert clock["black"]["remaining"] == 60 and clock["white"]["remaining"] == 60
    wall.now += 5
    state = games.play(game, tokens["black"], "E5")
    assert state["clock"]["running"] == "white"
    assert state["clock"]["black"]["remaining"] == 55
    wall.now += 75  # White's 60 s of main time, then 15 s: one period spent, a second begun
    state = games.play(game, tokens["white"], "C3")
    white = state["clock"]["white"]
    assert white["in_overtime"] and white["overtime"] == 2 and white["text"] == "0:10 (2)"
    wall.now += 2
    view = games.client.get(f"/api/games/{game}").json()["clock"]["black"]
    assert view["remaining"] == 53  # the running clock as a page sees it between moves
    record = _record(games, game)
    root = record.root
    assert root.get("TM") == 60 and root.get("OT") == "3x10 byo-yomi"
    first, second = root.children[0], root.children[0].children[0]
    assert first.get("BL") == 55 and "OB" not in first.properties
    assert second.get("WL") == 10 and second.get("OW") == 2


def test_the_clocks_agree_with_the_rules_clock(games: Games, wall: FakeTime) -> None:
    """The web game's arithmetic is `tengen.clock.Clock`'s: the same moves on a bare Clock
    leave the same time (Canadian: stones per period, the period renewed)."""
    control = "canadian:10+2/20"
    game, tokens = games.new(time=control)
    reference = Clock(TimeControl.parse(control), lambda: wall.now)
    spent = [4, 3, 7, 9, 12, 1]
    vertices = ["E5", "C3", "G7", "C7", "G3", "E3", "E7", "C5", "G5", "D4", "F6", "D6"]
    for i, seconds in enumerate(spent):
        black_vertex, white_vertex = vertices[2 * i], vertices[2 * i + 1]
        reference.start()
        wall.now += seconds
        reference.stop()
        state = games.play(game, tokens["black"], black_vertex)
        state = games.play(game, tokens["white"], white_vertex)  # White moves at once
        black = state["clock"]["black"]
        assert black["remaining"] == pytest.approx(reference.remaining(), abs=0.01)
        assert black["overtime"] == reference.overtime_count()
        assert not black["expired"]


def test_a_fallen_flag_loses_the_game_and_cannot_be_undone(games: Games, wall: FakeTime) -> None:
    game, tokens = games.new(time="absolute:30")
    games.play(game, tokens["black"], "E5")
    wall.now += 31  # White thinks too long
    response = games.post(game, "move", tokens["white"], vertex="C3")
    assert response.status_code == 409 and "time ran out" in response.json()["error"]
    state = games.client.get(f"/api/games/{game}").json()
    assert state["result"] == "B+T" and state["phase"] == "over"
    assert state["clock"]["white"]["expired"] and state["clock"]["running"] is None
    assert games.post(game, "undo", tokens["white"]).status_code == 409
    assert _record(games, game).root.get("RE") == "B+T"


def test_the_clock_stops_while_scoring_and_runs_again_after(games: Games, wall: FakeTime) -> None:
    game, tokens = games.new(time="absolute:100")
    games.play(game, tokens["black"], "pass")
    state = games.play(game, tokens["white"], "pass")
    assert state["phase"] == "scoring" and state["clock"]["running"] is None
    wall.now += 500  # no clock runs while the dead stones are marked
    state = games.post(game, "score/cancel", tokens["black"]).json()
    assert state["phase"] == "play" and state["clock"]["running"] == "white"
    assert state["clock"]["white"]["remaining"] == 100


def test_a_restarted_server_keeps_the_time_running(db: Path, wall: FakeTime) -> None:
    with TestClient(create_app(Config(db=db, seed=7))) as client:
        game, tokens = Games(client).new(time="absolute:300")
        Games(client).play(game, tokens["black"], "E5")
    wall.now += 40  # the server is down; White's clock runs on
    with TestClient(create_app(Config(db=db, seed=7))) as client:
        clock = client.get(f"/api/games/{game}").json()["clock"]
        assert clock["running"] == "white" and clock["white"]["remaining"] == 260


def test_the_flag_falls_without_a_request(games: Games) -> None:
    """On the real clock: no one moves, and the server records the loss by itself."""
    game, _ = games.new(time="absolute:1")
    with games.client.websocket_connect(f"/api/games/{game}/ws") as socket:
        socket.receive_json()
        deadline = time.monotonic() + 10
        message: dict[str, Any] = {}
        while time.monotonic() < deadline and message.get("result") is None:
            message = socket.receive_json()
    assert message["result"] == "W+T" and message["clock"]["black"]["expired"]


def test_the_builtin_player_moves_within_its_clock(games: Games) -> None:
    game, tokens = games.new(white="builtin", level=10, time="byoyomi:0+3x2")
    state = games.play(game, tokens["black"], "E5")
    assert state["move_number"] == 2, state["warnings"]
    white = state["clock"]["white"]
    assert not white["expired"] and white["overtime"] == 3  # level 10 thinks 10 s without one
    reply = _record(games, game).root.children[0].children[0]
    assert 0 < reply.get("WL") <= 2 and reply.get("OW") == 3


def test_the_builtin_players_warm_up_is_not_charged_to_its_clock(
    games: Games, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first search that pays for loading the compiled kernels (here 2.5 s, longer than the
    2 s period) happens in the warm-up, off the clock."""
    first = MctsPlayer._run
    loaded: set[int] = set()

    def slow_first(player: MctsPlayer, *args: Any) -> Any:
        if id(player) not in loaded:
            loaded.add(id(player))
            time.sleep(2.5)
        return first(player, *args)

    monkeypatch.setattr(MctsPlayer, "_run", slow_first)
    game, tokens = games.new(white="builtin", level=1, time="byoyomi:0+3x2")
    state = games.play(game, tokens["black"], "E5")
    assert state["move_number"] == 2, state["warnings"]
    white = state["clock"]["white"]
    assert not white["expired"] and white["overtime"] == 3
    assert loaded  # the slow first search ran


FAKE_ENGINE = """
import sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    command = line.strip()
    log.write(command + "\\n"); log.flush()
    if command.startswith("genmove"):
        print("= pass\\n", flush=True)
    elif command == "quit":
        print("=\\n", flush=True); break
    else:
        print("=\\n", flush=True)
"""


def test_an_engine_is_told_the_clock(db: Path, tmp_path: Path) -> None:
    log = tmp_path / "engine.log"
    script = tmp_path / "engine.py"
    script.write_text(FAKE_ENGINE, encoding="utf-8")
    config = Config(db=db, engine=[sys.executable, str(script), str(log)])
    with TestClient(create_app(config)) as client:
        games = Games(client)
        game, tokens = games.new(white="engine", time="byoyomi:300+5x30")
        games.play(game, tokens["black"], "E5")
    commands = log.read_text(encoding="utf-8").splitlines()
    told = [c for c in commands if "time_settings" in c]
    assert told == ["time_settings 300 30 1"]  # byo-yomi as one-stone Canadian periods
    left = [c for c in commands if c.startswith("time_left")]
    assert len(left) == 1 and left[0] in ("time_left white 299 0", "time_left white 300 0")
    assert commands.index(told[0]) < commands.index(left[0]) < commands.index("genmove white")
