"""Dead-stone estimate and count speed on finished 19x19 games, with GNU Go's as the peer.

The positions are the ends of real 19x19 games from ``shared/corpus/gnugo_regression/games``
(NNGS, KGS and tournament games) that were counted (RE[B+n] or RE[W+n]), read in file order.
For each one, warm (numba's compile and cache load happen before any timing):

* ``benson``: `scoring.benson.pass_alive` for both colours;
* ``estimate``: `scoring.life.estimate` with its default playouts, in wall time and in CPU
  time (``estimate cpu``: the time of the one core it runs on, which a busy machine does not
  inflate); the budget is under a second on one core for a finished 19x19 game, and the
  last line of the table checks the slowest game against it;
* ``count``: `scoring.score_game` (the record's rules, else Chinese) given the estimate's dead
  and seki stones;
* ``gnugo``: GNU Go's ``final_status_list dead`` on the same position, in a fresh GNU Go for
  every run (it keeps its answer for a position it has seen), timed around the GTP round trip.

Each is timed `--repeats` times and the median counts. The table also gives GNU Go's time over
tengen's estimate time (``gnugo/est``: above 1, tengen is faster), how many stones both call
dead or both call alive, and tengen's result with its own estimate beside the record's RE.
Without GNU Go the peer columns say so.

Run ``python bench/scoring.py [--positions N] [--repeats R] [--out PATH]``; the figures and
machine details go to bench/results/scoring.json.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from common import RESULTS, machine, write_json
from tengen.core import Color, Game, Point
from tengen.core.coords import from_gtp
from tengen.core.rules import CHINESE
from tengen.gtp.client import GtpClient, GtpClientError
from tengen.scoring import score_game
from tengen.scoring.benson import pass_alive
from tengen.scoring.life import PLAYOUTS, dead_stones, estimate, seki_stones
from tengen.sgf import SgfError, parse_file
from tengen.sgf.replay import replay

HERE = Path(__file__).resolve().parent
GAMES = (HERE.parent / ".." / "shared" / "corpus" / "gnugo_regression" / "games").resolve()
DEFAULT_OUT = RESULTS / "scoring.json"
COUNTED = re.compile(r"[BW]\+\d")
MIN_MOVES = 150
BUDGET_MS = 1000  # the estimate on a finished 19x19 game, on one core


@dataclass
class Row:
    """One finished position and its timings in milliseconds (None: not measured)."""

    record: str
    moves: int
    stones: int
    benson_ms: float
    estimate_ms: float
    estimate_cpu_ms: float
    count_ms: float
    gnugo_ms: float | None
    agree: int | None
    result: str
    recorded: str

    @property
    def ratio(self) -> float | None:
        """GNU Go's time over tengen's estimate time."""
        return None if self.gnugo_ms is None else self.gnugo_ms / self.estimate_ms


def finished_games(limit: int) -> list[tuple[Path, Game]]:
    """The first `limit` counted 19x19 records of at least MIN_MOVES moves that replay cleanly."""
    found = []
    for path in sorted(GAMES.rglob("*.sgf")):
        try:
            trees = parse_file(path).games
        except (SgfError, OSError):
            continue
        if not trees or trees[0].size != (19, 19):
            continue
        result = trees[0].root.get_raw("RE") or [""]
        if not COUNTED.match(result[0]):
            continue
        game, problems = replay(trees[0])
        if problems or game.move_number < MIN_MOVES:
            continue
        found.append((path, game))
        if len(found) == limit:
            break
    return found


def find_gnugo() -> str | None:
    """GNU Go on PATH, else Debian's /usr/games/gnugo, else None."""
    debian = Path("/usr/games/gnugo")
    return shutil.which("gnugo") or (str(debian) if debian.is_file() else None)


def median_ms(fn: Callable[[], object], repeats: int) -> float:
    """The median wall time of `fn` over `repeats` calls, in milliseconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def median_cpu_ms(fn: Callable[[], object], repeats: int) -> float:
    """The median CPU time of `fn` over `repeats` calls, in milliseconds."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return 1000 * statistics.median(times)


def gnugo_dead(gnugo: str, path: Path, repeats: int) -> tuple[float, set[Point]]:
    """GNU Go's median ``final_status_list dead`` time (ms) on `path`'s end, and its answer.

    Each run is a fresh GNU Go: it keeps the answer for a position it has seen, even across
    ``loadsgf`` and ``clear_cache``.
    """
    times, answer = [], ""
    for _ in range(repeats):
        with GtpClient([gnugo, "--mode", "gtp"], timeout=120) as client:
            client.send(f"loadsgf {path}")
            start = time.perf_counter()
            answer = client.send("final_status_list dead")
            times.append(time.perf_counter() - start)
    dead = {p for v in answer.split() if (p := from_gtp(v, 19, 19)) is not None}
    return 1000 * statistics.median(times), dead


