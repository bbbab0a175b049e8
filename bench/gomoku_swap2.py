"""Swap2's first three stones, weighed by the player's own searches and judged by Rapfi.

The swap2 opener places three stones (Black, White, Black) and the other side then takes a
colour or places two more; an opener who leaves either colour ahead gives the game away. This
script weighs every three-stone opening near the centre (Black at the centre, White within two
points of it, the third stone within three: 151 up to the board's symmetries) and writes the
most even, by the player's long searches, to the table the player opens from
(`tengen.ai.gomoku.book.swap2_openings`).

- ``survey --rule R --seconds S [--among FILE --top N]``: the player's score for White to
  move (`GomokuPlayer.weigh`, S seconds on ``--threads``) of each opening (or of the N most
  even by an earlier survey), to bench/results/swap2/R-S.tsv (resumable).
- ``rapfi --rule R --nodes N``: Rapfi's eval (classical, one thread, N nodes, so the same on
  any load) of the same openings, to bench/results/swap2/R-rapfi.tsv.
- ``report --rule R``: each survey beside Rapfi (rank correlation; Rapfi's win rate for White
  of the openings each survey calls most even).
- ``table --rule R --survey FILE --count K``: the K most even openings of a survey, written to
  src/tengen/ai/gomoku/book/swap2-R.txt with their scores.
- ``table --rule R --standard --count K``: instead, the K of the 26 standard openings
  (bench/openings/gomoku, which the opening book follows to 13 stones for either colour) that
  Rapfi's eval (``rapfi``) calls most even: an opener past whose stones the book still plays.

Run with ``PYTHONPATH=src:bench`` (the Rapfi steps need ``make rapfi``, or ``RAPFI``).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from gomoku_quality import win_rate

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench/results/swap2"

Opening = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]


def openings() -> list[Opening]:
    """The canonical three-stone openings: Black at the centre and one more within three
    points, White within two points of the centre."""
    from tengen.ai.gomoku import book
    from tengen.core.coords import Point

    centre = Point(7, 7)
    seen: set[Opening] = set()
    for wc in range(5, 10):
        for wr in range(5, 10):
            for c in range(4, 11):
                for r in range(4, 11):
                    white, third = Point(wc, wr), Point(c, r)
                    if len({white, third, centre}) == 3:
                        key = book.canonical([centre, third], [white])[0]
                        seen.add((tuple(map(tuple, key[0])), tuple(map(tuple, key[1]))))
    return sorted(seen)


def text(opening: Opening) -> str:
    """An opening (or any position) in the book's form: its black stones / its white stones,
    SGF letters."""
    from tengen.ai.gomoku import book
    from tengen.core.coords import Point

    black, white = (" ".join(book.sgf(Point(*p)) for p in side) for side in opening)
    return f"{black} / {white}"


def game_of(opening: Opening, rule: str):  # type: ignore[no-untyped-def]
    """The opening's position (Black, White, Black), White to move."""
    (b1, b2), (w,) = opening
    return game_after([b1, w, b2], rule)


def game_after(moves, rule: str):  # type: ignore[no-untyped-def]
    """The game after `moves` (column, row pairs or points) under `rule`."""
    from tengen.core.coords import Point
    from tengen.gomoku import GomokuGame, GomokuRules, Rule

    game = GomokuGame(GomokuRules(Rule(rule)))
    for m in moves:
        game.play(Point(*m))
    return game


def most_even(rows: dict[str, list[str]], count: int) -> list[str]:
    """The `count` rows (by opening) whose first column, a score, is nearest 0."""
    return sorted(rows, key=lambda k: (abs(int(rows[k][0])), k))[:count]


def read(path: Path) -> dict[str, list[str]]:
    """A results file's rows by opening."""
    if not path.exists():
        return {}
    return {row[0]: row[1:] for row in (t.split("\t") for t in path.read_text().splitlines())}


def survey(args: argparse.Namespace) -> None:
    from tengen.ai.gomoku_player import GomokuPlayer

    path = OUT / f"{args.rule}-{args.seconds:g}.tsv"
    done = read(path)
    todo = [o for o in openings() if text(o) not in done]
    if args.among is not None:
        even = set(most_even(read(args.among), args.top))
        todo = [o for o in todo if text(o) in even]
    print(f"{len(done)} done, {len(todo)} to weigh at {args.seconds:g} s")
    GomokuPlayer().warm()  # else the first search's clock pays for loading the kernels
    with path.open("a") as out:
        for n, opening in enumerate(todo, 1):
            player = GomokuPlayer(threads=args.threads, book=False)
            start = time.monotonic()
            _, value = player.weigh(game_of(opening, args.rule), args.seconds)
            took = time.monotonic() - start
            out.write(f"{text(opening)}\t{value}\t{player.last_depth}\t{took:.1f}\n")
            out.flush()
            print(f"{n}/{len(todo)} {text(opening)}: {value} (depth {player.last_depth})")


