"""The Elo difference over games as a PNG chart: the estimate and its 95% band, by Pillow.

The x axis counts games (1 to the last), the y axis is Elo; the band is `stats.elo_interval`
after each game. The Elo range fits the finite values and zero, within ``±LIMIT`` (the whole
of it when no value is finite yet); infinite values (a player that has won, or lost, every game
so far, and the band after one game) are drawn on its edge. The chart is drawn at twice its
size and scaled down, for smooth lines.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from io import BytesIO

from PIL import Image, ImageDraw, ImageFont

from tengen.match.stats import Tally, elo_interval, format_elo

LIMIT = 800.0  # the largest Elo difference the chart shows
PAPER = (255, 255, 255)
INK = (40, 40, 40)
GRID = (220, 220, 220)
BAND = (190, 210, 240)
CURVE = (20, 60, 160)
_SCALE = 2
_LEFT, _RIGHT, _TOP, _BOTTOM = 64, 20, 36, 44  # margins in pixels
_STEPS = (10, 20, 25, 50, 100, 200, 250, 500)


@dataclass(frozen=True)
class Chart:
    """The chart's frame: `games` on the x axis, Elo `low` to `high` on the y axis, in an
    image of `width` x `height` pixels (margins times `scale`)."""

    games: int
    low: float
    high: float
    width: int = 800
    height: int = 400
    scale: int = 1

    def x(self, game: float) -> float:
        """The pixel column of game number `game` (1 at the left edge of the plot area)."""
        left, right = _LEFT * self.scale, _RIGHT * self.scale
        return left + (game - 1) / max(self.games - 1, 1) * (self.width - left - right)

    def y(self, value: float) -> float:
        """The pixel row of an Elo `value`, clamped to the plot area (infinities included)."""
        top, bottom = _TOP * self.scale, _BOTTOM * self.scale
        share = (min(max(value, self.low), self.high) - self.low) / (self.high - self.low)
        return self.height - bottom - share * (self.height - top - bottom)


def elo_points(tallies: Sequence[Tally]) -> list[tuple[float, float, float]]:
    """(Elo, low, high) after each game of `tallies`, the tallies after games 1, 2, ..."""
    return [elo_interval(t) for t in tallies]


def chart_for(tallies: Sequence[Tally], width: int = 800, height: int = 400) -> Chart:
    """A frame that holds the finite values of `elo_points(tallies)` and zero.

    Raises ValueError for a chart too small to draw in.
    """
    if width < _LEFT + _RIGHT + 50 or height < _TOP + _BOTTOM + 50:
        raise ValueError(f"a chart of {width}x{height} pixels is too small")
    finite = [v for p in elo_points(tallies) for v in p if math.isfinite(v)] or [-LIMIT, LIMIT]
    low = max(min([0.0, *finite]), -LIMIT)
    high = min(max([0.0, *finite]), LIMIT)
    step = _step(high - low)
    low = max(math.floor(low / step) * step, -LIMIT)
    high = min(math.ceil(high / step) * step, LIMIT)
    if high - low < step:
        low, high = low - step, high + step
    return Chart(max(len(tallies), 1), low, high, width, height)


def elo_png(tallies: Sequence[Tally], title: str, width: int = 800, height: int = 400) -> bytes:
    """The chart of `tallies` (after each game) as PNG bytes of `width` x `height` pixels."""
    frame = chart_for(tallies, width, height)
    chart = replace(frame, width=width * _SCALE, height=height * _SCALE, scale=_SCALE)
    image = Image.new("RGB", (chart.width, chart.height), PAPER)
    draw = ImageDraw.Draw(image)
    points = elo_points(tallies)
    xs = [chart.x(k) for k in range(1, len(points) + 1)]
    if len(points) > 1:
        band = [(x, chart.y(hi)) for x, (_, _, hi) in zip(xs, points, strict=True)]
        band += [(x, chart.y(lo)) for x, (_, lo, _) in reversed(list(zip(xs, points, strict=True)))]
        draw.polygon(band, fill=BAND)
    _axes(draw, chart, title)
    curve = [(x, chart.y(e)) for x, (e, _, _) in zip(xs, points, strict=True)]
    if len(curve) > 1:
        draw.line(curve, fill=CURVE, width=3 * _SCALE, joint="curve")
    for x, y in {curve[0], curve[-1]} if curve else ():  # round ends (a dot for one game)
        r = 1.5 * _SCALE
        draw.ellipse((x - r, y - r, x + r, y + r), fill=CURVE)
    out = BytesIO()
    image.resize((width, height), Image.Resampling.LANCZOS).save(out, format="PNG")
    return out.getvalue()


def _axes(draw: ImageDraw.ImageDraw, chart: Chart, title: str) -> None:
    """Grid lines with their Elo labels (zero darker), the game ticks and the title."""
    scale = chart.scale
    font = ImageFont.load_default(size=12 * scale)
    left, right = chart.x(1), chart.width - _RIGHT * scale
    step = _step(chart.high - chart.low)
    value = math.ceil(chart.low / step) * step
    while value <= chart.high:
        y = chart.y(value)
        draw.line((left, y, right, y), fill=INK if value == 0 else GRID, width=scale)
        label = format_elo(value) if value else "0"
        draw.text((left - 6 * scale, y), label, fill=INK, font=font, anchor="rm")
        value += step
    bottom = chart.y(chart.low)
    games_step = _step(chart.games, steps=(1, 2, 5, *_STEPS))
    for game in sorted({1, *range(games_step, chart.games + 1, games_step)}):
        x = chart.x(game)
        draw.line((x, bottom, x, bottom + 4 * scale), fill=INK, width=scale)
        draw.text((x, bottom + 6 * scale), str(game), fill=INK, font=font, anchor="mt")
    draw.text((right, chart.height - 4 * scale), "games", fill=INK, font=font, anchor="rb")
    draw.text(((left + right) / 2, 8 * scale), title, fill=INK, font=font, anchor="mt")


def _step(span: float, ticks: int = 8, steps: Sequence[int] = _STEPS) -> int:
    """The smallest of `steps` that cuts `span` into at most `ticks` parts."""
    return next((s for s in steps if span / s <= ticks), steps[-1])
