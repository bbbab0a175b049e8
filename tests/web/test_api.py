"""The JSON API through Starlette's test client: every endpoint, and bad input answered 4xx."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import tengen
from tengen.ai.gomoku_player import GomokuPlayer
from tengen.core.coords import to_gtp
from tengen.sgf import parse
from tengen.web import Config, create_app
from tests.gomoku.support import shut_out_moves
from tests.web.conftest import Games

DATA = Path(__file__).parents[1] / "data"
# 9x9: Black takes a ko at C8 (capturing B8); White may not take back at once.
KO = ["B9", "C9", "A8", "B8", "B7", "D8", "J1", "C7", "C8"]


def test_page_and_static_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert 'type="module"' in page.text
    assert client.get("/game/abc").status_code == 200
    for name in (
        "board.js",
        "markup.js",
        "tools.js",
        "play.js",
        "review.js",
        "api.js",
        "style.css",
    ):
        assert client.get(f"/static/{name}").status_code == 200


def test_config_lists_rules_and_seats(client: TestClient) -> None:
    data = client.get("/api/config").json()
    assert data["rulesets"]["japanese"] == 6.5
    assert data["seats"] == ["human", "remote", "builtin", "random"]
    assert data["engine"] is None
    assert list(data["levels"]) == [str(n) for n in range(1, 11)]
    assert data["levels"]["1"] == "1 (50 playouts a move)"
    assert data["levels"]["10"] == "10 (10 s a move)"
    assert data["default_level"] == 7


def test_new_game_state(games: Games) -> None:
    game, tokens = games.new(size=13, ruleset="japanese", komi=0.5, title="Lesson")
    state = games.client.get(f"/api/games/{game}").json()
    assert (state["width"], state["height"], state["ruleset"], state["komi"]) == (
        13,
        13,
        "japanese",
        0.5,
    )
    assert state["title"] == "Lesson" and state["phase"] == "play" and state["to_play"] == "black"
    assert tokens["black"] == tokens["white"]  # one screen holds both seats


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"size": 1}, "'size': Input should be greater than or equal to 2"),
        ({"size": 26}, "'size': Input should be less than or equal to 25"),
        ({"size": "nine"}, "'size': Input should be a valid integer"),
        ({"ruleset": "chess"}, "unknown ruleset 'chess'"),
        ({"handicap": 1}, "handicap must be 0 or 2 to 9"),
        ({"size": 5, "handicap": 4}, "invalid handicap 4 for 5x5"),
        ({"handicap_type": "random"}, "'handicap_type': Input should be 'fixed' or 'free'"),
        ({"white": "alien"}, "unknown opponent 'alien'"),
        ({"black": "random", "white": "random"}, "at least one seat must be a person"),
        ({"white": "engine"}, "no engine was given"),
        ({"colour": "red"}, "unknown option 'colour'"),
        ({"white": "builtin", "level": 11}, "'level': Input should be less than or equal to 10"),
        ({"level": "strong"}, "'level': Input should be a valid integer"),
    ],
)
def test_new_game_bad_options(client: TestClient, body: dict[str, object], message: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert message in response.json()["error"]


def test_malformed_json(client: TestClient, games: Games) -> None:
    response = client.post("/api/games", content=b"{size: 9")
    assert response.status_code == 400
    assert response.json()["error"].startswith("malformed JSON")
    assert client.post("/api/games", content=b"[1, 2]").status_code == 400
    game, tokens = games.new()
    bad = client.post(f"/api/games/{game}/move", content=b"{", headers={"X-Token": tokens["black"]})
    assert bad.status_code == 400 and "malformed JSON" in bad.json()["error"]


def test_capture_removes_the_stone(games: Games) -> None:
    game, tokens = games.new()
    state = games.play(game, tokens["black"], "B9", "A9", "A8")
    assert state["board"][0][0] == "."
    assert state["captures"] == {"black": 1, "white": 0}
    assert state["last_move"] == [0, 1]
    assert "captures 1" in state["announce"]


@pytest.mark.parametrize(
    ("moves", "bad", "reason"),
    [
        (["E5"], "E5", "occupied"),
        (KO, "B8", "ko"),
        (["B9", "J1", "A8"], "A9", "suicide"),
    ],
)
def test_illegal_moves_give_their_reason(
    games: Games, moves: list[str], bad: str, reason: str
) -> None:
    game, tokens = games.new()
    state = games.play(game, tokens["black"], *moves)
    if reason == "ko":
        assert state["ko"] == [1, 1]
    response = games.post(game, "move", tokens["black"], vertex=bad)
    assert response.status_code == 409
    assert response.json() == {"error": f"illegal move {bad}: {reason}", "reason": reason}


@pytest.mark.parametrize("vertex", ["Z99", "K5", "", 5, None])
def test_bad_vertex(games: Games, vertex: object) -> None:
    game, tokens = games.new()
    response = games.post(game, "move", tokens["black"], vertex=vertex)
    assert response.status_code == 400
    assert response.json()["error"]


def test_unknown_game_is_404(client: TestClient) -> None:
    for method, path in [
        ("GET", "/api/games/nope"),
        ("POST", "/api/games/nope/move"),
        ("POST", "/api/games/nope/undo"),
        ("DELETE", "/api/games/nope"),
        ("GET", "/api/games/nope/sgf"),
        ("GET", "/api/games/nope/position.svg"),
    ]:
        response = client.request(method, path, json={"vertex": "D4"})
        assert response.status_code == 404, path
        assert response.json()["error"] == "no game 'nope'"
    assert client.get("/api/nothing").status_code == 404


def test_tokens_guard_the_seats(games: Games) -> None:
    data = games.client.post("/api/games", json={"size": 9, "white": "remote"}).json()
    assert set(data["tokens"]) == {"black"} and set(data["links"]) == {"white"}
    assert "#seat=white&token=" in data["links"]["white"]
    game, black = data["id"], data["tokens"]["black"]
    white = data["links"]["white"].rsplit("token=", 1)[1]
    assert black != white
    for token, message in [
        (None, "needs a seat token"),
        ("wrong", "holds no seat"),
        (white, "does not hold the black seat"),
    ]:
        response = games.post(game, "move", token, vertex="E5")
        assert response.status_code == 403
        assert message in response.json()["error"]
    games.play(game, black, "E5")
    assert games.post(game, "move", black, vertex="D4").status_code == 403
    games.play(game, white, "D4")
    # the last move was White's: Black cannot take it back, White asks Black
    assert games.post(game, "undo", black).status_code == 403
    assert games.post(game, "undo", white).json()["undo_request"] == "white"
    assert games.post(game, "undo/answer", black, accept=True).json()["move_number"] == 1
    # anyone may watch
    assert games.client.get(f"/api/games/{game}").json()["board"][4][4] == "B"


def test_undo(games: Games) -> None:
    game, tokens = games.new()
    token = tokens["black"]
    assert games.post(game, "undo", token).status_code == 409
    games.play(game, token, "E5", "D4")
    state = games.post(game, "undo", token).json()
    assert state["move_number"] == 1 and state["board"][5][3] == "."
    games.play(game, token, "C3")  # a new move after undo replaces the old one
    sgf = games.client.get(f"/api/games/{game}/sgf").text
    assert ";W[cg]" in sgf and "dd" not in sgf.split("W[cg]")[0].split("SZ")[1]


def test_random_player_answers_and_undo_takes_both_back(games: Games) -> None:
    game, tokens = games.new(white="random")
    assert "white" not in tokens
    state = games.play(game, tokens["black"], "E5")
    assert state["move_number"] == 2 and state["to_play"] == "black"
    state = games.post(game, "undo", tokens["black"]).json()
    assert state["move_number"] == 0


def test_builtin_player_at_its_level(games: Games) -> None:
    game, tokens = games.new(white="builtin", level=1)
    state = games.play(game, tokens["black"], "E5")
    assert state["move_number"] == 2 and state["to_play"] == "black"
    assert sum(row.count("W") for row in state["board"]) == 1
    assert state["players"]["white"] == "tengen level 1"
    assert "PW[tengen level 1]" in games.client.get(f"/api/games/{game}/sgf").text


def test_random_player_moves_first_as_black_with_handicap(games: Games) -> None:
    game, tokens = games.new(black="random", handicap=2)
    state = games.client.get(f"/api/games/{game}").json()
    assert sum(row.count("B") for row in state["board"]) == 2
    assert state["to_play"] == "white" and state["komi"] == 0.5
    state = games.play(game, tokens["white"], "E5")
    assert state["move_number"] == 2


def test_free_handicap(games: Games) -> None:
    game, tokens = games.new(handicap=2, handicap_type="free")
    token = tokens["black"]
    state = games.client.get(f"/api/games/{game}").json()
    assert state["phase"] == "handicap" and state["handicap_left"] == 2
    state = games.play(game, token, "C3")
    assert state["handicap_left"] == 1
    assert games.post(game, "move", token, vertex="C3").status_code == 409
    state = games.play(game, token, "G7")
    assert state["phase"] == "play" and state["to_play"] == "white"
    state = games.play(game, token, "E5")
    sgf = games.client.get(f"/api/games/{game}/sgf").text
    assert "HA[2]" in sgf and "AB[cg][gc]" in sgf and ";W[ee]" in sgf


def test_pass_pass_scoring_and_result(games: Games) -> None:
    game, tokens = games.new(size=5, ruleset="japanese", komi=0.5)
    token = tokens["black"]
    games.play(game, token, "B1", "D1", "B2", "D2", "B3", "D3", "B4", "D4", "B5", "D5")
    games.play(game, token, "pass", "A3", "pass")
    state = games.play(game, token, "pass")
    assert state["phase"] == "scoring"
    assert games.post(game, "move", token, vertex="A1").json()["reason"] == "scoring"
    if state["scoring"]["dead"] != [[0, 2]]:  # the estimate missed it: mark it by hand
        state = games.post(game, "score/toggle", token, vertex="A3").json()
    assert state["scoring"]["dead"] == [[0, 2]]
    assert state["scoring"]["result"] == "B+0.5"
    assert len(state["scoring"]["territory"]["black"]) == 5
    state = games.post(game, "score/toggle", token, vertex="A3").json()
    assert state["scoring"]["dead"] == [] and state["scoring"]["result"] == "W+5.5"
    assert "japanese" in state["scoring"]["explain"]
    state = games.post(game, "score/toggle", token, vertex="A3").json()
    state = games.post(game, "score/accept", token).json()
    assert state["phase"] == "over" and state["result"] == "B+0.5"
    assert "RE[B+0.5]" in games.client.get(f"/api/games/{game}/sgf").text
    assert games.post(game, "move", token, vertex="A1").status_code == 409
    assert games.post(game, "score/toggle", token, vertex="A3").status_code == 409


def test_players_on_two_screens_both_accept_the_marking_and_a_change_asks_again(
    games: Games,
) -> None:
    data = games.client.post(
        "/api/games", json={"size": 5, "white": "remote", "ruleset": "japanese", "komi": 0.5}
    ).json()
    game, black = data["id"], data["tokens"]["black"]
    white = data["links"]["white"].rsplit("token=", 1)[1]
    games.play(game, black, "C3")
    games.play(game, white, "pass")
    state = games.play(game, black, "pass")
    assert state["phase"] == "scoring" and state["scoring"]["accepted"] == []
    assert state["scoring"]["waiting_for"] == ["black", "white"]

    def accept(token: str) -> dict[str, Any]:
        response = games.post(game, "score/accept", token)
        assert response.status_code == 200, response.text
        return response.json()  # type: ignore[no-any-return]

    state = accept(black)
    assert state["phase"] == "scoring" and state["result"] is None
    assert state["scoring"]["accepted"] == ["black"]
    assert state["scoring"]["waiting_for"] == ["white"]
    assert "RE[" not in games.client.get(f"/api/games/{game}/sgf").text
    state = games.post(game, "score/toggle", white, vertex="C3").json()  # White disputes C3
    assert state["scoring"]["accepted"] == [] and state["scoring"]["result"] == "W+1.5"
    assert accept(white)["scoring"]["waiting_for"] == ["black"]
    state = games.post(game, "score/toggle", black, vertex="C3").json()  # alive after all
    assert state["scoring"]["waiting_for"] == ["black", "white"]
    assert accept(white)["phase"] == "scoring"
    state = accept(black)
    assert state["phase"] == "over" and state["result"] == "B+23.5"
    assert "RE[B+23.5]" in games.client.get(f"/api/games/{game}/sgf").text


def test_score_on_request_and_resume(games: Games) -> None:
    game, tokens = games.new(size=5)
    token = tokens["black"]
    assert games.post(game, "score/accept", token).status_code == 409
    games.play(game, token, "C3")
    assert games.post(game, "score", token).json()["phase"] == "scoring"
    assert games.post(game, "score/toggle", token, vertex="pass").status_code == 400
    state = games.post(game, "score/cancel", token).json()
    assert state["phase"] == "play" and state["scoring"] is None


def test_resign_writes_the_result(games: Games) -> None:
    game, tokens = games.new()
    token = tokens["black"]
    games.play(game, token, "E5")
    state = games.post(game, "resign", token).json()
    assert state["phase"] == "over" and state["result"] == "B+R"  # White was to move
    assert games.post(game, "move", token, vertex="D4").json()["reason"] == "game over"
    assert games.post(game, "resign", token).status_code == 409
    state = games.post(game, "undo", token).json()
    assert state["phase"] == "play" and state["result"] is None


def test_download_and_export(games: Games) -> None:
    game, tokens = games.new()
    games.play(game, tokens["black"], "E5", "C3")
    sgf = games.client.get(f"/api/games/{game}/sgf")
    assert sgf.headers["content-disposition"].startswith("attachment")
    tree = parse(sgf.text).games[0]
    assert [n.move for n in tree.main_line()[1:]] == [
        (n.move[0], n.move[1]) for n in tree.main_line()[1:] if n.move
    ]
    svg = games.client.get(f"/api/games/{game}/position.svg?labels=1")
    assert svg.headers["content-type"].startswith("image/svg+xml") and "<svg" in svg.text
    assert "B1:4" in svg.text
    png = games.client.get(f"/api/games/{game}/position.png")
    assert png.headers["content-type"] == "image/png" and png.content[:4] == b"\x89PNG"


def test_list_and_delete(games: Games) -> None:
    first, tokens = games.new(title="one")
    second, _ = games.new(title="two")
    listed = games.client.get("/api/games").json()["games"]
    assert [g["title"] for g in listed] == ["two", "one"]
    assert games.client.delete(f"/api/games/{first}").status_code == 403
    assert games.client.delete(f"/api/games/{first}", headers={"X-Token": "x"}).status_code == 403
    response = games.client.delete(f"/api/games/{first}", headers={"X-Token": tokens["black"]})
    assert response.json() == {"deleted": first}
    assert [g["id"] for g in games.client.get("/api/games").json()["games"]] == [second]
    assert games.client.get(f"/api/games/{first}").status_code == 404


VARIATIONS = b"(;GM[1]SZ[9]C[root];B[ee]C[first](;W[cc];B[gg])(;W[gc]C[side]))"


def test_import_and_review(games: Games) -> None:
    client = games.client
    response = client.post("/api/games/import?name=v.sgf", content=VARIATIONS)
    assert response.status_code == 201
    data = response.json()
    game, token = data["id"], data["tokens"]["black"]
    assert data["state"]["mode"] == "review" and data["state"]["comment"] == "root"

    def nav(**body: object) -> dict[str, object]:
        r = games.post(game, "nav", token, **body)
        assert r.status_code == 200, r.text
        return dict(r.json())

    assert nav(to="end")["move_number"] == 3
    assert nav(to="start")["move_number"] == 0
    state = nav(to="forward")
    assert state["comment"] == "first" and len(state["variations"]) == 2  # type: ignore[arg-type]
    state = nav(variation=1)
    assert state["comment"] == "side" and state["sibling"] == {"index": 1, "count": 2}
    assert nav(to="back")["move_number"] == 1
    assert nav(move=3)["last_move"] == [6, 6]
    tree = nav(node=4)["tree"]
    assert tree == {"nodes": [[0, 0, -1, "", 1], [1, 0, 0, "B", 1], [2, 0, 1, "W", 0],
                              [3, 0, 2, "B", 0], [2, 1, 1, "W", 1]], "current": 4}  # fmt: skip
    # comments, a new variation by playing, promotion, deleting a branch
    assert games.post(game, "comment", token, comment="nice").json()["comment"] == "nice"
    state = games.play(game, token, "D4")
    assert state["move_number"] == 3
    games.post(game, "promote", token)
    sgf = client.get(f"/api/games/{game}/sgf").text
    assert sgf.index("W[gc]") < sgf.index("W[cc]") and "C[nice]" in sgf
    state = games.post(game, "delete-branch", token).json()
    assert state["move_number"] == 2 and state["variations"] == []
    # bad navigation
    for body, status in [
        ({"to": "sideways"}, 400),
        ({"move": 99}, 409),
        ({"variation": 5}, 409),
        ({"node": 99}, 400),
        ({}, 400),
    ]:
        r = client.post(f"/api/games/{game}/nav", json=body, headers={"X-Token": token})
        assert r.status_code == status, body
        assert r.json()["error"]
    assert games.post(game, "nav", None, to="start").status_code == 403
    assert games.post(game, "comment", token, comment=5).status_code == 400
    assert games.post(game, "undo", token).status_code == 409
    assert games.post(game, "mode", token, mode="play").status_code == 409


def test_play_game_switches_to_review(games: Games) -> None:
    game, tokens = games.new()
    token = tokens["black"]
    games.play(game, token, "E5", "C3")
    assert games.post(game, "nav", token, to="start").status_code == 409
    assert games.post(game, "mode", token, mode="chess").status_code == 400
    assert games.post(game, "mode", token, mode="review").json()["mode"] == "review"
    assert games.post(game, "nav", token, to="start").json()["move_number"] == 0
    assert games.post(game, "mode", token, mode="play").json()["move_number"] == 2


@pytest.mark.parametrize("name", ["tiny.gib", "pass.ngf", "handicap.ugf"])
def test_import_other_formats(client: TestClient, name: str) -> None:
    data = (DATA / "formats" / name).read_bytes()
    response = client.post(f"/api/games/import?name={name}", content=data)
    assert response.status_code == 201, response.text
    assert response.json()["state"]["line_length"] >= 0


@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        (b"", "x.sgf", "must hold a game record"),
        (b"not a record", "x.sgf", "cannot read x.sgf"),
        (b"garbage", "x.gib", "cannot read x.gib"),
        (b"(;GM[3]SZ[15];B[hh])", "g.sgf", "root: GM[3] is not Go (1) or Gomoku (4)"),
        (b"(;GM[1]SZ[99])", "big.sgf", "root: SZ: board size 99x99 is outside"),
    ],
)
def test_import_bad_records(client: TestClient, data: bytes, name: str, message: str) -> None:
    response = client.post(f"/api/games/import?name={name}", content=data)
    assert response.status_code == 400
    assert message in response.json()["error"]


def test_games_survive_a_new_app(db: Path) -> None:
    with TestClient(create_app(Config(db=db))) as first:
        games = Games(first)
        game, tokens = games.new(white="remote")
        games.play(game, tokens["black"], "E5")
        before = first.get(f"/api/games/{game}").json()
    with TestClient(create_app(Config(db=db))) as second:
        after = second.get(f"/api/games/{game}").json()
        assert after["board"] == before["board"] and after["move_number"] == 1
        assert after["seats"] == {"black": "human", "white": "remote"}
        response = Games(second).post(game, "move", tokens["black"], vertex="D4")
        assert response.status_code == 403  # still White's turn, and Black's token still Black's
        assert [g["id"] for g in second.get("/api/games").json()["games"]] == [game]


def test_websocket_sends_every_change(games: Games) -> None:
    game, tokens = games.new()
    with games.client.websocket_connect(f"/api/games/{game}/ws") as ws:
        first = ws.receive_json()
        assert first["move_number"] == 0
        games.play(game, tokens["black"], "E5")
        update = ws.receive_json()
        assert update["move_number"] == 1 and update["version"] > first["version"]
        assert update["board"][4][4] == "B"


def test_the_version_goes_on_after_a_restart(db: Path) -> None:
    """A page that outlives the server ignores states older than its own; a restarted
    server must not count again from zero."""
    with TestClient(create_app(Config(db=db))) as client:
        games = Games(client)
        game, tokens = games.new()
        before = games.play(game, tokens["black"], "E5")["version"]
    with TestClient(create_app(Config(db=db))) as client:
        after = Games(client).play(game, tokens["white"], "C3")["version"]
    assert after > before


def test_websocket_unknown_game(client: TestClient) -> None:
    with client.websocket_connect("/api/games/nope/ws") as ws:
        assert ws.receive_json() == {"error": "no game 'nope'"}


def test_gtp_engine_opponent(db: Path, gnugo: str) -> None:
    config = Config(db=db, engine=[gnugo, "--mode", "gtp", "--level", "1"])
    with TestClient(create_app(config)) as client:
        assert client.get("/api/config").json()["seats"][-1] == "engine"
        games = Games(client)
        game, tokens = games.new(white="engine", ruleset="japanese")
        state = games.play(game, tokens["black"], "E5")
        assert state["move_number"] == 2 and state["to_play"] == "black"
        assert re.fullmatch(r"GNU Go \d+\.\d+", state["players"]["white"])  # name, version
        assert b"PW[GNU Go " in client.get(f"/api/games/{game}/sgf").content

        def empty(state: dict[str, Any]) -> str:
            """A corner-ish empty point (the engine's reply may have taken some)."""
            return next(v for v, (c, r) in CANDIDATES.items() if state["board"][r][c] == ".")

        state = games.play(game, tokens["black"], empty(state))
        assert state["move_number"] == 4
        state = games.post(game, "undo", tokens["black"]).json()
        assert state["move_number"] == 2
        state = games.play(game, tokens["black"], empty(state))  # the engine is synced again
        assert state["move_number"] == 4 and state["warnings"] == []


@pytest.mark.parametrize("handicap_type", ["fixed", "free"])
def test_an_engine_is_told_the_handicap(db: Path, gnugo: str, handicap_type: str) -> None:
    """GNU Go as White in a 3-stone game: it gets the handicap stones (fixed, or placed by
    Black one by one), so its board and tengen's agree (no warning) and it answers."""
    config = Config(db=db, engine=[gnugo, "--mode", "gtp", "--level", "1"])
    with TestClient(create_app(config)) as client:
        games = Games(client)
        game, tokens = games.new(white="engine", handicap=3, handicap_type=handicap_type)
        if handicap_type == "free":
            state = games.play(game, tokens["black"], "C3", "G7", "C7")
        else:
            state = client.get(f"/api/games/{game}").json()
        assert state["move_number"] == 1 and state["to_play"] == "black", state  # White moved
        assert state["warnings"] == []
        assert sum(row.count("B") for row in state["board"]) == 3
        state = games.play(game, tokens["black"], next(
            v for v, (c, r) in CANDIDATES.items() if state["board"][r][c] == "."))  # fmt: skip
        assert state["move_number"] == 3 and state["warnings"] == []


NAMED_ENGINE = r"""
import sys
for line in sys.stdin:
    command = line.strip()
    if command == "name":
        print("= Fake\tGo\x1b[31m   engine\n", flush=True)
    elif command == "list_commands":
        print("= name\nlist_commands\nquit\n", flush=True)
    elif command == "quit":
        print("=\n", flush=True); break
    else:
        print("? unknown command\n", flush=True)
"""


def test_the_engine_name_is_what_it_says_in_print(db: Path, tmp_path: Path) -> None:
    """No ``version`` command: the name alone, its control characters gone."""
    script = tmp_path / "engine.py"
    script.write_text(NAMED_ENGINE, encoding="utf-8")
    config = Config(db=db, engine=[sys.executable, str(script)])
    with TestClient(create_app(config)) as client:
        game, _ = Games(client).new(white="engine")
        state = client.get(f"/api/games/{game}").json()
        assert state["players"]["white"] == "Fake Go [31m engine"


def test_a_game_with_an_engine_that_does_not_start_is_refused(db: Path, tmp_path: Path) -> None:
    config = Config(db=db, engine=[str(tmp_path / "no-such-engine")])
    with TestClient(create_app(config)) as client:
        response = client.post("/api/games", json={"white": "engine"})
        assert response.status_code == 409
        assert "the engine did not start: cannot start engine" in response.json()["error"]
        assert client.get("/api/games").json()["total"] == 0


CANDIDATES = {"C3": (2, 6), "G7": (6, 2), "C7": (2, 2), "G3": (6, 6)}


# -- Gomoku ---------------------------------------------------------------------------------------

FIVE = ["H8", "A1", "H9", "A3", "H10", "A5", "H11", "A7", "H12"]  # Black's five on column H
# Black to play with J8 a double-three: G8 H8 _ across, J9 J10 up.
DOUBLE_THREE = ["H8", "A1", "G8", "A3", "J9", "A5", "J10", "A7"]


def test_gomoku_game_won_by_a_five(games: Games) -> None:
    game, tokens = games.new(game="gomoku", size=15, rule="standard", title="Five")
    token = tokens["black"]
    start = games.client.get(f"/api/games/{game}").json()
    assert (start["game"], start["rule"], start["width"], start["phase"]) == (
        "gomoku",
        "standard",
        15,
        "play",
    )
    state = games.play(game, token, *FIVE[:-1])
    assert state["winning_line"] is None and state["result"] is None
    state = games.play(game, token, FIVE[-1])
    assert state["phase"] == "over" and state["result"] == "B+5" and state["winner"] == "black"
    assert state["winning_line"] == [[7, row] for row in range(3, 8)]
    assert state["announce"] == "Black H12, five in a row, result B+5."
    late = games.post(game, "move", token, vertex="B2")
    assert late.status_code == 409 and late.json()["reason"] == "game over"
    assert "RE[B+]" in games.client.get(f"/api/games/{game}/sgf").text
    undone = games.post(game, "undo", token).json()
    assert undone["phase"] == "play" and undone["move_number"] == 8


def test_gomoku_renju_forbidden_points(games: Games) -> None:
    game, tokens = games.new(game="gomoku", size=15, rule="renju")
    state = games.play(game, tokens["black"], *DOUBLE_THREE)
    reason = "double-three (lines: horizontal, vertical)"
    assert state["forbidden"] == [[8, 7, reason]]
    refused = games.post(game, "move", tokens["black"], vertex="J8")
    assert refused.status_code == 409
    assert refused.json() == {
        "error": f"illegal move J8: forbidden: {reason}",
        "reason": f"forbidden: {reason}",
    }
    white = games.play(game, tokens["black"], "B2")
    assert white["to_play"] == "white" and white["forbidden"] == []  # only Black's are marked


def test_gomoku_renju_black_left_only_fouls_is_a_draw(games: Games) -> None:
    """The page is told the game is drawn and why, and a further move is refused."""
    game, tokens = games.new(game="gomoku", size=15, rule="renju")
    vertices = [to_gtp(p, 15) for p in shut_out_moves()]
    state = games.play(game, tokens["black"], *vertices)
    assert state["phase"] == "over" and state["result"] == "draw"
    assert state["forbidden"] == [[7, 7, "overline (lines: diagonal)"]]
    assert state["drawn_because"] == "Black has only forbidden points left"
    late = games.post(game, "move", tokens["black"], vertex="H8")
    assert late.status_code == 409 and late.json()["reason"] == "game over"
    assert "RE[0]" in games.client.get(f"/api/games/{game}/sgf").text


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"game": "gomoku", "size": 4}, "a Gomoku board size must be 5 to 25"),
        ({"game": "gomoku", "rule": "pente"}, "unknown Gomoku rule 'pente'"),
        ({"game": "gomoku", "white": "random"}, "unknown opponent 'random'"),
        ({"game": "gomoku", "white": "engine"}, "no Gomoku engine was given"),
        ({"game": "shogi"}, "'game': Input should be 'go' or 'gomoku'"),
    ],
)
def test_gomoku_bad_options(client: TestClient, body: dict[str, object], message: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert message in response.json()["error"]


def test_gomoku_go_actions_refused(games: Games) -> None:
    game, tokens = games.new(game="gomoku", size=15)
    for action, body in (("pass", {}), ("score", {}), ("move", {"vertex": "pass"})):
        response = games.post(game, action, tokens["black"], **body)
        assert response.status_code in (400, 409), action
        assert "Gomoku" in response.json()["error"]
    assert games.client.get(f"/api/games/{game}/position.svg").status_code == 409


def test_gomoku_builtin_player_and_resign(games: Games) -> None:
    game, tokens = games.new(game="gomoku", size=15, white="builtin")
    state = games.play(game, tokens["black"], "H8")
    assert state["move_number"] == 2 and state["to_play"] == "black"
    assert games.post(game, "undo", tokens["black"]).json()["move_number"] == 0
    games.play(game, tokens["black"], "H8")
    state = games.post(game, "resign", tokens["black"]).json()
    assert state["result"] == "W+R" and state["phase"] == "over"


def test_gomoku_games_survive_a_new_app(db: Path) -> None:
    with TestClient(create_app(Config(db=db))) as first:
        games = Games(first)
        game, tokens = games.new(
            game="gomoku", size=15, rule="renju", white="remote", title="Renju"
        )
        games.play(game, tokens["black"], "H8")
        before = first.get(f"/api/games/{game}").json()
    with TestClient(create_app(Config(db=db))) as second:
        after = second.get(f"/api/games/{game}").json()
        assert after["board"] == before["board"] and after["move_number"] == 1
        assert (after["game"], after["rule"], after["title"]) == ("gomoku", "renju", "Renju")
        assert after["seats"] == {"black": "human", "white": "remote"}
        white = second.post(f"/api/games/{game}/move", json={"vertex": "J9"}).status_code
        assert white == 403
        listed = second.get("/api/games").json()["games"]
        assert [(g["id"], g["game"]) for g in listed] == [(game, "gomoku")]


def test_gomoku_psq_import_and_review(client: TestClient, games: Games) -> None:
    data = (DATA / "formats" / "five.psq").read_bytes()
    response = client.post("/api/games/import?name=five.psq", content=data)
    assert response.status_code == 201, response.text
    game, token = response.json()["id"], response.json()["tokens"]["black"]
    state = response.json()["state"]
    assert (state["game"], state["mode"], state["phase"]) == ("gomoku", "review", "review")
    assert state["move_number"] == state["line_length"] == 9
    assert state["result"] == "B+5" and len(state["winning_line"]) == 5
    assert "pbrain-alpha.zip" in state["comment"]
    start = games.post(game, "nav", token, to="start").json()
    assert start["move_number"] == 0 and start["winning_line"] is None
    step = games.post(game, "nav", token, to="forward").json()
    assert step["move_number"] == 1 and step["board"][7][7] == "B"
    assert games.post(game, "nav", token, move=10).status_code == 409
    assert games.post(game, "move", token, vertex="A1").status_code == 409
    assert games.post(game, "mode", token, mode="play").status_code == 409


def test_gomoku_sgf_import(client: TestClient) -> None:
    record = b"(;GM[4]FF[4]SZ[15]RU[renju];B[hh];W[ii];B[gg])"
    response = client.post("/api/games/import?name=r.sgf", content=record)
    assert response.status_code == 201, response.text
    state = response.json()["state"]
    assert (state["rule"], state["move_number"], state["to_play"]) == ("renju", 3, "white")
    bad = client.post("/api/games/import?name=r.sgf", content=b"(;GM[4]SZ[15];B[hh];B[ii])")
    assert bad.status_code == 400 and "cannot open the Gomoku record" in bad.json()["error"]


def test_gomocup_engine_opponent(db: Path) -> None:
    """tengen's own Gomocup brain (``tengen gomocup``) as the engine of a Gomoku seat."""
    # Numba's cache gets the player's kernels first: a brain that compiled them itself (the
    # suite compiles on demand) overran the seat's 30 s for START on a cold cache.
    GomokuPlayer().warm()
    brain = [sys.executable, "-m", "tengen", "gomocup"]
    with TestClient(create_app(Config(db=db, gomoku_engine=brain))) as client:
        assert "engine" in client.get("/api/config").json()["gomoku"]["seats"]
        games = Games(client)
        game, tokens = games.new(game="gomoku", size=15, white="engine")
        state = games.play(game, tokens["black"], "H8")
        assert state["move_number"] == 2 and state["warnings"] == []
        assert state["players"] == {"black": "Black", "white": f"tengen {tengen.__version__}"}
