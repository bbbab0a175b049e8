"""Match statistics: score, win rate with a Wilson interval, Elo difference with error bars, SPRT.

A draw counts half a win throughout. The Elo error bars come from the normal approximation
of the mean score (the per-game variance of wins, draws and losses); the SPRT is the
normal-approximation GSPRT that Fishtest uses, in the logistic Elo model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054  # the two-sided 95% normal quantile


@dataclass(frozen=True)
class Tally:
    """Wins, losses and draws of one side of a pairing."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        """Mean score per game (win 1, draw 1/2); 0.5 before any game."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5

    def add(self, points: float) -> Tally:
        """This tally with one more game scored 1, 0.5 or 0."""
        if points == 1:
            return Tally(self.wins + 1, self.losses, self.draws)
        if points == 0:
            return Tally(self.wins, self.losses + 1, self.draws)
        if points == 0.5:
            return Tally(self.wins, self.losses, self.draws + 1)
        raise ValueError(f"a game scores 1, 0.5 or 0, not {points}")


def wilson(t: Tally, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of the win rate (draws as half wins); (0, 1) with no games."""
    n = t.games
    if n == 0:
        return 0.0, 1.0
    p = t.score
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(centre - half, 0.0), min(centre + half, 1.0)


def elo(score: float) -> float:
    """The Elo difference that an expected score means (infinite at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def expected_score(elo_difference: float) -> float:
    """The expected score of a player `elo_difference` points stronger."""
    return 1 / (1 + 10 ** (-elo_difference / 400))


def elo_interval(t: Tally, z: float = Z95) -> tuple[float, float, float]:
    """(Elo difference, low, high): the estimate and its `z` error bars.

    When every game ended alike (all wins, all losses, all draws) the per-game variance is 0
    and says nothing; the bars are then the Wilson interval's, which stays finite on the
    side the games bound: after 10 wins out of 10, the estimate is +inf but low is about +400.
    """
    s = t.score
    if t.games == 0:
        return elo(s), -math.inf, math.inf
    if max(t.wins, t.losses, t.draws) == t.games:
        low, high = wilson(t, z)
        low, high = (low, 1.0) if t.wins else (0.0, high) if t.losses else (low, high)
        return elo(s), elo(low), elo(high)
    se = math.sqrt(_variance(t.wins, t.losses, t.draws) / t.games)
    return elo(s), elo(s - z * se), elo(s + z * se)


def sprt(
    t: Tally, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05
) -> tuple[float, str | None]:
    """(log-likelihood ratio, decision): ``"H1"`` (at least `elo1`), ``"H0"`` (at most
    `elo0`) or None while the test goes on.

    The variance is taken with half a win and half a loss added, so that a run of wins only
    (variance 0) still decides instead of waiting forever.
    """
    llr = 0.0
    if t.games:
        var = _variance(t.wins + 0.5, t.losses + 0.5, t.draws)
        s0, s1 = expected_score(elo0), expected_score(elo1)
        llr = (s1 - s0) * (2 * t.score - s0 - s1) * t.games / (2 * var)
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    return llr, "H1" if llr >= upper else "H0" if llr <= lower else None


def elo_estimate(t: Tally, z: float = Z95) -> str:
    """The Elo estimate to print: ``+77``; or, where it is infinite (one side won every
    game), the bound the interval gives, ``> +400`` or ``< -400``."""
    e, low, high = elo_interval(t, z)
    if e == math.inf and math.isfinite(low):
        return f"> {format_elo(low)}"
    if e == -math.inf and math.isfinite(high):
        return f"< {format_elo(high)}"
    return format_elo(e)


def format_elo(value: float) -> str:
    """An Elo difference as ``+77``, ``-120``, ``+inf`` or ``-inf``."""
    return f"{round(value):+d}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")


def _variance(wins: float, losses: float, draws: float) -> float:
    """Per-game variance of the score of these (possibly fractional) counts."""
    n = wins + losses + draws
    s = (wins + draws / 2) / n
    return (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s**2) / n
