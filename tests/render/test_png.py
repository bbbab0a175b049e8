"""The PNG drawing: decodes, has the announced size, and stones of the right shade."""

from __future__ import annotations

from io import BytesIO

from PIL import Image

from tengen.core import Color, Game
from tengen.render import game_figure, png_size, render_png
from tengen.render.layout import Layout


def _image(data: bytes) -> Image.Image:
    image = Image.open(BytesIO(data))
    image.load()
    return image.convert("L")


def test_png_decodes_with_the_expected_size(game19: Game) -> None:
    fig = game_figure(game19, moves=(1, 12))
    image = _image(render_png(fig, cell=20))
    assert image.size == png_size(fig, cell=20)
    assert image.size[0] == round((19 - 1 + 2 * 1.4) * 20)
    assert image.size[1] == image.size[0]  # a square board and no notes


def test_stone_centres_are_dark_and_light(ko_game: Game) -> None:
    fig = game_figure(ko_game)  # a position figure: no numbers over the centres
    image = _image(render_png(fig, cell=24))
    lay = Layout(fig, 24)
    for point, color in fig.stones.items():
        x, y = lay.centre(point)
        shade = image.getpixel((round(x), round(y)))
        assert isinstance(shade, int)
        assert (shade < 40) if color is Color.BLACK else (shade > 215), point
    assert fig.last is not None and fig.stones[fig.last] is Color.BLACK
    x, y = lay.centre(fig.last)
    ring = image.getpixel((round(x + 0.25 * 24), round(y)))
    assert isinstance(ring, int) and ring > 150  # the white ring of the last-move mark


def test_board_is_wood_coloured_and_notes_widen_the_canvas(ko_game: Game) -> None:
    plain = game_figure(ko_game, moves=(1, 7))
    noted = game_figure(ko_game, moves=(1, 17))
    assert png_size(plain)[0] == png_size(noted)[0]
    assert png_size(noted)[1] > png_size(plain)[1]
    image = Image.open(BytesIO(render_png(plain))).convert("RGB")
    pixel = image.getpixel((3, 3))
    assert isinstance(pixel, tuple)
    r, g, b = pixel
    assert r > g > b
