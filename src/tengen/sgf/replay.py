"""Replay a game record on the rules core: the position at any node of an SGF game tree.

The root's SZ, RU and KM pick the board and the ruleset; HA with AB in the root places the
handicap. Each node then applies its setup (AB, AW, AE, PL) and its move (B or W). Records are
taken as players wrote them: either colour may move at any time (handicap stones entered as
moves, missing passes) and play goes on after passes. An illegal move is a `ReplayProblem`
naming the node path and move number; strict replay raises it, permissive replay plays the move
anyway under the bare capture rules and carries on. Every walk here keeps a `Place`, so naming
a problem's node costs no walk to the root.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from tengen.core.color import Color
from tengen.core.coords import Point, to_sgf
from tengen.core.errors import IllegalMove
from tengen.core.game import Game
from tengen.core.rules import KoRule, Ruleset, Scoring
from tengen.sgf import collector, properties
from tengen.sgf.tree import GameTree, Node, Place


@dataclass(frozen=True)
class ReplayProblem:
    """Something in a record the rules refuse, and where: the node, and `where` names it by
    move number and path (``Node.describe``)."""

    node: Node
    message: str
    where: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


class ReplayError(ValueError):
    """Strict replay met a problem; `problem` says what and where."""

    def __init__(self, problem: ReplayProblem) -> None:
        self.problem = problem
        super().__init__(str(problem))


# Without RU a record is checked by the capture rules and simple ko only: superko is a rule
# some rulesets add, and many records (triple-ko games among them) were played without it.
UNSPECIFIED = Ruleset("unspecified", KoRule.SIMPLE, Scoring.AREA)


_FOX_KOMI_SCALE = 100  # no real komi reaches 100 points; Fox's x100 values always do
_OLD_PL = {"1": Color.BLACK, "2": Color.WHITE}


def ruleset_of(tree: GameTree) -> tuple[Ruleset, list[str]]:
    """The ruleset named by RU with the komi of KM (`UNSPECIFIED` when there is no RU).

    An unknown RU or an unreadable KM falls back to the default and is reported in the notes.
    """
    root = tree.root
    names, komi = root.get_raw("RU"), root.get_raw("KM")
    ruleset, notes = ruleset_from_raw(names[0] if names else None, komi[0] if komi else None)
    return ruleset, list(notes)


@lru_cache(maxsize=256)
def ruleset_from_raw(ru: str | None, km: str | None) -> tuple[Ruleset, tuple[str, ...]]:
    """`ruleset_of` from the raw values of RU and KM (None when absent); cached, as bulk
    replay meets the same few pairs again and again."""
    notes: list[str] = []
    ruleset = UNSPECIFIED
    if ru is not None:
        try:
            ruleset = Ruleset.parse(properties.interpret_simpletext(ru))
        except ValueError as err:
            notes.append(f"RU: {err}; counting with {ruleset.name} rules")
    if km is not None:
        try:
            value = properties.interpret_real(km)
        except ValueError as err:
            notes.append(f"KM: {err}")
        else:
            if abs(value) >= _FOX_KOMI_SCALE:  # Fox writes komi times 100: KM[750] is 7.5
                notes.append(f"KM[{km}] read as {value / _FOX_KOMI_SCALE:g} (Fox writes x100)")
                value /= _FOX_KOMI_SCALE
            ruleset = ruleset.with_komi(value)
    return ruleset, tuple(notes)


def new_game(tree: GameTree, *, permissive: bool = True) -> Game:
    """An empty game on the record's board under its rules.

    Raises ValueError for a bad SZ, or for a record of another game than Go (GM other than 1).
    """
    if tree.game_type != 1:
        raise ValueError(f"GM[{tree.game_type}] is not Go: only Go records (GM[1]) replay here")
    width, height = tree.size
    ruleset, _ = ruleset_of(tree)
    return Game(
        width,
        height,
        ruleset,
        permissive=permissive,
        free_turns=True,
        end_after_passes=False,
    )


_SETUP_IDENTS = frozenset(("AB", "AW", "AE", "PL"))
_BLACK, _WHITE = Color.BLACK, Color.WHITE


def apply_node(
    game: Game, node: Node, *, strict: bool = False, place: Place | None = None
) -> list[ReplayProblem]:
    """Apply one node's setup and move to `game`; return what the rules refused.

    Each change is one undoable action of the game (``game.actions`` grows by one per change),
    so undoing that many actions takes the node back. Raises ReplayError in strict mode.
    `place` (standing at `node`) names the node in problems; without it a problem walks to the
    root to name it.

    Most nodes hold no setup and a move written as two letters on the board or as ``[]`` (a
    pass): these go straight to `_play`, which the general path ends with too, as it reports
    nothing before the move for such a node.
    """
    props = node.properties
    if _SETUP_IDENTS.isdisjoint(props):
        if "B" not in props and "W" not in props:
            return []
        plain = _plain_move(props, game.width, game.height)
        if plain is not None:
            return _play(game, node, place, *plain, strict, [])
    return _apply_node_general(game, node, place, strict)


def _plain_move(
    props: dict[str, list[str]], width: int, height: int
) -> tuple[Color, Point | None, str] | None:
    """The move of a node without setup when it is a pass (``[]``) or two letters on the
    board: (colour, point or None, raw value); None for anything the general path must read."""
    values = props.get("B")
    color = _BLACK
    if not values:
        values = props.get("W")
        color = _WHITE
        if not values:
            return None
    raw = values[0]
    if raw == "":
        return color, None, raw
    point = properties.PLAIN_POINTS.get(raw)
    if point is not None and raw != "tt" and point[0] < width and point[1] < height:
        return color, point, raw
    return None


def _report(
    problems: list[ReplayProblem], node: Node, place: Place | None, message: str, strict: bool
) -> None:
    """Add a problem, or raise it as a ReplayError in strict mode."""
    where = node.describe() if place is None else place.describe()
    problem = ReplayProblem(node, message, where)
    if strict:
        raise ReplayError(problem)
    problems.append(problem)


def _play(
    game: Game,
    node: Node,
    place: Place | None,
    color: Color,
    point: Point | None,
    raw: str,
    strict: bool,
    problems: list[ReplayProblem],
) -> list[ReplayProblem]:
    """Play a node's move (its raw value `raw`), reporting what the rules refuse; `problems`."""
    try:
        played = game.play(point, color)
    except IllegalMove as err:
        message = f"illegal move {color.letter}[{raw}]: {err.reason.value}"
        _report(problems, node, place, message, strict)
        return problems
    for reason in played.violations:
        message = f"illegal move {color.letter}[{raw}]: {reason.value}"
        _report(problems, node, place, message, strict)
    return problems


