"""Analysis engines set in the app's settings (``/api/engines``): kept in the games file,
used by the analysis as the command line's are, and changed only from the server's machine.

The engine is tengen's own GTP engine run through a script in a folder of the test's own,
so the folder setting is what makes it start. The refusals are the ones a stranger meets:
another machine, a page of another site (its Origin), a name of another site resolving here
(its Host), a server started with ``--no-engine-settings``, and settings that cannot work.
"""

from __future__ import annotations

import os
import shlex
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from tengen.web import Config, create_app
from tengen.web.engines import check_engine, settings_allowed
from tengen.web.seats import BadRequest
from tests.web.conftest import Games
from tests.web.test_api_analysis import RECORD, wait_for

HERE = "http://127.0.0.1:8000"


def local(db: Path, **options: Any) -> TestClient:
    """A client on the server's machine, as a browser at 127.0.0.1 is."""
    app = create_app(Config(db=db, **options))
    return TestClient(app, base_url=HERE, client=("127.0.0.1", 50000))


@pytest.fixture
def engine_dir(tmp_path: Path) -> Path:
    """A folder with ``engine.sh``, which runs tengen's GTP engine."""
    folder = tmp_path / "engines"
    folder.mkdir()
    script = folder / "engine.sh"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m tengen gtp --seed 1\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return folder


@pytest.fixture
def here(db: Path) -> Iterator[TestClient]:
    with local(db, analysis_engines={"fixed": "gnugo --mode gtp"}) as client:
        yield client


def test_an_engine_set_here_analyses_and_is_kept(
    here: TestClient, db: Path, engine_dir: Path
) -> None:
    answer = here.post(
        "/api/engines", json={"name": "mine", "command": "./engine.sh", "cwd": str(engine_dir)}
    )
    assert answer.status_code == 200, answer.text
    mine = {"name": "mine", "command": "./engine.sh", "cwd": str(engine_dir), "source": "settings"}
    fixed = {"name": "fixed", "command": "gnugo --mode gtp", "cwd": "", "source": "command line"}
    assert answer.json() == {"engines": [fixed, mine], "editable": True}
    assert here.get("/api/config").json()["analysis_engines"] == ["builtin", "fixed", "mine"]
    games = Games(here)
    game = here.post("/api/games/import", content=RECORD).json()
    token = game["tokens"]["black"]
    games.post(game["id"], "nav", token, to="end")
    started = games.post(game["id"], "analysis", token, playouts=100, engine="mine")
    assert started.status_code == 200, started.text
    view = wait_for(here, game["id"], "analysis")
    assert "error" not in view and view["engine"] == "mine" and view["moves"], view
    with local(db) as again:  # a restart: the settings' engine is still there
        assert again.get("/api/engines").json()["engines"] == [mine]


def test_changing_and_removing_engines(here: TestClient, db: Path, engine_dir: Path) -> None:
    script = str(engine_dir / "engine.sh")
    assert here.post("/api/engines", json={"name": "a", "command": script}).status_code == 200
    changed = here.post("/api/engines", json={"name": "a", "command": f"{script} --x"})
    commands = [e["command"] for e in changed.json()["engines"]]
    assert commands == ["gnugo --mode gtp", f"{script} --x"]
    fixed = here.post("/api/engines", json={"name": "fixed", "command": script})
    assert fixed.status_code == 409 and "command line" in fixed.json()["error"]
    assert here.delete("/api/engines/fixed").status_code == 409
    assert here.delete("/api/engines/nothing").status_code == 404
    removed = here.delete("/api/engines/a")
    assert removed.status_code == 200
    assert [e["name"] for e in removed.json()["engines"]] == ["fixed"]
    with local(db) as again:
        assert again.get("/api/engines").json()["engines"] == []


@pytest.mark.parametrize(
    ("client", "headers", "options"),
    [
        (("192.168.1.20", 50000), {}, {}),  # another machine on the network
        (("127.0.0.1", 50000), {"origin": "http://evil.example"}, {}),  # another site's page
        (("127.0.0.1", 50000), {"host": "evil.example:8000"}, {}),  # a name rebound to here
        (("127.0.0.1", 50000), {"origin": "null"}, {}),
        (("127.0.0.1", 50000), {}, {"engine_settings": False}),  # --no-engine-settings
    ],
)
def test_settings_are_refused_but_from_this_machine(
    db: Path, engine_dir: Path, client: tuple[str, int], headers: dict[str, str], options: Any
) -> None:
    app = create_app(Config(db=db, analysis_engines={"fixed": "gnugo --mode gtp"}, **options))
    with TestClient(app, base_url=HERE, client=client, headers=headers) as stranger:
        body = {"name": "x", "command": str(engine_dir / "engine.sh")}
        refused = stranger.post("/api/engines", json=body)
        assert refused.status_code == 403 and "server's machine" in refused.json()["error"]
        assert stranger.delete("/api/engines/fixed").status_code == 403
        seen = stranger.get("/api/engines").json()  # the names only: no command lines
        assert seen == {"engines": [{"name": "fixed", "source": "command line"}], "editable": False}
    assert create_app(Config(db=db)).state.analysts.engines.names == ["builtin"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"name": "builtin", "command": "sh"}, "name:"),
        ({"name": "a b", "command": "sh"}, "name:"),
        ({"name": "a", "command": "no-such-program --gtp"}, "no program 'no-such-program'"),
        ({"name": "a", "command": "./engine.sh"}, "no program './engine.sh'"),  # not from here
        ({"name": "a", "command": "sh 'unclosed"}, "command: No closing quotation"),
        ({"name": "a", "command": "   "}, "command: empty"),
        ({"name": "a", "command": "sh", "cwd": "relative/dir"}, "cwd:"),
        ({"name": "a", "command": "sh", "cwd": "/no/such/folder"}, "cwd:"),
        ({"name": "a", "command": "sh", "extra": 1}, "extra"),
        ({"name": "a"}, "command"),
    ],
)
def test_settings_that_cannot_work_are_refused_with_the_field(
    here: TestClient, body: dict[str, Any], words: str
) -> None:
    answer = here.post("/api/engines", json=body)
    assert answer.status_code == 400, answer.text
    assert words in answer.json()["error"], answer.json()
    assert [e["name"] for e in here.get("/api/engines").json()["engines"]] == ["fixed"]


