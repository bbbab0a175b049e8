"""Run many games: pairings, colours alternating, openings, resumable results.

Games of Go or of Gomoku are played by worker processes, or by the workers of a Dask cluster
(`match.cluster`); either way this process writes every finished game to ``games/`` as SGF and
appends it as one JSON line to ``results.jsonl`` in the output folder, the SGF first, so a run
stopped any way at all (Ctrl-C, ``kill -9``) resumes by playing only the games missing from the
results file. Game ``k`` of a run always has the same colours, opening and seed, so a resumed
run ends as an uninterrupted one would (for deterministic players).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from concurrent.futures import Future, as_completed
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Protocol, TextIO, TypeVar

from tengen.core.color import Color
from tengen.core.coords import Move
from tengen.gomoku.rules import Opening as OpeningRule
from tengen.match.cluster import executor
from tengen.match.game import GameConfig, GameOutcome, play_game
from tengen.match.gomoku import GomokuConfig, make_side, play_gomoku
from tengen.match.players import PlayerSpec
from tengen.match.progress import RunProgress
from tengen.match.stats import Tally, elo_estimate, elo_interval, format_elo, sprt, wilson
from tengen.process import ProgramError
from tengen.records import open_record, record_files
from tengen.scoring import Result

RESULTS = "results.jsonl"
FORMATS = ("match", "round-robin", "gauntlet")

Opening = tuple[tuple[Color, Move], ...]


@dataclass(frozen=True)
class RunConfig:
    """A match or tournament: players, games per pairing, how each game (of Go or Gomoku) is
    played, the openings (cycled, each played with both colours), local workers or a Dask
    scheduler's address, base seed, optional SPRT bounds (Elo of the first player over the
    second)."""

    players: tuple[PlayerSpec, ...]
    games: int
    game: GameConfig | GomokuConfig
    out: str
    format: str = "match"
    openings: tuple[Opening, ...] = ()
    workers: int = 1
    seed: int = 0
    sprt: tuple[float, float] | None = None
    cluster: str | None = None

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise ValueError(f"unknown format {self.format!r} (known: {', '.join(FORMATS)})")
        names = [p.name for p in self.players]
        if len(names) < 2 or len(set(names)) != len(names):
            raise ValueError(f"a run needs two or more players with distinct names, not {names}")
        if self.format == "match" and len(names) != 2:
            raise ValueError("a match is between two players; use a tournament for more")


@dataclass(frozen=True)
class Job:
    """Game `index` of the run: who has which colour, its opening and seed."""

    index: int
    black: int
    white: int
    opening: int | None
    seed: int


@dataclass(frozen=True)
class GameResult:
    """One line of the results file."""

    index: int
    black: str
    white: str
    result: str
    ending: str
    moves: int
    referee: str | None = None
    file: str = field(default="")


def pairings(config: RunConfig) -> list[tuple[int, int]]:
    """Round-robin: every pair; gauntlet: the first player against each other; match: one."""
    n = len(config.players)
    if config.format == "gauntlet":
        return [(0, j) for j in range(1, n)]
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def schedule(config: RunConfig) -> list[Job]:
    """All games, round by round over the pairings; colours alternate within a pairing."""
    jobs: list[Job] = []
    for game in range(config.games):
        for a, b in pairings(config):
            black, white = (a, b) if game % 2 == 0 else (b, a)
            opening = (game // 2) % len(config.openings) if config.openings else None
            jobs.append(Job(len(jobs), black, white, opening, config.seed + len(jobs)))
    return jobs


def run(config: RunConfig, stream: TextIO | None = None) -> list[GameResult]:
    """Play the games missing from the results file, reporting on `stream` (a line redrawn
    on a terminal, see `RunProgress`); all results, in game order.

    Raises ValueError if the results file holds games of another run (other players), or the
    cluster cannot be reached.
    """
    out = Path(config.out)
    (out / "games").mkdir(parents=True, exist_ok=True)
    jobs = schedule(config)
    done = load_results(out / RESULTS)
    names = [p.name for p in config.players]
    swaps = (  # a swap opening may give the player scheduled for White Black
        isinstance(config.game, GomokuConfig) and config.game.rules.opening is not OpeningRule.NONE
    )
    for r in done.values():
        job = jobs[r.index] if r.index < len(jobs) else None
        pair = None if job is None else (names[job.black], names[job.white])
        if pair not in ((r.black, r.white), (r.white, r.black) if swaps else None):
            raise ValueError(f"{out / RESULTS} holds game {r.index} of another run")
    pending = [j for j in jobs if j.index not in done]
    progress = RunProgress(len(jobs), stream) if stream else None
    if progress:
        progress.start(len(done))
    if not pending or _sprt_decision(config, done.values()):
        return [done[i] for i in sorted(done)]
    first = player_tally(done.values(), names[0])
    with executor(config.workers, config.cluster) as pool:
        futures: dict[Future[GameOutcome], Job] = {
            pool.submit(
                play_job,
                config.players[j.black],
                config.players[j.white],
                _game_config(config, j),
                j.seed,
            ): j
            for j in pending
        }
        try:
            for future in as_completed(futures):
                job = futures[future]
                record = _save(out, job, names, future.result())
                done[job.index] = record
                points = _points_of(record, names[0])
                first = first if points is None else first.add(points)
                if progress:
                    progress.game(len(done), names[0], first, _detail(config, record, done))
                decision = _sprt_decision(config, done.values())
                if decision:
                    if progress:
                        progress.message(f"SPRT accepts {decision}: stopping")
                    for f in futures:
                        f.cancel()
                    break
        finally:
            if progress:
                progress.close()
    return [done[i] for i in sorted(done)]


class _Closable(Protocol):
    name: str

    def close(self) -> None: ...


P = TypeVar("P", bound=_Closable)


def play_job(
    black: PlayerSpec, white: PlayerSpec, config: GameConfig | GomokuConfig, seed: int
) -> GameOutcome:
    """Make both players, play the game, close them (in a worker process)."""
    if isinstance(config, GomokuConfig):
        return _with_players(black, white, seed, make_side, partial(play_gomoku, config=config))
    return _with_players(black, white, seed, PlayerSpec.make, partial(play_game, config=config))


def _with_players(
    black: PlayerSpec,
    white: PlayerSpec,
    seed: int,
    make: Callable[[PlayerSpec, int], P],
    play: Callable[[P, P], GameOutcome],
) -> GameOutcome:
    """Make the players (one that cannot start forfeits), play, close them."""
    players: list[P] = []
    try:
        for color, spec in ((Color.BLACK, black), (Color.WHITE, white)):
            try:
                players.append(make(spec, seed))
            except (OSError, ProgramError) as err:
                message = f"{spec.name} could not start: {err}"
                return GameOutcome(Result(color.opponent, None, "forfeit"), message, 0, None, b"")
        return play(players[0], players[1])
    finally:
        for player in players:
            player.close()


def load_results(path: Path) -> dict[int, GameResult]:
    """The games in a results file by index; a line cut short by a kill is ignored."""
    done: dict[int, GameResult] = {}
    if not path.exists():
        return done
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            r = GameResult(**json.loads(line))
        except (ValueError, TypeError):
            continue
        done[r.index] = r
    return done


def load_openings(folder: str, size: int, moves: int | None = None) -> tuple[Opening, ...]:
    """The first `moves` moves (default: all) of the main line of each SGF file under
    `folder`, in file-name order. Raises ValueError for a file of another board size."""
    openings: list[Opening] = []
    for path in record_files([folder]):
        for tree in open_record(path).games:
            if tree.size != (size, size):
                raise ValueError(f"{path}: the opening is for {tree.size}, not {size}x{size}")
            line = [n.move for n in tree.main_line() if n.move is not None]
            openings.append(tuple(m for m in line if m is not None)[:moves])
    if not openings:
        raise ValueError(f"no SGF openings under {folder}")
    return tuple(openings)


def running_tallies(results: Iterable[GameResult], name: str) -> list[Tally]:
    """Player `name`'s wins, losses and draws against all comers after each of its counted
    games (void and unknown results left out), in game order."""
    series: list[Tally] = []
    tally = Tally()
    for r in sorted(results, key=lambda r: r.index):
        points = _points_of(r, name)
        if points is not None:
            tally = tally.add(points)
            series.append(tally)
    return series


def player_tally(results: Iterable[GameResult], name: str) -> Tally:
    """Player `name`'s wins, losses and draws against all comers."""
    series = running_tallies(results, name)
    return series[-1] if series else Tally()


