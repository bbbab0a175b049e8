"""The state of a Gomoku game as the page receives it: the Go page's fields (captures,
chains... empty) and Gomoku's own (renju's forbidden points, the five, the opening).

Plain functions of the session (`gomoku_base.GomokuSessionBase`), read under its lock;
`gomoku_session.GomokuSession.state` returns `state`.
"""

from __future__ import annotations

from typing import Any

from tengen.core.coords import Point, to_gtp
from tengen.gomoku import GomokuGame
from tengen.render.grid import star_points
from tengen.web import opening
from tengen.web.gomoku_base import GomokuSessionBase


def state(session: GomokuSessionBase) -> dict[str, Any]:
    """The Go page's state fields (captures, chains... empty) plus Gomoku's own:
    ``forbidden`` ([col, row, reason] for Black under renju), ``winning_line``, ``rule``."""
    game = session.shown_game()
    rules = game.rules
    w, h = rules.width, rules.height
    rows = [
        "".join("." if (c := game.board[Point(col, row)]) is None else c.letter for col in range(w))
        for row in range(h)
    ]
    last = game.moves[-1][1] if game.moves else None
    root = session.tree.root
    return {
        "id": session.id,
        "version": session.version,
        "game": "gomoku",
        "title": session.title(),
        "mode": session.mode,
        "phase": session.phase(),
        "rule": rules.rule.value,
        "width": w,
        "height": h,
        "stars": [[p.col, p.row] for p in star_points(w, h)],
        "board": rows,
        "to_play": game.to_play.name.lower(),
        "acting": opening.actor(game).name.lower(),
        "black_player": session.game.black_player,
        "opening": opening.view(game, session.meta) if session.mode == "play" else None,
        "move_number": game.move_number,
        "line_length": session.game.move_number,
        "last_move": None if last is None else list(last),
        "last_pass": False,
        "ko": None,
        "captures": {"black": 0, "white": 0},
        "numbers": [[p.col, p.row, i + 1] for i, (_, p) in enumerate(game.moves)],
        "chains": [],
        "forbidden": [[p.col, p.row, why] for p, why in sorted(game.forbidden_points().items())],
        "winning_line": None
        if game.winning_line is None
        else sorted([p.col, p.row] for p in game.winning_line),
        "winner": None if game.winner is None else game.winner.name.lower(),
        "announce": _announce(game),
        **session.common_state(),
        "ruleset": rules.rule.value,
        "komi": None,
        "handicap_left": 0,
        "result": game.result or None,
        "drawn_because": game.drawn_because,
        "comment": root.get("GC") or root.get("C") or "",
        "variations": [],
        "sibling": {"index": 0, "count": 1},
        "tree": {
            "nodes": [
                [
                    i,
                    0,
                    i - 1,
                    "" if i == 0 else session.game.moves[i - 1][0].letter,
                    int(i <= game.move_number),
                ]
                for i in range(session.game.move_number + 1)
            ],
            "current": game.move_number,
        },
        "problems": [],
        "warnings": list(session.meta.warnings)[-5:],
        "scoring": None,
    }


def _announce(game: GomokuGame) -> str:
    """What a screen reader says after the last change: the stone, a five, the result."""
    if not game.moves:
        return "Start of the game."
    color, point = game.moves[-1]
    parts = [f"{color.name.title()} {to_gtp(point, game.rules.height)}"]
    if game.winning_line is not None:
        parts.append("five in a row")
    if game.result:
        parts.append(f"result {game.result}")
    return ", ".join(parts) + "."
