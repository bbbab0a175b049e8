"""What the page draws of one position's analysis, and the key that ties it to the position
shown: plain functions of an `Analysis`, apart from the jobs that make one (`web.analysis`)."""

from __future__ import annotations

from typing import Any

from tengen.ai.analysis import Analysis
from tengen.core.color import Color
from tengen.core.coords import to_gtp
from tengen.core.game import Game

SHOWN_MOVES = 10  # candidate moves drawn on the board


def position_key(game: Game) -> str:
    """The player to move and the stones, as the page can write them from a game state
    (``to_play:row/row/...``): an analysis is drawn only on the position it is about."""
    rows = ("".join(".BW"[int(v)] for v in row) for row in game.board.grid())
    return f"{game.to_play.name.lower()}:{'/'.join(rows)}"


def position_view(analysis: Analysis, key: str, running: bool) -> dict[str, Any]:
    """What the page draws: win rates and score leads (the moves' for the player to move,
    ``black_winrate`` and ``black_lead`` for the bar), the best moves with visits and principal
    variations, Black's ownership."""
    black = analysis.to_play is Color.BLACK
    h = analysis.height
    moves = [m for m in analysis.moves if m.visits > 0][:SHOWN_MOVES]
    return {
        "running": running,
        "key": key,
        "to_play": analysis.to_play.name.lower(),
        "visits": analysis.visits,
        "winrate": analysis.winrate,
        "black_winrate": analysis.winrate if black else 1 - analysis.winrate,
        "black_lead": analysis.score_lead if black else -analysis.score_lead,
        "moves": [
            {
                "vertex": to_gtp(m.move, h),
                "point": None if m.move is None else [m.move.col, m.move.row],
                "visits": m.visits,
                "winrate": m.winrate,
                "score_lead": m.score_lead,
                "prior": m.prior,
                "pv": [to_gtp(p, h) for p in m.pv],
            }
            for m in moves
        ],
        "ownership": [round(v, 2) for v in analysis.ownership],
        "width": analysis.width,
        "height": h,
    }
