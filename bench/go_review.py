"""GNU Go's view of a Go match's games: where, and in which phase, tengen lost its points.

For every game of a match directory (``bench/strength.py --dir DIR`` or ``tengen match -o
DIR``: ``DIR/games/*.sgf``) GNU Go 3.8 (``/usr/games/gnugo``, or ``GNUGO``) counts the position
after each move with ``estimate_score`` (its territory and dragon reading, Chinese rules, the
record's komi). Its count leans some points towards whoever moved last, so a move is judged
with the move before it: a move's swing is how far the count moved towards its player since
the same player was last to move (the opponent's answer and the move itself). A side's swings
add up to how far the count moved its way over the game, so summed per phase (opening, middle
game, endgame) they say where the games were lost, and the largest drops name the moves to
look at. The judge is GNU Go, one of the two players here: compare tengen's phases with each
other and across runs. A game's last count is beside its result as a check.

Run ``python bench/go_review.py DIR [--name tengen] [--out FILE.json]`` with ``PYTHONPATH``
at the tengen source tree; one count takes about half a second on 19x19, so a 250-move game
takes about two minutes of one core (run it at ``nice -n 15``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from tengen.core.color import Color
from tengen.core.coords import name
from tengen.gtp.client import GtpClient
from tengen.sgf import parse_file

GNUGO = os.environ.get("GNUGO", "/usr/games/gnugo")
PHASES = ((1, 50, "opening (1-50)"), (51, 150, "middle (51-150)"), (151, 10_000, "end (151-)"))
DROPS = 3  # largest drops listed per game
SCORE = re.compile(r"^([BW])\+([0-9.]+)")
Moves = list[tuple[Color, str]]  # (colour, vertex or "pass") in the order played


@dataclass
class Swing:
    """One move and how far GNU Go's count moved towards its player (negative: a loss)."""

    number: int
    color: Color
    move: str
    swing: float


def black_lead(answer: str) -> float:
    """Black's lead from an ``estimate_score`` answer such as ``W+7.8 (upper bound: ...)``."""
    found = SCORE.match(answer.strip())
    if found is None:
        return 0.0  # "0" is a jigo
    lead = float(found.group(2))
    return lead if found.group(1) == "B" else -lead


def counts(judge: GtpClient, path: Path) -> tuple[dict[str, str], Moves, list[float]]:
    """The game's players, its moves (colour, vertex) and Black's lead by GNU Go's count
    before the first move and after each."""
    tree = parse_file(path).games[0]
    size = tree.size
    root = tree.root
    players = {c: (root.get_raw(p) or ["?"])[0] for c, p in (("B", "PB"), ("W", "PW"))}
    moves = []
    for node in tree.main_line()[1:]:
        move = node.move_at(size)
        if move is not None:
            color, point = move
            moves.append((color, "pass" if point is None else name(point, *size)))
    leads = []
    for number in range(len(moves) + 1):
        judge.send(f"loadsgf {path} {number + 1}")
        leads.append(black_lead(judge.send("estimate_score")))
    return players, moves, leads


def swings(moves: Moves, leads: list[float]) -> list[Swing]:
    """Each move's swing from the second on: the count's move towards its player over it and
    the opponent's move before it (both counts then have the same side to move)."""
    return [
        Swing(n, color, move, (1.0 if color is Color.BLACK else -1.0) * (leads[n] - leads[n - 2]))
        for n, (color, move) in enumerate(moves, 1)
        if n >= 2
    ]


def phase_losses(judged: list[Swing], color: Color) -> list[float]:
    """Points the count moved away from `color` over its swings in each phase."""
    return [
        -sum(s.swing for s in judged if s.color is color and lo <= s.number <= hi)
        for lo, hi, _ in PHASES
    ]


def main() -> None:
    """Review the directory's games and print the per-phase table and each game's drops."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--name", default="tengen", help="the player to review")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    totals = {"tengen": [0.0] * len(PHASES), "opponent": [0.0] * len(PHASES)}
    out = []
    argv = [GNUGO, "--mode", "gtp", "--chinese-rules", "--level", "10"]
    with GtpClient(argv, timeout=120) as judge:
        for path in sorted((args.dir / "games").glob("*.sgf")):
            players, moves, leads = counts(judge, path)
            judged, last = swings(moves, leads), leads[-1]
            ours = Color.BLACK if players["B"].startswith(args.name) else Color.WHITE
            mine, theirs = phase_losses(judged, ours), phase_losses(judged, ours.opponent)
            totals["tengen"] = [a + b for a, b in zip(totals["tengen"], mine, strict=True)]
            totals["opponent"] = [a + b for a, b in zip(totals["opponent"], theirs, strict=True)]
            drops = sorted((s for s in judged if s.color is ours), key=lambda s: s.swing)[:DROPS]
            result = (parse_file(path).games[0].root.get_raw("RE") or ["?"])[0]
            print(
                f"{path.name}: tengen {ours.name.lower()}, result {result}, last count "
                f"{'B' if last >= 0 else 'W'}+{abs(last):.1f}; lost by phase "
                + ", ".join(f"{x:.0f}" for x in mine)
                + "; largest drops "
                + ", ".join(f"{s.number} {s.move} {s.swing:+.0f}" for s in drops),
                flush=True,
            )
            out.append(
                {
                    "file": path.name,
                    "tengen": ours.name.lower(),
                    "result": result,
                    "last_count": last,
                    "lost_by_phase": mine,
                    "opponent_lost_by_phase": theirs,
                    "swings": [[s.number, s.color.name[0], s.move, s.swing] for s in judged],
                }
            )
    # Both columns are GNU Go's counts; the opponent may be GNU Go itself or another engine.
    print("\n| phase | tengen lost | the opponent lost |\n| --- | ---: | ---: |")
    for i, (_, _, label) in enumerate(PHASES):
        print(f"| {label} | {totals['tengen'][i]:.0f} | {totals['opponent'][i]:.0f} |")
    if args.out:
        args.out.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
