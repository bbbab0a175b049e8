"""Rapfi's view of a Gomoku match's games: where tengen's game turned, and whether its own
threat solver could have seen Rapfi's win coming.

For every game of a match directory (`match_records`) between tengen (the player named
``--name``) and another brain, Rapfi (``build/rapfi/pbrain-rapfi``, classical, `make rapfi`)
evaluates each position where tengen is to move, for ``--ms`` milliseconds with a cleared
hash, as if it played tengen's side, under the record's own rule (``RU``: freestyle, standard
or renju; before 2026-12-05 every game was judged as freestyle). Each game prints the series
and the first position Rapfi calls lost (a mate, "M" in its eval); when the position before it
was about even (``--even``), tengen's move between them let the win in, and tengen's threat
solver (`ai.gomoku.threats`) then looks for the opponent's win by fours or threes after that
move, under the same rule: with the player's defence budget (4,000 nodes, VCT depth 4) and
with 50 times more (200,000 nodes, depth 8).

Last it prints Black's win rate by Rapfi (its eval as a logistic win rate; a finished game
counts its result from then on) by stones on the board, averaged over the games tengen
played as Black and over those the other brain did: from the same openings, where each
colour's games are won or lost.

Run ``python bench/gomoku_review.py bench/results/gomoku/NAME [--ms 300] [--nodes N]`` with
``PYTHONPATH`` at the tengen source tree (``--nodes`` limits Rapfi by nodes instead of time,
so that its answers do not move with the load); Rapfi's input reader splits lines that
arrive while it answers, so each position is sent in one write after a short pause.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import statistics
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tengen.gomoku import Rule

ROOT = Path(__file__).resolve().parent.parent
RAPFI = Path(os.environ.get("RAPFI", ROOT / "build" / "rapfi" / "pbrain-rapfi"))
LOST = -20_000  # a mate against the side to move, in this script's scale


class Rapfi:
    """Rapfi as a position evaluator over the Gomocup protocol: `ms` milliseconds a
    position, or (`nodes` > 0) a node limit, which makes its answer the same on any load;
    `rule` is the Gomocup rule number (0 freestyle, 1 standard, 4 renju: `rule_number`)."""

    def __init__(self, ms: int, nodes: int = 0, rule: int = 0) -> None:
        self.ms = ms
        self.nodes = nodes
        self.rule = rule
        self.proc = subprocess.Popen(
            [str(RAPFI)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def evaluate(self, moves: list[tuple[int, int]]) -> int:
        """Rapfi's eval of the position after `moves` for the side to move (mates as
        +-20,000)."""
        return self.think(moves)[0]

    def think(self, moves: list[tuple[int, int]]) -> tuple[int, tuple[int, int]]:
        """Rapfi's eval of the position after `moves` for the side to move (mates as
        +-20,000) and its move there. Rapfi answers a five of its own to make at once, with no
        eval: a win, read as its mate."""
        self._ask(moves, "INFO show_detail 0")
        value = "+M1"
        while True:
            line = self._line()
            found = re.search(r"Eval (\S+)", line)
            if found:
                value = found.group(1)
            if re.fullmatch(r"\d+,\d+", line):
                break
        x, y = (int(v) for v in line.split(","))
        if "M" in value:
            return (LOST if value.startswith("-") else -LOST), (x, y)
        return int(value), (x, y)

    def first_mate(self, moves: list[tuple[int, int]]) -> tuple[float, int] | None:
        """Seconds and nodes at Rapfi's first depth (one thread) whose eval is a mate for the
        side to move after `moves`, or None if it reports none before it answers."""
        for _, nodes, seconds, value in self.depths(moves):
            if value.startswith("+M"):
                return seconds, nodes
        return None

    def depths(self, moves: list[tuple[int, int]]) -> list[tuple[int, int, float, str]]:
        """(depth, nodes so far, seconds so far, eval) at each depth Rapfi (one thread)
        completes for the side to move after `moves`, until it answers."""
        self._ask(moves, "INFO thread_num 1", "INFO show_detail 2")  # an INFO block a depth
        rows, depth, nodes, ms = [], 0, 0, 0
        while True:
            line = self._line()
            key, _, value = line.removeprefix("INFO ").partition(" ")
            if key == "DEPTH":
                depth = int(value)
            elif key == "TOTALNODES":
                nodes = int(value)
            elif key == "TOTALTIME":
                ms = int(value)
            elif key == "EVAL":
                rows.append((depth, nodes, ms / 1000, value))
            elif re.fullmatch(r"\d+,\d+", line):
                return rows

    def _ask(self, moves: list[tuple[int, int]], *options: str) -> None:
        """Send the position after `moves` (the side to move's stones as field 1) with this
        evaluator's limits and `options`, asking for a move."""
        assert self.proc.stdin is not None
        time.sleep(0.1)  # Rapfi drops a command that comes while it winds down its last search
        mine = len(moves) % 2
        stones = [f"{x},{y},{1 if i % 2 == mine else 2}" for i, (x, y) in enumerate(moves)]
        limits = [f"INFO rule {self.rule}", *options]
        if self.nodes:
            limits.append(f"INFO max_node {self.nodes}")
        lines = [
            "START 15", *limits, f"INFO timeout_turn {self.ms}", "INFO timeout_match 0",
            "INFO time_left 2147483647", "YXHASHCLEAR", "BOARD", *stones, "DONE",
        ]  # fmt: skip
        self.proc.stdin.write("\n".join(lines) + "\n")
        self.proc.stdin.flush()

    def _line(self) -> str:
        """Rapfi's next line; RuntimeError on ERROR or when it has closed its output."""
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().strip()
        if not line or line.startswith("ERROR"):
            raise RuntimeError(f"Rapfi: {line!r}")
        return line

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("END\n")
        self.proc.stdin.flush()
        self.proc.wait(timeout=10)


def rule_number(rule: Rule) -> int:
    """The Gomocup rule number Rapfi reads for `rule` (freestyle, standard or renju; Rapfi
    has no caro)."""
    from tengen.gomoku import Rule

    numbers = {Rule.FREESTYLE: 0, Rule.STANDARD: 1, Rule.RENJU: 4}
    if rule not in numbers:
        raise ValueError(f"Rapfi plays no {rule.value} rule")
    return numbers[rule]


def solver_sees(moves: list[tuple[int, int]], rule: Rule, nodes: int, depth: int) -> bool:
    """Whether tengen's threat solver finds a win by fours or threes for the side to move
    after `moves` under `rule`."""
    from tengen.ai.gomoku.position import Position
    from tengen.ai.gomoku.threats import ThreatSearch
    from tengen.core.coords import Point
    from tengen.gomoku import GomokuGame, GomokuRules

    game = GomokuGame(GomokuRules(rule))
    for x, y in moves:
        game.play(Point(x, y))
    solver = ThreatSearch(Position.of(game), nodes, 20.0)
    attacker = int(game.to_play)
    return solver.vcf(attacker) is not None or solver.vct(attacker, depth) is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("match", type=Path)
    parser.add_argument("--name", default="new")
    parser.add_argument("--ms", type=int, default=300)
    parser.add_argument("--even", type=int, default=200)
    parser.add_argument("--nodes", type=int, default=0)
    args = parser.parse_args()
    os.environ["TENGEN_JIT"] = "compiled"
    print(f"load: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rapfis: dict[Rule, Rapfi] = {}  # one a rule: each game is judged under its own
    turned = small = big = 0
    games: list[tuple[int, dict[int, int], float]] = []
    for path in match_records([args.match]):
        text = path.read_text()
        moves = record_moves(text)
        rule = record_rule(text)
        if rule not in rapfis:
            rapfis[rule] = Rapfi(60_000 if args.nodes else args.ms, args.nodes, rule_number(rule))
        black = re.search(r"PB\[([^\]]*)\]", text)
        ours = 0 if black and black.group(1) == args.name else 1
        series = [
            (n, rapfis[rule].evaluate(moves[:n])) for n in range(3, len(moves)) if n % 2 == ours
        ]
        lost = next((k for k, (_, value) in enumerate(series) if value <= LOST), None)
        note = ""
        if lost and series[lost - 1][1] >= -args.even:
            turned += 1
            after = moves[: series[lost - 1][0] + 1]
            seen = solver_sees(after, rule, 4_000, 4), solver_sees(after, rule, 200_000, 8)
            small += seen[0]
            big += seen[1]
            note = f"; move {len(after)} let it in; solver sees it: {seen[0]}, at 50x: {seen[1]}"
        games.append((ours, dict(series), black_result(text)))
        values = " ".join(str(v) for _, v in series)
        print(f"{path.name}: {values}; lost at move {series[lost][0] if lost else '-'}{note}")
    for rapfi in rapfis.values():
        rapfi.close()
    print(f"turned from even to lost by one move: {turned}; solver sees {small}, at 50x {big}")
    by_stones(games, args.name)


def match_records(folders: list[Path]) -> list[Path]:
    """The game records under match directories, in order: ``DIR/games/*.sgf`` as `tengen
    match -o DIR` writes them, or a folder deeper, as bench/gomoku_strength.py does."""
    return sorted(path for folder in folders for path in folder.glob("**/games/*.sgf"))


def record_moves(sgf: str) -> list[tuple[int, int]]:
    """The moves (column, row) of a match record's text: the brains' records hold one move a
    node and no setup stones."""
    return [(ord(a) - 97, ord(b) - 97) for a, b in re.findall(r";[BW]\[(\w)(\w)\]", sgf)]


def record_rule(sgf: str) -> Rule:
    """The rule of a match record's text (its ``RU``; freestyle when it names none)."""
    from tengen.gomoku import Rule

    found = re.search(r"RU\[(\w+)\]", sgf)
    return Rule(found.group(1)) if found else Rule.FREESTYLE


def black_result(sgf: str) -> float:
    """Black's result in a game record's text: 1 won, 0 lost, 0.5 otherwise (a draw, or no
    result)."""
    found = re.search(r"RE\[([^\]]*)\]", sgf)
    said = found.group(1) if found else ""
    return 1.0 if said.startswith("B+") else 0.0 if said.startswith("W+") else 0.5


def by_stones(games: list[tuple[int, dict[int, int], float]], name: str) -> None:
    """Print Black's mean win rate by stones on the board, over the games `name` played as
    Black (rated before its moves) and over the others (rated before its moves as White, so a
    stone earlier); `games` holds each game's colour of `name` (0 Black), Rapfi's evals for
    the side to move by stones, and Black's result."""
    from gomoku_quality import win_rate

    def black(stones: int, series: dict[int, int], black_won: float) -> float:
        if stones in series:
            rate = win_rate(series[stones])
            return rate if stones % 2 == 0 else 1.0 - rate
        return black_won if stones > max(series, default=0) else math.nan

    print(f"stones: Black's win rate with {name} as Black (games) | with {name} as White")
    for stones in range(4, 1 + max((max(s, default=0) for _, s, _ in games), default=0), 4):
        cells = []
        for ours, at in ((0, stones), (1, stones - 1)):
            rates = [black(at, series, won) for colour, series, won in games if colour == ours]
            rates = [r for r in rates if not math.isnan(r)]
            cells.append(f"{statistics.fmean(rates):.3f} ({len(rates)})" if rates else "-")
        print(f"{stones} / {stones - 1}: {cells[0]} | {cells[1]}")


if __name__ == "__main__":
    main()
