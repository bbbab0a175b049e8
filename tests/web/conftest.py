"""Fixtures for the web app: a fresh app on a temporary database, its test client, a game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tengen.web import Config, create_app


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A games file of the test's own."""
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    """A client of a fresh app (seeded built-in player) on the test's database."""
    with TestClient(create_app(Config(db=db, seed=7))) as c:
        yield c


class Games:
    """Helpers to start games and act in them through the API."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

    def new(self, **options: Any) -> tuple[str, dict[str, str]]:
        """Start a game; return its id and the tokens of the seats this screen holds."""
        response = self.client.post("/api/games", json={"size": 9, **options})
        assert response.status_code == 201, response.text
        data = response.json()
        return data["id"], data["tokens"]

    def post(self, game: str, action: str, token: str | None, **body: Any) -> Any:
        """POST an action; the response (status not checked)."""
        headers = {"X-Token": token} if token else {}
        return self.client.post(f"/api/games/{game}/{action}", json=body, headers=headers)

    def play(self, game: str, token: str, *vertices: str) -> dict[str, Any]:
        """Play moves that must be legal; the last state."""
        state: dict[str, Any] = {}
        for v in vertices:
            response = self.post(game, "move", token, vertex=v)
            assert response.status_code == 200, f"{v}: {response.text}"
            state = response.json()
        return state


@pytest.fixture
def games(client: TestClient) -> Games:
    """Game helpers on the test client."""
    return Games(client)
