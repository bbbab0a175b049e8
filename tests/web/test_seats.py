"""Seats as a security boundary: in a game between two people, each seat's token acts only for
its own colour, through every endpoint and websocket message, in every mode.

The endpoints are enumerated from the app's own table (`routes.ENDPOINTS`), so a new endpoint
that changes a game fails `test_every_endpoint_is_classified` until it is listed here, and is
then tried with no token, a wrong one, a non-ASCII one and the other seat's.
"""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from tengen.web.routes import ENDPOINTS
from tests.web.conftest import Games

GAME = "/api/games/{game_id}"
# Endpoints that make a new game and change none: anyone may call them.
CREATES = {
    ("POST", "/api/games"),
    ("POST", "/api/games/import"),
    ("POST", f"{GAME}/copy"),
    ("POST", f"{GAME}/play-from-here"),
}
# Endpoints that change the app's settings, not a game: refused but from the server's own
# machine (tests/web/test_engine_settings.py checks them).
SETTINGS = {("POST", "/api/engines"), ("DELETE", "/api/engines/{name}")}
# Every endpoint that may change a game, with a body it accepts.
SEATED: dict[tuple[str, str], dict[str, Any]] = {
    ("DELETE", GAME): {},
    ("POST", f"{GAME}/move"): {"vertex": "C3"},
    ("POST", f"{GAME}/pass"): {},
    ("POST", f"{GAME}/resign"): {},
    ("POST", f"{GAME}/undo"): {},
    ("POST", f"{GAME}/redo"): {},
    ("POST", f"{GAME}/undo/answer"): {"accept": True},
    ("POST", f"{GAME}/opening"): {"choice": "swap"},
    ("POST", f"{GAME}/info"): {"komi": 0.5},
    ("POST", f"{GAME}/nav"): {"to": "start"},
    ("POST", f"{GAME}/comment"): {"comment": "mine now"},
    ("POST", f"{GAME}/markup"): {"kind": "TR", "vertex": "C3"},
    ("POST", f"{GAME}/delete-branch"): {},
    ("POST", f"{GAME}/promote"): {},
    ("POST", f"{GAME}/mode"): {"mode": "review"},
    ("POST", f"{GAME}/score"): {},
    ("POST", f"{GAME}/score/toggle"): {"vertex": "E5"},
    ("POST", f"{GAME}/score/accept"): {},
    ("POST", f"{GAME}/score/cancel"): {},
    ("POST", f"{GAME}/analysis"): {"playouts": 5},
    ("POST", f"{GAME}/analysis/stop"): {},
    ("POST", f"{GAME}/graph"): {"playouts": 5},
}
# What a seat may do in a game between two people that is not acting for the other colour.
OWN_COLOUR = {
    "DELETE",
    "resign",
    "score",
    "score/toggle",
    "score/accept",
    "score/cancel",
    "undo",
    "redo",
    "undo/answer",
}


def _seated(games: Games, game: str = "go") -> tuple[str, str, str]:
    """A game between a person here (Black) and one on another device (White), with E5
    played; its id and the two tokens."""
    options = {"game": game, "white": "remote", **({"size": 9} if game == "go" else {})}
    data = games.client.post("/api/games", json=options).json()
    game_id, black = data["id"], data["tokens"]["black"]
    white = data["links"]["white"].rsplit("token=", 1)[1]
    games.play(game_id, black, "E5")
    return game_id, black, white


def _call(games: Games, key: tuple[str, str], game: str, token: str | bytes | None) -> Any:
    method, path = key
    headers = {"X-Token": token} if token is not None else {}
    url = path.format(game_id=game)
    return games.client.request(method, url, json=SEATED[key], headers=headers)


def _record(games: Games, game: str) -> tuple[str, int]:
    """The game's SGF and state version: what no refused call may change."""
    sgf = games.client.get(f"/api/games/{game}/sgf").text
    return sgf, games.client.get(f"/api/games/{game}").json()["version"]


def test_every_endpoint_is_classified() -> None:
    changing = {(e.method, e.path) for e in ENDPOINTS if e.method != "GET"}
    assert changing == set(SEATED) | CREATES | SETTINGS


@pytest.mark.parametrize("game_kind", ["go", "gomoku"])
@pytest.mark.parametrize("key", sorted(SEATED), ids=lambda k: f"{k[0]} {k[1][len(GAME) :]}")
@pytest.mark.parametrize("token", [None, "wrong", "é".encode("latin-1")])
def test_no_seat_changes_nothing(
    games: Games, key: tuple[str, str], game_kind: str, token: str | bytes | None
) -> None:
    game, _, _ = _seated(games, game_kind)
    before = _record(games, game)
    response = _call(games, key, game, token)
    # 403 for want of a seat; a Gomoku game may first refuse a Go-only action (409)
    assert response.status_code in ((403, 409) if game_kind == "gomoku" else (403,)), key
    assert response.json()["error"]
    assert _record(games, game) == before


