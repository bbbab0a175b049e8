"""Build the VCF puzzle set (tests/data/gomoku_vcf.txt) and check each puzzle by playing it out.

Positions come from quick self-play games of the built-in player from the 26 standard
openings; a position is kept when the VCF solver finds a win of at least `--fours` fours for
the side to move that has no five to make. Each kept win is then checked by `check_vcf`,
which does not trust the solver's verdict: the attacker plays the solver's move, and the
defender tries EVERY legal move of the game (`GomokuGame.legal_moves`, renju's fouls
excluded); the game's own judge (`wins_at`, through `GomokuGame.play`) says who won.

Run ``python bench/gomoku_puzzles.py [--count 12] [--rule freestyle|renju]``; lines are
appended as ``rule<TAB>moves`` (moves as ``col,row`` pairs, Black first).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from tengen.ai.gomoku.position import Position
from tengen.ai.gomoku.threats import ThreatSearch
from tengen.ai.gomoku_player import GomokuPlayer
from tengen.core.coords import Point
from tengen.gomoku import GomokuGame, GomokuIllegal, GomokuRules, Rule

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "gomoku_vcf.txt"


def solve(game: GomokuGame, nodes: int = 200_000) -> Point | None:
    """The solver's first move of a VCF for the side to move, or None."""
    pos = Position.of(game)
    found = ThreatSearch(pos, nodes, 60.0).vcf(int(game.to_play))
    return None if found is None else pos.point(found)


def check_vcf(game: GomokuGame, attacker: int, depth: int = 40) -> bool:
    """Whether `attacker` (to move) wins by the solver's moves against every defence, as
    the game's judge sees it; at most `depth` attacker moves."""
    if depth <= 0 or game.is_over:
        return False
    move = solve(game)
    if move is None:
        return False
    game.play(move)
    try:
        if game.is_over:
            return game.result.startswith("B" if attacker == 1 else "W")
        for reply in game.legal_moves():
            game.play(reply)
            try:
                if game.is_over:
                    return False  # the defender made a five
                if not _wins_now(game) and not check_vcf(game, attacker, depth - 1):
                    return False
            finally:
                game.undo()
        return True
    finally:
        game.undo()


def _wins_now(game: GomokuGame) -> bool:
    """Whether the side to move has a five to make (by the judge)."""
    for p in game.legal_moves():
        game.play(p)
        won = game.is_over and not game.result.startswith("0")
        game.undo()
        if won:
            return True
    return False


def fours_to_win(game: GomokuGame) -> int:
    """How many attacker moves the solver's line takes against the forced blocks."""
    trial = GomokuGame(game.rules)
    trial.set_up(
        [p for c, p in game.moves if int(c) == 1], [p for c, p in game.moves if int(c) == 2]
    )
    count = 0
    while not trial.is_over and count < 40:
        move = solve(trial)
        if move is None:
            return 0
        trial.play(move)
        count += 1
        if trial.is_over:
            break
        fives = Position.of(trial).fives(3 - int(trial.to_play))
        if not fives:
            return count
        try:
            trial.play(Position.of(trial).point(fives[0]))
        except GomokuIllegal:  # renju: White has forced Black onto a foul
            return count
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=12)
    parser.add_argument("--rule", default="freestyle")
    parser.add_argument("--fours", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rule = Rule(args.rule)
    rng = random.Random(args.seed)
    kept = 0
    while kept < args.count:
        game = GomokuGame(GomokuRules(rule))
        game.play(Point(7, 7))
        game.play(Point(7 + rng.choice((-1, 0, 1)), 6))
        players = (
            GomokuPlayer(rng.randrange(1 << 30), 0.05),
            GomokuPlayer(rng.randrange(1 << 30), 0.05),
        )
        while not game.is_over and kept < args.count:
            if rng.random() < 0.15:
                move = rng.choice(
                    [p for p in game.legal_moves() if abs(p.col - 7) < 5 and abs(p.row - 7) < 5]
                )
            else:
                move = players[game.move_number % 2].genmove(game)
            game.play(move)
            if game.is_over or _wins_now(game) or solve(game) is None:
                continue
            if fours_to_win(game) < args.fours or not check_vcf(game, int(game.to_play)):
                continue
            line = " ".join(f"{p.col},{p.row}" for _, p in game.moves)
            with OUT.open("a") as out:
                out.write(f"{rule.value}\t{line}\n")
            kept += 1
            print(f"kept {kept}: {len(game.moves)} stones, {fours_to_win(game)} fours", flush=True)
            break


if __name__ == "__main__":
    main()
