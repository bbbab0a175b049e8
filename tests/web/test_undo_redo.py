"""Undo asked of the other person, redo in play (the moves an undo took back, played again),
and the way back from review."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tests.web.conftest import Games

COLUMNS = "ABCDEFGHJ"


def _moves(games: Games, game: str) -> list[str]:
    """The record's moves as the downloaded SGF has them, in order."""
    sgf = games.client.get(f"/api/games/{game}/sgf").text
    return re.findall(r";([BW]\[[a-z]{0,2}\])", sgf)


def _between_two_people(games: Games, **options: Any) -> tuple[str, str, str]:
    """A game between Black on this screen and White on another device: id, two tokens."""
    body = {"size": 9, "white": "remote", **options}
    created = games.client.post("/api/games", json=body).json()
    game, black = created["id"], created["tokens"]["black"]
    return game, black, created["links"]["white"].split("token=")[1]


@pytest.mark.parametrize("kind", ["go", "gomoku"])
def test_an_undo_between_two_people_is_asked_and_answered(games: Games, kind: str) -> None:
    options = {"game": "gomoku", "size": 15} if kind == "gomoku" else {}
    game, black, white = _between_two_people(games, **options)
    games.play(game, black, "H8")
    before = _moves(games, game)
    asked = games.post(game, "undo", black).json()
    assert asked["undo_request"] == "black" and asked["move_number"] == 1
    assert games.post(game, "undo", black).json()["reason"] == "undo asked"
    assert games.post(game, "undo/answer", black, accept=True).status_code == 403  # own ask
    declined = games.post(game, "undo/answer", white, accept=False).json()
    assert declined["undo_request"] is None and _moves(games, game) == before
    assert games.post(game, "undo/answer", white, accept=True).json()["reason"] == "no undo asked"
    games.post(game, "undo", black)
    withdrawn = games.post(game, "undo/answer", black, accept=False).json()  # the asker withdraws
    assert withdrawn["undo_request"] is None and withdrawn["move_number"] == 1
    games.post(game, "undo", black)
    accepted = games.post(game, "undo/answer", white, accept=True).json()
    assert accepted["move_number"] == 0 and accepted["undo_request"] is None
    assert accepted["to_play"] == "black"


def test_a_move_or_a_resignation_drops_an_unanswered_undo_request(games: Games) -> None:
    game, black, white = _between_two_people(games)
    games.play(game, black, "E5")
    games.play(game, white, "C3")
    assert games.post(game, "undo", white).json()["undo_request"] == "white"
    assert games.play(game, black, "D4")["undo_request"] is None  # Black played on instead
    assert games.post(game, "undo/answer", black, accept=True).json()["reason"] == "no undo asked"
    assert games.post(game, "undo", black).json()["undo_request"] == "black"
    state = games.post(game, "resign", white).json()
    assert state["undo_request"] is None and state["result"] == "B+R"


def test_redo_puts_back_the_move_and_the_computers_reply(games: Games) -> None:
    game, tokens = games.new(white="random")
    black = tokens["black"]
    games.play(game, black, "E5", "C3")
    before = _moves(games, game)
    assert len(before) == 4
    assert games.post(game, "undo", black).json()["move_number"] == 2
    state = games.post(game, "undo", black).json()
    assert state["move_number"] == 0 and state["can_redo"]
    assert games.post(game, "redo", black).json()["move_number"] == 2
    state = games.post(game, "redo", black).json()
    assert state["move_number"] == 4 and not state["can_redo"]
    assert _moves(games, game) == before
    assert games.post(game, "redo", black).json()["error"] == "nothing to redo"


def test_a_new_move_drops_what_was_taken_back(games: Games) -> None:
    game, tokens = games.new()
    token = tokens["black"]
    games.play(game, token, "E5", "D4")
    games.post(game, "undo", token)
    state = games.play(game, token, "C3")
    assert not state["can_redo"]
    assert games.post(game, "redo", token).status_code == 409


def test_play_undo_redo_against_a_plain_model(games: Games) -> None:
    """Random moves, undos and redos by one screen holding both seats, checked against a
    model written from what the buttons mean: a list of moves and a stack of taken-back
    moves that any new move empties."""
    rng = random.Random(11)
    game, tokens = games.new()
    token = tokens["black"]
    played: list[str] = []
    taken: list[str] = []
    for _ in range(120):
        op = rng.choice(["move", "move", "undo", "redo"])
        if op == "move":
            state = games.client.get(f"/api/games/{game}").json()
            empty = [(c, r) for r in range(9) for c in range(9) if state["board"][r][c] == "."]
            c, r = rng.choice(empty)
            response = games.post(game, "move", token, vertex=f"{COLUMNS[c]}{9 - r}")
            if response.status_code == 200:
                played.append(f"{c},{r}")
                taken.clear()
            else:
                assert response.json()["reason"] in ("suicide", "ko")
        elif op == "undo":
            response = games.post(game, "undo", token)
            assert response.status_code == (200 if played else 409)
            if played:
                taken.append(played.pop())
        else:
            response = games.post(game, "redo", token)
            assert response.status_code == (200 if taken else 409)
            if taken:
                played.append(taken.pop())
        state = games.client.get(f"/api/games/{game}").json()
        assert state["move_number"] == len(played) and state["can_redo"] == bool(taken)
        assert len(_moves(games, game)) == len(played)


def test_redo_is_refused_on_a_clock_and_to_the_other_seat(games: Games) -> None:
    game, tokens = games.new(time="absolute:600")
    token = tokens["black"]
    games.play(game, token, "E5")
    games.post(game, "undo", token)
    assert "clock" in games.post(game, "redo", token).json()["error"]
    game, black, white = _between_two_people(games)
    games.play(game, black, "E5")
    games.post(game, "undo", black)
    games.post(game, "undo/answer", white, accept=True)
    assert games.post(game, "redo", white).status_code == 403  # Black's move, Black's redo
    assert games.post(game, "redo", black).json()["move_number"] == 1


def test_gomoku_redo(games: Games) -> None:
    game, tokens = games.new(game="gomoku", size=15)
    token = tokens["black"]
    games.play(game, token, "H8", "J9", "H9")
    games.post(game, "undo", token)
    state = games.post(game, "undo", token).json()
    assert state["move_number"] == 1
    state = games.post(game, "redo", token).json()
    assert state["move_number"] == 2 and state["board"][15 - 9][8] == "W"


def test_the_way_back_from_review(games: Games) -> None:
    game, tokens = games.new(white="remote")
    games.play(game, tokens["black"], "E5")
    copy = games.client.post(f"/api/games/{game}/copy", json={}).json()
    assert copy["state"]["copy_of"] == game and copy["state"]["mode"] == "review"
    opened = games.client.post("/api/games/import?name=a.sgf", content=b"(;SZ[9];B[ee])").json()
    assert opened["state"]["imported"] and opened["state"]["copy_of"] is None