def _apply_node_general(
    game: Game, node: Node, place: Place | None, strict: bool
) -> list[ReplayProblem]:
    """`apply_node` for any node: setup (AB, AW, AE, PL) first, then the move."""
    problems: list[ReplayProblem] = []

    def report(message: str) -> None:
        _report(problems, node, place, message, strict)

    setup: dict[str, list[Point]] = {}
    for ident in ("AB", "AW", "AE"):
        if ident in node.properties:
            try:
                points: list[Point] = node.get(ident)
            except ValueError as err:
                report(f"{ident}: {err}")
                continue
            on_board = game.board.on_board
            kept = [p for p in points if on_board(p)]
            if len(kept) < len(points):
                off = next(p for p in points if not on_board(p))
                report(f"{ident} point {to_sgf(off)} is off the {game.width}x{game.height} board")
            setup[ident] = kept
    to_play: Color | None = None
    if "PL" in node.properties:
        raw_pl = node.properties["PL"][0].strip()
        try:
            # FF[1]-FF[3] programs (GNU Go's old files among them) wrote PL[1] and PL[2].
            to_play = _OLD_PL.get(raw_pl) or node.get("PL")
        except ValueError as err:
            report(f"PL: {err}")
    if setup or to_play is not None:
        try:
            game.setup(
                black=setup.get("AB", ()),
                white=setup.get("AW", ()),
                empty=setup.get("AE", ()),
                to_play=to_play,
                handicap=node.parent is None and "HA" in node.properties,
            )
        except ValueError as err:
            report(f"setup: {err}")
    try:
        move = node.move_at((game.width, game.height))
    except ValueError as err:
        report(f"move: {err}")
        return problems
    if move is None:
        return problems
    color, point = move
    raw = (node.get_raw(color.letter) or [""])[0]
    if point is not None and not game.board.on_board(point):
        report(
            f"{color.letter}[{raw}] is off the {game.width}x{game.height} board; played as a pass"
        )
        point = None
    return _play(game, node, place, color, point, raw, strict, problems)


def replay(
    tree: GameTree, node: Node | None = None, *, strict: bool = False
) -> tuple[Game, list[ReplayProblem]]:
    """The game at `node` (default: the end of the main line) and every problem on the way.

    Raises ReplayError in strict mode, and ValueError if the root's SZ is not a board size.
    """
    collecting = collector.pause()
    try:
        path = [0] * (len(tree.main_line()) - 1) if node is None else node.path
        game = new_game(tree, permissive=not strict)
        n = tree.root
        place = Place(n)
        problems = apply_node(game, n, strict=strict, place=place)
        if strict:
            for index in path:
                n = n.children[index]
                place.down(index, n)
                problems.extend(apply_node(game, n, strict=True, place=place))
        else:
            nodes = []
            for index in path:
                n = n.children[index]
                nodes.append(n)
            problems.extend(_PathReplay(game, nodes, path, place).run())
        return game, problems
    finally:
        collector.resume(collecting)


