"""Match statistics against values computed by hand or by reference formulas."""

from __future__ import annotations

import math

import pytest

from tengen.match.game import GameConfig
from tengen.match.players import PlayerSpec
from tengen.match.runner import GameResult, RunConfig, table
from tengen.match.stats import (
    Tally,
    elo,
    elo_estimate,
    elo_interval,
    expected_score,
    sprt,
    wilson,
)


def test_tally_counts_and_scores() -> None:
    t = Tally().add(1).add(0.5).add(0).add(1)
    assert (t.wins, t.losses, t.draws, t.games) == (2, 1, 1, 4)
    assert t.score == 0.625
    with pytest.raises(ValueError):
        t.add(0.3)


def test_wilson_interval_known_values() -> None:
    low, high = wilson(Tally(8, 2))
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    assert wilson(Tally()) == (0.0, 1.0)
    low, high = wilson(Tally(10, 0))
    assert high == pytest.approx(1.0) and low == pytest.approx(0.7225, abs=1e-4)


def test_elo_of_known_scores() -> None:
    assert elo(0.5) == 0
    assert elo(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf
    assert expected_score(elo(0.64)) == pytest.approx(0.64)


def test_elo_error_bars_surround_the_estimate_and_shrink_with_games() -> None:
    e, low, high = elo_interval(Tally(60, 40))
    assert e == pytest.approx(70.44, abs=0.01)
    se = math.sqrt(0.24 / 100)  # score 0.6, per-game variance 0.6 * 0.4
    assert low == pytest.approx(elo(0.6 - 1.959964 * se), abs=0.01)
    assert high == pytest.approx(elo(0.6 + 1.959964 * se), abs=0.01)
    _, low4, high4 = elo_interval(Tally(240, 160))
    assert high4 - low4 < (high - low) / 1.9


def test_sprt_decides_for_a_clear_edge_and_waits_on_little_data() -> None:
    assert sprt(Tally(3, 2), 0, 50)[1] is None
    llr, decision = sprt(Tally(300, 100), 0, 50)
    assert decision == "H1" and llr > math.log(19)
    assert sprt(Tally(100, 300), 0, 50)[1] == "H0"
    assert sprt(Tally(), 0, 50) == (0.0, None)


def test_sprt_decides_on_a_run_of_wins_only() -> None:
    assert sprt(Tally(1, 0), 0, 200)[1] is None
    assert sprt(Tally(5, 0), 0, 200)[1] == "H1"


@pytest.mark.parametrize("n", [1, 2, 10, 100])
def test_a_one_sided_record_gives_a_finite_bound_not_infinity(n: int) -> None:
    """n wins of n: the Wilson lower bound of the score is n / (n + z^2) in closed form."""
    bound = elo(n / (n + 1.959964**2))
    e, low, high = elo_interval(Tally(n, 0))
    assert e == math.inf and high == math.inf
    assert low == pytest.approx(bound, abs=0.01)
    assert elo_estimate(Tally(n, 0)) == f"> {round(bound):+d}"
    e, low, high = elo_interval(Tally(0, n))
    assert (e, low) == (-math.inf, -math.inf) and high == pytest.approx(-bound, abs=0.01)
    assert elo_estimate(Tally(0, n)) == f"< {round(-bound):+d}"


def test_all_draws_have_error_bars_and_a_mixed_record_prints_its_estimate() -> None:
    e, low, high = elo_interval(Tally(0, 0, 10))
    assert e == 0 and low == pytest.approx(-high) and high > 100
    assert elo_estimate(Tally(7, 3)) == "+147"


def test_the_table_prints_a_bound_for_a_clean_sweep() -> None:
    config = RunConfig(
        (PlayerSpec("a", "random"), PlayerSpec("b", "random")), 10, GameConfig(), "x"
    )
    results = [
        GameResult(i, *(("a", "b", "B+R") if i % 2 else ("b", "a", "W+R")), "resign", 9)
        for i in range(10)
    ]
    row = table(config, results).splitlines()[0]
    assert "+10 -0 =0" in row and "Elo > +166 [+166, +inf]" in row, row
    assert "-inf" not in row
