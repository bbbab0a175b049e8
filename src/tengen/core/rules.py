"""Rulesets as data: orthogonal fields (ko, suicide, scoring, tax, handicap bonus, komi).

Named rulesets are presets of those fields, as in KataGo's ``rules.cpp``. `Ruleset.parse` reads a
preset name, the names real SGF ``RU[]`` properties carry, or KataGo's JSON rule object, and
raises ValueError naming what it does not know.

Superko and passes: positional superko forbids a move whose resulting stones equal those of any
earlier position of the game, the start included; situational superko forbids recreating an
earlier position with the same player to move. As in GNU Go, the history holds the position
after every move, passes included: a pass leaves the stones as they were (so it changes nothing
for positional superko) but makes a new situation, the same stones with the other player to
move, which situational superko then forbids recreating.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, replace
from enum import Enum
from typing import Any


class KoRule(Enum):
    """Which repetitions a move may not create."""

    SIMPLE = "simple"
    POSITIONAL = "positional"
    SITUATIONAL = "situational"


class Scoring(Enum):
    """What is counted at the end: stones and territory, or territory and prisoners."""

    AREA = "area"
    TERRITORY = "territory"


class Tax(Enum):
    """Group tax: points deducted per group (stone scoring) or none."""

    NONE = "none"
    SEKI = "seki"
    ALL = "all"


class HandicapBonus(Enum):
    """Points White gets per black handicap stone under area scoring: 0, N or N-1."""

    ZERO = "0"
    N = "N"
    N_MINUS_1 = "N-1"


@dataclass(frozen=True)
class Ruleset:
    """The rules of one game. Equality, hashing and repr come from the dataclass."""

    name: str = "custom"
    ko: KoRule = KoRule.POSITIONAL
    scoring: Scoring = Scoring.AREA
    suicide_allowed: bool = False
    tax: Tax = Tax.NONE
    handicap_bonus: HandicapBonus = HandicapBonus.ZERO
    has_button: bool = False
    komi: float = 7.5

    def with_komi(self, komi: float) -> Ruleset:
        """The same rules with another komi."""
        return replace(self, komi=komi)

    @classmethod
    def parse(cls, text: str) -> Ruleset:
        """A preset by name, an SGF ``RU[]`` name, or a KataGo JSON rule object.

        Raises ValueError naming the unknown ruleset or key.
        """
        stripped = text.strip()
        if stripped.startswith("{"):
            return cls.from_json(stripped)
        key = _normalise(stripped)
        if key in _ALIASES:
            return PRESETS[_ALIASES[key]]
        known = ", ".join(sorted(PRESETS))
        raise ValueError(f"unknown ruleset {text!r} (known: {known}, or a JSON rule object)")

    @classmethod
    def from_json(cls, text: str | dict[str, Any]) -> Ruleset:
        """Read KataGo's rule object: ko, scoring, tax, suicide, hasButton, whiteHandicapBonus.

        Keys missing from the object keep the Tromp-Taylor defaults, as KataGo does; komi may
        be given too. Raises ValueError naming a bad key or value.
        """
        try:
            data = json.loads(text) if isinstance(text, str) else dict(text)
        except json.JSONDecodeError as err:
            raise ValueError(f"rules JSON: {err}") from None
        except RecursionError:  # the JSON reader recurses once per level of nesting
            raise ValueError("rules JSON: nested too deeply") from None
        if not isinstance(data, dict):
            raise ValueError("rules JSON must be an object")
        fields: dict[str, Any] = {}
        for key, value in data.items():
            if key == "ko":
                fields["ko"] = _enum(KoRule, key, value, {"spight": KoRule.SITUATIONAL})
            elif key == "scoring":
                fields["scoring"] = _enum(Scoring, key, value)
            elif key == "tax":
                fields["tax"] = _enum(Tax, key, value)
            elif key in ("suicide", "multiStoneSuicideLegal"):
                fields["suicide_allowed"] = _bool(key, value)
            elif key == "hasButton":
                fields["has_button"] = _bool(key, value)
            elif key == "whiteHandicapBonus":
                fields["handicap_bonus"] = _enum(HandicapBonus, key, str(value))
            elif key == "komi":
                if not isinstance(value, int | float) or isinstance(value, bool):
                    raise ValueError(f"rules JSON: komi must be a number, not {value!r}")
                fields["komi"] = float(value)
            elif key == "friendlyPassOk":
                _bool(key, value)
            else:
                raise ValueError(f"rules JSON: unknown key {key!r}")
        return replace(TROMP_TAYLOR, name="custom", **fields)

    def to_json(self) -> str:
        """KataGo's JSON rule object for these rules (what ``kata-get-rules`` prints)."""
        d = asdict(self)
        return json.dumps(
            {
                "ko": self.ko.name,
                "scoring": self.scoring.name,
                "tax": self.tax.name,
                "suicide": self.suicide_allowed,
                "hasButton": self.has_button,
                "whiteHandicapBonus": self.handicap_bonus.value,
                "komi": d["komi"],
            }
        )