class _PathReplay:
    """`apply_node` of each node of a path down the tree in turn: runs of nodes that hold only
    a plain move (see `_plain_move`) are played by `Game.play_moves`, one kernel call per run
    instead of one Python move each. The `Place` steps down only as far as a problem needs it
    named, so a clean path costs no walk at all."""

    # Moves per play_moves call: the most at first; after a refused move the fewest, doubling
    # while none is refused.
    FEWEST, MOST = 16, 4096

    def __init__(self, game: Game, nodes: list[Node], path: list[int], place: Place) -> None:
        """`nodes[i]` is child `path[i]` of the node before it, the first one a child of the
        node `place` stands at, where `game` holds the position."""
        self.game, self.nodes, self.path, self.place = game, nodes, path, place
        self.stepped = 0  # how many of `nodes` the place has stepped down through
        self.problems: list[ReplayProblem] = []

    def run(self) -> list[ReplayProblem]:
        """Apply every node of the path; return the problems."""
        game = self.game
        width, height = game.width, game.height
        moves: list[tuple[Point | None, Color]] = []
        raws: list[tuple[int, str]] = []  # (node index, raw value) of each move in `moves`
        for i, node in enumerate(self.nodes):
            props = node.properties
            if _SETUP_IDENTS.isdisjoint(props):
                if "B" not in props and "W" not in props:
                    continue
                plain = _plain_move(props, width, height)
                if plain is not None:
                    color, point, raw = plain
                    moves.append((point, color))
                    raws.append((i, raw))
                    continue
            self._play_run(moves, raws)
            moves, raws = [], []
            self.problems.extend(apply_node(game, node, place=self.place_at(i)))
        self._play_run(moves, raws)
        return self.problems

    def _play_run(
        self, moves: list[tuple[Point | None, Color]], raws: list[tuple[int, str]]
    ) -> None:
        """Play a run of plain moves, in chunks: a refused move (an occupied point) is played
        alone to report it, and the chunks start small again after it, so that a record of
        refused moves costs linear time."""
        game, chunk, start = self.game, self.MOST, 0
        while start < len(moves):
            end = min(start + chunk, len(moves))
            entries = game.play_moves(moves[start:end])
            for j, entry in enumerate(entries, start):
                if entry.violations:
                    index, raw = raws[j]
                    for reason in entry.violations:
                        self._report(
                            index, f"illegal move {entry.color.letter}[{raw}]: {reason.value}"
                        )
            start += len(entries)
            if start < end:
                index, raw = raws[start]
                point, color = moves[start]
                place = self.place_at(index)
                _play(game, self.nodes[index], place, color, point, raw, False, self.problems)
                start += 1
                chunk = self.FEWEST
            else:
                chunk = min(2 * chunk, self.MOST)

    def _report(self, index: int, message: str) -> None:
        _report(self.problems, self.nodes[index], self.place_at(index), message, False)

    def place_at(self, index: int) -> Place:
        """The place, stepped down to `nodes[index]` (never up: the replay only goes down)."""
        place, nodes, path = self.place, self.nodes, self.path
        while self.stepped <= index:
            place.down(path[self.stepped], nodes[self.stepped])
            self.stepped += 1
        return place


def check_tree(tree: GameTree) -> list[ReplayProblem]:
    """Replay every node of every variation (depth first, undoing on the way back).

    Returns every problem found; raises ValueError only if the root's SZ is not a board size.
    """
    game = new_game(tree)
    place = Place(tree.root)
    return apply_node(game, tree.root, place=place) + check_below(game, tree.root, place)


def check_below(game: Game, node: Node, place: Place) -> list[ReplayProblem]:
    """Replay every node below `node` in every variation, depth first, and undo them again.

    `game` holds the position at `node` and `place` stands there; both are back as they were
    at the end. Returns what the rules refused.
    """
    problems: list[ReplayProblem] = []
    # Each stack entry: a child to enter and its index, or where to go back to when leaving
    # the line of nodes a child began.
    stack: list[tuple[Node, int] | _Back] = list(_entries(node))
    while stack:
        item = stack.pop()
        if isinstance(item, _Back):
            while game.actions > item.actions:
                game.undo()
            while len(place.moves) > item.depth:
                place.up()
            continue
        # The child and the only children after it: one path, replayed as `replay` does.
        child, index = item
        line, path = [child], [index]
        while len(line[-1].children) == 1:
            line.append(line[-1].children[0])
            path.append(0)
        stack.append(_Back(game.actions, len(place.moves)))
        walk = _PathReplay(game, line, path, place)
        problems.extend(walk.run())
        walk.place_at(len(line) - 1)
        stack.extend(_entries(line[-1]))
    return problems


class _Back(NamedTuple):
    """A walk's way back up: the game's action count and the place's depth to return to."""

    actions: int
    depth: int


def _entries(node: Node) -> list[tuple[Node, int]]:
    """The children of `node` with their indices, last first: stack entries of a walk."""
    return [(c, i) for i, c in reversed(list(enumerate(node.children)))]