def rapfi(args: argparse.Namespace) -> None:
    from gomoku_review import Rapfi, rule_number
    from tengen.gomoku import Rule

    path = OUT / f"{args.rule}-rapfi.tsv"
    done = read(path)
    todo = [o for o in openings() if text(o) not in done]
    engine = Rapfi(ms=60_000, nodes=args.nodes, rule=rule_number(Rule(args.rule)))
    try:
        with path.open("a") as out:
            for n, opening in enumerate(todo, 1):
                (b1, b2), (w,) = opening
                value = engine.evaluate([b1, w, b2])
                out.write(f"{text(opening)}\t{value}\n")
                out.flush()
                print(f"{n}/{len(todo)} {text(opening)}: {value}")
    finally:
        engine.close()


def calibrate(args: argparse.Namespace) -> None:
    """The five-stone positions swap2's chooser weighs after each of the table's openings (its
    `pairs`), and those that open the games of ``--games`` match folders: the player's score for
    White to move at ``--seconds`` beside Rapfi's eval, to bench/results/swap2/R-five.tsv."""
    from gomoku_review import Rapfi, match_records, record_moves, rule_number
    from tengen.ai.gomoku import book
    from tengen.ai.gomoku_player import GomokuPlayer
    from tengen.gomoku import Rule

    rule = Rule(args.rule)
    player = GomokuPlayer(threads=args.threads, book=False)
    player.warm()
    starts: dict[str, list[tuple[int, int]]] = {}
    for key, _ in book.swap2_openings(rule):
        for trial, _ in player.pairs(game_of(key, args.rule)):
            moves = [(p.col, p.row) for _, p in trial.moves]
            starts.setdefault(_five(moves), moves)
    for sgf in match_records(args.games):
        moves = record_moves(sgf.read_text())[:5]
        if len(moves) == 5:
            starts.setdefault(_five(moves), moves)
    path = OUT / f"{args.rule}-five.tsv"
    done = read(path)
    todo = [k for k in starts if k not in done]
    print(f"{len(done)} done, {len(todo)} to weigh")
    engine = Rapfi(ms=60_000, nodes=args.nodes, rule=rule_number(rule))
    try:
        with path.open("a") as out:
            for n, k in enumerate(todo, 1):
                moves = starts[k]
                _, value = player.weigh(game_after(moves, args.rule), args.seconds)
                judged = engine.evaluate(moves)
                out.write(f"{k}\t{value}\t{player.last_depth}\t{judged}\n")
                out.flush()
                print(f"{n}/{len(todo)} {k}: {value} (depth {player.last_depth}), Rapfi {judged}")
    finally:
        engine.close()


def _five(moves: list[tuple[int, int]]) -> str:
    """A position's canonical `text`: its black stones / its white stones."""
    from tengen.ai.gomoku import book
    from tengen.core.coords import Point

    black, white = [Point(*m) for m in moves[::2]], [Point(*m) for m in moves[1::2]]
    return text(book.canonical(black, white)[0])


def report(args: argparse.Namespace) -> None:
    judged = {k: int(v[0]) for k, v in read(OUT / f"{args.rule}-rapfi.tsv").items()}
    print(f"{len(judged)} openings judged by Rapfi; White's win rate by Rapfi:")
    rates = sorted(win_rate(v) for v in judged.values())
    if rates:
        print(f"  min {rates[0]:.3f} median {rates[len(rates) // 2]:.3f} max {rates[-1]:.3f}")
    for path in sorted(OUT.glob(f"{args.rule}-[0-9]*.tsv")):
        ours = {k: int(v[0]) for k, v in read(path).items() if k in judged}
        keys = sorted(ours)
        rho = spearman([ours[k] for k in keys], [judged[k] for k in keys])
        even = most_even({k: [str(ours[k])] for k in keys}, args.count)
        chosen = [win_rate(judged[k]) for k in even]
        mean = sum(chosen) / max(len(chosen), 1)
        worst = min(chosen, key=lambda r: -abs(r - 0.5), default=0.0)
        print(
            f"{path.name}: {len(keys)} openings, rank correlation with Rapfi {rho:+.2f}; "
            f"its {len(even)} most even: White's win rate {mean:.3f} on average, "
            f"farthest from even {worst:.3f}"
        )
    report_offsets(args)


def offsets(name: str, rows: list[tuple[int, int]]) -> None:
    """The chooser's mean win rate by Rapfi over `rows` (the player's score for White to move,
    Rapfi's eval) when it takes White above each threshold and Black at or below it."""

    def chooser(t: int) -> float:
        return sum(win_rate(r) if v > t else 1 - win_rate(r) for v, r in rows) / len(rows)

    best = max((chooser(t), t) for t in range(-800, 401, 25))
    at = {t: chooser(t) for t in (-400, -300, -200, -100, 0)}
    ideal = sum(max(win_rate(r), 1 - win_rate(r)) for _, r in rows) / len(rows)
    print(
        f"{name}: {len(rows)} positions; the chooser's win rate by Rapfi taking White above "
        + ", ".join(f"{t}: {w:.3f}" for t, w in at.items())
        + f"; best {best[0]:.3f} above {best[1]}; Rapfi's own choice {ideal:.3f}"
    )


