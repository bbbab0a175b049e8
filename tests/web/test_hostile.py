"""Hostile and careless input to the app (issue 16): each answer is a 4xx with a JSON error
(or a websocket close with a reason) and the server goes on serving; nothing unreadable is
stored. The worst cases run against a real uvicorn server as well as the test client."""

from __future__ import annotations

import asyncio
import json
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from tengen.sgf import parse
from tengen.web import Config, create_app
from tengen.web.app import WS_MAX_BYTES
from tengen.web.routes import ENDPOINTS, MAX_JSON_BYTES
from tests.web.conftest import Games

DEEP = b"[" * 100_000 + b"]" * 100_000


def _ok_json_error(response: Any, status: int) -> None:
    assert response.status_code == status, response.text[:200]
    assert response.headers["content-type"] == "application/json"
    assert response.json()["error"]


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (b"(;GM[1]FF[4]SZ[9];B[zz])", "move 1: B[zz]: off the 9x9 board"),
        (b"(;GM[1]SZ[9];B[aa];W[jj])", "move 2: W[jj]: off the 9x9 board"),
        (b"(;GM[1]SZ[9];B[aa](;W[bb])(;W[ab];B[sa]))", "move 3, path 0.1.0: B[sa]: off the"),
        (b"(;GM[1]SZ[9]AB[aa:jj])", "root: AB[aa:jj]: off the 9x9 board"),
        (b"(;GM[1]SZ[9]HA[0x10];B[aa])", "root: HA[0x10]: invalid number: '0x10'"),
        (b"(;GM[abc]SZ[9];B[aa])", "root: GM[abc]: invalid number: 'abc'"),
        (b"(;GM[1]SZ[9];B[aa]MN[abc])", "move 1: MN[abc]: invalid number: 'abc'"),
        (b"(;GM[1]SZ[9]KM[nan])", "root: KM[nan]: invalid real"),
        (b"(;GM[1]SZ[9]KM[" + b"9" * 400 + b"])", "is not a komi for 9x9"),
        (b"(;GM[1]SZ[9]HA[500])", "root: HA[500] is not a stone count for 9x9"),
        (b"(;GM[4]SZ[15];B[hh];W[zz])", "move 2: W[zz]: off the 15x15 board"),
        (b"(;GM[1]SZ[52]" + b"AB[aa:ZZ]" * 400 + b")", "over 1,000,000 points"),
    ],
)
def test_uploads_are_checked_at_the_door(client: TestClient, record: bytes, message: str) -> None:
    response = client.post("/api/games/import", content=record)
    _ok_json_error(response, 400)
    assert message in response.json()["error"]
    assert client.get("/api/games").json()["total"] == 0  # nothing was stored


def test_real_records_still_open(client: TestClient) -> None:
    """The check refuses what the app cannot use, not what real files bend: Fox's KM[750],
    PL[1], a timing TM[5:00:00], an application AP[GoGui]."""
    record = b"(;GM[1]SZ[19]KM[750]TM[5:00:00(5x1:00)]AP[GoGui];PL[1]AB[dd];B[pd];W[dp])"
    response = client.post("/api/games/import", content=record)
    assert response.status_code == 201, response.text
    assert response.json()["state"]["komi"] == 7.5


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"size": 9, "komi": NaN}', "'komi': Input should be a finite number"),
        (b'{"size": 9, "komi": Infinity}', "'komi': Input should be a finite number"),
        (b'{"size": 9, "komi": -Infinity}', "'komi': Input should be a finite number"),
        (b'{"size": 9, "komi": 1e400}', "'komi': Input should be a finite number"),
        (b'{"size": 9, "komi": 1e308}', "komi"),
        (b'{"size": 9, "komi": 6.3}', "'komi': Input should be a multiple of 0.5"),
        (b'{"size": 9, "komi": 81.5}', "komi must be within ±81 on 9x9"),
        (b'{"size": 9, "komi": -82}', "komi must be within ±81 on 9x9"),
        (b'{"size": 9, "handicap": -1}', "'handicap': Input should be greater than or equal"),
        (b'{"size": 9, "handicap": 10}', "'handicap': Input should be less than or equal"),
        (b'{"size": 1e400}', "'size': Input should be a valid integer"),
        (b'{"size": ' + b"9" * 5000 + b"}", "malformed JSON: number out of range"),
        (b'{"game": "gomoku", "size": 4}', "a Gomoku board size must be 5 to 25, not 4"),
        (b'{"title": "\\ud800"}', "malformed JSON"),
        (b'{"title": "' + b"x" * 201 + b'"}', "'title': String should have at most 200"),
        (DEEP, "malformed JSON: recursion limit exceeded"),
        (b'{"title": ' + DEEP + b"}", "malformed JSON: recursion limit exceeded"),
        (b"\xff\xfe{}", "malformed JSON"),
    ],
)
def test_numbers_and_text_are_checked_at_the_boundary(
    client: TestClient, body: bytes, message: str
) -> None:
    response = client.post("/api/games", content=body)
    _ok_json_error(response, 400)
    assert message in response.json()["error"]
    assert client.get("/api/config").status_code == 200


