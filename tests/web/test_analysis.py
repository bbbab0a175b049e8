"""Analysis jobs of a game (web/analysis.py) on a stand-in search that counts its playouts.

The stand-in makes the jobs' bookkeeping exact: budgets, stopping, a position that changes
under a running search, the graph's points, and the graph saved in the record (and read back
from one that Sabaki wrote). The app with the real search is tested in test_api.py and
test_browser.py.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tengen.ai.analysis import Analysis, MoveInfo, Progress
from tengen.core.color import Color
from tengen.core.game import Game
from tengen.sgf import Node, parse, serialise
from tengen.web import schemas
from tengen.web.analysis import Analysts, Budget
from tengen.web.analysis_view import position_key
from tengen.web.routes import _budget
from tengen.web.schemas import NewGame
from tengen.web.seats import BadRequest, Conflict, Forbidden
from tengen.web.session import GameSession
from tengen.web.sessions import Sessions
from tengen.web.store import Store


class CountingSearch:
    """Plays no Go: each playout is one visit of the first legal move, won 70% of the time
    by the player to move; reports every 5 playouts, stops at the budget or when told."""

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.searched: list[tuple[Color, int]] = []
        self.closed = False

    def analyse(
        self,
        game: Game,
        *,
        playouts: int | None = None,
        seconds: float | None = None,
        progress: Progress | None = None,
        interval: float = 0.5,
    ) -> Analysis:
        if self.fail:
            raise RuntimeError("search broke")
        self.searched.append((game.to_play, game.move_number))
        game.play(game.legal_moves()[0])  # a search may use the copy it is given
        game.undo()
        deadline = time.monotonic() + (seconds or 1e9)
        n = 0
        while (playouts is None or n < playouts) and time.monotonic() < deadline:
            n += 1
            if progress is not None and n % 5 == 0 and not progress(self._result(game, n)):
                return self._result(game, n)
            time.sleep(0.001)
        result = self._result(game, n)
        if progress is not None:
            progress(result)
        return result

    def _result(self, game: Game, n: int) -> Analysis:
        move = game.legal_moves()[0]
        size = game.width * game.height
        return Analysis(
            game.to_play,
            n,
            0.7,
            3.0,
            (MoveInfo(move, n, 0.7, 1.0, (move,), score_lead=1.5),),
            (1.0,) * size,
            9,
            9,
        )

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def sessions(tmp_path: Path) -> Sessions:
    return Sessions(Store(tmp_path / "games.sqlite3"), None, seed=1)


def new_game(sessions: Sessions, *moves: str) -> tuple[GameSession, str]:
    session = sessions.create(NewGame(size=9))
    assert isinstance(session, GameSession)
    token = session.tokens()["black"]
    for vertex in moves:
        session.play(vertex, token)
    return session, token


class Pages:
    """What the game's pages would receive."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def __call__(self, message: dict[str, Any]) -> None:
        self.messages.append(message)


def analysts_for(session: GameSession, search: CountingSearch) -> tuple[Analysts, Pages]:
    pages = Pages()
    session.broadcast = pages  # type: ignore[method-assign]
    return Analysts(lambda: search), pages


