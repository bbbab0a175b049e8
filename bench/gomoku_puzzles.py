"""Build the threat-puzzle sets, prove each by playing it out, and race the solver against Rapfi.

``build``: positions come from quick self-play games of the built-in player (`self_play`),
one a game; a position is kept when tengen's threat solver finds a win for the side to
move: a VCF of at least `--fours` fours (`--kind vcf`, tests/data/gomoku_vcf.txt) or, with no
VCF, a VCT of at least `--threats` threats (`--kind vct`, tests/data/gomoku_vct.txt). Each
kept win is then proved by `Prover`, which does not trust the solver's verdict: the attacker
plays the solver's moves, the defender tries EVERY legal move of the game
(`GomokuGame.legal_moves`, renju's fouls excluded), and the game's own judge (`wins_at`) says
who made five. A claim not proved so is printed with the line where the attacker's solver
found no win, and Rapfi's verdict there: a mate means the claim stands and the solver could
not find it again within its budget; none would mean a defence the solver missed.

``race``: each puzzle of both sets, in one run: the time and nodes tengen's solver takes to
find its win, and the time and nodes Rapfi (classical, one thread, ``make rapfi``) takes to
first report a mate (`gomoku_review.Rapfi.first_mate`).

``coverage``: the first position of each self-play game where Rapfi (200,000 nodes) sees a
mate for the side to move and tengen finds no VCF; how many of them tengen's VCT finds within
20,000 (the player's budget), 100,000 and 500,000 nodes. Unlike the puzzle sets, these are
not chosen by tengen's solver.

Run ``python bench/gomoku_puzzles.py build [--kind vcf|vct] [--count 12] [--rule R]`` (lines
are appended as ``rule<TAB>moves``, moves as ``col,row`` pairs, Black first) or
``python bench/gomoku_puzzles.py race`` or ``... coverage [--count 50] [--rules R ...]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from gomoku_review import LOST, RAPFI, Rapfi, rule_number
from tengen.ai.gomoku.position import Position
from tengen.ai.gomoku.threats import ThreatSearch
from tengen.ai.gomoku_player import GomokuPlayer
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.gomoku import GomokuGame, GomokuRules, Rule
from tengen.gomoku.board import wins_at

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
SETS = {"vcf": DATA / "gomoku_vcf.txt", "vct": DATA / "gomoku_vct.txt"}
SOLVER_NODES = 200_000  # the solver's budget a position, while building and proving
RACE_NODES = 5_000_000  # while racing: enough for every puzzle, so the times compare
VCT_DEPTH = 8  # threats


def solve(pos: Position, attacker: int, kind: str, nodes: int = SOLVER_NODES) -> int | None:
    """The solver's first move of a win for `attacker` (to move): by fours, or (`kind` "vct")
    by fours or else by threats of at most `VCT_DEPTH`; None when it finds none in `nodes`."""
    search = ThreatSearch(pos, nodes, 60.0)
    found = search.vcf(attacker)
    if found is None and kind == "vct":
        found = search.vct(attacker, VCT_DEPTH)
    return found


def five_points(game: GomokuGame, color: Color) -> list[Point]:
    """The empty points where a `color` stone would win, by the game's judge."""
    board, rule = game.board, game.rules.rule
    found = []
    for p in board.empty_points():
        board.place(p, color)
        if wins_at(board, p, color, rule) is not None:
            found.append(p)
        board.remove(p)
    return found


@dataclass
class Prover:
    """Plays a claimed win out against every defence: the attacker's moves are the solver's
    (a five first when it has one), the defender's every legal move; a defender facing one
    five-point must take it, facing two has lost (the judge finds them, not the solver).
    `refuted` is a line the attacker found no win after; `positions` counts those proved."""

    game: GomokuGame
    kind: str
    refuted: list[Point] | None = None
    positions: int = 0

    def __post_init__(self) -> None:
        self.pos = Position.of(self.game)
        self.attacker = self.game.to_play

    def proves(self, moves: int = 40) -> bool:
        """Whether the side to move wins within `moves` attacker moves."""
        return self._attack(moves)

    def _play(self, p: Point) -> None:
        stone = int(self.game.to_play)
        self.game.play(p)
        self.pos.place(self.pos.index(p), stone)

    def _undo(self) -> None:
        _, p = self.game.moves[-1]
        self.game.undo()
        self.pos.remove(self.pos.index(p))

    def _attack(self, moves: int) -> bool:
        self.positions += 1
        legal = set(self.game.legal_moves())
        if any(p in legal for p in five_points(self.game, self.attacker)):
            return True
        theirs = five_points(self.game, self.attacker.opponent)
        move = None
        if len(theirs) == 1 and theirs[0] in legal:
            move = theirs[0]  # a counter-four is blocked first
        elif not theirs and moves > 0:
            found = solve(self.pos, int(self.attacker), self.kind)
            move = None if found is None else self.pos.point(found)
        if move is None:
            self.refuted = [p for _, p in self.game.moves]
            return False
        self._play(move)
        try:
            return self._defend(moves - 1)
        finally:
            self._undo()

    def _defend(self, moves: int) -> bool:
        if self.game.is_over:
            return self.game.winner is self.attacker
        if five_points(self.game, self.attacker.opponent):
            self.refuted = [p for _, p in self.game.moves]
            return False  # the defender makes five
        replies = self.game.legal_moves()
        threats = five_points(self.game, self.attacker)
        if len(threats) > 1:
            return True
        if threats:
            replies = [p for p in replies if p == threats[0]]  # [] under a renju foul
        for reply in replies:
            self._play(reply)
            try:
                if not self._attack(moves):
                    return False
            finally:
                self._undo()
        return True


