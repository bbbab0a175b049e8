"""Build the Gomoku player's opening book (`tengen.ai.gomoku.book`) from the 26 standard
three-stone openings (bench/openings/gomoku) and from the centre stone the player opens with
on an empty board, by the player's own long searches.

From each opening the book follows the player on both colours: where the player is to move it
searches `--seconds` (the player as it plays, without the book, on `--threads` threads) and
records the move; where the opponent is to move it searches `--predict` seconds and follows its
`--replies` best replies (those within `MARGIN` of the best; ``--replies 3 2``: three at the
opponent's first move below each root, two after); with ``--rapfi NODES [NODES ...]``, its
replies are Rapfi's moves instead (``build/rapfi/pbrain-rapfi``, classical, one thread, at each
node limit: the strongest open engine's choice, so that the book lies on the lines a strong
opponent plays; the player's own predictions missed Rapfi's replies in half the games, and
Rapfi on two threads in a match does not always play its one-thread move: where limits give
different moves, the book follows each; bench/STRENGTH.md). It
stops at positions of more than `--stones` stones. Positions are keyed by their canonical
orientation, so a position reached twice is searched once. Resumable, and a run may extend
an earlier book: the book file is read first and each new line is appended as it is found; at
the end (or stopped by SIGTERM) the file is rewritten sorted, under a header with one line for
each run that built it. Prints one line a position searched. With ``--games DIR ...`` the
positions searched are instead those of the match games in DIR (`gomoku_review.match_records`:
`bench/gomoku_strength.py`'s) up to `--stones` stones, either side to move, that the book
lacks: where Rapfi on two threads replied off the book's lines, a match from the same openings
may meet that reply again. With ``--swap2`` the roots are instead the openings the player opens
swap2 with (`tengen.ai.gomoku.book.swap2_openings`): past them the player had no book, and
against Rapfi its own first moves there let in forced wins by move 7-12 (bench/STRENGTH.md).

With ``--check NODES`` it builds nothing but checks the book: after each line's move Rapfi (one
thread, NODES nodes, a cleared hash) looks for a forced win of the opponent's, and where it
proves one (a mate in its eval) while the position before is not proven lost, the player
searches the position again without the moves found lost (`GomokuPlayer.weigh`'s ``avoid``),
up to `TRIES` moves in all; the first that Rapfi does not prove lost replaces the line's move,
which the line's note then names (a forced block is not asked about). The book's moves are the
player's own searches, and some of them lost outright against Rapfi at 6 stones
(bench/STRENGTH.md). Each line checked says so in its note (``checked NODES``), so a stopped
check resumes where it stopped (stopped by SIGTERM, its header line says how many it left).
With ``--drop RATE`` as well, a move is refuted when it loses more than RATE of Rapfi's win
rate for its side (Rapfi's eval of the position, against its eval after the move; a proven
loss is a drop to 0), not only when Rapfi proves it lost, and only the lines of at most
``--stones`` stones are judged (``judged NODES drop RATE``): in the games against Rapfi its win
rate for Black rose by 0.09 over tengen's first two moves as White, which the book plays, where
no move was proven lost (bench/STRENGTH.md).

Run ``TENGEN_JIT=compiled python bench/gomoku_book.py --rule freestyle [--seconds 8]
[--predict 2] [--replies 2] [--rapfi NODES ...] [--stones 7] [--threads 2] [--games DIR ... |
--swap2] [--check NODES [--drop RATE]]``;
the book goes to src/tengen/ai/gomoku/book/<rule>.txt.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from gomoku_quality import RULES, win_rate
from gomoku_review import LOST, Rapfi, match_records, record_moves

if TYPE_CHECKING:
    from tengen.ai.gomoku.book import Key
    from tengen.ai.gomoku_player import GomokuPlayer
    from tengen.core.coords import Point
    from tengen.gomoku import Rule

ROOT = Path(__file__).resolve().parent.parent
OPENINGS = ROOT / "bench/openings/gomoku"
MARGIN = 1_500  # a predicted reply's score is at most this far below the best's
RUN = "# run:"  # a header line: one run's options and the positions it added
CHECK = "# check:"  # a header line: one check's node limit and the moves it replaced
TRIES = 4  # moves the check tries in a position before it keeps the book's (all lost)


def main() -> None:
    os.environ.setdefault("TENGEN_JIT", "compiled")
    from tengen.ai.gomoku import book
    from tengen.ai.gomoku.position import Position
    from tengen.ai.gomoku.search import Search
    from tengen.ai.gomoku_player import GomokuPlayer
    from tengen.core.color import Color
    from tengen.core.coords import Point
    from tengen.gomoku import GomokuGame, GomokuRules, Rule

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rule", choices=["freestyle", "renju"], required=True)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--predict", type=float, default=2.0)
    parser.add_argument("--replies", type=int, nargs="+", default=[2])
    parser.add_argument("--rapfi", type=int, nargs="+", default=[], metavar="NODES")
    parser.add_argument("--stones", type=int, default=7)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--check", type=int, default=0, metavar="NODES")
    parser.add_argument("--drop", type=float, default=0.0, metavar="RATE")
    roots_from = parser.add_mutually_exclusive_group()
    roots_from.add_argument("--games", type=Path, nargs="+", default=[], metavar="DIR")
    roots_from.add_argument("--swap2", action="store_true", help="from the swap2 openings' table")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stopped: the header still says so
    rule = Rule(args.rule)
    out = args.out or book.FOLDER / f"{rule.value}.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    lines: dict[book.Key, str] = {}
    runs: list[str] = []  # the header's line for each earlier run
    if out.exists():
        for number, text in enumerate(out.read_text().splitlines(), start=1):
            if text.startswith((RUN, CHECK)):
                runs.append(text)
            elif text.strip() and not text.startswith("#"):
                lines[book.parse(text, f"{out.name} line {number}")[0]] = text
    before = len(lines)
    player = GomokuPlayer(seed=0, time_limit=args.seconds, threads=args.threads, book=False)
    rapfis = [Rapfi(60_000, nodes, RULES[rule.value]) for nodes in args.rapfi]
    player.warm()
    print(f"load: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    if args.check:
        check(lines, runs, rule, player, args, out)
        return

    def search(game: GomokuGame) -> Point:
        """The player's move in `game` (to move): the book's, searched first if it is new."""
        key, t = book.canonical(*book.stones(game))
        if key not in lines:
            start = time.monotonic()
            p = player.genmove(game)
            seconds = time.monotonic() - start
            note = f"depth {player.last_depth}, {seconds:.1f} s"
            lines[key] = book.line(key, book.turned(p, t), note)
            with out.open("a") as f:
                f.write(lines[key] + "\n")
            print(f"{len(lines)}: {len(game.moves)} stones, {lines[key]}", flush=True)
        return book.unturned(book.parse(lines[key], out.name)[1], t)

    def replies(game: GomokuGame, layer: int) -> list[Point]:
        """The opponent's best replies in `game`, its `layer`-th move below the root (from
        0), by a short search, or Rapfi's moves at its node limits (`--rapfi`), the legal
        ones, each once."""
        moves = [(p.col, p.row) for _, p in game.moves]
        allowed = game.legal_moves()
        found: list[Point] = []
        for rapfi in rapfis:
            _, (x, y) = rapfi.think(moves)
            if Point(x, y) in allowed and Point(x, y) not in found:
                found.append(Point(x, y))
        if found:
            return found
        width = args.replies[min(layer, len(args.replies) - 1)]
        pos = Position.of(game)
        me = int(game.to_play)
        legal = {pos.index(p) for p in game.legal_moves()}
        roots = [m for m in pos.ranked(me) if m in legal][:16]
        now = time.monotonic()
        report = Search(pos, now + args.predict, args.threads).run(
            me, roots, now + args.predict / 2
        )
        best = max(report.scores.values())
        ranked = sorted(report.scores, key=lambda m: -report.scores[m])
        kept = [m for m in ranked if report.scores[m] >= best - MARGIN][:width]
        return [pos.point(m) for m in kept or ranked[:1]]

    def follow(game: GomokuGame, side: Color, layer: int = 0) -> None:
        """Search every position of `side` to move below `game`, up to `--stones` stones."""
        if game.is_over or len(game.moves) > args.stones:
            return
        if game.to_play is side:
            game.play(search(game))
            follow(game, side, layer)
            game.undo()
            return
        for p in replies(game, layer):
            game.play(p)
            follow(game, side, layer + 1)
            game.undo()

    def record(path: Path) -> list[Point]:
        """The moves of the record at `path` (an opening's, or a match game's)."""
        return [Point(col, row) for col, row in record_moves(path.read_text())]

    if args.swap2:  # Black, White, Black: the order the opener places them
        opened = ([b1, w, b2] for ((b1, b2), (w,)), _ in book.swap2_openings(rule))
        roots = {" ".join(map(book.sgf, stones)): stones for stones in opened}
    else:
        roots = {"centre": [Point(book.SIZE // 2, book.SIZE // 2)]}
        for path in sorted(OPENINGS.glob("*.sgf")):
            roots[path.stem] = record(path)
    played = match_records(args.games)
    try:
        for path in played:  # the positions of real games, either side to move
            game = GomokuGame(GomokuRules(rule))
            print(f"== {path}", flush=True)
            for p in record(path)[: args.stones]:
                game.play(p)
                if len(game.moves) >= 3 and not game.is_over:
                    search(game)
        for name, stones in roots.items() if not played else ():
            game = GomokuGame(GomokuRules(rule))
            for p in stones:
                game.play(p)
            print(f"== {name}", flush=True)
            for side in (Color.WHITE, Color.BLACK):
                follow(game, side)
    finally:
        for rapfi in rapfis:
            rapfi.close()
        widths = " ".join(map(str, args.replies))
        rapfi = f" --rapfi {' '.join(map(str, args.rapfi))}" if args.rapfi else ""
        follows = f" --predict {args.predict:g} --replies {widths}{rapfi}"
        runs.append(
            f"{RUN}{f' --games ({len(played)} match games)' if played else follows}"
            f"{' --swap2' if args.swap2 else ''}"
            f" --seconds {args.seconds:g} --stones {args.stones} --threads {args.threads}:"
            f" {len(lines) - before} positions"
        )
        write(out, rule, runs, lines)


def write(out: Path, rule: Rule, runs: list[str], lines: dict[Key, str]) -> None:
    """The book file: the header, a line for each run and check, the lines sorted; written
    whole beside it and then moved over it, so that a stopped run never leaves half a book."""
    header = [
        f"# tengen's opening book, {rule.value}, 15x15, {len(lines)} positions: built by",
        "# bench/gomoku_book.py, run with",
        *runs,
        "# black stones / white stones : move  # what the search reached",
    ]
    fresh = out.with_name(out.name + ".new")
    fresh.write_text("\n".join([*header, *sorted(lines.values())]) + "\n")
    fresh.replace(out)


def check(
    lines: dict[Key, str],
    runs: list[str],
    rule: Rule,
    player: GomokuPlayer,
    args: argparse.Namespace,
    out: Path,
) -> None:
    """Replace the book's moves that Rapfi at ``args.check`` nodes proves lost (or, with
    ``args.drop``, finds that much worse than the position) by the player's best move that it
    does not (see the module docstring), rewriting `out` after each line."""
    from tengen.ai.gomoku import book
    from tengen.ai.gomoku.position import Position
    from tengen.gomoku import GomokuGame, GomokuRules

    judge = args.drop > 0
    mark = f"judged {args.check} drop {args.drop:g}" if judge else f"checked {args.check}"
    rapfi = Rapfi(60_000, args.check, RULES[rule.value])
    todo = [
        key
        for key, text in sorted(lines.items(), key=lambda kv: (len(kv[0][0]) + len(kv[0][1]), kv))
        if mark not in text and (not judge or len(key[0]) + len(key[1]) <= args.stones)
    ]  # the fewest stones first: a check stopped early has judged the lines most games reach
    done = 0
    try:
        for number, key in enumerate(todo, start=1):
            text = lines[key]
            game = GomokuGame(GomokuRules(rule))
            game.set_up(list(key[0]), list(key[1]))
            moves = [(p.col, p.row) for _, p in game.moves]
            move = book.parse(text, out.name)[1]
            note = was = text.split("#", 1)[1].strip() if "#" in text else ""
            tried: list[Point] = []
            # A block of the opponent's four is forced: a proof against it says the position
            # is lost, and any other move loses to the five.
            forced = bool(Position.of(game).fives(3 - int(game.to_play)))
            floor: float | None = None
            best = (-1, -1)
            if judge and not forced:
                value, best = rapfi.think(moves)
                floor = win_rate(value) - args.drop
            while not forced and refuted(rapfi, moves, move, floor, best):
                tried.append(move)
                if not judge and len(tried) == 1 and rapfi.evaluate(moves) == LOST:
                    break  # lost whatever the move: nothing to replace
                if len(tried) == TRIES:
                    break
                start = time.monotonic()
                move = player.weigh(game, args.seconds, tried)[0]
                note = f"depth {player.last_depth}, {time.monotonic() - start:.1f} s"
            if forced:
                verdict = "forced"
            elif not tried:
                verdict = "holds"
            elif move in tried:
                verdict, move, note = "weak" if judge else "lost", tried[0], was
            else:
                verdict = f"replaces {' '.join(book.sgf(p) for p in tried)}"
            tail = "" if verdict == "holds" else f", {verdict}"
            lines[key] = book.line(key, move, f"{note}; {mark}{tail}")
            print(f"{number} / {len(todo)}: {lines[key]}", flush=True)
            write(out, rule, runs, lines)
            done = number
    finally:
        rapfi.close()
        texts = [text for text in lines.values() if mark in text]
        replaced = sum(f"{mark}, replaces" in text for text in texts)
        kept = sum(text.endswith((f"{mark}, lost", f"{mark}, weak")) for text in texts)
        judged = f" judging a drop of {args.drop:g}, up to {args.stones} stones" if judge else ""
        runs.append(
            f"{CHECK} Rapfi at {args.check} nodes{judged}, --seconds {args.seconds:g} --threads "
            f"{args.threads}: {replaced} of {len(texts)} moves replaced, {kept} "
            f"{'weak' if judge else 'lost'} anyway"
            + (f"; stopped with {len(todo) - done} lines to go" if done < len(todo) else "")
        )
        write(out, rule, runs, lines)


def refuted(
    rapfi: Rapfi,
    moves: list[tuple[int, int]],
    p: Point,
    floor: float | None,
    best: tuple[int, int],
) -> bool:
    """Whether Rapfi proves the move `p` after `moves` lost or, given a `floor` (a win rate
    for the side to move), finds that side's win rate after it below the floor; its own
    `best` move there never is."""
    after = rapfi.evaluate([*moves, (p.col, p.row)])  # the opponent's eval
    if floor is None:
        return after == -LOST
    return (p.col, p.row) != best and 1.0 - win_rate(after) < floor


if __name__ == "__main__":
    sys.exit(main())
