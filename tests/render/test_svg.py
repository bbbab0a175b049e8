"""The SVG drawing: well-formed, with one circle per stone and the right texts."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tengen.core import Board, Color, Game, Point
from tengen.render import game_figure, position_figure, render_svg

NS = "{http://www.w3.org/2000/svg}"


def _classed(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(NS + tag) if cls in e.get("class", "").split()]


def test_numbered_figure_svg(ko_game: Game) -> None:
    fig = game_figure(ko_game, moves=(10, 17))
    root = ET.fromstring(render_svg(fig))
    assert len(_classed(root, "circle", "stone")) == len(fig.stones)
    blacks = _classed(root, "circle", "black")
    assert len(blacks) == sum(1 for c in fig.stones.values() if c is Color.BLACK)
    assert all(e.get("fill") == "#000000" for e in blacks)
    numbers = [e.text for e in _classed(root, "text", "number")]
    assert sorted(numbers, key=lambda t: int(t or 0)) == ["10", "11", "12", "13", "14", "16"]
    assert [e.text for e in _classed(root, "text", "letter")] == ["A"]
    assert [e.text for e in _classed(root, "text", "note")] == ["15 at A; 17 at 12"]
    assert _classed(root, "circle", "last") == []


def test_number_colours_contrast_with_the_stone(ko_game: Game) -> None:
    root = ET.fromstring(render_svg(game_figure(ko_game, moves=(1, 2))))
    fills = {e.text: e.get("fill") for e in _classed(root, "text", "number")}
    assert fills == {"1": "#ffffff", "2": "#000000"}


def test_position_svg_has_stars_coordinates_and_last_move() -> None:
    game = Game(19)
    game.play(Point(3, 15))
    root = ET.fromstring(render_svg(game_figure(game)))
    assert len(_classed(root, "circle", "star")) == 9
    assert len(_classed(root, "circle", "last")) == 1
    coords = [e.text for e in _classed(root, "text", "coord")]
    assert len(coords) == 4 * 19 and "I" not in coords and "T" in coords and "19" in coords
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"


def test_rectangular_board_up_to_52_uses_sgf_letters() -> None:
    board = Board(52, 30)
    board.set_point(Point(51, 29), Color.WHITE)
    root = ET.fromstring(render_svg(position_figure(board)))
    coords = {e.text for e in _classed(root, "text", "coord")}
    assert {"a", "i", "z", "A", "Z", "30", "1"} <= coords
    assert float(root.get("width", 0)) > float(root.get("height", 0))
    assert len(_classed(root, "circle", "stone")) == 1


def test_chain_labels_are_drawn(ko_game: Game) -> None:
    root = ET.fromstring(render_svg(game_figure(ko_game, move=4, chain_labels=True)))
    assert sorted(e.text or "" for e in _classed(root, "text", "label")) == [
        "B1:2",
        "B3:3",
        "W2:2",
        "W4:4",
    ]