def measure(path: Path, game: Game, gnugo: str | None, repeats: int) -> Row:
    """Time tengen (and GNU Go, when given) on the end of one game."""
    board = game.board
    if game.ruleset.name == "unspecified":
        game.ruleset = CHINESE.with_komi(game.ruleset.komi)
    est = estimate(game)
    dead, seki = dead_stones(est), seki_stones(est)
    benson = median_ms(lambda: [pass_alive(board, c) for c in Color], repeats)
    est_ms = median_ms(lambda: estimate(game), repeats)
    est_cpu = median_cpu_ms(lambda: estimate(game), repeats)
    count_ms = median_ms(lambda: score_game(game, dead, seki), repeats)
    stones = [p for p in board.points() if board[p] is not None]
    gnugo_ms: float | None = None
    agree: int | None = None
    if gnugo is not None:
        gnugo_ms, theirs = gnugo_dead(gnugo, path, repeats)
        agree = sum((p in dead) == (p in theirs) for p in stones)
    result = score_game(game, dead, seki).result.to_sgf()
    recorded = (parse_file(path).games[0].root.get_raw("RE") or ["?"])[0]
    name = str(path.relative_to(GAMES))
    return Row(
        name,
        game.move_number,
        len(stones),
        benson,
        est_ms,
        est_cpu,
        count_ms,
        gnugo_ms,
        agree,
        result,
        recorded,
    )


def table(rows: list[Row]) -> str:
    """The rows as an aligned text table, with a median line."""

    def fmt(x: float | None, spec: str = ".1f") -> str:
        return "-" if x is None else format(x, spec)

    def med(values: list[float | None]) -> float | None:
        known = [v for v in values if v is not None]
        return statistics.median(known) if known else None

    timed = ("benson_ms", "estimate_ms", "estimate_cpu_ms", "count_ms", "gnugo_ms")
    head = ["record", "moves", "stones", *(t.replace("_", " ") for t in timed)]
    head += ["gnugo/est", "agree", "tengen", "RE"]
    lines = [head]
    for r in rows:
        agree = "-" if r.agree is None else f"{r.agree}/{r.stones}"
        times = [fmt(getattr(r, t)) for t in timed]
        ends = [fmt(r.ratio, ".2f"), agree, r.result, r.recorded]
        lines.append([r.record, str(r.moves), str(r.stones), *times, *ends])
    medians = [fmt(med([getattr(r, t) for r in rows])) for t in timed]
    lines.append(["median", "", "", *medians, fmt(med([r.ratio for r in rows]), ".2f"), "", "", ""])
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    text = ["  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)) for line in lines]
    text.insert(1, "-" * len(text[0]))
    text.insert(-1, "-" * len(text[0]))
    return "\n".join(t.rstrip() for t in text)


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, measure, print the table and write the JSON file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10, help="finished games to time")
    parser.add_argument("--repeats", type=int, default=5, help="timings per measurement")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results file")
    args = parser.parse_args(argv)
    games = finished_games(args.positions)
    if not games:
        parser.error(f"no finished 19x19 records found under {GAMES}")
    start = time.perf_counter()
    estimate(games[0][1])  # numba: load the cache or compile before anything is timed
    first_call = time.perf_counter() - start
    gnugo = find_gnugo()
    try:
        rows = [measure(p, g, gnugo, args.repeats) for p, g in games]
    except (GtpClientError, OSError) as err:
        parser.error(f"GNU Go failed: {err}")
    print(table(rows))
    slowest = max(r.estimate_cpu_ms for r in rows)
    verdict = "within" if slowest < BUDGET_MS else "OVER"
    print(f"estimate on one core: slowest {slowest:.0f} ms, {verdict} the {BUDGET_MS} ms budget")
    peer = f"{gnugo} final_status_list dead" if gnugo else "GNU Go not found: no peer"
    print(
        f"\nestimate: {PLAYOUTS} playouts per call; first call (numba) {first_call:.2f} s, "
        f"excluded. gnugo/est = GNU Go time / tengen estimate time. Peer: {peer}."
    )
    meta = {
        **machine(),
        "playouts": PLAYOUTS,
        "repeats": args.repeats,
        "first_call_s": first_call,
        "peer": peer,
    }
    rows_json = [asdict(r) | {"gnugo_over_estimate": r.ratio} for r in rows]
    write_json(args.out, {"meta": meta, "rows": rows_json})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
