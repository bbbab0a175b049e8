"""Invasions of settled territory, judged by GNU Go's play-out with each side to move.

The cross-check's cases (`tests.scoring.crosscheck`) are finished games, where an invasion
left on the board is almost always hopeless, so they say little about a live one, or about
who has the move. This stress set makes such positions: a territory of a finished case (a
region of 12 to 30 empty points, once the truth's dead stones are taken off, that only one
colour borders) gets one to four stones of the other colour on points not next to the
owner's stones, each with two liberties or more. GNU Go level 10 then plays each position
out as in the cross-check, once with the invader to move and once with the owner (`judge`),
and records its static dead list beside.

The positions are made by a seeded draw, so a run makes the same set; each is one JSON file
in a git-ignored cache, and ``report`` prints how tengen's estimate compares (the figures in
docs/DEADSTONES.md, "An invasion stress set")::

    nice -n 10 .venv/bin/python -m tests.scoring.invasions run --count 200 [--worker I/N]
    .venv/bin/python -m tests.scoring.invasions report
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import asdict, dataclass
from pathlib import Path

from tengen.core.board import Board
from tengen.core.color import Color
from tengen.core.coords import Point, to_gtp
from tengen.gtp.client import GtpClientError
from tengen.scoring.regions import Region, adjacent, empty_regions, without
from tests.gnugo import find_gnugo
from tests.scoring.crosscheck import ROOT, Case, Task, judge, load_fixture, tengen_judges

CACHE = ROOT / ".cache" / "invasions"
SEED = 2027
SMALLEST, LARGEST = 12, 30  # a territory's empty points
INVADERS = (1, 2, 3, 3, 4, 4)  # drawn from for each position


@dataclass(frozen=True)
class Invasion:
    """A position: the invader's stones and GNU Go's judgement with each side to move."""

    name: str
    invader: str  # "B" or "W"
    stones: tuple[str, ...]
    invader_first: Case
    owner_first: Case

    def to_json(self) -> dict[str, object]:
        """The JSON object of the cache file."""
        return asdict(self)

    @staticmethod
    def from_json(data: dict[str, object]) -> Invasion:
        """An invasion from its cache file's object."""
        return Invasion(
            str(data["name"]),
            str(data["invader"]),
            tuple(data["stones"]),  # type: ignore[arg-type]
            Case.from_json(data["invader_first"]),  # type: ignore[arg-type]
            Case.from_json(data["owner_first"]),  # type: ignore[arg-type]
        )


def territories() -> list[tuple[Case, Region]]:
    """Every territory of the cross-check's cases the set may invade, in a seeded order."""
    found = []
    for case in load_fixture(adjudicated=True):
        dead = case.points(case.dead)
        board = without(case.board(), dead)
        for region in empty_regions(board):
            if region.owner is not None and SMALLEST <= len(region.points) <= LARGEST:
                found.append((case, region))
    random.Random(SEED).shuffle(found)
    return found


def invade(board: Board, region: Region, rng: random.Random) -> list[Point] | None:
    """One to four stones of the invader on points of `region` not next to the owner's
    stones, each left with two liberties or more (placed on `board`); None when no draw
    of 50 finds such stones."""
    assert region.owner is not None
    owner, size = region.owner, board.width
    inner = sorted(
        p for p in region.points if all(board[q] is not owner for q in adjacent(p, size, size))
    )
    count = rng.choice(INVADERS)
    if len(inner) < 4:
        return None
    for _ in range(50):
        stones = rng.sample(inner, count)
        trial = board.copy()
        for p in stones:
            trial.set_point(p, owner.opponent)
        if all(trial.liberty_count(p) >= 2 for p in stones):
            for p in stones:
                board.set_point(p, owner.opponent)
            return stones
    return None


def cache_file(name: str) -> Path:
    """Where the invasion called `name` is kept."""
    return CACHE / (name.replace("/", "_") + ".json")


