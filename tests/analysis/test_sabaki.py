"""Sabaki's own SGF parser reads tengen's analysed records: the same moves, Black's win rate
as ``SBKV`` on every move (what Sabaki's graph draws), the score lead as ``SBKS`` and the
review block in the comments, from `tengen analyze` and from the app's graph alike.

The parser is @sabaki/sgf from the npm registry, installed by ``scripts/sabaki_sgf.sh`` into
.cache/sabaki (CI runs it); without Node.js or the parser the tests skip with a message.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tengen.cli import main
from tengen.core.coords import Point
from tengen.sgf import parse
from tengen.web import Config, create_app
from tests.web.conftest import Games
from tests.web.test_api_analysis import wait_for

ROOT = Path(__file__).resolve().parents[2]
PARSER = ROOT / ".cache" / "sabaki" / "node_modules" / "@sabaki" / "sgf"
RECORD = Path(__file__).parent / "data" / "abandoned_group_end.sgf"
# Sabaki's parser on stdin: each node of the main line as {data, vertex}, vertex decoded by
# the parser's own parseVertex.
READ = """
const sgf = require(process.argv[1]);
const [root] = sgf.parse(require("fs").readFileSync(0, "utf8"));
const line = [];
for (let node = root; node; node = node.children[0]) {
  const move = node.data.B ?? node.data.W;
  line.push({ data: node.data, vertex: move && move[0] ? sgf.parseVertex(move[0]) : null });
}
console.log(JSON.stringify(line));
"""


def sabaki_line(text: str) -> list[dict[str, Any]]:
    """The main line as Sabaki's parser reads `text`. Skips without Node.js or the parser."""
    node = shutil.which("node")
    if node is None or not PARSER.is_dir():
        pytest.skip("Sabaki's SGF parser is not installed: run scripts/sabaki_sgf.sh (needs npm)")
    run = subprocess.run(
        [node, "-e", READ, str(PARSER)], input=text, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    line: list[dict[str, Any]] = json.loads(run.stdout)
    return line


def check_read_alike(text: str) -> list[float]:
    """Sabaki reads the moves tengen reads and an SBKV and SBKS on every node; Black's win
    rates as Sabaki reads them."""
    ours = parse(text).games[0].main_line()
    theirs = sabaki_line(text)
    assert len(theirs) == len(ours)
    rates = []
    for node, read in zip(ours, theirs, strict=True):
        move = node.get("B") or node.get("W")
        if isinstance(move, Point):
            assert read["vertex"] == [move.col, move.row]
        assert read["data"]["SBKV"] == node.get_raw("SBKV")
        assert read["data"]["SBKS"] == node.get_raw("SBKS")
        rates.append(float(read["data"]["SBKV"][0]))
    assert all(0 <= rate <= 100 for rate in rates)
    return rates


def test_sabaki_reads_what_tengen_analyze_writes(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["analyze", str(RECORD), "--visits", "200", "--threads", "2", "-o", str(out)]
    assert main(args) == 0
    text = (out / RECORD.name).read_text()
    rates = check_read_alike(text)
    theirs = sabaki_line(text)
    assert rates[-1] < 20  # Black abandoned the group: White wins
    assert "better: E5" in theirs[-2]["data"]["C"][0]  # the review block, as Sabaki shows it


def test_sabaki_reads_the_graph_the_app_saves(tmp_path: Path) -> None:
    with TestClient(create_app(Config(db=tmp_path / "games.sqlite3", seed=3))) as client:
        opened = client.post("/api/games/import", content=RECORD.read_bytes()).json()
        game, token = opened["id"], opened["tokens"]["black"]
        games = Games(client)
        games.post(game, "nav", token, to="end")
        started = games.post(game, "graph", token, playouts=100)
        assert started.status_code == 200, started.text
        graph = wait_for(client, game, "graph")
        text = client.get(f"/api/games/{game}/sgf").text
    rates = check_read_alike(text)
    shown = [round(100 * p["black_winrate"], 2) for p in graph["points"]]
    assert rates == pytest.approx(shown, abs=0.01)  # the page's graph is Sabaki's graph
