"""A figure as an SVG document: flat stones, thin lines, book-like and legible at any size.

Elements carry classes (``stone black``, ``number``, ``star``, ``last``, ...) so that the
drawing can be restyled or checked.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.render.figure import Figure
from tengen.render.layout import BOARD, CONTRAST, INK, PAPER, STONE, Layout


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _text(text: str, x: float, y: float, size: float, fill: str, cls: str) -> str:
    """Text centred on (x, y); notes start at x instead."""
    anchor = ' text-anchor="start"' if cls == "note" else ""
    return (
        f'<text class="{cls}" x="{_num(x)}" y="{_num(y)}" dy="0.35em"{anchor} '
        f'font-size="{_num(size)}" fill="{fill}">{escape(text)}</text>'
    )


def _grid(lay: Layout) -> list[str]:
    fig, w = lay.figure, lay.line_width
    x0, x1, y0, y1 = lay.x(0), lay.x(fig.width - 1), lay.y(0), lay.y(fig.height - 1)
    path = " ".join(
        [f"M{_num(x0)} {_num(lay.y(r))}H{_num(x1)}" for r in range(1, fig.height - 1)]
        + [f"M{_num(lay.x(c))} {_num(y0)}V{_num(y1)}" for c in range(1, fig.width - 1)]
    )
    parts = [f'<path class="grid" d="{path}" stroke="{INK}" stroke-width="{_num(w)}"/>']
    parts.append(
        f'<rect class="edge" x="{_num(x0)}" y="{_num(y0)}" width="{_num(x1 - x0)}" '
        f'height="{_num(y1 - y0)}" fill="none" stroke="{INK}" stroke-width="{_num(2 * w)}"/>'
    )
    return parts


def _stone(lay: Layout, point: Point, color: Color) -> list[str]:
    x, y = lay.centre(point)
    name = "black" if color is Color.BLACK else "white"
    parts = [
        f'<circle class="stone {name}" cx="{_num(x)}" cy="{_num(y)}" '
        f'r="{_num(lay.stone_radius)}" fill="{STONE[color]}" stroke="{INK}" '
        f'stroke-width="{_num(lay.line_width)}"/>'
    ]
    fig = lay.figure
    if point == fig.last:
        parts.append(
            f'<circle class="last" cx="{_num(x)}" cy="{_num(y)}" r="{_num(0.25 * lay.cell)}" '
            f'fill="none" stroke="{CONTRAST[color]}" stroke-width="{_num(2.5 * lay.line_width)}"/>'
        )
    text = fig.text(point)
    if text is not None:
        cls = "number" if point in fig.numbers else "letter" if point in fig.letters else "label"
        parts.append(_text(text, x, y, lay.text_size(text), CONTRAST[color], cls))
    return parts


def render_svg(figure: Figure, *, cell: float = 30) -> str:
    """The figure as an SVG document, `cell` user units between two lines."""
    lay = Layout(figure, cell)
    width, height = lay.size
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}" '
        f'height="{_num(height)}" viewBox="0 0 {_num(width)} {_num(height)}" '
        'font-family="Helvetica, Arial, sans-serif" text-anchor="middle">',
        f'<rect class="paper" width="{_num(width)}" height="{_num(height)}" fill="{PAPER}"/>',
        f'<rect class="board" width="{_num(width)}" height="{_num(lay.board_height)}" '
        f'fill="{BOARD}"/>',
        *_grid(lay),
    ]
    r = _num(lay.star_radius)
    for p in figure.stars:
        parts.append(
            f'<circle class="star" cx="{_num(lay.x(p.col))}" cy="{_num(lay.y(p.row))}" '
            f'r="{r}" fill="{INK}"/>'
        )
    for text, x, y in lay.coordinates():
        parts.append(_text(text, x, y, lay.coord_size, INK, "coord"))
    for point, color in sorted(figure.stones.items()):
        parts += _stone(lay, point, color)
    for i, line in enumerate(lay.note_lines):
        parts.append(_text(line, lay.cell / 2, lay.note_y(i), lay.note_size, INK, "note"))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
