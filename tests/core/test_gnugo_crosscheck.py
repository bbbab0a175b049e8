"""Cross-check the rules core against GNU Go over GTP, move by move, under each ko and suicide rule.

Random games are played on both programs at once, with a move picker that keeps the fight in a
small region and favours captures, so that captures, kos, superko repetitions and suicides come
up often. After every move (and every undo) the stones, the prisoners and the legality of every
empty point for the player to move must agree. TENGEN_CROSSCHECK_GAMES (games per rules and size)
and TENGEN_CROSSCHECK_MOVES (moves per game) make the run longer.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterator
from typing import NoReturn

import pytest

from tengen.core import handicap
from tengen.core.color import Color
from tengen.core.coords import Move, Point, from_gtp, to_gtp
from tengen.core.diagram import render_with_coordinates
from tengen.core.errors import IllegalReason
from tengen.core.game import Game
from tengen.core.rules import KoRule, Ruleset
from tengen.gtp.client import GtpClient, GtpEngineError

pytestmark = pytest.mark.gnugo

GAMES = int(os.environ.get("TENGEN_CROSSCHECK_GAMES", "3"))
MOVES = int(os.environ.get("TENGEN_CROSSCHECK_MOVES", "300"))
GNUGO_HISTORY = 500  # GNU Go's MAX_MOVE_HISTORY: beyond it, early positions leave superko

KO_FLAGS = {
    KoRule.SIMPLE: "--simple-ko",
    KoRule.POSITIONAL: "--positional-superko",
    KoRule.SITUATIONAL: "--situational-superko",
}
SUICIDE_FLAGS = {False: "--forbid-suicide", True: "--allow-suicide"}
COLOR_NAMES = {Color.BLACK: "black", Color.WHITE: "white"}


def _neighbours(game: Game, p: Point) -> Iterator[Point]:
    for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        q = Point(p.col + dc, p.row + dr)
        if game.board.on_board(q):
            yield q


def _captures(game: Game, p: Point, color: Color) -> bool:
    """Whether a stone of `color` at `p` would take an opponent chain in atari."""
    board = game.board
    return any(
        board[q] is color.opponent and board.liberty_count(q) == 1 for q in _neighbours(game, p)
    )


def _crowded(game: Game, p: Point) -> bool:
    """Whether at most one neighbour of `p` is empty: throw-ins, eye fills, ko shapes."""
    return sum(game.board[q] is None for q in _neighbours(game, p)) <= 1


def _takes_ko(game: Game, p: Point, color: Color) -> bool:
    """Whether `p` is surrounded by the opponent and takes exactly one lone stone (a ko shape)."""
    board = game.board
    around = list(_neighbours(game, p))
    if any(board[q] is not color.opponent for q in around):
        return False
    return sum(board.liberty_count(q) == 1 and len(board.chain(q)) == 1 for q in around) == 1


class CrossCheck:
    """One game played on tengen and GNU Go side by side, compared after every action."""

    def __init__(self, client: GtpClient, game: Game, flags: list[str], stats: Counter[str]):
        self.client = client
        self.game = game
        self.flags = flags
        self.stats = stats
        self.transcript: list[str] = []

    def send(self, command: str) -> str:
        """A command to GNU Go; a refusal fails the test with the game so far."""
        try:
            return self.client.send(command)
        except GtpEngineError as err:
            self.fail(f"GNU Go refused {command!r}: {err.message}")

    def vertices(self, text: str) -> set[Point]:
        """GTP vertices of a GNU Go answer as points."""
        return {p for v in text.split() if (p := from_gtp(v, self.game.width, self.game.height))}

    def gtp(self, move: Move) -> str:
        """A move as a GTP vertex."""
        return to_gtp(move, self.game.height)

    def fail(self, what: str) -> NoReturn:
        """Fail with everything needed to reproduce: flags, GTP commands, both boards."""
        size = self.game.width
        gnugo_board = self.client.send("showboard")
        pytest.fail(
            f"{what}\nGNU Go flags: {' '.join(self.flags)}; tengen: {self.game.ruleset}\n"
            f"GTP commands after 'boardsize {size}' and 'clear_board':\n"
            + "\n".join(self.transcript)
            + f"\ntengen board ({COLOR_NAMES[self.game.to_play]} to play):\n"
            + render_with_coordinates(self.game.board)
            + f"\nGNU Go board:\n{gnugo_board}",
            pytrace=False,
        )

    def compare(self) -> None:
        """Stones, prisoners and the legality of every empty point must agree."""
        game, board = self.game, self.game.board
        for color, name in COLOR_NAMES.items():
            theirs = self.vertices(self.send(f"list_stones {name}"))
            if theirs != set(board.stones(color)):
                self.fail(f"{name} stones differ: GNU Go has {self._names(theirs)}")
            prisoners = int(self.send(f"captures {name}"))
            if prisoners != board.captures(color):
                self.fail(f"{name} prisoners: GNU Go {prisoners}, tengen {board.captures(color)}")
        color = game.to_play
        reasons = {p: game.legality(p, color) for p in board.empty_points()}
        ours = {p for p, reason in reasons.items() if reason is None}
        theirs = self.vertices(self.send(f"all_legal {COLOR_NAMES[color]}"))
        blind = {p for p in theirs - ours if self.gnugo_misses_superko(p, reasons[p])}
        self.stats["GNU Go suicide superko"] += len(blind)
        theirs -= blind
        if ours != theirs:
            only_theirs = ", ".join(f"{self.gtp(p)} (tengen: {reasons[p]})" for p in theirs - ours)
            self.fail(
                f"legal points for {COLOR_NAMES[color]} differ: legal for tengen only: "
                f"{self._names(ours - theirs)}; legal for GNU Go only: {only_theirs or 'none'}"
            )
        self.stats.update(str(r.name) for r in reasons.values() if r is not None)

    def gnugo_misses_superko(self, p: Point, reason: IllegalReason | None) -> bool:
        """Whether `p` is a suicide that repeats a position: GNU Go 3.8 does not see that.

        Its is_superko_violation() tries the move with do_play_move(), which leaves a
        suicided chain on the board, so the position it looks up never occurred.
        """
        color = self.game.to_play
        return (
            reason is IllegalReason.SUPERKO
            and self.game.board.legality(p, color) is IllegalReason.SUICIDE
        )

    def spot_check(self, rng: random.Random) -> None:
        """`is_legal` on a few points, occupied ones included, agrees with tengen."""
        color = self.game.to_play
        for p in rng.sample(list(self.game.board.points()), 3):
            reason = self.game.legality(p, color) if self.game.board[p] is None else None
            ours = self.game.board[p] is None and reason is None
            theirs = self.send(f"is_legal {COLOR_NAMES[color]} {self.gtp(p)}") == "1"
            theirs = theirs and not self.gnugo_misses_superko(p, reason)
            if ours != theirs:
                self.fail(f"is_legal {self.gtp(p)}: GNU Go {theirs}, tengen {ours}")

    def play(self, move: Move) -> None:
        """Play `move` for the player to move on both programs."""
        color = self.game.to_play
        command = f"play {COLOR_NAMES[color]} {self.gtp(move)}"
        self.transcript.append(command)
        suicide = (
            move is not None and self.game.board.legality(move, color) is IllegalReason.SUICIDE
        )
        entry = self.game.play(move)
        self.send(command)
        self.stats["moves"] += 1
        self.stats["passes"] += move is None
        self.stats["captures"] += entry.captured > 0 and not suicide
        self.stats["suicides"] += suicide
        self.stats["ko points"] += self.game.board.ko_point is not None

    def undo(self, count: int) -> None:
        """Take back `count` moves on both programs."""
        for _ in range(count):
            self.transcript.append("undo")
            self.game.undo()
            self.send("undo")
            self.stats["undos"] += 1

    def _names(self, points: set[Point]) -> str:
        return " ".join(sorted(self.gtp(p) for p in points)) or "none"


def pick_move(game: Game, region: tuple[int, int, int, int], rng: random.Random) -> Move:
    """A legal move that makes fights: ko captures, captures, suicides, crowded points.

    Mostly inside `region`, else next to a stone. Passes come often right after a ko capture
    or a pass, since a ko retaken after two passes repeats a position: only superko forbids it.
    """
    after_pass = game.consecutive_passes > 0
    if rng.random() < (0.5 if game.board.ko_point is not None or after_pass else 0.03):
        return None
    color = game.to_play
    legal = game.legal_moves()
    captures = [p for p in legal if _captures(game, p, color)]
    kos = [p for p in captures if _takes_ko(game, p, color)]
    if kos and rng.random() < 0.9:
        return rng.choice(kos)
    if captures and rng.random() < 0.4:
        return rng.choice(captures)
    if game.ruleset.suicide_allowed and rng.random() < 0.2:
        suicides = [p for p in legal if game.board.legality(p, color) is IllegalReason.SUICIDE]
        if suicides:
            return rng.choice(suicides)
    c0, r0, c1, r1 = region
    inside = [p for p in legal if c0 <= p.col < c1 and r0 <= p.row < r1]
    if inside and rng.random() < 0.9:
        tight = [p for p in inside if _crowded(game, p)]
        return rng.choice(tight if tight and rng.random() < 0.5 else inside)
    near = [p for p in legal if any(game.board[q] is not None for q in _neighbours(game, p))]
    pool = near or legal
    return rng.choice(pool) if pool else None


def random_region(size: int, rng: random.Random) -> tuple[int, int, int, int]:
    """A square of 3 to 6 points a side somewhere on the board: (col0, row0, col1, row1)."""
    side = min(size, rng.randint(3, 6))
    col, row = rng.randint(0, size - side), rng.randint(0, size - side)
    return col, row, col + side, row + side


def play_games(client: GtpClient, size: int, ruleset: Ruleset, flags: list[str]) -> Counter[str]:
    """GAMES seeded random games of MOVES actions on both programs; returns what was seen."""
    stats: Counter[str] = Counter()
    client.send(f"boardsize {size}")
    for number in range(GAMES):
        rng = random.Random(f"{ruleset.name}/{size}/{number}")
        client.send("clear_board")
        game = Game(size, ruleset=ruleset, free_turns=False, end_after_passes=False)
        check = CrossCheck(client, game, flags, stats)
        region = random_region(size, rng)
        check.compare()
        for _ in range(MOVES):
            if rng.random() < 0.02:
                region = random_region(size, rng)
            if game.move_number and rng.random() < 0.03:
                check.undo(min(game.move_number, rng.randint(1, 3)))
            else:
                check.play(pick_move(game, region, rng))
            check.compare()
            if rng.random() < 0.1:
                check.spot_check(rng)
    return stats


@pytest.mark.parametrize("suicide", [False, True], ids=["no-suicide", "suicide"])
@pytest.mark.parametrize("ko", list(KoRule), ids=lambda k: k.value)
def test_random_games_agree_with_gnugo(gnugo: str, ko: KoRule, suicide: bool) -> None:
    if MOVES > GNUGO_HISTORY:
        pytest.fail(f"TENGEN_CROSSCHECK_MOVES={MOVES}: GNU Go forgets moves after {GNUGO_HISTORY}")
    name = f"{ko.value}-{'suicide' if suicide else 'no-suicide'}"
    ruleset = Ruleset(name=name, ko=ko, suicide_allowed=suicide)
    flags = [KO_FLAGS[ko], SUICIDE_FLAGS[suicide]]
    stats: Counter[str] = Counter()
    with GtpClient([gnugo, "--mode", "gtp", *flags], timeout=20) as client:
        for size in (9, 13, 19):
            stats += play_games(client, size, ruleset, flags)
    seen = dict(stats)
    assert stats["captures"] and stats["ko points"] and stats["KO"], seen
    assert stats["undos"] and stats["passes"], seen
    assert stats["suicides" if suicide else "SUICIDE"], seen
    assert ko is KoRule.SIMPLE or stats["SUPERKO"], seen


# Short games that reach a rule's corner case; moves alternate from Black. After the last move
# every empty point is compared, as in the random games.
SCRIPTED = {
    # Black takes a ko, both pass, White's retake repeats the position before the capture.
    "ko-after-two-passes": (5, "B3 D4 C4 D2 C2 E3 pass C3 D3 pass pass"),
    # White passes, Black takes a ko, both pass: White's retake repeats the stones that were
    # on the board with Black to move right after White's pass.
    "ko-position-after-a-pass": (5, "B3 C3 C4 D4 pass D2 pass E3 C2 pass D3 pass pass"),
    # Black's B1 would be a two-stone suicide that repeats the position before A1.
    "suicide-repeats-position": (5, "E5 A2 E4 B2 D5 C1 A1 pass"),
}


@pytest.mark.parametrize("suicide", [False, True], ids=["no-suicide", "suicide"])
@pytest.mark.parametrize("ko", list(KoRule), ids=lambda k: k.value)
@pytest.mark.parametrize("case", list(SCRIPTED))
def test_scripted_games_agree_with_gnugo(gnugo: str, case: str, ko: KoRule, suicide: bool) -> None:
    size, moves = SCRIPTED[case]
    ruleset = Ruleset(name=case, ko=ko, suicide_allowed=suicide)
    flags = [KO_FLAGS[ko], SUICIDE_FLAGS[suicide]]
    with GtpClient([gnugo, "--mode", "gtp", *flags]) as client:
        client.send(f"boardsize {size}")
        game = Game(size, ruleset=ruleset, free_turns=False, end_after_passes=False)
        check = CrossCheck(client, game, flags, Counter())
        for vertex in moves.split():
            check.play(from_gtp(vertex, size, size))
            check.compare()


def test_fixed_handicap_matches_gnugo(gnugo: str) -> None:
    with GtpClient([gnugo, "--mode", "gtp"]) as client:
        for size in range(2, 20):
            client.send(f"boardsize {size}")
            for count in range(11):
                client.send("clear_board")
                try:
                    theirs = {
                        from_gtp(v, size, size)
                        for v in client.send(f"fixed_handicap {count}").split()
                    }
                except GtpEngineError:
                    theirs = None
                try:
                    ours = set(handicap.fixed_points(count, size))
                except ValueError:
                    ours = None
                assert ours == theirs, f"{size}x{size}, handicap {count}"
