"""One match game between two players: clocks, adjudication, scoring, the record.

The game ends by two passes, a resignation, a flag falling (an engine that hangs past its
command timeout loses on time too), a player's failure (an engine that crashes, answers garbage
or plays an illegal move loses by forfeit), the move limit, where the game is counted as after
two passes, or resignation adjudication: when tengen's count of the position (dead stones
estimated by `scoring.life`) has one side ahead by more than a margin after each of N moves in
a row, the other side is taken to resign, and the record's comment says so. A counted game is
scored by tengen and, when a referee engine is given, its ``final_score`` is recorded beside.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

from tengen.clock import Clock, TimeControl
from tengen.core.color import Color
from tengen.core.coords import Move, Point, to_gtp
from tengen.core.errors import IllegalMove
from tengen.core.game import Game
from tengen.core.rules import CHINESE, TROMP_TAYLOR, Ruleset
from tengen.gtp.client import GtpClient, GtpClientError
from tengen.match.players import Player
from tengen.process import ProgramError, ProgramTimeout
from tengen.records import game_record
from tengen.scoring import Result, score_game
from tengen.scoring.life import dead_stones, estimate, seki_stones
from tengen.sgf import GameTree, serialise

ADJUDICATION_PLAYOUTS = 200  # playouts of the dead-stone estimate behind each adjudication count

T = TypeVar("T")
Times = list[tuple[float, int | None] | None]  # per move: clock left and overtime count, or None


@dataclass(frozen=True)
class ResignAdjudication:
    """Resign for a side that is behind by more than `margin` points after `moves` moves in a
    row, by tengen's count with estimated dead stones (komi included)."""

    margin: float
    moves: int

    @classmethod
    def parse(cls, text: str) -> ResignAdjudication:
        """``MARGIN:MOVES``, e.g. ``30:10``. Raises ValueError naming the text."""
        margin, sep, moves = text.partition(":")
        try:
            value = cls(float(margin), int(moves))
        except ValueError:
            raise ValueError(f"expected MARGIN:MOVES (like 30:10), not {text!r}") from None
        if not sep or not value.margin >= 0 or value.moves < 1 or value.margin == float("inf"):
            raise ValueError(f"expected MARGIN:MOVES, a margin >= 0 and 1 move or more: {text!r}")
        return value


@dataclass(frozen=True)
class GameConfig:
    """How a game is played: board, rules (komi included), handicap, time, move limit
    (default three moves a point), referee engine command, opening moves, resignation
    adjudication."""

    size: int = 9
    ruleset: Ruleset = CHINESE
    handicap: int = 0
    time: TimeControl | None = None
    max_moves: int | None = None
    referee: str | None = None
    opening: tuple[tuple[Color, Move], ...] = field(default=())
    resign: ResignAdjudication | None = None


@dataclass(frozen=True)
class GameOutcome:
    """The result, how the game ended, moves played, the referee's score and the SGF;
    `swapped` when a swap opening gave Black to the player who was to have White."""

    result: Result
    ending: str
    moves: int
    referee: str | None
    sgf: bytes
    swapped: bool = False


def play_game(
    black: Player, white: Player, config: GameConfig, now: Callable[[], float] = time.monotonic
) -> GameOutcome:
    """Play one game; the caller makes and closes the players."""
    game = Game(config.size, config.size, config.ruleset)
    handicap = game.place_handicap(config.handicap) if config.handicap else []
    players = {Color.BLACK: black, Color.WHITE: white}
    clocks = {c: Clock(config.time, now) if config.time else None for c in Color}
    times: Times = []
    result, ending = _run(game, players, clocks, config, times)
    referee = None
    if result is None:
        result = _count(game)
        if config.referee:
            referee = _referee(config.referee, game, handicap)
    tree = game_record(game)
    comment = ending + (f"\nreferee: {referee}" if referee else "")
    annotate(tree, (black.name, white.name), result, comment, config.time, times)
    return GameOutcome(result, ending, game.move_number, referee, serialise(tree))


def annotate(
    tree: GameTree,
    names: tuple[str, str],
    result: Result,
    comment: str,
    control: TimeControl | None,
    times: Times,
) -> None:
    """Write the players (black, white), result, comment and time control on `tree`'s root,
    and the time left after each move (``BL``/``WL``, ``OB``/``OW``) on its move nodes."""
    root = tree.root
    root.set("PB", names[0])
    root.set("PW", names[1])
    root.set("RE", result.to_sgf())
    root.set("C", comment)
    if control:
        root.set("TM", control.sgf_tm)
        root.set("OT", control.sgf_ot)
    nodes = [n for n in tree.main_line() if n.move is not None]
    for node, spent in zip(nodes, times, strict=False):
        played = node.move
        if spent is not None and played is not None:
            letter = played[0].letter
            node.set(f"{letter}L", round(spent[0], 1))
            if spent[1] is not None:
                node.set(f"O{letter}", spent[1])


