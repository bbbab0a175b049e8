"""SGF markup through the API: drawn in the state, added and removed by the review's tools,
saved in the record, and bad input refused."""

from __future__ import annotations

from typing import Any

import pytest

from tengen.core.coords import Point
from tengen.sgf import parse
from tests.web.conftest import Games

# 9x9; the root dims C7 and D7, the move keeps that dimming, its child ends it with DD[].
MARKED = (
    b"(;GM[1]FF[4]SZ[9]DD[cc][dc]"
    b";B[ee]TR[ee][aa]SQ[bb]CR[cc]MA[dd]SL[ff]LB[gg:A][hh:12]AR[aa:ii]LN[ia:ai]"
    b";W[cg]DD[])"
)


def _open(games: Games, record: bytes = MARKED) -> tuple[str, str]:
    response = games.client.post("/api/games/import?name=m.sgf", content=record)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], data["tokens"]["black"]


def _markup(games: Games, game: str, token: str, **body: Any) -> dict[str, Any]:
    response = games.post(game, "markup", token, **body)
    assert response.status_code == 200, response.text
    markup: dict[str, Any] = response.json()["markup"]
    return markup


def _node(games: Games, game: str, index: int) -> Any:
    """Node `index` (in tree order) of the record as downloaded, read back by tengen."""
    tree = parse(games.client.get(f"/api/games/{game}/sgf").content).games[0]
    return list(tree.nodes())[index]


def test_the_state_carries_the_node_markup_and_inherited_dimming(games: Games) -> None:
    game, token = _open(games)
    state = games.client.get(f"/api/games/{game}").json()
    assert state["markup"] == {
        "marks": [],
        "labels": [],
        "arrows": [],
        "lines": [],
        "dimmed": [[2, 2], [3, 2]],
    }
    markup = games.post(game, "nav", token, to="forward").json()["markup"]
    assert sorted(markup["marks"]) == [
        [0, 0, "TR"],
        [1, 1, "SQ"],
        [2, 2, "CR"],
        [3, 3, "MA"],
        [4, 4, "TR"],
        [5, 5, "SL"],
    ]
    assert markup["labels"] == [[6, 6, "A"], [7, 7, "12"]]
    assert markup["arrows"] == [[0, 0, 8, 8]] and markup["lines"] == [[8, 0, 0, 8]]
    assert markup["dimmed"] == [[2, 2], [3, 2]]  # the root's DD, inherited
    assert games.post(game, "nav", token, to="forward").json()["markup"]["dimmed"] == []


def test_unreadable_or_off_board_markup_is_left_out(games: Games) -> None:
    game, _ = _open(games, b"(;GM[1]SZ[9]TR[zz][aa]LB[bb]AR[aa:aa:aa]DD[jj])")
    markup = games.client.get(f"/api/games/{game}").json()["markup"]
    assert markup == {
        "marks": [[0, 0, "TR"]],
        "labels": [],
        "arrows": [],
        "lines": [],
        "dimmed": [],
    }


def test_add_each_kind_download_and_read_back(games: Games) -> None:
    game, token = _open(games, b"(;GM[1]FF[4]SZ[9];B[ee];W[cc])")
    games.post(game, "nav", token, to="forward")
    for kind, vertex in [("TR", "A9"), ("SQ", "B9"), ("CR", "C9"), ("MA", "D9"), ("DD", "J1")]:
        _markup(games, game, token, kind=kind, vertex=vertex)
    _markup(games, game, token, kind="LB", vertex="E5", text="A")
    _markup(games, game, token, kind="AR", vertex="A1", to="C3")
    markup = _markup(games, game, token, kind="LN", vertex="J9", to="G7")
    assert markup["labels"] == [[4, 4, "A"]] and markup["dimmed"] == [[8, 8]]
    node = _node(games, game, 1)
    assert node.get("TR") == [Point(0, 0)] and node.get("SQ") == [Point(1, 0)]
    assert node.get("CR") == [Point(2, 0)] and node.get("MA") == [Point(3, 0)]
    assert node.get("LB") == [(Point(4, 4), "A")]
    assert node.get("AR") == [(Point(0, 8), Point(2, 6))]
    assert node.get("LN") == [(Point(8, 0), Point(6, 2))]
    assert node.get("DD") == [Point(8, 8)]
    assert "DD" not in _node(games, game, 2).properties  # the move below inherits it
    # The downloaded record opens again with the same markup.
    sgf = games.client.get(f"/api/games/{game}/sgf").content
    again, again_token = _open(games, sgf)
    reopened = games.post(again, "nav", again_token, to="forward").json()["markup"]
    assert reopened == games.client.get(f"/api/games/{game}").json()["markup"]
    inherited = games.post(again, "nav", again_token, to="forward").json()["markup"]
    assert inherited["dimmed"] == [[8, 8]] and inherited["marks"] == []