@pytest.mark.parametrize("game_kind", ["go", "gomoku"])
@pytest.mark.parametrize("key", sorted(SEATED), ids=lambda k: f"{k[0]} {k[1][len(GAME) :]}")
def test_a_seat_never_acts_for_the_other_colour(
    games: Games, key: tuple[str, str], game_kind: str
) -> None:
    """After Black's E5 it is White's turn: Black's token must not play, pass, review, edit
    or analyse; what it may do (resign, score, delete) is for its own side."""
    game, black, _ = _seated(games, game_kind)
    before = _record(games, game)
    response = _call(games, key, game, black)
    action = key[1].removeprefix(f"{GAME}/") if key[1] != GAME else key[0]
    if action in OWN_COLOUR:
        return  # covered by test_own_colour_actions
    assert response.status_code in ((403, 409) if game_kind == "gomoku" else (403,)), key
    assert _record(games, game) == before


@pytest.mark.parametrize("game_kind", ["go", "gomoku"])
def test_review_cannot_be_used_to_move_for_the_other_seat(games: Games, game_kind: str) -> None:
    """The attack of issue 16: switch to review, then place the other colour's moves."""
    game, black, white = _seated(games, game_kind)
    before = _record(games, game)
    for token in (black, white):
        refused = games.post(game, "mode", token, mode="review")
        assert refused.status_code == 403 and refused.json()["reason"] == "seated"
    assert games.post(game, "move", black, vertex="C3").status_code == 403
    assert games.post(game, "nav", black, to="start").status_code == 403
    assert _record(games, game) == before
    # White still plays its own move
    assert games.post(game, "move", white, vertex="C3").status_code == 200


def test_a_seated_game_left_in_review_still_guards_the_colours(client: TestClient) -> None:
    """A seated game found in review (stored so by an older version): a seat still adds only
    its own colour's moves, and cannot navigate or edit the shared record."""
    games = Games(client)
    game, black, white = _seated(games)
    session = client.app.state.sessions.get(game)  # type: ignore[attr-defined]
    session.meta.mode = "review"
    before = _record(games, game)
    assert games.post(game, "move", black, vertex="C3").status_code == 403  # White to play
    for action, body in [("nav", {"to": "start"}), ("comment", {"comment": "x"}), ("promote", {})]:
        assert games.post(game, action, black, **body).status_code == 403, action
    assert _record(games, game) == before
    assert games.post(game, "move", white, vertex="C3").status_code == 200


def test_own_colour_actions(games: Games) -> None:
    """What a seat may do touches only its own side: Black resigns as Black."""
    game, black, white = _seated(games)
    assert games.post(game, "undo", black).json()["undo_request"] == "black"  # Black's own E5
    assert games.post(game, "undo/answer", white, accept=True).json()["move_number"] == 0
    assert games.post(game, "redo", white).status_code == 403  # and Black's to play again
    assert games.post(game, "redo", black).json()["move_number"] == 1
    games.post(game, "undo", black)
    assert games.post(game, "undo/answer", white, accept=True).json()["move_number"] == 0
    games.play(game, black, "E5")
    games.play(game, white, "C3")
    assert games.post(game, "undo", black).status_code == 403  # White's C3
    assert games.post(game, "resign", black).json()["result"] == "W+R"


def test_review_a_copy(games: Games) -> None:
    """A seat reviews a copy of its game: a new game of its own, the shared one unchanged."""
    game, _, _ = _seated(games)
    before = _record(games, game)
    copy = games.client.post(f"/api/games/{game}/copy", json={})
    assert copy.status_code == 201
    data = copy.json()
    assert data["state"]["mode"] == "review" and not data["state"]["seated"]
    mine = data["tokens"]["black"]
    assert games.post(data["id"], "nav", mine, to="start").json()["move_number"] == 0
    assert games.post(data["id"], "move", mine, vertex="D4").status_code == 200
    assert games.post(data["id"], "move", mine, vertex="F4").json()["to_play"] == "black"
    assert _record(games, game) == before
    assert games.client.get(f"/api/games/{game}").json()["seated"] is True


def test_a_game_against_the_computer_is_its_person_s_to_review(games: Games) -> None:
    """Against a computer the one person holds every person's seat: review in place, with
    moves of both colours, as before."""
    game, tokens = games.new(white="random")
    token = tokens["black"]
    assert games.post(game, "mode", token, mode="review").json()["mode"] == "review"
    games.post(game, "nav", token, to="start")
    state = games.play(game, token, "A1", "A2")
    assert state["move_number"] == 2


def test_websocket_messages_change_nothing(games: Games) -> None:
    game, black, _ = _seated(games)
    before = _record(games, game)
    with games.client.websocket_connect(f"/api/games/{game}/ws") as ws:
        ws.receive_json()
        for text in ['{"action": "move", "vertex": "C3", "token": "' + black + '"}', "garbage"]:
            ws.send_text(text)
            assert "only sends game states" in ws.receive_json()["error"]
        ws.send_bytes(b"\x00\xff")
        closed = ws.receive()
        assert closed == {
            "type": "websocket.close",
            "code": 1003,
            "reason": "binary frames are not accepted",
        }
    assert _record(games, game) == before