def run(count: int, worker: int, workers: int) -> None:
    """Make and judge the first `count` invasions, this worker's share, not yet cached."""
    gnugo = find_gnugo()
    if gnugo is None:
        raise SystemExit("GNU Go not found")
    CACHE.mkdir(parents=True, exist_ok=True)
    rng = random.Random(SEED)
    made = 0
    for i, (case, region) in enumerate(territories()):
        if made >= count:
            break
        board = without(case.board(), case.points(case.dead))
        stones = invade(board, region, rng)  # drawn for every territory, so shares agree
        if stones is None:
            continue
        made += 1
        name = f"{case.name}-t{i}"
        target = cache_file(name)
        if i % workers != worker or target.exists():
            continue
        assert region.owner is not None
        invader = region.owner.opponent
        task = Task(name, "invasion", case.size)
        try:
            first = judge(task, gnugo, board, invader)
            second = judge(task, gnugo, board, invader.opponent)
        except GtpClientError as err:  # a play-out that does not end: left out, said
            print(f"{name}: {err}", flush=True)
            continue
        vertices = tuple(sorted(to_gtp(p, case.size) for p in stones))
        letter = "B" if invader is Color.BLACK else "W"
        invasion = Invasion(name, letter, vertices, first, second)
        target.write_text(json.dumps(invasion.to_json()))
        print(name, "invaders captured:", fate(first, vertices), fate(second, vertices), flush=True)


def fate(case: Case, stones: tuple[str, ...]) -> bool:
    """Whether every invading stone is dead in the case's truth."""
    return set(stones) <= set(case.dead)


def cached() -> list[Invasion]:
    """The invasions in the cache, by name."""
    return [Invasion.from_json(json.loads(p.read_text())) for p in sorted(CACHE.glob("*.json"))]


def report(invasions: list[Invasion]) -> str:
    """Markdown: for each side to move, how often tengen gets the invaders' fate and the
    whole board right, beside GNU Go's static list; and how the invaders that lived did."""
    rows = [
        "| to move | positions | invaders captured in the play-out | tengen: invaders' fate "
        "right | whole board right | GNU Go's list = play-out | tengen right there | "
        "tengen calls dead, they live | tengen calls alive, they die |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    walls = {"invader": 0, "owner": 0}
    for side in ("invader", "owner"):
        captured = fate_right = whole = theirs = both = over = under = 0
        for inv in invasions:
            case = inv.invader_first if side == "invader" else inv.owner_first
            dead, seki = tengen_judges(case)
            truth = fate(case, inv.stones)
            called = case.points(inv.stones) <= dead
            gnugo = set(inv.stones) <= set(case.gnugo_dead)
            captured += truth
            fate_right += called == truth
            whole += dead == case.points(case.dead) and seki == case.points(case.seki)
            theirs += gnugo == truth
            both += gnugo == truth and called == truth
            over += called and not truth
            under += truth and not called
            board = case.board()
            owner = Color.WHITE if inv.invader == "B" else Color.BLACK
            walls[side] += not truth and any(board[p] is owner for p in case.points(case.dead))
        rows.append(
            f"| {side} | {len(invasions)} | {captured} | {fate_right} | {whole} | {theirs} | "
            f"{both} | {over} | {under} |"
        )
    lived = (
        f"Invaders that lived by capturing stones of the owner's walls: {walls['invader']} with "
        f"the invader to move, {walls['owner']} with the owner to move."
    )
    return "\n".join(rows) + "\n\n" + lived


def main(argv: list[str] | None = None) -> int:
    """``run --count N [--worker I/N]`` makes and judges the set; ``report`` prints it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["run", "report"])
    parser.add_argument("--count", type=int, default=200, help="run: invasions in the set")
    parser.add_argument("--worker", default="0/1", help="I/N: take every Nth invasion from I")
    args = parser.parse_args(argv)
    if args.command == "run":
        worker, workers = (int(x) for x in args.worker.split("/"))
        run(args.count, worker, workers)
    else:
        print(report(cached()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