def wait_until(done: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 10
    while not done():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_analysis_of_the_position_shown(sessions: Sessions) -> None:
    session, token = new_game(sessions, "E5")
    search = CountingSearch()
    analysts, pages = analysts_for(session, search)
    analyst = analysts.get(session)
    analyst.start_position(Budget(playouts=20), token)
    wait_until(lambda: (analyst.position or {}).get("resumable", False))  # kept, paused
    view = analyst.position
    assert view is not None
    assert view["key"] == position_key(session.cursor.game)
    assert view["key"].startswith("white:.........")
    assert (view["to_play"], view["visits"], view["winrate"]) == ("white", 20, 0.7)
    assert view["black_winrate"] == pytest.approx(0.3) and view["black_lead"] == -3.0
    assert view["moves"] == [
        {
            "vertex": "A9",
            "point": [0, 0],
            "visits": 20,
            "winrate": 0.7,
            "score_lead": 1.5,
            "prior": 1.0,
            "pv": ["A9"],
        }
    ]
    assert view["ownership"] == [1.0] * 81
    assert search.searched == [(Color.WHITE, 1)]
    assert session.cursor.game.move_number == 1  # the search played in its own copy
    sent = [m["analysis"] for m in pages.messages]
    assert sent[0] == {"running": True, "key": view["key"], "visits": 0, "moves": []}
    assert sent[1]["visits"] == 5  # the first report goes out at once, later ones every 0.5 s
    assert sent[-1] == view and all(m["running"] for m in sent[:-2])
    assert sent[-2] == {**view, "resumable": False} or "resumable" not in sent[-2]
    assert len(sent) < 7


class Searches:
    """Makes `CountingSearch`es and keeps them, to see which one each job used."""

    def __init__(self) -> None:
        self.made: list[CountingSearch] = []

    def __call__(self) -> CountingSearch:
        self.made.append(CountingSearch())
        return self.made[-1]


def test_analysing_a_position_again_resumes_its_paused_search(sessions: Sessions) -> None:
    session, token = new_game(sessions, "E5")
    searches = Searches()
    pages = Pages()
    session.broadcast = pages  # type: ignore[method-assign]
    analysts = Analysts(searches)
    analyst = analysts.get(session)
    analyst.start_position(Budget(playouts=10), token)
    wait_until(lambda: (analyst.position or {}).get("resumable", False))
    assert analyst.view()["analysis"]["resumable"] is True
    analyst.start_position(Budget(playouts=10), token)  # the same search goes on
    wait_until(lambda: (analyst.position or {}).get("resumable", False))
    assert len(searches.made) == 1 and not searches.made[0].closed
    assert searches.made[0].searched == [(Color.WHITE, 1)] * 2
    session.play("C3", token)  # another position: a new search, the paused one freed
    analyst.start_position(Budget(playouts=10), token)
    assert searches.made[0].closed
    wait_until(lambda: (analyst.position or {}).get("resumable", False))
    assert len(searches.made) == 2
    analyst.start_graph(Budget(playouts=2), token)  # a graph frees it too, and keeps none
    wait_until(lambda: analyst.graph is not None and not analyst.graph["running"])
    assert searches.made[1].closed and all(s.closed for s in searches.made[2:])
    assert analyst.view()["analysis"]["resumable"] is False
    analysts.close()


def test_the_app_keeps_one_paused_search(sessions: Sessions) -> None:
    first, first_token = new_game(sessions, "E5")
    second, second_token = new_game(sessions, "D4")
    searches = Searches()
    pages = Pages()
    first.broadcast = pages  # type: ignore[method-assign]
    second.broadcast = Pages()  # type: ignore[method-assign]
    analysts = Analysts(searches)
    one, two = analysts.get(first), analysts.get(second)
    one.start_position(Budget(playouts=10), first_token)
    wait_until(lambda: (one.position or {}).get("resumable", False))
    two.start_position(Budget(playouts=10), second_token)
    wait_until(lambda: (two.position or {}).get("resumable", False))
    assert searches.made[0].closed and not searches.made[1].closed
    assert pages.messages[-1]["analysis"]["resumable"] is False  # the first game's page knows
    assert one.view()["analysis"]["resumable"] is False
    analysts.close()
    assert searches.made[1].closed


def test_the_built_in_search_resumed_adds_to_its_visits(sessions: Sessions) -> None:
    """With the real search: the second run on the same position starts from the first's
    tree, a run on another position from nothing."""
    from tengen.ai.mcts import MctsPlayer

    session, token = new_game(sessions, "E5", "C3")
    session.broadcast = Pages()  # type: ignore[method-assign]
    analysts = Analysts(lambda: MctsPlayer(seed=1, threads=1))
    analyst = analysts.get(session)

    def run() -> int:
        analyst.start_position(Budget(playouts=400), token)
        wait_until(lambda: (analyst.position or {}).get("resumable", False))
        return int((analyst.position or {})["visits"])

    first = run()
    second = run()
    assert first >= 350 and second >= first + 350, (first, second)
    session.play("G7", token)
    assert run() < second - 100
    analysts.close()


def test_stop_and_a_new_job_ends_the_old_one(sessions: Sessions) -> None:
    session, token = new_game(sessions)
    analysts, _ = analysts_for(session, CountingSearch())
    analyst = analysts.get(session)
    analyst.start_position(Budget(seconds=60), token)
    wait_until(lambda: (analyst.position or {}).get("visits", 0) >= 5)
    analyst.start_position(Budget(seconds=60), token)  # the first job ends before this starts
    wait_until(lambda: (analyst.position or {}).get("visits", 0) >= 5)
    started = time.monotonic()
    view = analyst.stop(token)
    assert time.monotonic() - started < 5
    assert view["analysis"]["running"] is False and view["analysis"]["visits"] >= 5
    with pytest.raises(Forbidden):
        analyst.stop(None)
    with pytest.raises(Forbidden):
        analyst.start_position(Budget(playouts=5), "not-a-token")


def test_a_move_stops_the_analysis_of_the_old_position(sessions: Sessions) -> None:
    session, token = new_game(sessions)
    analysts, _ = analysts_for(session, CountingSearch())
    analyst = analysts.get(session)
    analyst.start_position(Budget(seconds=60), token)
    wait_until(lambda: (analyst.position or {}).get("visits", 0) >= 5)
    session.play("C3", token)
    wait_until(lambda: analyst.position is not None and not analyst.position["running"])
    assert analyst.position["key"].startswith("black:")  # still about the old position
    analysts.close()


def test_win_rate_graph_of_the_current_line(sessions: Sessions) -> None:
    session, token = new_game(sessions, "E5", "C3", "G7")
    session.set_mode("review", token)
    session.navigate({"move": 1}, token)
    record = session.sgf()
    search = CountingSearch()
    analysts, pages = analysts_for(session, search)
    analyst = analysts.get(session)
    analyst.start_graph(Budget(playouts=5), token)
    wait_until(lambda: analyst.graph is not None and not analyst.graph["running"])
    graph = analyst.graph
    assert graph is not None and graph["total"] == 4
    assert [p["move"] for p in graph["points"]] == [0, 1, 2, 3]
    assert [p["black_winrate"] for p in graph["points"]] == pytest.approx([0.7, 0.3, 0.7, 0.3])
    assert [p["black_lead"] for p in graph["points"]] == [3.0, -3.0, 3.0, -3.0]
    black, white = Color.BLACK, Color.WHITE
    assert search.searched == [(black, 0), (white, 1), (black, 2), (white, 3)]
    assert [len(m["graph"]["points"]) for m in pages.messages] == [0, 1, 2, 3, 4, 4]
    assert session.cursor.move_number == 1
    # Saved in the record: Black's win rate in percent (SBKV) and lead (V) on each node.
    assert session.sgf() != record
    stored = sessions.store.load(session.id)
    assert stored is not None and stored.sgf == session.sgf()
    saved = parse(stored.sgf).games
    nodes = main_line(saved[0].root)
    assert [n.properties["SBKV"] for n in nodes] == [["70.00"], ["30.00"], ["70.00"], ["30.00"]]
    assert [float(n.properties["SBKS"][0]) for n in nodes] == [3.0, -3.0, 3.0, -3.0]
    # and each move's review in its comment, as `tengen analyze` writes it
    for node in nodes[1:]:
        assert str(node.get("C")).startswith("tengen analysis: tengen (built-in), 5 visits")
        del node.properties["C"]
    for node in nodes:  # else the record is as it was
        del node.properties["SBKV"], node.properties["SBKS"]
    assert serialise(saved) == serialise(parse(record).games)


def main_line(node: Node) -> list[Node]:
    line = [node]
    while node.children:
        node = node.children[0]
        line.append(node)
    return line


def test_the_saved_graph_comes_back_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    first = Sessions(Store(path), None, seed=1)
    session, token = new_game(first, "E5", "C3")
    analysts, _ = analysts_for(session, CountingSearch())
    analyst = analysts.get(session)
    analyst.start_graph(Budget(playouts=5), token)
    wait_until(lambda: analyst.graph is not None and not analyst.graph["running"])
    graph = analyst.graph
    analysts.close()
    first.close()
    again = Sessions(Store(path), None, seed=1).get(session.id)
    assert isinstance(again, GameSession)
    view = Analysts(CountingSearch).get(again).view()
    assert view["analysis"] is None
    assert view["graph"] is not None and graph is not None
    assert view["graph"]["total"] == graph["total"] == 3 and not view["graph"]["running"]
    numbers = ("move", "black_winrate", "black_lead")  # the record keeps these, not the lines
    for saved, found in zip(view["graph"]["points"], graph["points"], strict=True):
        assert {k: saved[k] for k in numbers} == pytest.approx(
            {k: found[k] for k in numbers}, abs=0.005
        )


def test_a_graph_written_by_sabaki_is_shown_and_bad_values_are_skipped(
    sessions: Sessions,
) -> None:
    record = (
        b"(;GM[1]FF[4]SZ[9]SBKV[50];B[ee]SBKV[61.5];W[cc]SBKV[oops];B[gg]SBKV[150]"
        b";W[dd]C[no value];B[ff]SBKV[40]V[-2.5])"
    )
    session = sessions.import_record(record, "sabaki.sgf")
    assert isinstance(session, GameSession)
    graph = Analysts(CountingSearch).get(session).view()["graph"]
    assert graph == {
        "running": False,
        "total": 6,
        "points": [
            {"move": 0, "black_winrate": 0.5, "black_lead": None},
            {"move": 1, "black_winrate": 0.615, "black_lead": None, "to_play": "white"},
            {"move": 5, "black_winrate": 0.4, "black_lead": -2.5, "to_play": "white"},
        ],
    }


def test_a_graph_ending_after_its_game_was_deleted_does_not_bring_it_back(
    sessions: Sessions,
) -> None:
    session, token = new_game(sessions, "E5", "C3")
    analysts, _ = analysts_for(session, CountingSearch())
    analyst = analysts.get(session)
    analyst.start_graph(Budget(playouts=2000), token)  # about 2 s a position
    wait_until(lambda: analyst.graph is not None and len(analyst.graph["points"]) > 0)
    sessions.delete(session.id, token)
    analysts.close()  # the job ends and saves what it found: into a deleted game
    assert sessions.store.load(session.id) is None


def test_a_failed_search_is_reported_not_raised(sessions: Sessions) -> None:
    session, token = new_game(sessions)
    analysts, _ = analysts_for(session, CountingSearch(fail=True))
    analyst = analysts.get(session)
    analyst.start_position(Budget(playouts=5), token)
    wait_until(lambda: (analyst.position or {}).get("error") is not None)
    assert analyst.position == {"running": False, "error": "RuntimeError: search broke"}


def test_closing_frees_every_search_and_gomoku_has_no_analysis(sessions: Sessions) -> None:
    session, token = new_game(sessions)
    searches = Searches()
    analysts = Analysts(searches)
    analyst = analysts.get(session)
    assert analysts.get(session) is analyst
    analyst.start_position(Budget(playouts=5), token)
    wait_until(lambda: (analyst.position or {}).get("resumable", False))
    assert not searches.made[0].closed  # paused, kept
    analyst.start_position(Budget(seconds=60), token)
    assert len(searches.made) == 1
    analysts.close()
    assert searches.made[0].closed and analyst.position is not None
    assert not analyst.position["running"]
    gomoku = sessions.create(NewGame(game="gomoku"))
    with pytest.raises(Conflict, match="analysis is for Go games"):
        analysts.get(gomoku)


@pytest.mark.parametrize(
    ("body", "budget"),
    [
        (b"", Budget(seconds=15.0)),
        (b"{}", Budget(seconds=15.0)),
        (b'{"seconds": 2}', Budget(seconds=2.0)),
        (b'{"playouts": 50}', Budget(playouts=50)),
        (b'{"seconds": 0.5, "playouts": 50}', Budget(0.5, 50)),
    ],
)
def test_budget_from_body(body: bytes, budget: Budget) -> None:
    assert _budget(schemas.parse(schemas.Analysis, body), Budget(seconds=15.0)) == budget


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"seconds": 0}', "'seconds': Input should be greater than 0"),
        (b'{"seconds": 601}', "'seconds': Input should be less than or equal to 600"),
        (b'{"seconds": "5"}', "'seconds': Input should be a valid number"),
        (b'{"seconds": true}', "'seconds': Input should be a valid number"),
        (b'{"seconds": NaN}', "'seconds': Input should be a finite number"),
        (b'{"playouts": 2.5}', "'playouts': Input should be a valid integer"),
        (b'{"playouts": 0}', "'playouts': Input should be greater than or equal to 1"),
        (b'{"visits": 5}', "unknown option 'visits'"),
    ],
)
def test_budget_refusals(body: bytes, message: str) -> None:
    with pytest.raises(BadRequest, match=message):
        schemas.parse(schemas.Analysis, body)