def tallies(
    results: Iterable[GameResult], names: list[str], pairs: list[tuple[int, int]]
) -> dict[tuple[int, int], Tally]:
    """Per pairing, the first player's wins, losses and draws (void and unknown left out)."""
    out = {pair: Tally() for pair in pairs}
    for r in results:
        result = Result.from_sgf(r.result)
        for a, b in pairs:
            if {r.black, r.white} != {names[a], names[b]}:
                continue
            points = _points(result, Color.BLACK if r.black == names[a] else Color.WHITE)
            if points is not None:
                out[a, b] = out[a, b].add(points)
    return out


def _points_of(record: GameResult, name: str) -> float | None:
    """What a game scores for player `name`; None when it did not play or the game does not
    count."""
    if name not in (record.black, record.white):
        return None
    color = Color.BLACK if record.black == name else Color.WHITE
    return _points(Result.from_sgf(record.result), color)


def _points(result: Result, color: Color) -> float | None:
    """What a game scores for the side of `color`: 1, 0.5 or 0; None when it does not count."""
    if result.reason == "draw":
        return 0.5
    if result.winner is None:
        return None
    return 1.0 if result.winner is color else 0.0


def table(config: RunConfig, results: Iterable[GameResult]) -> str:
    """The results table: one row per pairing (W-L-D, score with its 95% Wilson interval,
    Elo difference with 95% error bars), then each player's points."""
    names = [p.name for p in config.players]
    pairs = pairings(config)
    rows = []
    points = dict.fromkeys(names, 0.0)
    games = dict.fromkeys(names, 0)
    for (a, b), t in tallies(results, names, pairs).items():
        low, high = wilson(t)
        _, e_low, e_high = elo_interval(t)
        rows.append(
            f"{names[a]} vs {names[b]}: +{t.wins} -{t.losses} ={t.draws}  "
            f"score {t.score:.1%} [{low:.1%}, {high:.1%}]  "
            f"Elo {elo_estimate(t)} [{format_elo(e_low)}, {format_elo(e_high)}]"
        )
        points[names[a]] += t.wins + t.draws / 2
        points[names[b]] += t.losses + t.draws / 2
        games[names[a]] += t.games
        games[names[b]] += t.games
    ranking = sorted(names, key=lambda n: -points[n])
    rows += [f"{n}: {points[n]:g} / {games[n]}" for n in ranking]
    return "\n".join(rows)


