"""`tengen analyze`: review many records with one engine command, resumably, in parallel.

Each record is written to the output folder under its own name (with ``.sgf`` for the other
formats; folders given keep their layout below it) once all its games are analysed, through a
temporary file, so a run stopped any way at all resumes by analysing only the records not yet
written. Several local worker processes, or the workers of a Dask cluster (as `tengen match`
uses, `tengen.match.cluster`), each keep one engine open for the records they are given; this
process reads each record and writes its annotated copy, so workers need not share its disk.
"""

from __future__ import annotations

import atexit
import os
import tempfile
from collections.abc import Iterator
from concurrent.futures import Future, as_completed
from dataclasses import dataclass
from pathlib import Path

from tengen.analysis.engine import Engine, EngineError
from tengen.analysis.open import open_engine
from tengen.analysis.position import Unanalysable, line_positions
from tengen.analysis.review import annotate, review, summary
from tengen.match.cluster import executor
from tengen.records import UnreadableRecord, open_record, record_files
from tengen.sgf import serialise


@dataclass(frozen=True)
class Settings:
    """How each record is analysed: the engine command (None: the built-in search), visits
    per position, and the built-in search's threads."""

    engine: str | None
    visits: int
    threads: int | None = None


@dataclass(frozen=True)
class Job:
    """One record to analyse and where its annotated copy goes."""

    source: str
    target: str


@dataclass(frozen=True)
class Outcome:
    """What analysing one record gave: the lines to print (mistakes, or what went wrong) and
    the annotated record (empty when it could not be read)."""

    job: Job
    lines: tuple[str, ...]
    sgf: bytes = b""


def plan(inputs: list[str], out: str) -> list[Job]:
    """Every record under `inputs` with its output path in `out`."""
    jobs: list[Job] = []
    for given in inputs:
        base = Path(given) if os.path.isdir(given) else None
        for path in record_files([given]):
            relative = Path(path).relative_to(base) if base is not None else Path(path).name
            target = Path(out) / relative
            if target.suffix.lower() != ".sgf":
                target = target.with_suffix(".sgf")
            jobs.append(Job(path, str(target)))
    return jobs


def analyse_record(job: Job, data: bytes, settings: Settings) -> Outcome:
    """Review every Go game of the record `data` (the file `job.source`, read by the caller, so
    that a cluster's workers need not see its disk), in a worker.

    A record that cannot be read comes back as an `Outcome` without SGF; EngineError (the
    engine failed) is raised, so that the run stops instead of failing every record."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / Path(job.source).name
        copy.write_bytes(data)
        try:
            record = open_record(copy)
        except UnreadableRecord as err:
            return Outcome(job, (f"cannot read: {err.message}",))
    engine = _engine(settings)
    lines: list[str] = []
    for number, tree in enumerate(record.games, 1):
        label = f"game {number}: " if len(record.games) > 1 else ""
        if tree.game_type != 1:
            lines.append(f"{label}not a Go game (GM[{tree.game_type}]), copied as it is")
            continue
        try:
            position, nodes = line_positions(tree)
        except (Unanalysable, ValueError) as err:
            lines.append(f"{label}not analysed: {err}")
            continue
        result = review(engine, position, settings.visits)
        annotate(tree.root, nodes, result, position.height)
        lines += [label + line for line in summary(result, position.height)]
    return Outcome(job, tuple(lines), serialise(record.games))


def run(
    jobs: list[Job], settings: Settings, *, workers: int = 1, cluster: str | None = None
) -> Iterator[Outcome]:
    """Analyse the jobs whose output is missing, writing each annotated record as it comes
    and yielding its outcome. One worker and no cluster: here, in this process; else in
    worker processes (or Dask's)."""
    pending = [j for j in jobs if not os.path.exists(j.target)]
    if workers <= 1 and cluster is None:
        for job in pending:
            yield _save(analyse_record(job, _read(job), settings))
        return
    with executor(workers, cluster) as pool:
        futures: list[Future[Outcome]] = [
            pool.submit(analyse_record, job, _read(job), settings) for job in pending
        ]
        for future in as_completed(futures):
            yield _save(future.result())


def _read(job: Job) -> bytes:
    try:
        return Path(job.source).read_bytes()
    except OSError:
        return b""  # reported as unreadable by the worker


def _save(outcome: Outcome) -> Outcome:
    """Write the annotated record through a temporary file (a stopped run leaves no half)."""
    if outcome.sgf:
        target = Path(outcome.job.target)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_bytes(outcome.sgf)
        os.replace(tmp, target)
    return outcome


_open: dict[Settings, Engine] = {}


def _engine(settings: Settings) -> Engine:
    """This process's engine for `settings`, opened on first use and closed at exit."""
    engine = _open.get(settings)
    if engine is None:
        try:
            engine = open_engine(settings.engine, threads=settings.threads)
        except ValueError as err:
            raise EngineError(str(err)) from None
        _open[settings] = engine
    return engine


@atexit.register
def _close_engines() -> None:
    for engine in _open.values():
        engine.close()
    _open.clear()
