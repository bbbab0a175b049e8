"""Runs over many record files: the files, a progress bar, the messages and the summary."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NoReturn, TextIO

from tqdm import tqdm

from tengen.records import Record, UnreadableRecord, open_record, record_files


def progress_bar(paths: Sequence[str], stream: TextIO, *, enabled: bool) -> tqdm[NoReturn]:
    """A ``[####----] done/total path`` line on `stream`, redrawn in place at most ten times a
    second by tqdm (the progress display tengen uses); a no-op when not `enabled`."""
    return tqdm(
        total=len(paths),
        desc=paths[0] if paths else "",
        file=stream,
        disable=not enabled,
        leave=False,
        dynamic_ncols=True,
        mininterval=0.1,
        ascii="-#",
        bar_format="[{bar:20}] {n_fmt}/{total_fmt} {desc}",
    )


@dataclass
class Tally:
    """What a run over many files met."""

    files: int = 0
    games: int = 0
    errors: int = 0
    warnings: int = 0
    written: int = 0


class Batch:
    """A run over many files: the files, their progress, the messages and the summary.

    Errors and warnings go to `messages` (stdout for ``sgf check``, whose output they are;
    stderr otherwise); the progress bar and the summary go to stderr.
    """

    def __init__(self, args: argparse.Namespace, messages: TextIO) -> None:
        self.paths = list(record_files(args.files))
        self.messages = messages
        enabled = sys.stderr.isatty() if args.progress is None else args.progress
        self.progress = progress_bar(self.paths, sys.stderr, enabled=enabled)
        self.tally = Tally()
        self.started = time.perf_counter()

    def records(self) -> Iterator[Record]:
        """Each file read leniently; an unreadable one is reported as an error and skipped."""
        for done, path in enumerate(self.paths):
            self.progress.set_description_str(path, refresh=False)
            self.progress.update(done - self.progress.n)
            self.tally.files += 1
            try:
                record = open_record(path)
            except UnreadableRecord as err:
                self.error(err.where, err.message)
                continue
            except Exception as err:  # a bug in an importer must not end the run
                self.error(path, f"internal error: {type(err).__name__}: {err}")
                continue
            self.tally.games += len(record.games)
            for warning in record.warnings:
                self.warning(f"{warning.path}:{warning.line}:{warning.col}", warning.message)
            yield record
        self.progress.close()

    def output(self, text: str) -> None:
        """A line of the command's own output, on stdout."""
        self.progress.clear()
        print(text)

    def error(self, where: str, message: str) -> None:
        """Report an error as ``where: error: message`` (the form compilers use)."""
        self.tally.errors += 1
        self._message(f"{where}: error: {message}")

    def warning(self, where: str, message: str) -> None:
        """Report a warning as ``where: warning: message``."""
        self.tally.warnings += 1
        self._message(f"{where}: warning: {message}")

    def summary(self) -> None:
        """One line on stderr: files, games, files written, errors, warnings, seconds."""
        t = self.tally
        parts = [plural(t.files, "file"), plural(t.games, "game")]
        if t.written:
            parts.append(f"{t.written} written")
        parts += [plural(t.errors, "error"), plural(t.warnings, "warning")]
        seconds = time.perf_counter() - self.started
        print(f"{', '.join(parts)} in {seconds:.2f} s", file=sys.stderr)

    def _message(self, text: str) -> None:
        self.progress.clear()
        print(text, file=self.messages)


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def game_name(record: Record, index: int) -> str:
    """The file, and the game's number when the file holds several."""
    if len(record.games) == 1:
        return record.path
    return f"{record.path}: game {index + 1}"


def batch_options() -> argparse.ArgumentParser:
    """The options every many-file command shares."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument(
        "files", nargs="+", metavar="FILE", help="record files, or directories to search"
    )
    options.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        help="show a progress bar on stderr (default: when stderr is a terminal)",
    )
    return options
