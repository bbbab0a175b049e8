"""The scoring view of a session: dead stones marked, territory shown, result by the ruleset.

Counting is `tengen.scoring`'s; this module keeps the session's list of dead stones (in its
metadata, so it is saved with the game), starts it from an estimate, toggles chains on a
click, and keeps who has accepted the marking: in play mode each person at the board does
(their seats' colours, in ``accepted``), again after any change, before the session writes
the result to the record's RE. The first marking is
`tengen.scoring.life`'s estimate (Benson, then random playouts, then a seki check).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.core.rules import TROMP_TAYLOR
from tengen.scoring import PointStatus, life, score_game, toggle_dead
from tengen.web.seats import COMPUTER

if TYPE_CHECKING:
    from tengen.web.go_base import GoSessionBase

_TERRITORY = {
    PointStatus.BLACK_TERRITORY: "black",
    PointStatus.DEAD_WHITE: "black",
    PointStatus.WHITE_TERRITORY: "white",
    PointStatus.DEAD_BLACK: "white",
}


def _points(points: set[Point]) -> list[list[int]]:
    return sorted([p.col, p.row] for p in points)


def start(session: GoSessionBase) -> None:
    """Enter the scoring view with the estimated dead and seki stones (the caller saves).

    Tromp-Taylor counts the board as it stands, so nothing is marked dead there.
    """
    game = session.cursor.game
    estimate = life.estimate(game, seed=1)
    tromp_taylor = game.ruleset.name == TROMP_TAYLOR.name
    session.meta.dead = [] if tromp_taylor else _points(life.dead_stones(estimate))
    session.meta.seki = _points(life.seki_stones(estimate))
    session.meta.accepted = []


def dead_points(session: GoSessionBase) -> set[Point]:
    """The stones marked dead now."""
    return {Point(c, r) for c, r in session.meta.dead or []}


def seki_points(session: GoSessionBase) -> set[Point]:
    """The stones in seki (from the estimate, less any marked dead since)."""
    return {Point(c, r) for c, r in session.meta.seki or []}


def toggle(session: GoSessionBase, point: Point) -> None:
    """Mark the chain at `point` (and the chains that live or die with it) dead or alive."""
    dead = toggle_dead(session.cursor.game.board, dead_points(session), point)
    session.meta.dead = _points(dead)
    session.meta.seki = _points(seki_points(session) - dead)
    session.meta.accepted = []  # another marking: everyone accepts again


def accept(session: GoSessionBase, colors: set[Color]) -> None:
    """The holder of the seats of `colors` accepts the marking."""
    accepted = set(session.meta.accepted or []) | {c.name.lower() for c in colors}
    session.meta.accepted = sorted(accepted)


def waiting_for(session: GoSessionBase) -> list[str]:
    """The seats held by people (on this screen or another) that have not accepted yet, in
    play mode (in review, whoever counts decides)."""
    if session.mode != "play":
        return []
    accepted = set(session.meta.accepted or [])
    return [
        name
        for name, seat in session.meta.seats.items()
        if seat["kind"] not in COMPUTER and name not in accepted
    ]


def view(session: GoSessionBase) -> dict[str, Any]:
    """Dead stones, each side's territory, the result and its explanation, and who has
    accepted the marking and who is still to, for the page."""
    dead = dead_points(session)
    result: dict[str, Any] = {
        "dead": _points(dead),
        "territory": {"black": [], "white": []},
        "accepted": list(session.meta.accepted or []),
        "waiting_for": waiting_for(session),
    }
    try:
        score = score_game(session.cursor.game, dead, seki_points(session))
    except ValueError as err:
        result.update(result=None, explain=str(err))
        return result
    for point, status in score.status.items():
        side = _TERRITORY.get(status)
        if side is not None:
            result["territory"][side].append([point.col, point.row])
    result.update(result=score.result.to_sgf(), explain=score.explain())
    return result
