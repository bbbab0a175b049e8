"""The page draws the star points the server's diagrams draw (`tengen.render.grid`).

The page once kept its own rule and drew 9 star points on 9x9 and 13x13, where the SVG and
PNG diagrams (and the boards players know) have 5. The same headless Chromium as
test_browser.py; skipped with it when Chromium is absent.
"""

from __future__ import annotations

import pytest

from tengen.core.coords import Point, to_gtp
from tengen.render.grid import star_points
from tests.web.test_browser import Page, Server, browser, new_game, page, server

__all__ = ["browser", "page", "server"]  # the fixtures this module's tests use


@pytest.mark.parametrize("size", [9, 13, 19])
def test_the_page_draws_the_python_star_points(server: Server, page: Page, size: int) -> None:
    new_game(page, server.url, size=str(size))
    # Where each point's hit area is centred, and which star circles sit there.
    drawn = page.evaluate(
        """() => {
          const at = new Map();
          for (const pt of document.querySelectorAll("#board .pt")) {
            const hit = pt.querySelector("rect.hit");
            const x = Number(hit.getAttribute("x")) + Number(hit.getAttribute("width")) / 2;
            const y = Number(hit.getAttribute("y")) + Number(hit.getAttribute("height")) / 2;
            at.set(`${x},${y}`, [Number(pt.dataset.col), Number(pt.dataset.row)]);
          }
          return [...document.querySelectorAll("#board circle.star")].map(
            (s) => at.get(`${s.getAttribute("cx")},${s.getAttribute("cy")}`));
        }"""
    )
    drawn = [to_gtp(Point(col, row), size) for col, row in drawn]
    expected = [to_gtp(p, size) for p in star_points(size, size)]
    assert sorted(drawn) == sorted(expected)
    assert len(drawn) == (9 if size == 19 else 5)
