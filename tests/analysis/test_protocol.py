"""KataGo's JSON analysis protocol: queries read and checked, results written for the
perspective asked, and what tengen sends KataGo read back as the same position."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tengen.ai.analysis import Analysis, MoveInfo
from tengen.analysis.position import Position
from tengen.analysis.protocol import (
    QueryError,
    policy_of,
    query,
    read_query,
    read_result,
    result,
)
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.core.rules import Ruleset

# The example query of KataGo's docs/Analysis_Engine.md, as written there.
DOC_QUERY = (
    '{"id":"foo","initialStones":[["B","Q4"],["B","C4"]],"moves":[["W","P5"],["B","P6"]],'
    '"rules":"tromp-taylor","komi":7.5,"boardXSize":19,"boardYSize":19,"analyzeTurns":[0,1,2]}'
)


def test_the_documented_example_query_reads() -> None:
    q = read_query(json.loads(DOC_QUERY))
    assert q.id == "foo" and q.turns == (0, 1, 2) and q.warnings == ()
    assert q.position.initial == ((Color.BLACK, Point(15, 15)), (Color.BLACK, Point(2, 15)))
    assert q.position.moves == ((Color.WHITE, Point(14, 14)), (Color.BLACK, Point(14, 13)))
    assert q.position.initial_player is Color.WHITE  # the first move's player
    assert q.position.ruleset.komi == 7.5 and q.perspective == "BLACK"
    # The position plays out on the rules core: stones where the query put them.
    game = q.position.game()
    assert game.board[Point(14, 13)] is Color.BLACK and game.to_play is Color.WHITE


def _base(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "id": "q",
        "moves": [["B", "E5"]],
        "rules": "japanese",
        "boardXSize": 9,
        "boardYSize": 9,
    }
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"id": 3}, "id"),
        ({"boardXSize": 1}, "boardXSize"),
        ({"boardYSize": "9"}, "boardYSize"),
        ({"moves": [["B", "K10"]]}, "moves"),
        ({"moves": [["X", "E5"]]}, "moves"),
        ({"moves": "E5"}, "moves"),
        ({"rules": "martian"}, "rules"),
        ({"rules": {"ko": "NOPE"}}, "rules"),
        ({"komi": 7.25}, "komi"),
        ({"komi": 1e9}, "komi"),
        ({"analyzeTurns": [2]}, "analyzeTurns"),
        ({"analyzeTurns": [True]}, "analyzeTurns"),
        ({"maxVisits": 0}, "maxVisits"),
        ({"includeOwnership": "yes"}, "includeOwnership"),
        ({"overrideSettings": {"reportAnalysisWinratesAs": "ME"}}, "overrideSettings"),
        ({"priorities": [1, 2]}, "priorities"),
    ],
)
def test_a_bad_field_is_named(changes: dict[str, object], field: str) -> None:
    with pytest.raises(QueryError) as caught:
        read_query(_base(**changes))
    assert caught.value.field == field


def test_unknown_and_unsupported_fields_warn_and_still_run() -> None:
    q = read_query(_base(frobnicate=1, avoidMoves=[], overrideSettings={"wideRootNoise": 0.04}))
    assert {f for f, _ in q.warnings} == {"frobnicate", "avoidMoves", "overrideSettings"}


def _analysis(to_play: Color) -> Analysis:
    move = MoveInfo(Point(2, 2), 90, 0.7, 0.4, (Point(2, 2), Point(6, 6)), 3.5)
    other = MoveInfo(None, 10, 0.2, 0.1, (None,), -8.0)
    return Analysis(to_play, 100, 0.65, 3.0, (move, other), (0.5,) * 81, 9, 9)


@pytest.mark.parametrize(
    ("perspective", "to_play", "flipped"),
    [
        ("BLACK", Color.BLACK, False),
        ("BLACK", Color.WHITE, True),
        ("WHITE", Color.BLACK, True),
        ("WHITE", Color.WHITE, False),
        ("SIDETOMOVE", Color.WHITE, False),
    ],
)
def test_results_are_for_the_perspective_asked(
    perspective: str, to_play: Color, flipped: bool
) -> None:
    q = read_query(
        _base(
            includeOwnership=True,
            overrideSettings={"reportAnalysisWinratesAs": perspective},
        )
    )
    out = result(q, 1, _analysis(to_play), during=False)
    top = out["moveInfos"][0]
    assert top["move"] == "C7" and top["pv"] == ["C7", "G3"] and top["order"] == 0
    assert top["winrate"] == pytest.approx(0.3 if flipped else 0.7)
    assert top["scoreLead"] == pytest.approx(-3.5 if flipped else 3.5)
    assert out["rootInfo"]["winrate"] == pytest.approx(0.35 if flipped else 0.65)
    assert out["rootInfo"]["currentPlayer"] == to_play.letter
    black_view = perspective == "BLACK" or (perspective == "SIDETOMOVE" and to_play is Color.BLACK)
    white_view = perspective == "WHITE" or (perspective == "SIDETOMOVE" and to_play is Color.WHITE)
    assert black_view != white_view
    assert out["ownership"][0] == pytest.approx(0.5 if black_view else -0.5)
    assert out["moveInfos"][1]["move"] == "pass"
    assert {"id", "isDuringSearch", "turnNumber"} <= out.keys()


def test_policy_marks_illegal_points_and_sums_to_one() -> None:
    a = _analysis(Color.BLACK)
    policy = policy_of(a, [Point(2, 2), Point(3, 3)])
    assert len(policy) == 82
    assert policy[2 * 9 + 2] == pytest.approx(0.8) and policy[-1] == pytest.approx(0.2)
    assert policy[3 * 9 + 3] == 0.0 and policy[0] == -1.0
    assert sum(v for v in policy if v > 0) == pytest.approx(1.0)


points = st.builds(Point, st.integers(0, 8), st.integers(0, 8))


@given(
    moves=st.lists(st.tuples(st.sampled_from(Color), st.one_of(st.none(), points)), max_size=12),
    initial=st.lists(
        st.tuples(st.sampled_from(Color), points), max_size=5, unique_by=lambda x: x[1]
    ),
    komi=st.integers(-20, 20).map(lambda k: k / 2),
    rules=st.sampled_from(["chinese", "japanese", "tromp-taylor", "aga"]),
)
def test_what_tengen_asks_katago_reads_back_as_the_same_position(
    moves: list[tuple[Color, Point | None]],
    initial: list[tuple[Color, Point]],
    komi: float,
    rules: str,
) -> None:
    ruleset = Ruleset.parse(rules).with_komi(komi)
    position = Position(9, 9, ruleset, tuple(initial), tuple(moves), Color.WHITE)
    turns = list(range(len(moves) + 1))
    back = read_query(json.loads(json.dumps(query("x", position, turns, 50))))
    assert back.position.moves == position.moves
    assert back.position.initial == position.initial
    assert back.position.initial_player is Color.WHITE
    assert back.position.ruleset.komi == komi
    rules_back = back.position.ruleset
    assert (rules_back.ko, rules_back.scoring) == (ruleset.ko, ruleset.scoring)
    assert back.turns == tuple(turns) and back.visits == 50 and back.perspective == "SIDETOMOVE"


def test_a_result_read_back_is_the_analysis_for_the_side_to_move() -> None:
    position = Position(9, 9, Ruleset.parse("chinese"), moves=((Color.BLACK, Point(4, 4)),))
    q = read_query(json.loads(json.dumps(query("x", position, [1], 50))))
    analysis = _analysis(Color.WHITE)
    turn, back = read_result(json.loads(json.dumps(result(q, 1, analysis, during=False))), position)
    assert turn == 1 and back.to_play is Color.WHITE
    assert back.winrate == pytest.approx(0.65) and back.moves[0].score_lead == pytest.approx(3.5)
    assert back.ownership[0] == pytest.approx(0.5)  # Black's, whoever is to move


def test_an_error_result_raises_with_its_field() -> None:
    position = Position(9, 9, Ruleset.parse("chinese"))
    with pytest.raises(QueryError, match="bad") as caught:
        read_result({"id": "x", "error": "bad thing", "field": "moves"}, position)
    assert caught.value.field == "moves"
    with pytest.raises(QueryError, match="unreadable"):
        read_result({"id": "x", "turnNumber": 0}, position)
