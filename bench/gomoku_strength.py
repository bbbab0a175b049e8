"""The Gomoku player against Rapfi (classical evaluation) and against the previous player.

Matches are played by tengen's own Gomocup manager (``tengen match --game gomoku``) from the
26 standard three-stone openings (bench/openings/gomoku, cycled, each with both colours),
byo-yomi ``0+1xS`` (S seconds a move for both brains, sent as ``timeout_turn``), freestyle and
renju on 15x15. tengen plays as a brain (``tengen gomocup``, ``TENGEN_JIT=compiled``, which
loads its compiled kernels before it answers ``START``; an ``--old`` tree's brain runs through
bench/gomoku_brain.py, which does that for trees from before the brain did).
Rapfi is ``build/rapfi/pbrain-rapfi`` (``make rapfi``; its built-in classical config, no
network), run through bench/rapfi_brain.sh (which drops one input glitch of Rapfi's that
would otherwise forfeit its games); where it is missing those matches are skipped with a
message. ``--rapfi-nodes N ...`` plays a handicap ladder instead of full-strength Rapfi: one
match a rung, Rapfi limited to N nodes a move (its pbrain key ``max_node``, sent by
bench/rapfi_brain.sh; 0 is no limit), so that tengen's score is measurable (full-strength
Rapfi wins nearly every game) and does not move with the machine's load as a time handicap
would. ``--rapfi-threads N`` gives Rapfi N search threads (its ``INFO thread_num``; by
default it searches on one, where tengen's brain takes one a core).
``--old SRC`` adds a head-to-head against another tengen source tree (e.g. ``git archive
<commit> src | tar -x -C /tmp/old``); with ``--cores C ...`` it is played as one match a core,
side by side, each pinned to its core (so each brain searches on one thread), the openings
dealt in turn between them: with ``--seconds 0.2 --turns 0 1 2 3 --mirror --games 208
--cores 0 1`` (and ``RAPFI=none`` to leave Rapfi out), 416 games in about 21 minutes on two
cores, a standard error of about 16 Elo (bench/STRENGTH.md). ``--turns K ...`` plays the
openings turned by K quarter turns (one pass of all 26 per K, in the order given; with
``--mirror`` each also reflected) instead of as written: the same openings and balance as
positions, but other games, as the brains do not play a turned position exactly as the
unturned one (a run with the openings as written replays some earlier games move for move).
``--swap swap2`` (or ``swap1``) plays no openings: each game opens by that rule, the brains
placing the stones and choosing colours (``SWAP2BOARD``), the player scheduled for Black
opening, alternately. Also prints the VCF solver's nodes per second over the puzzle set
(tests/data/gomoku_vcf.txt). Each tree's numba cache must be warm first
(``TENGEN_JIT=compiled python -m tengen.warm`` with its PYTHONPATH): a brain that compiles
during a game loses it on time.

Run ``python bench/gomoku_strength.py [--games 40] [--seconds 1] [--rules freestyle renju]
[--rapfi-nodes 3000 10000] [--rapfi-threads 2] [--old /tmp/old/src [--cores 0 1]]
[--turns 1 2 3 [--mirror] | --swap swap2]
[--dir bench/results/gomoku]``; resumable (the match runner's results).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RAPFI = Path(os.environ.get("RAPFI", ROOT / "build" / "rapfi" / "pbrain-rapfi"))
OPENINGS = ROOT / "bench/openings/gomoku"
SIZE = 15


def turned_openings(turns: list[int], folder: Path, mirror: bool = False) -> Path:
    """The openings turned by each of `turns` quarter turns (counter-clockwise), and with
    `mirror` each also reflected in the diagonal before it is turned, written to `folder` as
    SGF files whose names keep them in the order of `turns`, then of the files."""
    from tengen.records import open_record

    folder.mkdir(parents=True, exist_ok=True)
    letters = "abcdefghijklmnopqrstuvwxyz"
    for k, turn in enumerate(turns):
        for path in sorted(OPENINGS.glob("*.sgf")):
            line = open_record(str(path)).games[0].main_line()
            for reflected in (False, True) if mirror else (False,):
                moves = []
                for color, point in (n.move for n in line if n.move):
                    assert point is not None  # an opening has no passes
                    col, row = (point[1], point[0]) if reflected else point
                    for _ in range(turn % 4):
                        col, row = row, SIZE - 1 - col
                    moves.append(f";{color.name[0]}[{letters[col]}{letters[row]}]")
                name = f"t{k}{turn % 4}{'m' if reflected else ''}-{path.stem}"
                text = f"(;GM[4]FF[4]SZ[{SIZE}]GN[{name}]{''.join(moves)})\n"
                (folder / f"{name}.sgf").write_text(text)
    return folder


def dealt(openings: Path, parts: int, out: Path) -> list[Path]:
    """`openings`' files dealt in turn into `parts` folders under `out`, one a match played
    side by side."""
    folders = [out / f"openings-part{k}" for k in range(parts)]
    files = sorted(openings.glob("*.sgf"))
    for k, folder in enumerate(folders):
        folder.mkdir(parents=True, exist_ok=True)
        for path in files[k::parts]:
            (folder / path.name).write_text(path.read_text())
    return folders


def match(
    name: str,
    players: list[str],
    rule: str,
    games: int,
    seconds: float,
    out: Path,
    openings: Path,
    swap: str | None = None,
    core: int | None = None,
) -> None:
    """One match through ``tengen match``, from `openings` or, with `swap`, by that swap
    rule's decisions, with its brains pinned to `core` if given; its summary goes to
    stdout."""
    start = ["--swap", swap] if swap else ["--openings", str(openings)]
    folder = out / f"{name}-{rule}" if not swap else out / f"{name}-{rule}-{swap}"
    command = [
        sys.executable, "-m", "tengen", "match", "--game", "gomoku", "--rules", rule,
        "--time", f"byoyomi:0+1x{seconds:g}", *start,
        "--games", str(games), "-o", str(folder), *players,
    ]  # fmt: skip
    print(f"== {name}, {rule}{f', {swap}' if swap else ''}, {games} games, {seconds:g} s a move",
          flush=True)  # fmt: skip
    # taskset (util-linux), not a preexec_fn: matches start from threads, where Python code
    # run between fork and exec can deadlock
    pin = [] if core is None else ["taskset", "-c", str(core)]
    subprocess.run([*pin, *command], check=False, env=dict(os.environ, TENGEN_JIT="compiled"))


def rapfi_rungs(nodes: list[int], threads: int = 0) -> list[tuple[str, str]]:
    """(match name, brain spec) of Rapfi at each node limit (one rung, unlimited, if none), on
    `threads` search threads (0: Rapfi's default, one)."""
    rungs = []
    for limit in nodes or [0]:
        name = f"rapfi-n{limit}" if limit else "rapfi"
        info = f" max_node {limit}" if limit else ""
        if threads:
            name += f"-t{threads}"
            info += f" thread_num {threads}"
        rungs.append((name, f"rapfi={ROOT / 'bench/rapfi_brain.sh'} {RAPFI}{info}"))
    return rungs


def solver_speed() -> None:
    """The VCF solver's nodes per second over the puzzle set (each puzzle solved once untimed
    first, so that loading the compiled code is not counted; then on a fresh position)."""
    from tengen.ai.gomoku.position import Position
    from tengen.ai.gomoku.threats import ThreatSearch
    from tengen.core.coords import Point
    from tengen.gomoku import GomokuGame, GomokuRules, Rule

    nodes, seconds = 0, 0.0
    for text in (ROOT / "tests/data/gomoku_vcf.txt").read_text().splitlines():
        rule, moves = text.split("\t")
        game = GomokuGame(GomokuRules(Rule(rule)))
        for m in moves.split():
            game.play(Point(*map(int, m.split(","))))
        ThreatSearch(Position.of(game), 10**6, 60.0).vcf(int(game.to_play))
        pos = Position.of(game)
        start = time.perf_counter()
        ThreatSearch(pos, 10**6, 60.0).vcf(int(game.to_play))
        seconds += time.perf_counter() - start
        nodes += pos.nodes
    print(f"VCF solver: {nodes} nodes in {seconds:.3f} s, {nodes / seconds:,.0f} nodes/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rules", nargs="+", default=["freestyle", "renju"])
    parser.add_argument("--rapfi-nodes", type=int, nargs="+", default=[], metavar="N")
    parser.add_argument("--rapfi-threads", type=int, default=0, metavar="N")
    parser.add_argument("--old", help="a tengen source tree to play head to head")
    opening = parser.add_mutually_exclusive_group()  # a swap plays no openings to turn
    opening.add_argument("--turns", type=int, nargs="+", default=[], metavar="K")
    opening.add_argument("--swap", choices=["swap1", "swap2"], help="open by the brains' swap")
    parser.add_argument("--mirror", action="store_true", help="--turns reflected as well")
    parser.add_argument("--cores", type=int, nargs="+", default=[], metavar="C",
                        help="the head to head as one match a core, pinned")  # fmt: skip
    parser.add_argument("--dir", type=Path, default=ROOT / "bench/results/gomoku")
    args = parser.parse_args()
    os.environ["TENGEN_JIT"] = "compiled"
    openings = OPENINGS
    if args.turns:
        openings = turned_openings(args.turns, args.dir / "openings", args.mirror)
    solver_speed()
    new = f"new={sys.executable} -m tengen gomocup"
    for rule in args.rules:
        if RAPFI.exists():
            for name, brain in rapfi_rungs(args.rapfi_nodes, args.rapfi_threads):
                match(name, [new, brain], rule, args.games, args.seconds, args.dir, openings,
                      args.swap)  # fmt: skip
        else:
            print(f"skipped: no Rapfi at {RAPFI} (make rapfi builds it)")
        if args.old:
            old = f"old=env PYTHONPATH={args.old} {sys.executable} {ROOT / 'bench/gomoku_brain.py'}"
            if not args.cores:
                match("old", [new, old], rule, args.games, args.seconds, args.dir, openings,
                      args.swap)  # fmt: skip
                continue
            parts = dealt(openings, len(args.cores), args.dir)
            with ThreadPoolExecutor(len(parts)) as pool:
                runs = []
                for core, part in zip(args.cores, parts, strict=True):
                    runs.append(pool.submit(match, f"old-c{core}", [new, old], rule,
                        args.games, args.seconds, args.dir, part, args.swap, core))  # fmt: skip
            for run in runs:
                run.result()


if __name__ == "__main__":
    main()