def test_komi_at_the_limits_is_accepted(games: Games) -> None:
    for komi in (81, -81, 0, 0.5, -6.5):
        game, _ = games.new(komi=komi)
        assert games.client.get(f"/api/games/{game}").json()["komi"] == komi


def test_comments_and_tokens(games: Games) -> None:
    game, tokens = games.new()
    token = tokens["black"]
    games.post(game, "mode", token, mode="review")
    for body in (b'{"comment": "\\udfff"}', b'{"comment": "' + b"c" * 20_001 + b'"}'):
        response = games.client.post(
            f"/api/games/{game}/comment", content=body, headers={"X-Token": token}
        )
        _ok_json_error(response, 400)
    for bad in ("é".encode("latin-1"), "\u2603".encode(), b"\x7f" * 300):
        response = games.client.post(f"/api/games/{game}/pass", headers={"X-Token": bad})
        _ok_json_error(response, 403)
    assert games.post(game, "comment", token, comment="\u2603 fine").status_code == 200
    assert "\u2603 fine" in games.client.get(f"/api/games/{game}/sgf").text


def test_json_bodies_over_a_megabyte_are_413(client: TestClient, games: Games) -> None:
    big = b'{"title": "' + b"x" * MAX_JSON_BYTES + b'"}'
    _ok_json_error(client.post("/api/games", content=big), 413)

    def chunks() -> Iterator[bytes]:  # no Content-Length: refused while reading
        yield b'{"title": "'
        for _ in range(2 * MAX_JSON_BYTES // 65536):
            yield b"x" * 65536
        yield b'"}'

    _ok_json_error(client.post("/api/games", content=chunks()), 413)
    game, tokens = games.new()
    response = client.post(
        f"/api/games/{game}/comment", content=big, headers={"X-Token": tokens["black"]}
    )
    _ok_json_error(response, 413)


def test_uploads_over_the_cap_are_413(db: Path) -> None:
    with TestClient(create_app(Config(db=db, max_upload=1000))) as client:
        record = b"(;GM[1]SZ[19]C[" + b"x" * 1000 + b"])"
        _ok_json_error(client.post("/api/games/import", content=record), 413)
        assert client.post("/api/games/import", content=record[-900:]).status_code == 400
        assert client.post("/api/games/import", content=b"(;SZ[9];B[ee])").status_code == 201


def test_the_game_list_pages_from_sql(client: TestClient, games: Games) -> None:
    made = [games.new(title=f"game {i}")[0] for i in range(7)]
    first = client.get("/api/games?limit=3").json()
    assert (first["total"], first["limit"], first["offset"]) == (7, 3, 0)
    pages = [client.get(f"/api/games?limit=3&offset={o}").json()["games"] for o in (0, 3, 6)]
    listed = [g["id"] for page in pages for g in page]
    assert listed == made[::-1]  # newest change first, each once
    assert pages[0][0] == {
        "id": made[-1],
        "title": "game 6",
        "mode": "play",
        "game": "go",
        "created": pages[0][0]["created"],
        "updated": pages[0][0]["updated"],
        "seats": {"black": "human", "white": "human"},
    }
    for query in ("limit=0", "limit=501", "offset=-1", "limit=x"):
        _ok_json_error(client.get(f"/api/games?{query}"), 400)


def test_the_openapi_document_covers_every_endpoint(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.1")
    served = {(e.method.lower(), e.path) for e in ENDPOINTS}
    documented = {(m, p) for p, ops in doc["paths"].items() for m in ops}
    assert documented == served
    new_game = doc["components"]["schemas"]["NewGame"]
    assert new_game["additionalProperties"] is False
    assert new_game["properties"]["komi"]["anyOf"][0]["multipleOf"] == 0.5


# -- a real server ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`python -m tengen.web` (uvicorn) on a free loopback port; its base URL."""
    db = tmp_path_factory.mktemp("hostile") / "games.sqlite3"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    argv = [sys.executable, "-m", "tengen.web", "--port", str(port), "--db", str(db)]
    process = subprocess.Popen([*argv, "--max-upload-mb", "0.01"], stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/config", timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def _raw(url: str, request: bytes) -> tuple[int, bytes]:
    """Send raw HTTP/1.1 bytes (what no client library lets through); status and body.

    A body refused early (413) may be cut off: the answer is read all the same."""
    host, port = url.removeprefix("http://").split(":")
    data = b""
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        for start in range(0, len(request), 65536):
            try:
                s.sendall(request[start : start + 65536])
            except (BrokenPipeError, ConnectionResetError):
                break
        try:
            while chunk := s.recv(65536):
                data += chunk
        except ConnectionResetError:
            pass
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def _post(path: str, body: bytes, headers: bytes = b"") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n".encode()
        + headers
        + f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body
    )


def test_a_real_server_answers_hostile_requests_with_4xx(server: str) -> None:
    status, body = _raw(server, _post("/api/games", b'{"size": 9, "white": "remote"}'))
    assert status == 201
    game = json.loads(body)["id"]
    for request, expected in [
        (_post(f"/api/games/{game}/pass", b"{}", b"X-Token: \xe9\xff\xc3\xa9\r\n"), 403),
        (_post("/api/games", DEEP), 400),
        (_post("/api/games", b'{"title": "\\ud800"}'), 400),
        (_post("/api/games", b'{"size": 9, "komi": NaN}'), 400),
        (_post("/api/games/import", b"(;GM[1]SZ[9];B[zz])"), 400),
        (_post("/api/games/import", b"(;GM[1]SZ[9]HA[0x10])"), 400),
        (_post("/api/games/import", b"(;C[" + b"x" * 20_000 + b"])"), 413),
        (_post("/api/games", b'{"title": "' + b"x" * (MAX_JSON_BYTES + 1) + b'"}'), 413),
    ]:
        status, body = _raw(server, request)
        assert status == expected, body[:200]
        assert json.loads(body)["error"]
    with urllib.request.urlopen(f"{server}/api/games/{game}") as still:
        assert json.loads(still.read())["id"] == game


def test_a_real_server_closes_a_binary_websocket_frame_with_a_reason(server: str) -> None:
    _, body = _raw(server, _post("/api/games", b'{"size": 9}'))
    game = json.loads(body)["id"]
    ws_url = server.replace("http://", "ws://") + f"/api/games/{game}/ws"

    async def talk() -> tuple[dict[str, Any], int | None, str | None]:
        async with websockets.connect(ws_url) as ws:
            await ws.recv()
            await ws.send("hello")
            answer = json.loads(await ws.recv())
            await ws.send(b"\x00\x01\x02")
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None
            return answer, closed.value.rcvd.code, closed.value.rcvd.reason

    async def flood() -> int | None:
        async with websockets.connect(ws_url) as ws:
            await ws.recv()
            await ws.send("x" * (WS_MAX_BYTES + 1))
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            return None if closed.value.rcvd is None else closed.value.rcvd.code

    answer, code, reason = asyncio.run(talk())
    assert "only sends game states" in answer["error"]
    assert (code, reason) == (1003, "binary frames are not accepted")
    assert asyncio.run(flood()) == 1009  # a frame over `tengen serve`'s cap
    with urllib.request.urlopen(f"{server}/api/games/{game}") as still:
        assert json.loads(still.read())["id"] == game


def test_stored_records_read_back(client: TestClient) -> None:
    """Every imported record is stored as text that parses back to the same game."""
    record = b"(;GM[1]SZ[9]C[\xe2\x98\x83];B[ee]C[a\\]b];W[dd])"
    game = client.post("/api/games/import", content=record).json()["id"]
    text = client.get(f"/api/games/{game}/sgf").text
    assert len(list(parse(text).games[0].nodes())) == 3


# -- any record either opens fully or is refused at the door -------------------------------

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_VALUES = st.one_of(
    st.text(_LETTERS, min_size=2, max_size=2),
    st.sampled_from(["", "tt", "aa:cc", "ss:aa", "0x10", "-1", "7.5", "1e9", "B", "W", "1"]),
    st.integers(-5, 600).map(str),
    st.text("ab:]\\x ", max_size=5),
)
_IDENTS = st.sampled_from(
    ["B", "W", "AB", "AW", "AE", "MN", "PL", "HA", "KM", "C", "LB", "TR", "SZ", "GM", "TB", "V"]
)
_NODE = st.lists(st.tuples(_IDENTS, st.lists(_VALUES, min_size=1, max_size=3)), max_size=4)


def _sgf(root: list[tuple[str, list[str]]], line: list[Any], branch: list[Any]) -> bytes:
    def node(props: list[tuple[str, list[str]]]) -> str:
        return ";" + "".join(k + "".join(f"[{v}]" for v in vs) for k, vs in props)

    main = "".join(node(n) for n in line)
    side = "".join(node(n) for n in branch)
    return f"({node(root)}{main}({node([])}{side})({node([])}))".encode()


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    size=st.sampled_from(["9", "5:7", "19", "1", "26", "52"]),
    game=st.sampled_from(["1", "4"]),
    root=_NODE,
    line=st.lists(_NODE, max_size=6),
    branch=st.lists(_NODE, max_size=3),
)
def test_any_record_opens_everywhere_or_is_refused(
    tmp_path: Path, size: str, game: str, root: Any, line: Any, branch: Any
) -> None:
    record = _sgf([("GM", [game]), ("SZ", [size]), *root], line, branch)
    with TestClient(create_app(Config(db=tmp_path / "games.sqlite3"))) as client:
        response = client.post("/api/games/import", content=record)
        assert response.status_code in (201, 400), response.text
        if response.status_code == 400:
            return
        data = response.json()
        game_id, token = data["id"], data["tokens"]["black"]
        nodes = len(data["state"]["tree"]["nodes"])
        for index in range(nodes):
            moved = client.post(
                f"/api/games/{game_id}/nav", json={"node": index}, headers={"X-Token": token}
            )
            assert moved.status_code in (200, 409), moved.text
        assert client.get(f"/api/games/{game_id}/sgf").status_code == 200
        assert client.get(f"/api/games/{game_id}/position.svg").status_code in (200, 409)
        client.app.state.sessions._open.clear()  # type: ignore[attr-defined]  # read it back
        assert client.get(f"/api/games/{game_id}").status_code == 200


# -- a game stored before the checks at the door -------------------------------------------


@pytest.mark.parametrize(
    "record",
    [
        "(;GM[1]FF[4]SZ[9];B[ee];W[zz])",  # off the board
        "(;GM[1]FF[4]SZ[9];B[ee]MN[abc];W[dd])",  # a badly typed move number
        "(;GM[1]FF[4]SZ[9]HA[0x10];B[ee])",  # a badly typed handicap
        "(;GM[1]FF[4]SZ[99];B[aa])",  # a size the core does not support
        "(;GM[abc];B[aa])",  # a badly typed game
        "(;GM[4]SZ[30];B[aa])",  # a Gomoku board wider than the app names
    ],
)
def test_a_stored_game_that_cannot_be_loaded_answers_409(db: Path, record: str) -> None:
    """A game stored by an older version that today's checks would refuse (or a database
    edited by hand) answers 409 with what is wrong, never 500, and the server goes on."""
    with TestClient(create_app(Config(db=db, seed=7))) as first:
        game = first.post("/api/games", json={"size": 9}).json()["id"]
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET sgf = ? WHERE id = ?", (record, game))
    with TestClient(create_app(Config(db=db, seed=7)), raise_server_exceptions=False) as again:
        answer = again.get(f"/api/games/{game}")
        assert answer.status_code == 409, answer.text
        assert f"game {game} cannot be read back" in answer.json()["error"]
        moved = again.post(f"/api/games/{game}/move", json={"vertex": "D4"})
        assert moved.status_code == 409
        assert again.get(f"/api/games/{game}/sgf").status_code == 409
        assert [g["id"] for g in again.get("/api/games").json()["games"]] == [game]