def fours_to_win(game: GomokuGame) -> int:
    """How many attacker moves, the five included, the solver's VCF takes against the
    forced blocks."""
    pos = Position.of(game)
    attacker = int(game.to_play)
    count = 0
    while count < 40:
        move = solve(pos, attacker, "vcf")
        if move is None:
            break
        count += 1
        pos.place(move, attacker)
        blocks = pos.fives(attacker)
        if len(blocks) != 1 or not pos.may_play(blocks[0], 3 - attacker):
            return count + 1 if blocks else count  # the five to come counts
        pos.place(blocks[0], 3 - attacker)
    return count


def threats_needed(game: GomokuGame) -> int:
    """The fewest threats within which the solver finds a VCT (0: none up to `VCT_DEPTH`)."""
    pos = Position.of(game)
    for depth in range(1, VCT_DEPTH + 1):
        if ThreatSearch(pos, SOLVER_NODES, 60.0).vct(int(game.to_play), depth) is not None:
            return depth
    return 0


def read_set(kind: str) -> list[tuple[Rule, list[Point]]]:
    """The puzzles of one set, as (rule, moves)."""
    found = []
    for text in SETS[kind].read_text().splitlines():
        rule, moves = text.split("\t")
        found.append((Rule(rule), [Point(*map(int, m.split(","))) for m in moves.split()]))
    return found


def replay(rule: Rule, moves: list[Point]) -> GomokuGame:
    """The game after `moves` under `rule`."""
    game = GomokuGame(GomokuRules(rule))
    for p in moves:
        game.play(p)
    return game


def self_play(rule: Rule, rng: random.Random) -> Iterator[GomokuGame]:
    """Quick self-play games of the built-in player (0.05 s a move, one move in seven a random
    point near the centre) from a centre stone and a neighbour: the game after each move
    that leaves it on with neither side holding a five-point."""
    while True:
        game = GomokuGame(GomokuRules(rule))
        game.play(Point(7, 7))
        game.play(Point(7 + rng.choice((-1, 0, 1)), 6))
        players = (
            GomokuPlayer(rng.randrange(1 << 30), 0.05),
            GomokuPlayer(rng.randrange(1 << 30), 0.05),
        )
        while not game.is_over:
            if rng.random() < 0.15:
                move = rng.choice(
                    [p for p in game.legal_moves() if abs(p.col - 7) < 5 and abs(p.row - 7) < 5]
                )
            else:
                move = players[game.move_number % 2].genmove(game)
            game.play(move)
            if game.is_over or any(five_points(game, c) for c in (Color.BLACK, Color.WHITE)):
                continue
            yield game


def build(args: argparse.Namespace) -> None:
    rule = Rule(args.rule)
    kept = refuted = 0
    last = None
    for game in self_play(rule, random.Random(args.seed)):
        if kept >= args.count:
            break
        if game is last:
            continue  # one puzzle a game
        pos, attacker = Position.of(game), int(game.to_play)
        vcf = solve(pos, attacker, "vcf")
        if args.kind == "vcf":
            size = 0 if vcf is None else fours_to_win(game)
            if size < args.fours:
                continue
        else:
            if vcf is not None or solve(pos, attacker, "vct") is None:
                continue
            size = threats_needed(game)
            if size < args.threats:
                continue
        trial = replay(rule, [p for _, p in game.moves])
        started = time.monotonic()
        prover = Prover(trial, args.kind)
        if not prover.proves():
            refuted += 1
            stuck = prover.refuted or []
            verdict = "Rapfi not built"
            if RAPFI.exists():
                rapfi = Rapfi(10_000, 0, rule_number(rule))
                mate = rapfi.first_mate([(p.col, p.row) for p in stuck])
                rapfi.close()
                verdict = f"Rapfi's mate for the attacker there: {mate or 'none in 10 s'}"
            line = " ".join(f"{p.col},{p.row}" for p in stuck)
            print(
                f"not proved: the claim at {len(game.moves)} stones, stuck after "
                f"{len(stuck)} ({prover.positions} positions; {verdict}): "
                f"{rule.value}\t{line}",
                flush=True,
            )
            continue
        line = " ".join(f"{p.col},{p.row}" for _, p in game.moves)
        with SETS[args.kind].open("a") as out:
            out.write(f"{rule.value}\t{line}\n")
        kept += 1
        last = game
        unit = "fours" if args.kind == "vcf" else "threats"
        print(
            f"kept {kept}: {len(game.moves)} stones, {size} {unit}, proved over "
            f"{prover.positions} positions in {time.monotonic() - started:.1f} s "
            f"(claims not proved so far: {refuted})",
            flush=True,
        )


