"""The wheel `python -m build` makes installs in a clean virtual environment and serves the app.

Built from the sdist (as PyPI users get it), installed with pip (its cache makes this seconds
after the first run), then ``tengen serve`` from that environment must answer on loopback with
the page and its static files: what an editable install in .venv would never notice missing.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
import venv
from collections.abc import Iterator
from pathlib import Path
from urllib.error import URLError

import pytest

ROOT = Path(__file__).parents[1]
STATIC = ROOT / "src" / "tengen" / "web" / "static"

pytestmark = pytest.mark.packaging


def run(*argv: str | Path, env: dict[str, str] | None = None, cwd: Path | None = None) -> str:
    """Run a command (in `env` and `cwd` when given); its stdout, or a failure showing what it
    printed."""
    done = subprocess.run(
        [str(a) for a in argv], capture_output=True, text=True, timeout=600, env=env, cwd=cwd
    )
    if done.returncode != 0:
        pytest.fail(f"{argv[:3]} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin directory of a fresh virtual environment with only the built wheel installed."""
    base = tmp_path_factory.mktemp("packaging")
    dist = base / "dist"
    run(sys.executable, "-m", "build", "--outdir", dist, ROOT)
    wheels = list(dist.glob("tengen-*.whl"))
    assert len(wheels) == 1, f"expected one wheel in {dist}, found {wheels}"
    env = base / "env"
    venv.EnvBuilder(with_pip=False).create(env)
    bin_dir = env / "bin"
    # This environment's pip installs into the new one: no second pip to bootstrap, and no
    # bytecode compiled ahead for numpy and numba (Python compiles what the server imports).
    pip = [sys.executable, "-m", "pip", "--python", bin_dir / "python", "install", "--quiet"]
    run(*pip, "--no-compile", wheels[0])
    return bin_dir


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=5) as response:
        body: bytes = response.read()
        return body


@pytest.fixture
def server(installed: Path, tmp_path: Path) -> Iterator[str]:
    """``tengen serve`` from the installed wheel on a free loopback port; its URL."""
    port = free_port()
    argv = [installed / "tengen", "serve", "--host", "127.0.0.1", "--port", str(port)]
    # Run outside the source tree, so that only the installed package can be imported.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*map(str, argv), "--db", str(tmp_path / "games.sqlite3")],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                fetch(f"{url}/api/config")
                break
            except (URLError, ConnectionError):
                if process.poll() is not None or time.monotonic() > deadline:
                    output = log.read_text(errors="replace")
                    pytest.fail(f"tengen serve from the wheel did not answer:\n{output}")
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_the_wheel_ships_the_type_marker(installed: Path) -> None:
    code = (
        "import importlib.resources as r; print(r.files('tengen').joinpath('py.typed').is_file())"
    )
    assert run(installed / "python", "-c", code).strip() == "True"


def outside(installed: Path, code: str) -> str:
    """What the installed package's Python prints running `code`, away from the source tree
    (no PYTHONPATH, in the environment's folder)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return run(installed / "python", "-c", code, env=env, cwd=installed)


def test_the_wheel_ships_the_gomoku_opening_book(installed: Path) -> None:
    code = (
        "from tengen.ai.gomoku import book; from tengen.gomoku import Rule; "
        "[print(len(book.table(r)), len(book.swap2_openings(r))) "
        "for r in (Rule.FREESTYLE, Rule.RENJU)]"
    )
    lines = outside(installed, code).splitlines()  # each rule's positions, swap2 openings
    assert len(lines) == 2
    for line in lines:
        positions, openings = map(int, line.split())
        assert positions >= 100
        assert openings >= 3


def test_the_wheel_ships_the_gomoku_shape_worths(installed: Path) -> None:
    """The evaluation's and the move order's fitted tables are package data: a wheel without
    them could not evaluate a position, or would order its moves by place alone."""
    code = (
        "from tengen.ai.gomoku import patterns; from tengen.gomoku import Rule; "
        "print(min(len(patterns.shape_worths(rule)) for rule in Rule)); "
        "print(min(len(side) for rule in Rule for side in patterns.order_worths(rule)))"
    )
    evaluation, order = map(int, outside(installed, code).split())
    assert evaluation >= 100
    assert order >= 100


def test_the_installed_wheel_serves_the_page_and_its_static_files(server: str) -> None:
    page = fetch(f"{server}/").decode()
    assert "<html" in page.lower()
    for path in sorted(STATIC.iterdir()):
        assert fetch(f"{server}/static/{path.name}") == path.read_bytes(), path.name