def _game_config(config: RunConfig, job: Job) -> GameConfig | GomokuConfig:
    if job.opening is None:
        return config.game
    return replace(config.game, opening=config.openings[job.opening])


def _save(out: Path, job: Job, names: list[str], outcome: GameOutcome) -> GameResult:
    """Write the game's SGF, then its results line (flushed to disk); the names by the
    colours played, which a swap opening may have exchanged."""
    black, white = names[job.black], names[job.white]
    if outcome.swapped:
        black, white = white, black
    file = f"games/{job.index:04d}-{_safe(black)}-{_safe(white)}.sgf"
    if outcome.sgf:
        tmp = out / (file + ".tmp")
        tmp.write_bytes(outcome.sgf)
        os.replace(tmp, out / file)
    else:
        file = ""
    record = GameResult(
        job.index,
        black,
        white,
        outcome.result.to_sgf(),
        outcome.ending,
        outcome.moves,
        outcome.referee,
        file,
    )
    with open(out / RESULTS, "a", encoding="utf-8") as f:
        f.write(json.dumps(asdict(record)) + "\n")
        f.flush()
        os.fsync(f.fileno())
    return record


def _detail(config: RunConfig, record: GameResult, done: dict[int, GameResult]) -> str:
    """``g10 vs g1: B+3.5 (two passes) | g10 2, g1 1``: a game and the points so far."""
    results = list(done.values())
    names = [p.name for p in config.players]
    points = dict.fromkeys(names, 0.0)
    for (a, b), t in tallies(results, names, pairings(config)).items():
        points[names[a]] += t.wins + t.draws / 2
        points[names[b]] += t.losses + t.draws / 2
    score = ", ".join(f"{n} {points[n]:g}" for n in names)
    return (
        f"{record.black} vs {record.white}: {record.result} "
        f"({record.ending.splitlines()[0] if record.ending else ''}) | {score}"
    )


def _sprt_decision(config: RunConfig, results: Iterable[GameResult]) -> str | None:
    """The SPRT's decision on the first pairing, when the run has one."""
    if config.sprt is None:
        return None
    names = [p.name for p in config.players]
    t = tallies(results, names, [(0, 1)])[0, 1]
    return sprt(t, *config.sprt)[1]


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)
