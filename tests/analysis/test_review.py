"""Whole-game review finds the obvious: in a balanced 9x9 game (GNU Go counts B+0.7 before
the end) Black leaves a 7-stone chain in atari at E5 and plays J9 in its own area; White
captures. That move must be Black's biggest mistake, by about 16 points (GNU Go: B+0.5 had
Black connected, W+15.5 after the capture), with the built-in search and with KataGo."""

from __future__ import annotations

from pathlib import Path

import pytest

from tengen.analysis.builtin import BuiltinEngine
from tengen.analysis.engine import Engine
from tengen.analysis.katago import JsonAnalyser
from tengen.analysis.position import Position, line_positions
from tengen.analysis.review import GameReview, annotate, review
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.sgf import Node, parse, serialise
from tests.analysis.katago import katago_command

RECORD = Path(__file__).parent / "data" / "abandoned_group.sgf"
MISTAKE = 55  # B J9, leaving D4-E4 and C3-G3 with the one liberty E5


def _line() -> tuple[Position, list[Node], object]:
    tree = parse(RECORD.read_bytes()).games[0]
    position, nodes = line_positions(tree)
    return position, nodes, tree


def _check(result: GameReview) -> None:
    worst = result.mistakes(Color.BLACK, count=1)
    assert worst and worst[0].number == MISTAKE, [
        (m.number, round(m.points_lost, 1)) for m in result.mistakes(Color.BLACK)
    ]
    assert worst[0].best == Point(4, 4)  # E5 saves the chain
    assert worst[0].points_lost > 8 and worst[0].winrate_lost > 0.3
    capture = result.moves[MISTAKE]  # W E5: White's reply is no mistake
    assert capture.move == Point(4, 4) and capture.points_lost < 3


def test_the_built_in_search_finds_the_abandoned_group() -> None:
    position, _, _ = _line()
    engine = BuiltinEngine(seed=3)
    try:
        _check(review(engine, position, 3000))
    finally:
        engine.close()


def test_katago_finds_the_abandoned_group(tmp_path: Path) -> None:
    engine: Engine = JsonAnalyser(katago_command("analysis", tmp_path))
    try:
        _check(review(engine, _line()[0], 100))
    finally:
        engine.close()


def test_the_review_is_written_as_sabaki_reads_it() -> None:
    position, nodes, tree = _line()
    engine = BuiltinEngine(seed=1, threads=1)
    try:
        result = review(engine, position.prefix(4), 30)
    finally:
        engine.close()
    nodes[0].set("C", "opening [comment]")
    annotate(tree.root, nodes[:4], result, 9)  # type: ignore[attr-defined]
    annotate(tree.root, nodes[:4], result, 9)  # type: ignore[attr-defined]  # once, not twice
    back = parse(serialise(tree)).games[0]  # type: ignore[arg-type]
    line = back.main_line()
    for node, m in zip(line[1:5], result.moves, strict=True):
        assert float(node.get_raw("SBKV")[0]) == pytest.approx(100 * m.black_winrate, abs=0.01)
        assert float(node.get_raw("SBKS")[0]) == pytest.approx(m.black_lead, abs=0.01)
    comment = line[1].get("C")
    assert comment.startswith("opening [comment]\n\ntengen analysis:")
    assert comment.count("tengen analysis:") == 1 and "points lost" in comment
    assert "SBKV" in back.root.properties
