"""Rulesets: presets, the names real records carry, and KataGo's JSON rule objects."""

from __future__ import annotations

import pytest

from tengen.core.rules import (
    AGA,
    CHINESE,
    ING,
    JAPANESE,
    NEW_ZEALAND,
    PRESETS,
    TROMP_TAYLOR,
    HandicapBonus,
    KoRule,
    Ruleset,
    Scoring,
    Tax,
)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Japanese", JAPANESE),
        ("chinese", CHINESE),
        ("AGA", AGA),
        ("NZ", NEW_ZEALAND),
        ("New Zealand", NEW_ZEALAND),
        ("GOE", ING),
        ("Tromp/Taylor", TROMP_TAYLOR),
        ("tromp-taylor", TROMP_TAYLOR),
        (" korean ", PRESETS["korean"]),
    ],
)
def test_names_from_sgf_ru(name: str, expected: Ruleset) -> None:
    assert Ruleset.parse(name) == expected


def test_unknown_name_is_named_in_the_error() -> None:
    with pytest.raises(ValueError, match="Klingon"):
        Ruleset.parse("Klingon")


def test_presets_differ_where_the_rules_do() -> None:
    assert JAPANESE.scoring is Scoring.TERRITORY and JAPANESE.ko is KoRule.SIMPLE
    assert CHINESE.scoring is Scoring.AREA and CHINESE.handicap_bonus is HandicapBonus.N
    assert AGA.handicap_bonus is HandicapBonus.N_MINUS_1 and AGA.ko is KoRule.SITUATIONAL
    assert TROMP_TAYLOR.suicide_allowed and not CHINESE.suicide_allowed


def test_katago_json_round_trip_and_errors() -> None:
    rules = Ruleset.parse(
        '{"ko": "SITUATIONAL", "scoring": "TERRITORY", "tax": "SEKI", "suicide": false,'
        ' "hasButton": false, "whiteHandicapBonus": "N-1", "komi": 6.5}'
    )
    assert rules.ko is KoRule.SITUATIONAL and rules.tax is Tax.SEKI and rules.komi == 6.5
    assert Ruleset.from_json(rules.to_json()) == rules
    with pytest.raises(ValueError, match="unknown key 'koRule'"):
        Ruleset.parse('{"koRule": "SIMPLE"}')
    with pytest.raises(ValueError, match="ko must be one of"):
        Ruleset.parse('{"ko": "SOMETIMES"}')
    with pytest.raises(ValueError, match="rules JSON"):
        Ruleset.parse("{not json")


def test_json_nested_too_deeply_is_a_value_error() -> None:
    """The JSON reader recurses per level: 5000 levels must be a ValueError naming it."""
    with pytest.raises(ValueError, match="nested too deeply"):
        Ruleset.parse('{"ko":' * 5000)