@settings(max_examples=300, deadline=None)
@given(name=st.text(max_size=50), command=st.text(max_size=80), cwd=st.text(max_size=30))
def test_any_setting_is_taken_or_refused_by_name(name: str, command: str, cwd: str) -> None:
    """Whatever a stranger types, the check runs nothing and answers BadRequest or nothing."""
    try:
        check_engine(name, command, cwd)
    except BadRequest as err:
        assert err.message.split(":")[0] in ("name", "command", "cwd")


@settings(max_examples=300, deadline=None)
@given(
    client=st.one_of(st.none(), st.text(max_size=40), st.ip_addresses().map(str)),
    host=st.one_of(st.none(), st.text(max_size=40), st.sampled_from(["127.0.0.1:1", "[::1]:2"])),
    origin=st.one_of(st.none(), st.text(max_size=40)),
)
def test_who_may_set_engines_is_decided_for_any_headers(
    client: str | None, host: str | None, origin: str | None
) -> None:
    allowed = settings_allowed(client, host, origin)
    if allowed:
        assert client is not None and host is not None
        assert host.rsplit(":", 1)[0] in ("localhost", "127.0.0.1", "[::1]", "::1")
        assert origin is None or origin.endswith(host)


def test_the_settings_run_in_the_folder_given(engine_dir: Path) -> None:
    check_engine("a", "./engine.sh", str(engine_dir))  # found from the folder
    with pytest.raises(BadRequest, match="no program"):
        check_engine("a", "./engine.sh", os.path.dirname(engine_dir))


def test_katago_added_in_the_settings_finds_the_abandoned_group(db: Path, tmp_path: Path) -> None:
    """KataGo's JSON engine, added as a person would (a command and its folder), draws the
    graph of a game where Black abandons a 7-stone group: that move is Black's biggest loss.
    Skips without a KataGo (``make katago``)."""
    from tests.analysis.katago import katago_command

    command = katago_command("analysis", tmp_path)
    record = Path(__file__).parents[1] / "analysis" / "data" / "abandoned_group_end.sgf"
    with local(db) as here:
        body = {"name": "katago", "command": shlex.join(command), "cwd": str(tmp_path)}
        added = here.post("/api/engines", json=body)
        assert added.status_code == 200, added.text
        opened = here.post("/api/games/import", content=record.read_bytes()).json()
        game, token = opened["id"], opened["tokens"]["black"]
        games = Games(here)
        games.post(game, "nav", token, to="end")
        started = games.post(game, "graph", token, playouts=50, engine="katago")
        assert started.status_code == 200, started.text
        graph = wait_for(here, game, "graph", timeout=900)
        saved = here.get(f"/api/games/{game}/sgf").text
    assert "error" not in graph, graph
    assert "katago" in saved  # the review block names the engine
    points = {p["move"]: p for p in graph["points"]}
    drops = {
        move: points[move - 1]["black_lead"] - points[move]["black_lead"]
        for move in points
        if move - 1 in points and points[move - 1]["to_play"] == "black"
    }
    worst = max(drops, key=lambda move: drops[move])
    assert worst == 11 and drops[worst] > 8, drops  # J9: the group left in atari


def test_a_command_line_engine_runs_in_its_folder(db: Path, engine_dir: Path) -> None:
    options = {"analysis_engines": {"rel": "./engine.sh"},
               "analysis_engine_dirs": {"rel": str(engine_dir)}}  # fmt: skip
    with local(db, **options) as here:
        listed = here.get("/api/engines").json()["engines"]
        assert listed == [
            {
                "name": "rel",
                "command": "./engine.sh",
                "cwd": str(engine_dir),
                "source": "command line",
            }
        ]
        opened = here.post("/api/games/import", content=RECORD).json()
        games = Games(here)
        games.post(opened["id"], "nav", opened["tokens"]["black"], to="end")
        started = games.post(
            opened["id"], "analysis", opened["tokens"]["black"], playouts=50, engine="rel"
        )
        assert started.status_code == 200, started.text
        view = wait_for(here, opened["id"], "analysis")
        assert "error" not in view and view["moves"], view


def test_serve_takes_an_engines_folder_and_refuses_a_bad_one(
    monkeypatch: pytest.MonkeyPatch, engine_dir: Path, tmp_path: Path
) -> None:
    from tengen.web import app as web_app

    made: list[Config] = []
    monkeypatch.setattr(web_app, "create_app", lambda config: made.append(config))
    monkeypatch.setattr(web_app.uvicorn, "run", lambda *args, **kwargs: None)
    db = ["--db", str(tmp_path / "g.sqlite3")]
    engine = ["--analysis-engine", "rel=./engine.sh"]
    assert web_app.serve([*db, *engine, "--analysis-engine-dir", f"rel={engine_dir}"]) == 0
    assert made[0].analysis_engine_dirs == {"rel": str(engine_dir)}
    for bad in (f"other={engine_dir}", "rel=/no/such/folder"):
        with pytest.raises(SystemExit):
            web_app.serve([*db, *engine, "--analysis-engine-dir", bad])
