"""The Elo-over-games chart: a PNG of the asked size whose curve and band follow the data."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from tengen.cli import main
from tengen.match.plot import BAND, CURVE, PAPER, Chart, chart_for, elo_png, elo_points
from tengen.match.stats import Tally

Rgb = tuple[int, int, int]


def series(outcomes: str) -> list[Tally]:
    """The tallies after each game of a string of W, L and D."""
    tally, out = Tally(), []
    for c in outcomes:
        tally = tally.add({"W": 1.0, "L": 0.0, "D": 0.5}[c])
        out.append(tally)
    return out


def near(pixel: Rgb, colour: Rgb, tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def curve_rows(image: Image.Image, x: int) -> list[int]:
    """The rows of column `x` drawn in the curve's colour."""
    return [y for y in range(image.height) if near(image.getpixel((x, y)), CURVE)]


@pytest.mark.parametrize("size", [(800, 400), (640, 300)])
def test_the_curve_passes_through_every_game_s_estimate(size: tuple[int, int]) -> None:
    tallies = series("WLWWDWWLWWWLWWDWLWWW")
    image = decode(elo_png(tallies, "a against b", *size))
    assert image.size == size
    chart = chart_for(tallies, *size)
    for game, (elo, low, high) in enumerate(elo_points(tallies), 1):
        x, y = round(chart.x(game)), chart.y(elo)
        rows = curve_rows(image, x)
        assert rows and min(rows) - 2 <= y <= max(rows) + 2, (game, elo, y, rows)
        if game > 3:  # from here the band is finite: its colour between curve and edges
            for edge in (low, high):
                middle = round((y + chart.y(edge)) / 2)
                if abs(chart.y(edge) - y) > 12:
                    assert near(image.getpixel((x, middle)), BAND), (game, edge)


def test_a_winning_run_climbs_and_a_losing_run_falls() -> None:
    tallies = series("WDWDWWWWWWLW" + "LLLLLLLLLLLLLLLLLLLL")
    chart = chart_for(tallies)
    points = elo_points(tallies)
    assert chart.y(points[11][0]) < chart.y(0) < chart.y(points[-1][0])  # rows grow downwards
    image = decode(elo_png(tallies, "up, then down"))
    for game in (12, len(tallies)):
        rows = curve_rows(image, round(chart.x(game)))
        assert rows and abs(sum(rows) / len(rows) - chart.y(points[game - 1][0])) <= 3


def test_the_range_fits_the_values_and_infinities_sit_on_the_edge() -> None:
    all_wins = series("WWWW")
    chart = chart_for(all_wins)
    lows = [low for _, low, _ in elo_points(all_wins)]  # finite: the Wilson bounds
    assert chart.low <= min(lows) and chart.high >= 0 and chart.high - chart.low < 1600
    image = decode(elo_png(all_wins, "all wins"))
    top = round(chart.y(float("inf")))
    assert top == round(chart.y(800)) and curve_rows(image, round(chart.x(3)))[0] <= top + 3
    narrow = Chart(1, -100, 100)
    assert narrow.y(5000) == narrow.y(100) and narrow.y(-5000) == narrow.y(-100)


def test_corners_and_empty_space_are_paper() -> None:
    image = decode(elo_png(series("WL" * 10), "a against b"))
    assert image.getpixel((2, 2)) == PAPER and image.getpixel((797, 397)) == PAPER


def test_a_chart_too_small_is_refused() -> None:
    with pytest.raises(ValueError, match="too small"):
        elo_png(series("W"), "tiny", 100, 60)


def test_tengen_match_writes_the_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plot = tmp_path / "elo.png"
    argv = ["tournament", "a=random", "b=random", "c=random", "--format", "gauntlet"]
    argv += ["--games", "2", "--size", "5", "--plot", str(plot), "-o", str(tmp_path / "out")]
    assert main(argv) == 0
    assert decode(plot.read_bytes()).size == (800, 400)