def on_the_clock(
    name: str,
    color: Color,
    clock: Clock | None,
    ask: Callable[[], T],
) -> tuple[T | None, tuple[Result, str] | None]:
    """Ask player `name` (of `color`) for its move with its clock running: (the answer, None),
    or (None, the result and ending) when its engine timed out, failed or overran its clock.
    Go and Gomoku games alike."""
    if clock is not None:
        clock.start()
    try:
        answer = ask()
    except ProgramTimeout as err:
        return None, (Result(color.opponent, None, "time"), f"{name} lost on time: {err}")
    except ProgramError as err:
        return None, (Result(color.opponent, None, "forfeit"), f"{name} failed: {err}")
    if clock is not None:
        clock.stop()
        if clock.expired:
            return None, (Result(color.opponent, None, "time"), f"{name} lost on time")
    return answer, None


def _run(
    game: Game,
    players: dict[Color, Player],
    clocks: dict[Color, Clock | None],
    config: GameConfig,
    times: Times,
) -> tuple[Result | None, str]:
    """Play until the end; (result, ending), the result None when the game is to be counted."""
    for color, player in players.items():
        try:
            player.new_game(game, clocks[color])
        except GtpClientError as err:
            return Result(color.opponent, None, "forfeit"), f"{player.name} failed: {err}"
    for color, move in config.opening:
        game.play(move, color)
        times.append(None)
        for player_color, player in players.items():
            try:
                player.play(color, move)
            except GtpClientError as err:
                win = Result(player_color.opponent, None, "forfeit")
                return win, f"{player.name} failed: {err}"
    limit = config.max_moves or 3 * config.size * config.size
    streak = _Streak(config.resign)
    while not game.is_over:
        if game.move_number >= limit:
            return None, f"move limit ({limit}) reached"
        color = game.to_play
        player, clock = players[color], clocks[color]
        ask = partial(player.genmove, game, color, clock)
        choice, ending = on_the_clock(player.name, color, clock, ask)
        if ending is not None:
            return ending
        if isinstance(choice, str):
            return Result(color.opponent, None, "resign"), f"{player.name} resigned"
        move = choice
        try:
            game.play(move, color)
        except IllegalMove as err:
            return Result(color.opponent, None, "forfeit"), f"{player.name} played illegally: {err}"
        times.append((clock.remaining(), clock.overtime_count()) if clock else None)
        other = players[color.opponent]
        try:
            other.play(color, move)
        except GtpClientError as err:
            return Result(color, None, "forfeit"), f"{other.name} failed: {err}"
        ahead = streak.after_move(game)
        if ahead is not None:
            return Result(ahead, None, "resign"), streak.explain(ahead)
    return None, "two passes"


class _Streak:
    """Counts the moves in a row after which one side's lead exceeds the adjudication margin."""

    def __init__(self, rule: ResignAdjudication | None) -> None:
        self.rule = rule
        self.leader: Color | None = None
        self.moves = 0
        self.lead = 0.0  # Black's lead at the last count

    def after_move(self, game: Game) -> Color | None:
        """Count the position; the side taken to win by resignation, or None to play on (or
        to count the game that two passes ended)."""
        if self.rule is None or game.is_over:
            return None
        self.lead = _lead(game)
        leader = None
        if abs(self.lead) > self.rule.margin:
            leader = Color.BLACK if self.lead > 0 else Color.WHITE
        if leader is None:
            self.moves = 0
        else:
            self.moves = self.moves + 1 if leader is self.leader else 1
        self.leader = leader
        if leader is not None and self.moves >= self.rule.moves:
            return leader
        return None

    def explain(self, leader: Color) -> str:
        """The comment of an adjudicated resignation."""
        assert self.rule is not None
        return (
            f"adjudicated: {leader.opponent.name.lower()} resigns, {leader.name.lower()} led by "
            f"more than {self.rule.margin:g} points after each of {self.rule.moves} moves "
            f"(tengen's count: {leader.letter}+{abs(self.lead):g})"
        )


def _lead(game: Game) -> float:
    """Black's lead (negative: White's) by tengen's count with estimated dead stones."""
    est = estimate(game, playouts=ADJUDICATION_PLAYOUTS, seed=game.move_number)
    score = score_game(game, dead_stones(est), seki_stones(est))
    return score.black - score.white


def _count(game: Game) -> Result:
    """tengen's count, dead stones estimated (none under Tromp-Taylor, which counts as is)."""
    if game.ruleset.name == TROMP_TAYLOR.name:
        return score_game(game).result
    est = estimate(game)
    return score_game(game, dead_stones(est), seki_stones(est)).result


def _referee(command: str, game: Game, handicap: list[Point]) -> str:
    """The referee engine's ``final_score`` of the game, or its failure as text."""
    try:
        with GtpClient(shlex.split(command), timeout=60.0) as ref:
            ref.send(f"boardsize {game.width}")
            ref.send("clear_board")
            ref.send(f"komi {game.ruleset.komi}")
            ref.set_rules(game.ruleset)
            if handicap:
                ref.send("set_free_handicap " + " ".join(to_gtp(p, game.height) for p in handicap))
            for m in game.moves:
                ref.send(f"play {m.color.name.lower()} {to_gtp(m.move, game.height)}")
            return ref.send("final_score")
    except GtpClientError as err:
        return f"failed: {err}"
