"""The 19x19 opening against strong players' records: where the built-in player's moves go.

On an empty big board the playouts cannot tell moves apart, so the opening is where a weak
prior shows (issue 22: second-line first moves against GNU Go). The reference is outside
tengen: the AI games in ``../shared/corpus/yenw_ai_games_sample/master`` (Master, AlphaGo's
online version, against professionals). For the first `--moves` positions of each of the
first `--games` records (sorted by name, handicap games skipped), tengen's player chooses a
move at a fixed number of playouts (one thread, one seed: the result depends on the code
alone) and the table compares where its moves and the records' moves go:

* ``lines 1-2``, ``lines 3-4``, ``centre``: share of moves by the line (distance to the
  nearest edge, from 1); ``corner``: share on a corner's opening points (third or fourth
  line from one edge, at most the fifth from the other);
* ``own corner``: share on a corner's opening point in a corner (its first five lines from
  both edges) that already holds a stone of the player's own colour (an enclosure, or an
  overconcentrated second stone);
* ``same``: share of positions where tengen chose the record's move; ``near``: within
  Manhattan distance 2 of it.

To compare two versions, run the script from each version's tree (``PYTHONPATH=<tree>/src``)
with a ``--label``: the rows are added to the same JSON file.

Run ``python bench/opening.py [--quick] [--label NAME]``; JSON in bench/results/opening.json.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from common import CPU, RESULTS, load, machine, render, write_json
from tengen.ai.mcts import MctsPlayer
from tengen.core import Game, Point
from tengen.sgf import parse_file
from tengen.sgf.replay import replay

DEFAULT_OUT = RESULTS / "opening.json"
RECORDS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "yenw_ai_games_sample"
SIZE = 19


@dataclass
class Row:
    """Where one player's opening moves went (shares of `moves`)."""

    player: str
    moves: int
    lines_1_2: float
    lines_3_4: float
    centre: float
    corner: float
    own_corner: float
    same: float | None
    near: float | None
    cpu_per_move: float | None


def line(p: Point) -> int:
    """The line a point is on, from 1 at the edge."""
    return 1 + min(p.col, p.row, SIZE - 1 - p.col, SIZE - 1 - p.row)


def corner(p: Point) -> bool:
    """A corner's opening point: 3-3, 3-4, 4-4, 3-5 or 4-5."""
    near = sorted((min(p.col, SIZE - 1 - p.col), min(p.row, SIZE - 1 - p.row)))
    return near[0] in (2, 3) and near[1] <= 4


def own_corner(game: Game, p: Point) -> bool:
    """A corner's opening point in a corner that already holds a stone of the player to move."""
    if not corner(p):
        return False
    rows = range(5) if p.row < SIZE // 2 else range(SIZE - 5, SIZE)
    cols = range(5) if p.col < SIZE // 2 else range(SIZE - 5, SIZE)
    return any(game.board[Point(c, r)] == game.to_play for r in rows for c in cols)


def positions(folder: Path, games: int, moves: int) -> list[tuple[Game, Point]]:
    """The first `moves` positions of the first `games` even 19x19 records, each with the
    move the record played there."""
    found: list[tuple[Game, Point]] = []
    used = 0
    for path in sorted(folder.rglob("*.sgf")):
        if used == games:
            break
        tree = parse_file(path).games[0]
        root = tree.root
        if tree.size != (SIZE, SIZE) or root.get_raw("AB") or root.get_raw("HA"):
            continue
        line_nodes = tree.main_line()
        played = [n.move_at((SIZE, SIZE)) for n in line_nodes[1 : moves + 1]]
        if len(played) < moves or any(m is None or m[1] is None for m in played):
            continue
        used += 1
        for k, node in enumerate(line_nodes[:moves]):
            game, problems = replay(tree, node)
            move = played[k]
            assert move is not None and move[1] is not None and not problems, path
            found.append((game, move[1]))
    return found


def shares(
    player: str,
    games: list[Game],
    moves: list[Point],
    recorded: list[Point] | None,
    cpu: float | None,
) -> Row:
    """The row of `moves`, played in `games` (compared with `recorded` when given)."""
    n = len(moves)
    same = near = None
    if recorded is not None:
        same = sum(m == r for m, r in zip(moves, recorded, strict=True)) / n
        near = (
            sum(
                abs(m.col - r.col) + abs(m.row - r.row) <= 2
                for m, r in zip(moves, recorded, strict=True)
            )
            / n
        )
    return Row(
        player=player,
        moves=n,
        lines_1_2=sum(line(m) <= 2 for m in moves) / n,
        lines_3_4=sum(line(m) in (3, 4) for m in moves) / n,
        centre=sum(line(m) >= 5 for m in moves) / n,
        corner=sum(corner(m) for m in moves) / n,
        own_corner=sum(own_corner(g, m) for g, m in zip(games, moves, strict=True)) / n,
        same=same,
        near=near,
        cpu_per_move=None if cpu is None else cpu / n,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="4 games, 6 moves, 1000 playouts")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=12, help="positions from each record")
    parser.add_argument("--playouts", type=int, default=4000, help="simulations a move")
    parser.add_argument("--records", type=Path, default=RECORDS / "master")
    parser.add_argument("--label", default="tengen", help="name of this version's row")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    if args.quick:
        args.games, args.moves, args.playouts = 4, 6, 1000
    found = positions(args.records, args.games, args.moves)
    games = [game for game, _ in found]
    recorded = [move for _, move in found]
    player = MctsPlayer(playouts=args.playouts, threads=1, seed=0, resign=0)
    player.warm(SIZE)
    chosen: list[Point] = []
    start = CPU()
    for i, (game, _) in enumerate(found, 1):
        move = player.genmove(game, game.to_play)
        assert isinstance(move, Point), move
        chosen.append(move)
        if i % 20 == 0 or i == len(found):
            print(f"{i}/{len(found)} positions", flush=True)
    cpu = CPU() - start
    player.close()
    rows = [
        shares("records", games, recorded, None, None),
        shares(f"{args.label} ({args.playouts} playouts)", games, chosen, recorded, cpu),
    ]
    # Rows of other versions are kept when they chose from the same positions.
    same_set = {"records": str(args.records), "games": args.games, "moves": args.moves}
    previous = json.loads(args.out.read_text()) if args.out.exists() else {}
    kept = [
        r
        for r in previous.get("rows", [])[1:]
        if all(previous.get(k) == v for k, v in same_set.items()) and r["player"] != rows[1].player
    ]
    payload = {
        "machine": machine(),
        **same_set,
        "when": time.strftime("%Y-%m-%d %H:%M"),
        "rows": [asdict(rows[0]), *kept, asdict(rows[1])],
    }
    write_json(args.out, payload)

    keys = ("lines_1_2", "lines_3_4", "centre", "corner", "own_corner", "same", "near")

    def pct(x: float | None) -> str:
        return "-" if x is None else f"{100 * x:.0f}%"

    head = (
        "player",
        "moves",
        "lines 1-2",
        "lines 3-4",
        "centre",
        "corner",
        "own corner",
        "same",
        "near",
        "CPU/move",
    )
    body = [
        (
            r["player"],
            str(r["moves"]),
            *(pct(r[k]) for k in keys),
            "-" if r["cpu_per_move"] is None else f"{r['cpu_per_move']:.2f} s",
        )
        for r in payload["rows"]
    ]
    print(render(head, body))
    print(f"load: {load()}")


if __name__ == "__main__":
    main()
