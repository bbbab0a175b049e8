"""Analysis through the JSON API and the websocket, with the real search on small budgets."""

from __future__ import annotations

import time
from typing import Any

from starlette.testclient import TestClient

from tests.web.conftest import Games

# 9x9, six moves: the graph has seven positions (the start and one after each move).
RECORD = b"(;GM[1]SZ[9]KM[7]RU[Chinese];B[ee];W[cc];B[gg];W[gc];B[cg];W[dd])"


def wait_for(client: TestClient, game: str, kind: str, timeout: float = 60) -> dict[str, Any]:
    """The analysis or graph view once its job has ended (fails after `timeout` seconds)."""
    deadline = time.monotonic() + timeout
    while True:
        view = client.get(f"/api/games/{game}/analysis").json()[kind]
        if view is not None and not view["running"]:
            return dict(view)
        assert time.monotonic() < deadline, f"the {kind} did not finish: {view}"
        time.sleep(0.05)


def test_analysis_of_the_position_over_the_websocket(games: Games) -> None:
    client = games.client
    game, tokens = games.new()
    token = tokens["black"]
    games.play(game, token, "E5", "C3")
    assert client.get(f"/api/games/{game}/analysis").json() == {"analysis": None, "graph": None}
    with client.websocket_connect(f"/api/games/{game}/ws") as ws:
        assert ws.receive_json()["move_number"] == 2
        started = games.post(game, "analysis", token, playouts=400)
        assert started.status_code == 200, started.text
        assert started.json()["analysis"]["running"] is True
        seen = [ws.receive_json()]
        while not seen[-1]["analysis"].get("resumable"):  # done, then kept paused
            seen.append(ws.receive_json())
    view = seen[-1]["analysis"]
    assert not view["running"]
    assert view == client.get(f"/api/games/{game}/analysis").json()["analysis"]
    assert view["key"].startswith("black:") and view["to_play"] == "black"
    assert view["visits"] >= 400 and 0 <= view["black_winrate"] <= 1
    state = client.get(f"/api/games/{game}").json()
    board = state["board"]
    assert state["move_number"] == 2  # analysis never touches the game
    for move in view["moves"]:
        if move["point"] is not None:
            col, row = move["point"]
            assert board[row][col] == "."  # candidates are empty points
        assert move["pv"][0] == move["vertex"] and move["visits"] > 0
    visits = [m["visits"] for m in view["moves"]]
    assert visits == sorted(visits, reverse=True) and sum(visits) <= view["visits"]
    assert len(view["ownership"]) == 81 and all(-1 <= v <= 1 for v in view["ownership"])
    assert view["ownership"][4 * 9 + 4] > 0.5  # Black's stone on E5 is Black's


def test_stop_answers_at_once_and_the_game_goes_on(games: Games) -> None:
    game, tokens = games.new()
    token = tokens["black"]
    assert games.post(game, "analysis", token, seconds=60).status_code == 200
    time.sleep(0.3)
    moved = games.play(game, token, "E5")  # the game's requests do not wait for the search
    assert moved["move_number"] == 1
    started = time.monotonic()
    stopped = games.post(game, "analysis/stop", token)
    assert stopped.status_code == 200 and stopped.json()["analysis"]["running"] is False
    assert time.monotonic() - started < 5


def test_win_rate_graph_of_an_imported_record(client: TestClient, games: Games) -> None:
    data = client.post("/api/games/import?name=g.sgf", content=RECORD).json()
    game, token = data["id"], data["tokens"]["black"]
    assert games.post(game, "graph", token, playouts=100).status_code == 200
    graph = wait_for(client, game, "graph")
    assert graph["total"] == 7
    assert [p["move"] for p in graph["points"]] == list(range(7))
    assert all(0 <= p["black_winrate"] <= 1 for p in graph["points"])
    assert client.get(f"/api/games/{game}/sgf").text.count(";") == 7  # the record as it was


def test_analysis_refusals(client: TestClient, games: Games) -> None:
    game, tokens = games.new()
    assert games.post(game, "analysis", None).status_code == 403
    assert games.post(game, "analysis", "nope").status_code == 403
    bad = games.post(game, "analysis", tokens["black"], seconds=-1)
    assert bad.status_code == 400
    assert "'seconds': Input should be greater than 0" in bad.json()["error"]
    bad = games.post(game, "graph", tokens["black"], depth=3)
    assert bad.status_code == 400 and "unknown option 'depth'" in bad.json()["error"]
    assert client.get("/api/games/nope/analysis").status_code == 404
    gomoku, gomoku_tokens = games.new(game="gomoku", size=15)
    refused = games.post(gomoku, "analysis", gomoku_tokens["black"])
    assert refused.status_code == 409 and refused.json()["error"] == "analysis is for Go games"
