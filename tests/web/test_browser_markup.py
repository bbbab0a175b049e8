"""The review's SGF markup in a real browser: a record's marks drawn on the board, the markup
tools adding and removing them, and the downloaded record holding what was drawn.

The same headless Chromium as test_browser.py; skipped with it when Chromium is absent. The
downloaded SGF is read with sgfmill where it is installed (an outside reader), else tengen's.
"""

from __future__ import annotations

import urllib.request

from tengen.sgf import parse
from tests.web.test_browser import Page, Server, browser, expect, page, point, server, shot

__all__ = ["browser", "page", "server"]  # the fixtures this module's tests use

# A black stone with a triangle (white ink), a white stone with a square and an empty point
# with a circle (black ink); a cross, a label, an arrow, a line; two points dimmed at the root
# and inherited by the move.
RECORD = (
    "(;GM[1]FF[4]SZ[9]AB[ee]AW[cc]DD[aa][ba]"
    ";B[gg]TR[ee]SQ[cc]CR[gc]MA[cg]LB[hh:A]AR[ai:ci]LN[ia:ic])"
)


def _marks_read_back(url: str) -> dict[str, list[object]]:
    """TR and LB of the second node of the downloaded record, as (col, row) from the top."""
    with urllib.request.urlopen(url) as response:
        data = response.read()
    try:
        from sgfmill import sgf  # type: ignore[import-not-found]
    except ImportError:
        node = parse(data).games[0].root.children[0]
        return {
            "TR": sorted((p.col, p.row) for p in node.get("TR") or []),
            "LB": sorted(((p.col, p.row), text) for p, text in node.get("LB") or []),
        }
    game = sgf.Sgf_game.from_bytes(data)
    node, size = game.get_main_sequence()[1], game.get_size()
    triangles = node.get("TR") if node.has_property("TR") else set()
    labels = node.get("LB") if node.has_property("LB") else []
    return {  # sgfmill counts rows from the bottom
        "TR": sorted((col, size - 1 - row) for row, col in triangles),
        "LB": sorted(((col, size - 1 - row), text) for (row, col), text in labels),
    }


def test_marks_drawn_and_edited_with_the_tools(server: Server, page: Page) -> None:
    page.goto(server.url)
    page.fill("#paste", RECORD)
    page.click("#open-paste")
    page.wait_for_selector("#review-controls:not([hidden])")
    board = page.locator("#board")
    expect(board.locator(".dim")).to_have_count(2)  # the root's own DD
    expect(board.locator(".mark")).to_have_count(0)
    page.click("#nav-forward")
    expect(board.locator(".mark.triangle")).to_have_count(1)
    for shape in ("triangle", "square", "circle", "cross", "label", "arrow", "line"):
        expect(board.locator(f".mark.{shape}")).to_have_count(1)
    expect(board.locator(".dim")).to_have_count(2)  # inherited by the move
    # each mark in the ink that shows on what lies under it: E5 black, C7 white, G7 empty
    for shape, vertex, ink in [("triangle", "E5", "white"), ("square", "C7", "black"),
                               ("circle", "G7", "black")]:  # fmt: skip
        mark = board.locator(f'.mark.{shape}[data-vertex="{vertex}"]')
        expect(mark).to_have_class(f"mark {shape} ink-{ink}")
    expect(board.locator('.mark.label[data-vertex="H2"]')).to_have_text("A")
    shot(page, "markup-01-drawn")

    # Triangle: add one at D4, and take E5's away
    page.click("#markup-tools [data-tool=TR]")
    expect(page.locator("#markup-tools [data-tool=TR]")).to_have_attribute("aria-pressed", "true")
    point(page, "D4")
    expect(board.locator(".mark.triangle")).to_have_count(2)
    point(page, "E5")
    expect(board.locator(".mark.triangle")).to_have_count(1)
    expect(board.locator('.mark.triangle[data-vertex="D4"]')).to_have_count(1)
    # Label: the next letter is B, then C
    page.click("#markup-tools [data-tool=LB]")
    expect(page.locator("#tool-hint")).to_contain_text("write B")
    point(page, "F4")
    expect(board.locator('.mark.label[data-vertex="F4"]')).to_have_text("B")
    expect(page.locator("#tool-hint")).to_contain_text("write C")
    page.select_option("#label-mode", "numbers")
    point(page, "F6")
    expect(board.locator('.mark.label[data-vertex="F6"]')).to_have_text("1")
    point(page, "F6")  # a second click takes the label away
    expect(board.locator('.mark.label[data-vertex="F6"]')).to_have_count(0)
    # Dim: light A9 again, dim J1
    page.click("#markup-tools [data-tool=DD]")
    point(page, "A9")
    point(page, "J1")
    expect(board.locator('.dim[data-vertex="J1"]')).to_have_count(1)
    expect(board.locator(".dim")).to_have_count(2)
    # Arrow: two clicks
    page.click("#markup-tools [data-tool=AR]")
    point(page, "A3")
    expect(board.locator(".pending")).to_have_count(1)
    point(page, "C3")
    expect(board.locator(".mark.arrow")).to_have_count(2)
    expect(board.locator(".pending")).to_have_count(0)
    # Erase the line's end point: the line goes
    page.click("#markup-tools [data-tool=erase]")
    point(page, "J9")
    expect(board.locator(".mark.line")).to_have_count(0)
    # the stone tool plays again
    page.click("#markup-tools [data-tool=stone]")
    point(page, "B2")
    expect(page.locator("#status")).to_contain_text("Move 2 of 2")
    shot(page, "markup-02-edited")

    game = page.url.rsplit("/", 1)[1]
    marks = _marks_read_back(f"{server.url}/api/games/{game}/sgf")
    assert marks["TR"] == [(3, 5)]  # D4
    assert marks["LB"] == [((5, 5), "B"), ((7, 7), "A")]  # F4, H2


def test_a_marker_tool_from_the_keyboard(server: Server, page: Page) -> None:
    """With a marker tool chosen the arrows move the board's cursor and Enter marks; with the
    stone tool they step through the moves again."""
    page.goto(server.url)
    page.fill("#paste", RECORD)
    page.click("#open-paste")
    page.wait_for_selector("#review-controls:not([hidden])")
    page.click("#nav-forward")
    board = page.locator("#board")
    expect(board.locator(".mark.square")).to_have_count(1)
    page.click("#markup-tools [data-tool=SQ]")
    board.focus()
    board.press("ArrowUp")  # the cursor appears at the centre, E5
    board.press("ArrowLeft")
    expect(board).to_have_attribute("aria-activedescendant", "pt-3-4")
    board.press("Enter")
    expect(board.locator('.mark.square[data-vertex="D5"]')).to_have_count(1)
    expect(page.locator("#status")).to_contain_text("Move 1 of 1")
    page.click("#markup-tools [data-tool=stone]")
    board.focus()
    board.press("ArrowLeft")
    expect(page.locator("#status")).to_contain_text("Move 0 of 1")