def test_a_second_click_removes_and_erase_clears_a_point(games: Games) -> None:
    game, token = _open(games)
    games.post(game, "nav", token, to="forward")
    markup = _markup(games, game, token, kind="TR", vertex="A9")  # TR[aa] was there
    assert [0, 0, "TR"] not in markup["marks"]
    markup = _markup(games, game, token, kind="CR", vertex="E5")  # replaces E5's triangle
    assert [4, 4, "CR"] in markup["marks"] and [4, 4, "TR"] not in markup["marks"]
    markup = _markup(games, game, token, kind="LB", vertex="G3")  # a label: no text needed
    assert markup["labels"] == [[7, 7, "12"]]
    markup = _markup(games, game, token, kind="AR", vertex="A9", to="J1")
    markup = _markup(games, game, token, kind="LN", vertex="A1", to="J9")  # either way round
    assert markup["arrows"] == [] and markup["lines"] == []
    markup = _markup(games, game, token, kind="DD", vertex="C7")  # undims one point here
    assert markup["dimmed"] == [[3, 2]]
    assert _node(games, game, 1).get("DD") == [Point(3, 2)]
    markup = _markup(games, game, token, kind="DD", vertex="C7")  # back to the inherited
    assert "DD" not in _node(games, game, 1).properties
    _markup(games, game, token, kind="AR", vertex="B8", to="D6")
    markup = _markup(games, game, token, kind="erase", vertex="B8")
    assert markup["arrows"] == [] and [1, 1, "SQ"] not in markup["marks"]
    for kind, vertex in [("erase", "D6"), ("TR", "D6"), ("TR", "D6")]:
        markup = _markup(games, game, token, kind=kind, vertex=vertex)
    assert [3, 3, "TR"] not in markup["marks"] and [3, 3, "MA"] not in markup["marks"]
    node = _node(games, game, 1)
    assert "AR" not in node.properties and "LN" not in node.properties
    assert node.get("LB") == [(Point(7, 7), "12")]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"kind": "XX", "vertex": "D4"}, "unknown markup 'XX'"),
        ({"kind": "TR", "vertex": "Z99"}, "off the 9x9 board"),
        ({"kind": "TR", "vertex": "K5"}, "'K5' is off the 9x9 board"),
        ({"kind": "TR", "vertex": "pass"}, "not 'pass'"),
        ({"kind": "LB", "vertex": "D4", "text": "ABCDE"}, "'text': String should have at most 4"),
        ({"kind": "LB", "vertex": "D4", "text": ""}, "'text': String should have at least 1"),
        ({"kind": "LB", "vertex": "D4"}, "a label needs its text"),
        ({"kind": "LB", "vertex": "D4", "text": "  "}, "a label needs its text"),
        ({"kind": "LB", "vertex": "D4", "text": "a\x00"}, "a label is printable text"),
        ({"kind": "AR", "vertex": "D4", "to": "D4"}, "an arrow must go to another point"),
        ({"kind": "LN", "vertex": "D4", "to": "d4"}, "a line must go to another point"),
        ({"kind": "AR", "vertex": "D4"}, "AR needs a 'to' point"),
        ({"kind": "AR", "vertex": "D4", "to": "K5"}, "'K5' is off"),
        ({"kind": "TR", "vertex": "D4", "to": "E5"}, "only arrows and lines take a 'to'"),
        ({"kind": "TR", "vertex": "D4", "text": "A"}, "only labels (LB) take a 'text'"),
        ({"kind": "TR", "vertex": 44}, "'vertex': Input should be a valid string"),
        ({"kind": "TR", "vertex": "D4", "colour": "red"}, "unknown option 'colour'"),
    ],
)
def test_bad_markup_is_refused(games: Games, body: dict[str, Any], message: str) -> None:
    game, token = _open(games)
    before = games.client.get(f"/api/games/{game}/sgf").text
    response = games.post(game, "markup", token, **body)
    assert response.status_code == 400, response.text
    assert message in response.json()["error"]
    assert games.client.get(f"/api/games/{game}/sgf").text == before


def test_markup_needs_the_token_and_review(games: Games) -> None:
    game, _ = _open(games)
    refused = games.post(game, "markup", None, kind="TR", vertex="D4")
    assert refused.status_code == 403
    assert games.post(game, "markup", "wrong", kind="TR", vertex="D4").status_code == 403
    played, tokens = games.new()
    refused = games.post(played, "markup", tokens["black"], kind="TR", vertex="D4")
    assert refused.status_code == 409 and "review" in refused.json()["error"]
    gomoku, tokens = games.new(game="gomoku", size=15)
    games.post(gomoku, "mode", tokens["black"], mode="review")
    refused = games.post(gomoku, "markup", tokens["black"], kind="TR", vertex="D4")
    assert refused.status_code == 409 and refused.json()["reason"] == "gomoku"
