"""The built-in Go player against GNU Go 3.8 or Pachi: wins, Elo, how games end.

Workload: `--games` games (colours alternating) on a `--size` board under Chinese rules, komi
`--komi` (7.5 by default; the issue's Pachi goal uses 7), played by the match runner
(`tengen.match.runner.run`, what ``tengen match`` runs) between ``builtin`` (tengen's MCTS
player) and the `--opponent`:

- ``gnugo``: ``/usr/games/gnugo --mode gtp --level 10 --seed SEED``;
- ``pachi``: Pachi built by ``scripts/build_pachi.sh`` (``make pachi``; no neural network,
  ``threads=1`` unless `--pachi-threads`) at ``--pachi`` (default: ``$PACHI`` or
  ``build/pachi/pachi``), run as ``pachi -s SEED threads=T``; where it is absent the match is
  skipped with a message.

SEED is the game's own seed, so that the opponent's games differ yet every run is the same.
The player's budget is `--playouts` simulations a move (the default: repeatable on a shared
machine) or, with `--seconds S`, a clock of S seconds a move (byo-yomi ``0+1xS``) for both
players, so a slow move loses on time and both think for the same time. Every player is
warmed up before its clock starts (the match runner does it). Counted games are scored by the
runner (tengen's count, dead stones estimated), with GNU Go's ``final_score`` beside as
referee (the ``referee`` column: games where the two counts name another winner).

The table gives tengen's wins, losses and score with its 95% Wilson interval and the Elo
difference it implies with the interval's Elo, then how the games ended and their average
length. Results are kept in `--dir` (resumable: rerun the same command to finish an
interrupted match). ``--quick`` is a sanity run: 4 games on 9x9 at 1.5 s a move against
Pachi, one thread each (options given after it still apply).

Run ``python bench/strength.py [--quick] [--opponent gnugo|pachi] [--games N] [--size 9]
[--playouts P | --seconds S] [--threads T] [--dir DIR] [--out PATH]``; figures and machine
details go to bench/results/strength.json (against Pachi: strength-pachi.json; or `--out`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from common import RESULTS, machine, render, write_json
from tengen.clock import TimeControl
from tengen.core.rules import CHINESE
from tengen.match.game import GameConfig
from tengen.match.players import PlayerSpec
from tengen.match.runner import RunConfig, player_tally, run
from tengen.match.stats import elo, wilson

DEFAULT_OUT = RESULTS / "strength.json"
GNUGO = shutil.which("gnugo") or shutil.which("/usr/games/gnugo")
PACHI = os.environ.get("PACHI", str(Path(__file__).resolve().parent.parent / "build/pachi/pachi"))
QUICK = {"games": 4, "size": 9, "komi": 7.0, "seconds": 1.5, "threads": 1, "opponent": "pachi"}


def main(argv: list[str] | None = None) -> int:
    """Play the match (or finish it), print the table and write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a sanity run (see the docstring)")
    parser.add_argument("--opponent", choices=("gnugo", "pachi"), help="default: gnugo")
    parser.add_argument("--games", type=int, help="games (default: 10)")
    parser.add_argument("--size", type=int, help="board size (default: 9)")
    parser.add_argument("--komi", type=float, help="komi (default: 7.5; --quick: 7)")
    parser.add_argument("--playouts", type=int, default=10_000, help="simulations a move")
    parser.add_argument("--seconds", type=float, help="seconds a move on the clock instead")
    parser.add_argument("--threads", type=int, help="tengen's search threads (default: 2)")
    parser.add_argument("--gnugo-level", type=int, default=10, help="GNU Go level (default: 10)")
    parser.add_argument("--pachi", default=PACHI, help="Pachi's binary (default: build/pachi)")
    parser.add_argument("--pachi-threads", type=int, default=1, help="Pachi's threads")
    parser.add_argument("--seed", type=int, default=0, help="base seed of both players")
    parser.add_argument("--dir", type=Path, help="match folder (default: under bench/results)")
    parser.add_argument("--out", type=Path, help="JSON file (default: strength[-pachi].json)")
    args = parser.parse_args(argv)
    defaults = {"games": 10, "size": 9, "komi": 7.5, "threads": 2, "opponent": "gnugo"}
    for key, value in (QUICK if args.quick else defaults).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if GNUGO is None:
        print("strength.py: skipped, GNU Go is not installed (apt install gnugo)", file=sys.stderr)
        return 0  # no opponent or referee to measure against: the rest of `make bench` goes on
    if args.opponent == "pachi" and not os.access(args.pachi, os.X_OK):
        print(
            f"strength.py: skipped, no Pachi at {args.pachi} (build it with `make pachi`)",
            file=sys.stderr,
        )
        return 0
    if args.seconds is None:
        budget = f"--playouts {args.playouts}"
        control = None
        label = f"{args.playouts} playouts/move"
    else:
        budget = f"--seconds {args.seconds}"
        control = TimeControl("byoyomi", 0.0, period=args.seconds, periods=1)
        label = f"{args.seconds:g} s/move (byoyomi 0+1x{args.seconds:g})"
    tengen = PlayerSpec("tengen", f"builtin {budget} --threads {args.threads}")
    if args.opponent == "pachi":
        pachi = Path(args.pachi).resolve()
        opponent = PlayerSpec(
            "pachi",
            f"{pachi} -s {{seed}} threads={args.pachi_threads}",
            cwd=str(pachi.parent),  # its pattern files
        )
        if control is None:  # Pachi's own budget: the same simulations a move
            opponent = replace(opponent, command=f"{opponent.command} -t ={args.playouts}")
    else:
        opponent = PlayerSpec(
            f"gnugo{args.gnugo_level}",
            f"{GNUGO} --mode gtp --level {args.gnugo_level} --seed {{seed}}",  # each game its own
        )
    out = args.out or (DEFAULT_OUT if args.opponent == "gnugo" else RESULTS / "strength-pachi.json")
    pace = f"{args.seconds:g}s" if args.seconds else f"{args.playouts}p"
    run_name = f"strength-{opponent.name}-{args.size}x{args.size}-{pace}-{args.threads}t"
    folder = args.dir or RESULTS / run_name  # one folder per setting: a rerun resumes it
    config = RunConfig(
        players=(tengen, opponent),
        games=args.games,
        game=GameConfig(
            size=args.size,
            ruleset=CHINESE.with_komi(args.komi),
            time=control,
            referee=f"{GNUGO} --mode gtp --chinese-rules",
        ),
        out=str(folder),
        seed=args.seed,
    )
    start = time.monotonic()
    results = run(config, sys.stderr)
    wall = time.monotonic() - start
    tally = player_tally(results, tengen.name)
    low, high = wilson(tally)
    endings = Counter(r.ending.split(" (")[0] for r in results)
    moves = sum(r.moves for r in results) / max(len(results), 1)
    disputed = sum(
        1 for r in results if r.referee and r.referee[:1] in "BW" and r.referee[:1] != r.result[:1]
    )
    by_colour = {
        colour: player_tally([r for r in results if getattr(r, colour) == tengen.name], "tengen")
        for colour in ("black", "white")
    }
    print(f"tengen ({label}, {args.threads} threads) vs {opponent.name} on {args.size}x{args.size}")
    head = ("games", "won", "lost", "score", "95% interval", "Elo", "Elo 95%", "black", "white")
    head += ("referee",)
    row = (
        str(tally.games),
        str(tally.wins),
        str(tally.losses),
        f"{tally.score:.2f}",
        f"{low:.2f}-{high:.2f}",
        f"{elo(tally.score):+.0f}" if 0 < tally.score < 1 else "-",
        f"{_elo(low)} to {_elo(high)}",
        f"{by_colour['black'].wins}/{by_colour['black'].games}",
        f"{by_colour['white'].wins}/{by_colour['white'].games}",
        f"{disputed} disputed",
    )
    print(render(head, [row]))
    print(render(("ending", "games"), [(e, str(n)) for e, n in endings.most_common()]))
    print(f"average moves a game: {moves:.1f}; this call's wall time: {wall:.0f} s")
    write_json(
        out,
        {
            "machine": machine(),
            "size": args.size,
            "budget": label,
            "threads": args.threads,
            "opponent": opponent.command,
            "komi": args.komi,
            "games": tally.games,
            "wins": tally.wins,
            "losses": tally.losses,
            "draws": tally.draws,
            "score": tally.score,
            "wilson95": [low, high],
            "elo95": [_elo(low), _elo(high)],
            "endings": dict(endings),
            "average_moves": moves,
            "disputed_by_referee": disputed,
            "results": [
                {
                    "black": r.black,
                    "white": r.white,
                    "result": r.result,
                    "ending": r.ending,
                    "referee": r.referee,
                }
                for r in results
            ],
        },
    )
    return 0


def _elo(score: float) -> str:
    """The Elo difference of a score, with the ends of the scale named."""
    if score <= 0:
        return "-inf"
    if score >= 1:
        return "+inf"
    return f"{elo(score):+.0f}"


if __name__ == "__main__":
    sys.exit(main())