def spearman(xs: list[int], ys: list[int]) -> float:
    """Spearman's rank correlation (ties ranked by their order)."""

    def ranks(v: list[int]) -> list[int]:
        order = sorted(range(len(v)), key=lambda i: v[i])
        out = [0] * len(v)
        for rank, i in enumerate(order):
            out[i] = rank
        return out

    n = len(xs)
    if n < 2:
        return 0.0
    rx, ry = ranks(xs), ranks(ys)
    d = sum((a - b) ** 2 for a, b in zip(rx, ry, strict=True))
    return 1 - 6 * d / (n * (n * n - 1))


def report_offsets(args: argparse.Namespace) -> None:
    """`offsets` over the three-stone surveys and the five-stone calibration."""
    judged = {k: int(v[0]) for k, v in read(OUT / f"{args.rule}-rapfi.tsv").items()}
    for path in sorted(OUT.glob(f"{args.rule}-[0-9]*.tsv")):
        rows = read(path)
        offsets(path.name, [(int(v[0]), judged[k]) for k, v in rows.items() if k in judged])
    five = read(OUT / f"{args.rule}-five.tsv")
    if five:
        offsets("five stones", [(int(v[0]), int(v[2])) for v in five.values()])


def standard() -> set[str]:
    """The 26 standard openings (bench/openings/gomoku), as `text`."""
    from gomoku_book import OPENINGS
    from gomoku_review import record_moves

    return {_five(record_moves(p.read_text())) for p in OPENINGS.glob("*.sgf")}


def table(args: argparse.Namespace) -> None:
    """The K most even openings, of a survey (``--survey``) or of the standard openings by
    Rapfi's eval (``--standard``), written to the rule's swap2 table with their scores."""
    from tengen.ai.gomoku import book

    if args.standard:
        known = standard()
        rows = {k: v for k, v in read(OUT / f"{args.rule}-rapfi.tsv").items() if k in known}
        if len(rows) < len(known):
            raise SystemExit(f"Rapfi has judged {len(rows)} of the {len(known)}: run rapfi first")
        even = most_even(rows, args.count)
        about = [
            f"# the {len(even)} of the {len(rows)} standard openings (which the opening book",
            "# follows) that Rapfi's eval calls most even.",
            "# black stones / white stone : Rapfi's eval for White to move",
        ]
        entries = [f"{k} : {rows[k][0]}" for k in sorted(even)]
    else:
        rows = read(args.survey)
        even = most_even(rows, args.count)
        seconds = args.survey.stem.split("-")[-1]
        about = [
            f"# the {len(even)} most even of the {len(rows)} weighed by {seconds} s searches (when",
            "# fewer than 151, the most even of shorter surveys, see STRENGTH.md).",
            "# black stones / white stone : the search's score for White to move",
        ]
        entries = [
            f"{k} : {value}  # depth {depth}, {took} s"
            for k, (value, depth, took) in sorted((k, rows[k]) for k in even)
        ]
    path = book.FOLDER / f"swap2-{args.rule}.txt"
    head = f"# swap2 openings the player opens with, {args.rule}, 15x15, by bench/gomoku_swap2.py:"
    path.write_text("\n".join([head, *about, *entries]) + "\n")
    print(f"wrote {len(even)} openings to {path}")


def main() -> None:
    os.environ.setdefault("TENGEN_JIT", "compiled")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("survey", "rapfi", "calibrate", "report", "table"):
        p = sub.add_parser(name)
        p.add_argument("--rule", choices=["freestyle", "standard", "renju", "caro"], required=True)
        if name in ("survey", "calibrate"):
            p.add_argument("--seconds", type=float, default=1.0 if name == "calibrate" else 2.0)
            p.add_argument("--threads", type=int, default=2)
            p.add_argument("--among", type=Path, help="only the --top most even of this survey")
            p.add_argument("--top", type=int, default=40)
        if name in ("rapfi", "calibrate"):
            p.add_argument("--nodes", type=int, default=300_000)
        if name == "calibrate":
            p.add_argument("--games", type=Path, nargs="*", default=[])
        if name in ("report", "table"):
            p.add_argument("--count", type=int, default=12)
        if name == "table":
            source = p.add_mutually_exclusive_group(required=True)
            source.add_argument("--survey", type=Path)
            source.add_argument("--standard", action="store_true")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    commands = {"survey": survey, "rapfi": rapfi, "calibrate": calibrate, "report": report}
    {**commands, "table": table}[args.command](args)


if __name__ == "__main__":
    main()
