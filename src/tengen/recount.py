"""Recount a finished record and compare the count with the result it states in RE[].

A record is compared only when it was counted (RE like ``B+3.5``) and played to the end: once
the estimated dead stones are off, no dame or open border is left. A record without RU is
compared under area and territory counting, since its players may have used either.
"""

from __future__ import annotations

from dataclasses import dataclass

from tengen.core.rules import JAPANESE
from tengen.scoring import Result, Score, score_game, unsettled
from tengen.scoring.life import dead_stones, estimate, seki_stones
from tengen.sgf import GameTree
from tengen.sgf.properties import interpret_simpletext
from tengen.sgf.replay import replay


@dataclass(frozen=True)
class Recount:
    """A record's stated result beside tengen's count, and how sure the dead stones are."""

    recorded: Result
    counted: Score
    agrees: bool
    confidence: float  # the least confidence of any chain's status in the estimate


def recount(tree: GameTree) -> Recount | None:
    """The recount of a counted, finished Go record; None when there is nothing to compare.

    Raises ValueError if RE[] cannot be read or the record cannot be replayed (bad SZ, GM).
    """
    raw = tree.root.get_raw("RE")
    if not raw:
        return None
    recorded = Result.from_sgf(interpret_simpletext(raw[0]))
    if recorded.reason != "score" or recorded.margin is None:
        return None
    game, _ = replay(tree)
    est = estimate(game)
    dead, seki = dead_stones(est), seki_stones(est)
    if unsettled(game.board, dead, seki):
        return None
    score = score_game(game, dead, seki)
    agrees = score.result == recorded
    if not agrees and not tree.root.get_raw("RU"):
        game.ruleset = JAPANESE.with_komi(game.ruleset.komi)
        territory = score_game(game, dead, seki)
        if territory.result == recorded:
            score, agrees = territory, True
    confidence = min((c.confidence for c in est.chains), default=1.0)
    return Recount(recorded, score, agrees, confidence)
