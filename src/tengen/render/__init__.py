"""Go diagrams: a `Figure` of a game or position, drawn as SVG, PNG or plain text.

Imports core only. `figure` decides what a diagram shows (book conventions: move numbers,
notes for re-used points, star points); `svg`, `png` and `text` only draw it.
"""

from __future__ import annotations

from pathlib import Path

from tengen.render.figure import (
    Figure,
    board_after,
    game_figure,
    numbered_figure,
    position_figure,
)
from tengen.render.grid import column_labels, row_labels, star_points
from tengen.render.png import png_size, render_png
from tengen.render.svg import render_svg
from tengen.render.text import render_text

FORMATS = (".svg", ".png", ".txt")


def save(figure: Figure, path: str | Path) -> None:
    """Write the figure in the format its suffix names (.svg, .png or .txt).

    Raises ValueError for any other suffix.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".svg":
        path.write_text(render_svg(figure), encoding="utf-8")
    elif suffix == ".png":
        path.write_bytes(render_png(figure))
    elif suffix == ".txt":
        path.write_text(render_text(figure), encoding="utf-8")
    else:
        raise ValueError(f"unknown diagram format {path.suffix!r}: use one of {', '.join(FORMATS)}")


__all__ = [
    "FORMATS",
    "Figure",
    "board_after",
    "column_labels",
    "game_figure",
    "numbered_figure",
    "png_size",
    "position_figure",
    "render_png",
    "render_svg",
    "render_text",
    "row_labels",
    "save",
    "star_points",
]