def coverage(args: argparse.Namespace) -> None:
    """Of self-play positions where Rapfi (200,000 nodes) sees a mate for the side to move
    and tengen finds no VCF, how many tengen's VCT finds within each budget."""
    if not RAPFI.exists():
        raise SystemExit(f"Rapfi not found at {RAPFI} (make rapfi, or set RAPFI)")
    os.environ.setdefault("TENGEN_JIT", "compiled")
    print(f"load: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    budgets = (20_000, 100_000, 500_000)
    found = dict.fromkeys(budgets, 0)
    total = 0
    for rule_name in args.rules:
        rule = Rule(rule_name)
        rapfi = Rapfi(0, 200_000, rule_number(rule))
        taken = 0
        last = None
        for game in self_play(rule, random.Random(args.seed)):
            if taken >= args.count:
                break
            if game is last:
                continue  # the first such position of each game only
            attacker = int(game.to_play)
            if solve(Position.of(game), attacker, "vcf") is not None:
                continue
            if rapfi.evaluate([(p.col, p.row) for _, p in game.moves]) < -LOST:
                continue
            taken += 1
            total += 1
            last = game
            seen = [
                ThreatSearch(Position.of(game), budget, 60.0).vct(attacker) is not None
                for budget in budgets
            ]
            for budget, hit in zip(budgets, seen, strict=True):
                found[budget] += hit
            print(f"{rule.value} {taken}: {len(game.moves)} stones, found {seen}", flush=True)
        rapfi.close()
    print(
        f"{total} positions: " + ", ".join(f"{found[b]} found within {b:,} nodes" for b in budgets)
    )


def race(args: argparse.Namespace) -> None:
    os.environ.setdefault("TENGEN_JIT", "compiled")
    print(f"load: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    ms = round(args.rapfi_seconds * 1000)
    rules = {rule for kind in SETS for rule, _ in read_set(kind)}
    rapfis = {rule: Rapfi(ms, 0, rule_number(rule)) for rule in rules} if RAPFI.exists() else {}
    if not rapfis:
        print(f"Rapfi not found at {RAPFI} (make rapfi, or set RAPFI): tengen's column only")
    for kind in ("vcf", "vct"):
        ours, theirs = [], []
        for number, (rule, moves) in enumerate(read_set(kind), 1):
            game = replay(rule, moves)
            pos = Position.of(game)
            solve(pos, int(game.to_play), kind)  # compiles on first use; timed below anew
            pos = Position.of(game)
            started, before = time.perf_counter(), pos.nodes
            found = solve(pos, int(game.to_play), kind, RACE_NODES)
            took, nodes = time.perf_counter() - started, pos.nodes - before
            stones = [(p.col, p.row) for p in moves]
            mate = rapfis[rule].first_mate(stones) if rapfis else None
            ours.append(took)
            if mate:
                theirs.append(mate[0])
            print(
                f"| {kind} {number} | {rule.value} | {len(moves)} | "
                f"{'found' if found is not None else 'NOT FOUND'} | {took * 1000:.1f} ms | "
                f"{nodes:,} | "
                + (f"{mate[0] * 1000:.0f} ms | {mate[1]:,} |" if mate else "no mate | |"),
                flush=True,
            )
        if ours:
            print(
                f"{kind}: tengen median {statistics.median(ours) * 1000:.1f} ms, max "
                f"{max(ours) * 1000:.1f} ms; Rapfi mates {len(theirs)} / {len(ours)}"
                + (f", median {statistics.median(theirs) * 1000:.0f} ms" if theirs else "")
            )
    for rapfi in rapfis.values():
        rapfi.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="add proved puzzles to a set")
    b.add_argument("--kind", choices=sorted(SETS), default="vcf")
    b.add_argument("--count", type=int, default=12)
    b.add_argument("--rule", default="freestyle")
    b.add_argument("--fours", type=int, default=3)
    b.add_argument("--threats", type=int, default=2)
    b.add_argument("--seed", type=int, default=1)
    r = sub.add_parser("race", help="tengen's solver and Rapfi on every puzzle")
    r.add_argument("--rapfi-seconds", type=float, default=10.0)
    c = sub.add_parser("coverage", help="how many of Rapfi's mates tengen's VCT finds")
    c.add_argument("--count", type=int, default=50, help="positions a rule")
    c.add_argument("--rules", nargs="+", default=["freestyle", "renju"])
    c.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    {"build": build, "race": race, "coverage": coverage}[args.command](args)


if __name__ == "__main__":
    main()
