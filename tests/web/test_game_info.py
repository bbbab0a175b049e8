"""Game information shown and edited, and "play from here": a new game from a record's node."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tengen.sgf import parse
from tests.web.conftest import Games

# Black's E6 (move 9) has just taken White's D6: White may not take back at once (ko).
KO = (
    "(;GM[1]FF[4]SZ[9]KM[6.5]PB[Honinbo]PW[Jowa]RE[B+R]"
    ";B[dc];W[ec];B[cd];W[fd];B[de];W[ee];B[ai];W[dd];B[ed];W[aa])"
)


def _open(games: Games, sgf: str) -> tuple[str, str]:
    data = games.client.post("/api/games/import?name=ko.sgf", content=sgf.encode()).json()
    return data["id"], data["tokens"]["black"]


def test_info_is_shown_edited_and_saved(games: Games) -> None:
    game, tokens = games.new()
    token = tokens["black"]
    info = {
        **{"black": "Shin Jinseo", "black_rank": "9p", "white": "Ke Jie", "white_rank": "9p"},
        **{"event": "Ing Cup", "date": "2024-03-05,06", "komi": 8, "rules": "ing", "name": "Final"},
    }
    state = games.post(game, "info", token, **info).json()
    assert state["info"] == info
    assert state["players"] == {"black": "Shin Jinseo", "white": "Ke Jie"}
    assert state["komi"] == 8 and state["ruleset"] == "ing"  # the count follows
    root = parse(games.client.get(f"/api/games/{game}/sgf").text).games[0].root
    assert (root.get("PB"), root.get("BR"), root.get("EV"), root.get("KM")) == (
        "Shin Jinseo", "9p", "Ing Cup", 8.0
    )  # fmt: skip
    state = games.post(game, "info", token, event="").json()
    assert "event" not in state["info"]


def test_bad_info_is_refused_naming_the_field(games: Games) -> None:
    game, tokens = games.new()
    token = tokens["black"]
    for body, words in [
        ({"date": "5 March 2024"}, "date"),
        ({"komi": 82}, "komi must be within ±81 on 9x9"),
        ({"komi": "seven"}, "komi"),
        ({"black": "x" * 101}, "black"),
        ({"black": "bell\x07"}, "printable"),
        ({"rules": "house rules"}, "rules"),
        ({"result": "W+R"}, "result from the game"),
        ({"handicap": 3}, "handicap stones on the board already"),
        ({"handicap": -1}, "handicap"),
    ]:
        response = games.post(game, "info", token, **body)
        assert response.status_code == 400 and words in response.json()["error"], body
    assert games.post(game, "info", None, black="me").status_code == 403


def test_a_reviewed_record_s_handicap_and_result(games: Games) -> None:
    record, token = _open(games, KO)
    state = games.post(record, "info", token, handicap=2, result="W+T").json()
    assert state["info"]["handicap"] == 2 and state["info"]["result"] == "W+T"
    assert "HA[2]" in games.client.get(f"/api/games/{record}/sgf").text


def test_info_between_two_people_needs_both(games: Games) -> None:
    created = games.client.post("/api/games", json={"size": 9, "white": "remote"}).json()
    game, black = created["id"], created["tokens"]["black"]
    assert games.post(game, "info", black, komi=0.5).json()["reason"] == "seated"


def test_play_from_here_keeps_the_position_and_the_ko(games: Games, gnugo: str) -> None:
    record, token = _open(games, KO)
    games.post(record, "nav", token, move=9)
    created = games.client.post(
        f"/api/games/{record}/play-from-here", json={"black": "human", "white": "human"}
    )
    assert created.status_code == 201, created.text
    data = created.json()
    game, mine = data["id"], data["tokens"]["white"]
    state = data["state"]
    assert (state["mode"], state["phase"], state["to_play"], state["move_number"]) == (
        "play", "play", "white", 9
    )  # fmt: skip
    assert state["captures"]["black"] == 1 and state["ko"] == [3, 3]
    retake = games.post(game, "move", mine, vertex="D6")
    assert retake.status_code == 409 and retake.json()["reason"] == "ko"
    assert state["players"] == {"black": "Black", "white": "White"}
    assert state["info"]["komi"] == 6.5 and "result" not in state["info"]
    # GNU Go reads the new record to the same stones as the reviewed one at move 9
    stones = {}
    for name, url in (("new", f"/api/games/{game}/sgf"), ("old", f"/api/games/{record}/sgf")):
        sgf = Path(games.client.app.state.config.db).with_name(f"{name}.sgf")  # type: ignore[attr-defined]
        sgf.write_text(games.client.get(url).text, encoding="utf-8")
        commands = f"loadsgf {sgf} 10\nlist_stones black\nlist_stones white\nquit\n"
        out = subprocess.run(
            [gnugo, "--mode", "gtp"], input=commands, capture_output=True, text=True, timeout=60
        ).stdout
        stones[name] = [line for line in out.split("\n") if line.startswith("= ")]
    assert stones["new"] == stones["old"] and stones["new"][1] == "= D7 C6 E6 D5 A1"
    # the reviewed record is unchanged
    assert games.client.get(f"/api/games/{record}").json()["move_number"] == 9


def test_play_from_here_against_the_builtin_player(games: Games) -> None:
    record, token = _open(games, KO)
    games.post(record, "nav", token, move=4)
    data = games.client.post(
        f"/api/games/{record}/play-from-here", json={"black": "human", "level": 1}
    ).json()
    state = games.play(data["id"], data["tokens"]["black"], "E5")
    assert state["move_number"] == 6 and state["to_play"] == "black"  # the computer answered
    assert state["players"]["white"] == "tengen level 1"


def test_play_from_here_refusals(games: Games) -> None:
    record, _ = _open(games, KO)
    both = games.client.post(
        f"/api/games/{record}/play-from-here", json={"black": "builtin", "white": "random"}
    )
    assert both.status_code == 400 and "a person" in both.json()["error"]
    gomoku = games.client.post(
        "/api/games/import?name=g.sgf", content=b"(;GM[4]SZ[15];B[hh];W[ii])"
    ).json()["id"]
    refused = games.client.post(f"/api/games/{gomoku}/play-from-here", json={})
    assert refused.status_code == 409 and refused.json()["reason"] == "gomoku"
