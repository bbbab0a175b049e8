"""A figure as a PNG image, drawn with Pillow's ImageDraw (no SVG renderer needed).

The drawing is made at three times the size and scaled down, which smooths the edges of the
stones and lines; text uses Pillow's bundled font.
"""

from __future__ import annotations

from functools import lru_cache
from io import BytesIO

from PIL import Image, ImageDraw, ImageFont

from tengen.render.figure import Figure
from tengen.render.layout import BOARD, CONTRAST, INK, PAPER, STONE, Layout

_SCALE = 3


@lru_cache(maxsize=64)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _disc(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    r: float,
    *,
    fill: str | None = None,
    outline: str | None = None,
    width: int = 1,
) -> None:
    """A circle of radius `r`, its outline centred on the circle as SVG strokes are."""
    if outline is not None:
        r += width / 2
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=width)


def _draw(figure: Figure, cell: int) -> Image.Image:
    size = png_size(figure, cell=cell)
    lay = Layout(figure, cell * _SCALE)
    width, height = size[0] * _SCALE, size[1] * _SCALE
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, round(lay.board_height)), fill=BOARD)
    line = max(1, round(lay.line_width))
    x0, x1 = lay.x(0), lay.x(figure.width - 1)
    y0, y1 = lay.y(0), lay.y(figure.height - 1)
    for row in range(figure.height):
        draw.line((x0, lay.y(row), x1, lay.y(row)), fill=INK, width=line)
    for col in range(figure.width):
        draw.line((lay.x(col), y0, lay.x(col), y1), fill=INK, width=line)
    draw.rectangle((x0 - line, y0 - line, x1 + line, y1 + line), outline=INK, width=2 * line)
    for point in figure.stars:
        _disc(draw, *lay.centre(point), lay.star_radius, fill=INK)
    for label, x, y in lay.coordinates():
        draw.text((x, y), label, fill=INK, font=_font(round(lay.coord_size)), anchor="mm")
    for point, color in figure.stones.items():
        x, y = lay.centre(point)
        _disc(draw, x, y, lay.stone_radius, fill=STONE[color], outline=INK, width=line)
        if point == figure.last:
            ring = round(2.5 * lay.line_width)
            _disc(draw, x, y, 0.25 * lay.cell, outline=CONTRAST[color], width=ring)
        text = figure.text(point)
        if text is not None:
            font = _font(round(lay.text_size(text)))
            draw.text((x, y), text, fill=CONTRAST[color], font=font, anchor="mm")
    for i, note in enumerate(lay.note_lines):
        font = _font(round(lay.note_size))
        draw.text((lay.cell / 2, lay.note_y(i)), note, fill=INK, font=font, anchor="lm")
    return image.resize(size, Image.Resampling.LANCZOS)


def render_png(figure: Figure, *, cell: int = 32) -> bytes:
    """The figure as PNG bytes, `cell` pixels between two lines."""
    out = BytesIO()
    _draw(figure, cell).save(out, format="PNG", optimize=True)
    return out.getvalue()


def png_size(figure: Figure, *, cell: int = 32) -> tuple[int, int]:
    """Width and height in pixels of `render_png(figure, cell=cell)`."""
    width, height = Layout(figure, cell).size
    return round(width), round(height)