def _normalise(name: str) -> str:
    return re.sub(r"[\s_\-/]+", "", name.lower())


def _enum(kind: Any, key: str, value: Any, extra: dict[str, Any] | None = None) -> Any:
    if isinstance(value, str):
        v = value.lower()
        if extra and v in extra:
            return extra[v]
        for member in kind:
            if v in (member.value.lower(), member.name.lower()):
                return member
    names = "|".join(m.name for m in kind)
    raise ValueError(f"rules JSON: {key} must be one of {names}, not {value!r}")


def _bool(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"rules JSON: {key} must be true or false, not {value!r}")
    return value


CHINESE = Ruleset("chinese", KoRule.POSITIONAL, Scoring.AREA, handicap_bonus=HandicapBonus.N)
JAPANESE = Ruleset("japanese", KoRule.SIMPLE, Scoring.TERRITORY, tax=Tax.SEKI, komi=6.5)
KOREAN = Ruleset("korean", KoRule.SIMPLE, Scoring.TERRITORY, tax=Tax.SEKI, komi=6.5)
AGA = Ruleset("aga", KoRule.SITUATIONAL, Scoring.AREA, handicap_bonus=HandicapBonus.N_MINUS_1)
NEW_ZEALAND = Ruleset("new-zealand", KoRule.SITUATIONAL, Scoring.AREA, suicide_allowed=True)
TROMP_TAYLOR = Ruleset("tromp-taylor", KoRule.POSITIONAL, Scoring.AREA, suicide_allowed=True)
ING = Ruleset("ing", KoRule.SITUATIONAL, Scoring.AREA, suicide_allowed=True, komi=8.0)
STONE_SCORING = Ruleset("stone-scoring", KoRule.SIMPLE, Scoring.AREA, tax=Tax.ALL)

PRESETS: dict[str, Ruleset] = {
    r.name: r
    for r in (CHINESE, JAPANESE, KOREAN, AGA, NEW_ZEALAND, TROMP_TAYLOR, ING, STONE_SCORING)
}

# Names seen in SGF RU[] and GTP kgs-rules, normalised (lower case, no spaces, dashes or _).
_ALIASES: dict[str, str] = {_normalise(name): name for name in PRESETS}
_ALIASES.update(
    {
        "cn": "chinese",
        "chn": "chinese",
        "chineseogs": "chinese",
        "chinesekgs": "chinese",
        "jp": "japanese",
        "jpn": "japanese",
        "japan": "japanese",
        "ko": "korean",
        "kr": "korean",
        "korea": "korean",
        "americangoassociation": "aga",
        "bgf": "aga",
        "french": "aga",
        "nz": "new-zealand",
        "newzealand": "new-zealand",
        "tt": "tromp-taylor",
        "tromptaylor": "tromp-taylor",
        "goe": "ing",
        "ingrules": "ing",
        "ingcounting": "ing",
        "stonescoring": "stone-scoring",
    }
)
