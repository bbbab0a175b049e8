"""A game's metadata (`web.meta.SessionMeta`): stored as JSON with the keys older versions
wrote, read back from what an older or newer server stored, nothing lost on the way."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from starlette.testclient import TestClient

from tengen.ai.levels import DEFAULT_LEVEL
from tengen.web import Config, create_app
from tengen.web.meta import SessionMeta
from tengen.web.store import Store, StoredGame

# What a session of an earlier version stored for a game in play (the keys it wrote, no more).
OLD = {
    "mode": "play",
    "seats": {
        "black": {"kind": "human", "token": "t1"},
        "white": {"kind": "random", "token": "t2"},
    },
    "dead": None,
    "resigned": None,
    "warnings": [],
    "node": 2,
    "version": 3,
    "from": {"game": "abc", "move": 4},
}


def test_an_older_servers_metadata_reads_and_writes_back_the_same() -> None:
    meta = SessionMeta.from_json({**OLD, "future_key": [1, 2]})
    assert (meta.mode, meta.node, meta.version, meta.level) == ("play", 2, 3, DEFAULT_LEVEL)
    assert meta.played_from == {"game": "abc", "move": 4} and meta.dead is None
    written = meta.to_json()
    assert {k: written[k] for k in OLD} == OLD  # the same keys, the same values
    assert written["future_key"] == [1, 2]  # a newer server's key is kept
    assert SessionMeta.from_json(json.loads(json.dumps(written))) == meta


def test_nulls_where_lists_are_wanted_read_as_empty() -> None:
    meta = SessionMeta.from_json({"seki": None, "accepted": None, "redo": None})
    assert (meta.seki, meta.accepted, meta.redo) == ([], [], [])


@given(st.dictionaries(st.sampled_from(["mode", "node", "level", "x", "y"]), st.integers()))
def test_unknown_keys_round_trip(data: dict[str, Any]) -> None:
    again = SessionMeta.from_json(SessionMeta.from_json(data).to_json()).to_json()
    assert {k: again[k] for k in data} == data


def test_a_game_stored_by_an_older_server_opens(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    store = Store(db)
    store.save(StoredGame("old1", "Old", "play", 1.0, 1.0, "(;GM[1]SZ[9];B[ee];W[cc])", OLD))
    store.close()
    with TestClient(create_app(Config(db=db))) as client:
        state = client.get("/api/games/old1").json()
        assert state["mode"] == "play" and state["move_number"] == 2
        assert state["seats"] == {"black": "human", "white": "random"}
        moved = client.post(
            "/api/games/old1/move", json={"vertex": "G3"}, headers={"X-Token": "t1"}
        )
        assert moved.status_code == 200, moved.text
        assert moved.json()["move_number"] == 4  # the random player answered
