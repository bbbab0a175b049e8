"""Rule variants as data: Gomocup's INFO rule bitmask both ways, names, sizes."""

from __future__ import annotations

import pytest

from tengen.gomoku import GomokuRules, Opening, Rule


@pytest.mark.parametrize(
    ("bitmask", "rule"),
    [
        (0, Rule.FREESTYLE),
        (1, Rule.STANDARD),
        (2, Rule.FREESTYLE),  # continuous game: irrelevant to judging
        (3, Rule.STANDARD),
        (4, Rule.RENJU),
        (5, Rule.RENJU),
        (8, Rule.CARO),
        (9, Rule.CARO),
        (12, Rule.RENJU),  # renju wins over caro, as GomocupJudge picks
    ],
)
def test_from_gomocup(bitmask: int, rule: Rule) -> None:
    assert GomokuRules.from_gomocup(bitmask, 20, 20) == GomokuRules(rule, 20, 20)


@pytest.mark.parametrize("rule", list(Rule))
def test_gomocup_round_trip(rule: Rule) -> None:
    rules = GomokuRules(rule)
    assert GomokuRules.from_gomocup(rules.to_gomocup()) == rules
    assert rules.to_gomocup() in (0, 1, 4, 8)


@pytest.mark.parametrize("bitmask", [-1, 16, 17])
def test_unknown_gomocup_bits(bitmask: int) -> None:
    with pytest.raises(ValueError, match="unknown Gomocup rule"):
        GomokuRules.from_gomocup(bitmask)


def test_parse() -> None:
    assert GomokuRules.parse(" Renju ") == GomokuRules(Rule.RENJU)
    assert GomokuRules.parse("caro", 19, 19).width == 19
    with pytest.raises(ValueError, match="'omok'"):
        GomokuRules.parse("omok")


@pytest.mark.parametrize(("width", "height"), [(4, 15), (15, 53), (0, 0)])
def test_size_limits(width: int, height: int) -> None:
    with pytest.raises(ValueError, match=r"outside 5x5\.\.52x52"):
        GomokuRules(width=width, height=height)


def test_defaults() -> None:
    rules = GomokuRules()
    assert (rules.rule, rules.width, rules.height, rules.opening) == (
        Rule.FREESTYLE,
        15,
        15,
        Opening.NONE,
    )
