"""The state of a Go game as the page receives it: board, last move, captures, chains, the
tree of variations, what a screen reader announces, the scoring and the clocks.

Plain functions of the session (`go_base.GoSessionBase`), read under its lock, as
`scoring_view` and `markup_view` draw their parts; `session.GameSession.state` returns `state`.
"""

from __future__ import annotations

from typing import Any

from tengen.core.color import Color
from tengen.core.coords import Move, Point
from tengen.render.grid import star_points
from tengen.sgf import Node
from tengen.web import markup_view, scoring_view
from tengen.web.go_base import GoSessionBase, node_index, node_move, vertex_name


def _move_label(node: Node, height: int) -> str:
    move = node_move(node)
    return "" if move is None else f"{move[0].letter} {vertex_name(move[1], height)}"


def state(session: GoSessionBase) -> dict[str, Any]:
    """Everything a page needs to draw the game, the same for every viewer."""
    game = session.cursor.game
    board = game.board
    w, h = game.width, game.height
    node = session.cursor.node
    last = None
    try:
        move = node.move_at((w, h))  # `tt` read with the game's size: no walk to the root
        last = move[1] if move else None
    except ValueError:
        pass
    numbers: dict[Point, int] = {}
    line: list[Node] = []
    n: Node | None = node
    while n is not None:
        line.append(n)
        n = n.parent
    count = 0
    for step in reversed(line):
        try:
            mv = step.move_at((w, h))
        except ValueError:
            mv = None
        if "B" in step.properties or "W" in step.properties:
            count += 1
        if mv and mv[1] is not None:
            numbers[mv[1]] = step.get("MN") or count
    grid = board.grid()
    rows = ["".join(".BW"[int(v)] for v in row) for row in grid]
    ko = board.ko_point if board.ko_color == game.to_play else None
    line_end = node
    while line_end.children:
        line_end = line_end.children[0]
    siblings = node.parent.children if node.parent is not None else [node]
    root = session.tree.root
    return {
        "id": session.id,
        "version": session.version,
        "title": session.title(),
        "mode": session.mode,
        "phase": session.phase(),
        "width": w,
        "height": h,
        "stars": [[p.col, p.row] for p in star_points(w, h)],
        "board": rows,
        "to_play": game.to_play.name.lower(),
        "move_number": session.cursor.move_number,
        "line_length": line_end.move_number,
        "last_move": None if last is None else list(last),
        "last_pass": bool(session.cursor.move_number and last is None and node.move_at((w, h))),
        "ko": None if ko is None else list(ko),
        "captures": {
            "black": board.captures(Color.BLACK),
            "white": board.captures(Color.WHITE),
        },
        "numbers": [[p.col, p.row, v] for p, v in numbers.items() if board[p] is not None],
        "chains": [
            {
                "label": c.label,
                "color": c.color.name.lower(),
                "stones": sorted([p.col, p.row] for p in c.stones),
                "liberties": len(c.liberties),
            }
            for c in board.chains()
        ],
        "announce": _announce(session, node, last),
        **session.common_state(),
        "ruleset": game.ruleset.name,
        "komi": game.ruleset.komi,
        "handicap_left": session.placing_handicap(),
        "result": root.get("RE"),
        "comment": session.cursor.comment,
        "markup": markup_view.view(node, w, h),
        "variations": [
            {"index": i, "label": _move_label(c, h) or "(no move)"}
            for i, c in enumerate(node.children)
        ],
        "sibling": {
            "index": next(i for i, c in enumerate(siblings) if c is node),
            "count": len(siblings),
        },
        "tree": _tree_view(session),
        "problems": [str(p) for p in session.cursor.problems][-5:],
        "warnings": list(session.meta.warnings)[-5:],
        "scoring": scoring_view.view(session) if session.meta.dead is not None else None,
        "clock": None if session.clocks is None else session.clocks.view(),
    }


def _announce(session: GoSessionBase, node: Node, last: Move) -> str:
    """What a screen reader says after the last change: move, captures, atari."""
    try:
        move = node.move
    except ValueError:
        return ""
    if move is None:
        return "Start of the game." if node.parent is None else ""
    color, point = move
    game = session.cursor.game
    h = game.height
    parts = [f"{color.name.title()} " + ("passes" if point is None else vertex_name(point, h))]
    played = game.moves[-1] if game.moves else None
    if played is not None and played.captured:
        parts.append(f"captures {played.captured}")
    for chain in game.board.chains_in_atari():
        if chain.color is color.opponent:
            stone = min(chain.stones, key=lambda p: (p.row, p.col))
            parts.append(f"{chain.color.name.lower()} in atari at {vertex_name(stone, h)}")
    if "RE" in session.tree.root.properties and session.mode == "play":
        parts.append(f"result {session.tree.root.get('RE')}")
    return ", ".join(parts) + "."


def _tree_view(session: GoSessionBase) -> dict[str, Any]:
    """The nodes laid out for a tree drawing: depth across, one lane per variation."""
    current = session.cursor.node
    on_path: set[int] = set()
    n: Node | None = current
    while n is not None:
        on_path.add(id(n))
        n = n.parent
    nodes: list[list[Any]] = []
    lanes = 0
    stack: list[tuple[Node, int, int, int]] = [(session.tree.root, 0, 0, -1)]
    while stack:
        node, depth, lane, parent = stack.pop()
        index = len(nodes)
        color = "B" if "B" in node.properties else "W" if "W" in node.properties else ""
        nodes.append([depth, lane, parent, color, int(id(node) in on_path)])
        lanes = max(lanes, lane)
        children = []
        for i, child in enumerate(node.children):
            if i == 0:
                children.append((child, depth + 1, lane, index))
            else:
                lanes += 1
                children.append((child, depth + 1, lanes, index))
        stack.extend(reversed(children))
    return {"nodes": nodes, "current": node_index(session.tree, current)}
