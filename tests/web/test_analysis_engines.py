"""Analysis engines in the app (``--analysis-engine NAME=CMD``): the position and the graph
through an engine's own protocol, and engines that cannot analyse, crash or print garbage.

The engine here is tengen's own GTP engine (``tengen gtp``, kata-analyze) driven over its
pipe as KataGo or Leela would be; GNU Go (a GTP engine without analysis) must be refused with
its name. KataGo itself is in tests/analysis/test_engines.py when built (``make katago``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tengen.sgf import parse
from tengen.web import Config, create_app
from tests.web.conftest import Games
from tests.web.test_api_analysis import RECORD, wait_for

TENGEN_GTP = f"{sys.executable} -m tengen gtp --seed 1"
CRASH = f"{sys.executable} -c 'import sys; sys.exit(3)'"
GARBAGE = f"{sys.executable} -c 'print(\"no protocol here\", flush=True); input()'"


@pytest.fixture
def engines(db: Path, gnugo: str) -> Iterator[TestClient]:
    commands = {"tengen-gtp": TENGEN_GTP, "gnugo": f"{gnugo} --mode gtp", "crash": CRASH,
                "garbage": GARBAGE}  # fmt: skip
    with TestClient(create_app(Config(db=db, analysis_engines=commands))) as client:
        yield client


def _record(client: TestClient) -> tuple[str, str]:
    data = client.post("/api/games/import?name=r.sgf", content=RECORD).json()
    return data["id"], data["tokens"]["black"]


def test_the_engines_are_offered(engines: TestClient) -> None:
    names = engines.get("/api/config").json()["analysis_engines"]
    assert names == ["builtin", "tengen-gtp", "gnugo", "crash", "garbage"]


def test_a_position_and_the_graph_through_a_gtp_engine(engines: TestClient) -> None:
    games = Games(engines)
    game, token = _record(engines)
    games.post(game, "nav", token, to="end")
    started = games.post(game, "analysis", token, playouts=200, engine="tengen-gtp")
    assert started.status_code == 200, started.text
    view = wait_for(engines, game, "analysis")
    assert "error" not in view, view
    assert view["engine"] == "tengen-gtp" and view["visits"] >= 100 and view["moves"]
    assert view["to_play"] == "black"  # after White's sixth move
    games.post(game, "graph", token, playouts=50, engine="tengen-gtp")
    graph = wait_for(engines, game, "graph")
    assert "error" not in graph, graph
    assert [p["move"] for p in graph["points"]] == list(range(7))
    assert [p["to_play"] for p in graph["points"]] == ["black", "white"] * 3 + ["black"]
    assert all(p["best"] and p["pv"][0] == p["best"] for p in graph["points"])  # for mistakes
    tree = parse(engines.get(f"/api/games/{game}/sgf").text).games[0]
    saved = [float(node.get_raw("SBKV")[0]) for node in tree.main_line()]
    assert len(saved) == 7 and all(0 <= rate <= 100 for rate in saved)  # Sabaki's property


@pytest.mark.parametrize(
    ("engine", "words"),
    [
        ("gnugo", "analy"),  # GNU Go plays but has no analysis command
        ("crash", "exited with status 3"),
        ("garbage", "does not answer gtp"),
    ],
)
def test_an_engine_that_cannot_analyse_says_so(
    engines: TestClient, engine: str, words: str
) -> None:
    games = Games(engines)
    game, token = _record(engines)
    games.post(game, "analysis", token, playouts=50, engine=engine)
    view: dict[str, Any] = wait_for(engines, game, "analysis")
    assert "error" in view and view["engine"] == engine
    assert words in view["error"].lower(), view["error"]
    again = games.post(game, "analysis", token, playouts=50)  # the built-in still works
    assert again.status_code == 200
    assert "error" not in wait_for(engines, game, "analysis")


def test_an_unknown_engine_is_refused(engines: TestClient) -> None:
    games = Games(engines)
    game, token = _record(engines)
    response = games.post(game, "analysis", token, engine="leela")
    assert response.status_code == 400
    assert "no analysis engine 'leela' (there are: builtin, tengen-gtp" in response.json()["error"]
