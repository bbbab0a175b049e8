"""Swap openings (swap1, swap2) in the web app's Gomoku games: people choose by clicking and
choosing, computers through the same steps (`SWAP2BOARD` for a Gomocup brain), the seats
change colour with a swap, and a stored game comes back with its choices."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tengen.web import Config, create_app
from tests.web.conftest import Games

THREE = ["H8", "J9", "H10"]  # Black, White, Black: all placed by player 1


def _two_people(games: Games, opening: str) -> tuple[str, str, str]:
    """Player 1 (Black at first) on this screen, player 2 on another device: id, tokens."""
    body = {"game": "gomoku", "size": 15, "white": "remote", "opening": opening}
    created = games.client.post("/api/games", json=body).json()
    return created["id"], created["tokens"]["black"], created["links"]["white"].split("token=")[1]


def _state(games: Games, game: str) -> dict[str, Any]:
    return games.client.get(f"/api/games/{game}").json()


def _choose(games: Games, game: str, token: str, choice: str) -> Any:
    return games.post(game, "opening", token, choice=choice)


def test_swap1_player_two_takes_black(games: Games) -> None:
    game, one, two = _two_people(games, "swap")
    assert _state(games, game)["opening"]["step"] == "three"
    for v in THREE:  # player 1 places White's stone too
        games.play(game, one, v)
    state = _state(games, game)
    assert state["opening"] == {
        "rule": "swap",
        "step": "choose",
        "actor": "white",
        "choices": ["swap"],
        "pending": None,
        "black_player": 1,
    }
    assert _choose(games, game, one, "swap").status_code == 403  # not player 1's choice
    assert _choose(games, game, two, "keep").json()["reason"] == "opening"
    state = _choose(games, game, two, "swap").json()
    assert state["seats"] == {"black": "remote", "white": "human"}  # the colours changed hands
    assert state["opening"]["step"] == "done" and state["acting"] == "white"
    assert games.post(game, "move", two, vertex="G7").status_code == 403  # White's stone 4
    state = games.play(game, one, "G7")
    assert state["move_number"] == 4 and state["acting"] == "black"
    assert games.play(game, two, "A1")["move_number"] == 5


def test_swap1_player_two_stays_white(games: Games) -> None:
    game, one, two = _two_people(games, "swap")
    for v in THREE:
        games.play(game, one, v)
    state = games.play(game, two, "G7")  # stone 4 as White: no swap
    assert state["seats"] == {"black": "human", "white": "remote"}
    assert state["opening"]["step"] == "done" and state["acting"] == "black"


@pytest.mark.parametrize("player_one_takes_white", [False, True])
def test_swap2_two_more_stones_then_player_one_chooses(
    games: Games, player_one_takes_white: bool
) -> None:
    game, one, two = _two_people(games, "swap2")
    for v in THREE:
        games.play(game, one, v)
    assert _state(games, game)["opening"]["choices"] == ["swap", "two"]
    assert _choose(games, game, two, "two").json()["opening"]["step"] == "two"
    state = games.play(game, two, "G9")  # held until the second stone
    assert state["move_number"] == 3 and state["opening"]["pending"] == [6, 6]
    state = games.play(game, two, "J7")
    assert state["move_number"] == 5 and state["board"][15 - 9][6] == "W"
    assert state["opening"]["actor"] == "black" and state["opening"]["choices"] == ["keep", "swap"]
    assert games.post(game, "move", one, vertex="A1").json()["reason"] == "opening"
    if player_one_takes_white:
        state = _choose(games, game, one, "swap").json()
        assert state["seats"] == {"black": "remote", "white": "human"}
        stone_six = one
    else:
        state = _choose(games, game, one, "keep").json()
        assert state["seats"] == {"black": "human", "white": "remote"}
        stone_six = two
    assert state["acting"] == "white" and state["opening"]["step"] == "done"
    assert games.play(game, stone_six, "A1")["move_number"] == 6


def test_the_choices_survive_a_restart_and_undo_takes_them_back(db: Path) -> None:
    with TestClient(create_app(Config(db=db))) as client:
        games = Games(client)
        game, one, two = _two_people(games, "swap2")
        for v in THREE:
            games.play(game, one, v)
        _choose(games, game, two, "swap")
        before = _state(games, game)
    with TestClient(create_app(Config(db=db))) as client:
        games = Games(client)
        after = _state(games, game)
        assert {k: after[k] for k in ("seats", "acting", "opening", "board")} == {
            k: before[k] for k in ("seats", "acting", "opening", "board")
        }
        games.post(game, "undo", two)  # between two people an undo is asked...
        state = games.post(game, "undo/answer", one, accept=True).json()  # ...and granted
        assert state["seats"] == {"black": "human", "white": "remote"}  # the swap taken back
        assert state["opening"]["choices"] == ["swap", "two"] and state["move_number"] == 3


def test_a_person_opens_and_the_builtin_player_chooses(games: Games) -> None:
    game, tokens = games.new(game="gomoku", size=15, white="builtin", opening="swap2")
    for v in THREE[:2]:
        games.play(game, tokens["black"], v)
    state = games.play(game, tokens["black"], THREE[2])  # the computer answers at once
    assert state["move_number"] in (3, 4, 5)
    opening = state["opening"]
    person = "white" if state["seats"]["white"] == "human" else "black"
    if state["move_number"] == 5:  # it placed two more: the person chooses
        assert opening["actor"] == person and opening["choices"] == ["keep", "swap"]
    else:  # it swapped (the person plays stone 4) or played stone 4 as White
        assert opening["step"] == "done" and state["acting"] == person


def test_the_builtin_player_opens(games: Games) -> None:
    game, tokens = games.new(game="gomoku", size=15, black="builtin", opening="swap2")
    state = _state(games, game)
    assert state["move_number"] == 3 and state["acting"] == "white"
    assert state["opening"]["choices"] == ["swap", "two"]
    state = _choose(games, game, tokens["white"], "swap").json()
    assert state["seats"] == {"black": "human", "white": "builtin"}
    assert state["move_number"] == 4  # the computer, now White, played stone 4
    assert state["acting"] == "black"


def test_a_gomocup_brain_answers_the_opening(db: Path) -> None:
    """tengen's own brain as player 2, driven through SWAP2BOARD by the app."""
    brain = [sys.executable, "-m", "tengen", "gomocup"]
    with TestClient(create_app(Config(db=db, gomoku_engine=brain))) as client:
        games = Games(client)
        game, tokens = games.new(game="gomoku", size=15, white="engine", opening="swap2")
        for v in THREE:
            state = games.play(game, tokens["black"], v)
        assert state["move_number"] >= 3 and state["warnings"] == []
        assert state["opening"]["step"] in ("done", "choose")


def test_openings_are_gomoku_s(games: Games) -> None:
    response = games.client.post("/api/games", json={"size": 9, "opening": "swap"})
    assert response.status_code == 400 and "for Gomoku games" in response.json()["error"]
    game, tokens = games.new()
    assert games.post(game, "opening", tokens["black"], choice="swap").json()["reason"] == "go"
    bad = games.post(game, "opening", tokens["black"], choice="later")
    assert bad.status_code == 400 and "choice" in bad.json()["error"]
