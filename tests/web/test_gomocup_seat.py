"""A Gomocup brain as a seat of the web app's Gomoku games: what it calls itself, and the real
Rapfi (a program tengen did not write) opening by swap2 and playing on through the app's API,
as the page drives it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tengen.web import Config, create_app, players
from tengen.web.players import NAME_LENGTH, gomocup_engine_name
from tests.gomoku.test_swap2 import rapfi
from tests.web.conftest import Games

_ABOUT = """
import sys
for line in sys.stdin:
    if line.strip().upper() == "ABOUT":
        print({about!r}, flush=True)
    elif line.strip().upper() == "END":
        break
"""


@pytest.mark.parametrize(
    ("about", "shown"),
    [
        (
            'name="Rapfi", version="0.43.02 (g++ 12.2.0 on Linux SSE41 AVX2 AVX512 BMI2 VNNI)"',
            "Rapfi 0.43.02",  # the build's details would be cut inside their parenthesis
        ),
        ('name="Embryo", version="21.3"', "Embryo 21.3"),
        ('name="' + "word " * 20 + '"', "word " * 11 + "word…"),
        ('name="' + "x" * 80 + '"', "x" * (NAME_LENGTH - 1) + "…"),
    ],
)
def test_a_long_name_is_cut_between_words(tmp_path: Path, about: str, shown: str) -> None:
    script = tmp_path / "brain.py"
    script.write_text(_ABOUT.format(about=about))
    name = gomocup_engine_name([sys.executable, str(script)], timeout=30)
    assert name == shown.strip()
    assert len(name) <= NAME_LENGTH


def _free(state: dict[str, Any]) -> str:
    """The empty point nearest the centre (ties: the lowest row, then column), as a vertex;
    not a stone held for swap2's second (playing it again takes it back) nor a foul."""
    rows = state["board"]
    empty = [(r, c) for r, row in enumerate(rows) for c, v in enumerate(row) if v == "."]
    forbidden = {(p[0], p[1]) for p in state["forbidden"]}
    if state["opening"] and state["opening"]["pending"]:
        forbidden.add(tuple(state["opening"]["pending"]))
    r, c = min(
        ((r, c) for r, c in empty if (c, r) not in forbidden),
        key=lambda p: (abs(p[0] - 7) + abs(p[1] - 7), p),
    )
    return "ABCDEFGHJKLMNOPQRST"[c] + str(len(rows) - r)


@pytest.mark.parametrize("rule", ["freestyle", "renju"])
@pytest.mark.parametrize("rapfi_opens", [True, False])
def test_rapfi_opens_by_swap2_and_plays_on_through_the_app(
    db: Path, rule: str, rapfi_opens: bool
) -> None:
    """Every swap2 question the app asks a seat reaches Rapfi in a form it reads (it refuses
    the protocol's ``x,y`` stone lines: `tengen.gomoku.manager`), in the time it is told (not
    told, it thought past the seat's deadline), its answers move the game on, and the game
    goes on to twenty stones with no warning."""
    seat = {"black": "engine"} if rapfi_opens else {"white": "engine"}
    config = Config(db=db, gomoku_engine=rapfi(), gomoku_engine_seconds=0.5)
    with TestClient(create_app(config)) as client:
        games = Games(client)
        game, tokens = games.new(game="gomoku", size=15, rule=rule, opening="swap2", **seat)
        token = next(iter(tokens.values()))
        state = client.get(f"/api/games/{game}").json()
        if not rapfi_opens:
            for vertex in ("H8", "J9", "H10"):
                state = games.play(game, token, vertex)
        for _ in range(30):
            assert state["warnings"] == [], state["warnings"]
            if state["winner"] or state["move_number"] >= 20:
                break
            opening = state["opening"]
            if opening and opening["step"] == "choose" and opening["actor"] != _rapfi(state):
                choice = "two" if "two" in opening["choices"] else opening["choices"][0]
                state = games.post(game, "opening", token, choice=choice).json()
            else:
                state = games.play(game, token, _free(state))
        assert state["opening"]["step"] == "done"
        assert state["winner"] or state["move_number"] >= 20
        assert state["warnings"] == []


def _rapfi(state: dict[str, Any]) -> str:
    """The colour Rapfi holds now (a swap moves it)."""
    return "black" if state["seats"]["black"] == "engine" else "white"


# A brain that writes every line it reads to the file named by its argument, answers ABOUT,
# and answers BOARD with the first empty point, row by row.
_LOGGING = """
import sys
log = open(sys.argv[1], "a")
taken = None
for line in sys.stdin:
    text = line.strip()
    log.write(text + "\\n")
    log.flush()
    word = text.upper()
    if word.startswith("START"):
        print("OK", flush=True)
    elif word == "ABOUT":
        print('name="logger"', flush=True)
    elif word == "BOARD":
        taken = set()
    elif word == "DONE":
        free = next((x, y) for y in range(15) for x in range(15) if (x, y) not in taken)
        print(f"{free[0]},{free[1]}", flush=True)
        taken = None
    elif taken is not None:
        x, y, _ = text.split(",")
        taken.add((int(x), int(y)))
    elif word == "END":
        break
"""


@pytest.mark.parametrize("seconds", [None, 0.25])
def test_a_brain_is_told_its_time_before_its_first_move(
    db: Path, tmp_path: Path, seconds: float | None
) -> None:
    """As the protocol asks a manager: its time a move (the server's default, or as set) and
    no match limit (the app's Gomoku games have no clock)."""
    script, log = tmp_path / "brain.py", tmp_path / "brain.log"
    script.write_text(_LOGGING)
    brain = [sys.executable, str(script), str(log)]
    config = Config(db=db, gomoku_engine=brain)
    if seconds is not None:
        config = Config(db=db, gomoku_engine=brain, gomoku_engine_seconds=seconds)
    with TestClient(create_app(config)) as client:
        games = Games(client)
        game, tokens = games.new(game="gomoku", size=15, white="engine")
        state = games.play(game, tokens["black"], "H8", "J9")
        assert state["move_number"] == 4 and state["warnings"] == []
    lines = log.read_text().splitlines()
    first = lines.index("BOARD")
    told = lines[:first]
    assert f"INFO timeout_turn {round((seconds or players.BRAIN_TURN) * 1000)}" in told
    assert "INFO timeout_match 0" in told
