"""The dead-stone cross-check: finished games judged by playing them out with GNU Go.

A *case* is the end of a finished game (both players passed, or the record was counted). Its
truth comes from the play-out: GNU Go level 10 with ``--chinese-rules --capture-all-dead``
takes both sides from the finished position until two passes in a row. Stones captured in the
play-out were dead; stones left standing were alive, or in seki when their chain ends the
play-out with a liberty next to an opponent stone (under area rules GNU Go fills every dame,
so only a seki's shared liberties stay empty). GNU Go's own ``final_status_list dead`` on the
finished position is recorded beside, as a second judge.

The games come from GNU Go playing itself at mixed levels and seeds, from tengen's built-in
player against GNU Go, and from the finished records of ``../shared/corpus``. Generating and
judging is slow (GNU Go at level 10), so it is a resumable command writing one JSON file per
case into a git-ignored cache, and ``export`` gathers them into the committed fixture the
tests read::

    nice -n 10 .venv/bin/python -m tests.scoring.crosscheck run [--worker I/N]
    .venv/bin/python -m tests.scoring.crosscheck export
    .venv/bin/python -m tests.scoring.crosscheck report   # the figures of docs/DEADSTONES.md

A second play-out judge, one tengen's authors did not write: Pachi (`make pachi`), a strong
Monte-Carlo player, takes both sides the same way, twice (`PachiVerdict`). ``pachi`` plays
out every case where the judges disagree (GNU Go's play-out, its static list and tengen) and
a seeded sample of cases where all agree, as a control, into
``tests/data/deadstones-pachi.json``; ``--adjudicated`` plays out the adjudicated cases
around their adjudicated truth::

    nice -n 15 .venv/bin/python -m tests.scoring.crosscheck pachi [--size N] [--only A,B]
    nice -n 15 .venv/bin/python -m tests.scoring.crosscheck pachi --adjudicated

Where the project judges a case's truth to be other than GNU Go's play-out (having looked at
the position and at the play-outs), the case's entry in
``tests/data/deadstones-adjudicated.json`` says so, with the evidence (`Adjudication`):
``load_fixture(adjudicated=True)`` applies it, the raw play-out stays in the fixture, and
``report`` gives both counts.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from tengen.core.board import Board
from tengen.core.color import Color
from tengen.core.coords import Point, from_gtp, to_gtp, to_sgf
from tengen.core.diagram import parse
from tengen.core.rules import CHINESE
from tengen.gtp.client import GtpClient, GtpClientError
from tengen.scoring import score_position
from tengen.scoring.life import dead_stones, estimate, seki_stones
from tengen.sgf import SgfError, parse_file
from tengen.sgf.replay import replay
from tests.gnugo import find_gnugo

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache" / "deadstones"
FIXTURE = ROOT / "tests" / "data" / "deadstones.json"
PACHI_FIXTURE = ROOT / "tests" / "data" / "deadstones-pachi.json"
ADJUDICATED = ROOT / "tests" / "data" / "deadstones-adjudicated.json"
# Pachi's simulations a move in its play-outs by board size (on 9x9 far more than it needs to
# beat GNU Go level 10; fewer on the larger boards, where a move costs more: 3,000 on 19x19
# take about 1 s of one core), and the seed of the control sample where every judge agrees.
PACHI_PLAYOUTS = {9: 30000, 13: 15000, 19: 3000}
PACHI_SAMPLE_SEED = 17
CORPUS = (ROOT / ".." / "shared" / "corpus").resolve()
KOMI = 7.5
JUDGE_LEVEL = 10
COUNTED = re.compile(r"[BW]\+\d")
# Corpus records per size (every finished 9x9 and 13x13 record: 252 and 193; 60 of the 591
# 19x19 ones, whose play-outs take minutes each); then per size GNU Go self-play games,
# tengen-vs-GNU-Go games and the top GNU Go level drawn (the slow sizes get the low levels:
# the judge is the cost).
CORPUS_PLAN = ((9, 252), (13, 193), (19, 60))
GAME_PLAN = ((9, 50, 12, 10), (13, 10, 2, 6), (19, 2, 0, 2))
_SYMBOL = {None: ".", Color.BLACK: "X", Color.WHITE: "O"}


@dataclass(frozen=True)
class Case:
    """A finished position with its play-out truth and GNU Go's dead stones beside it.

    `rows` is the board top row first (``X`` black, ``O`` white, ``.`` empty); points are GTP
    vertices; `playout` is the judge's continuation, for looking at a disagreement (kept in
    the cache, left out of the committed fixture).
    """

    name: str
    source: str
    size: int
    rows: tuple[str, ...]
    to_play: str
    dead: tuple[str, ...]
    seki: tuple[str, ...]
    gnugo_dead: tuple[str, ...]
    playout: tuple[str, ...]

    def board(self) -> Board:
        """The finished position."""
        return parse("\n".join(self.rows))

    def points(self, vertices: tuple[str, ...]) -> set[Point]:
        """Vertices as points."""
        return {p for v in vertices if (p := from_gtp(v, self.size, self.size)) is not None}

    @staticmethod
    def from_json(data: dict[str, object]) -> Case:
        """A case from its JSON object (lists become tuples)."""
        return Case(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})  # type: ignore[arg-type]


@dataclass(frozen=True)
class Task:
    """One game to make and judge: its name says how, and names its cache file."""

    name: str
    source: str  # "gnugo" (self-play), "tengen" (built-in player vs GNU Go) or "corpus"
    size: int
    black: int = 0  # levels (self-play, tengen vs GNU Go)
    white: int = 0
    seed: int = 0
    path: str = ""  # corpus record, relative to CORPUS


def _gtp(argv: list[str], timeout: float = 600) -> GtpClient:
    return GtpClient(argv, timeout=timeout)


def _new_game(client: GtpClient, size: int) -> None:
    client.send(f"boardsize {size}")
    client.send("clear_board")
    client.send(f"komi {KOMI}")


def play_game(players: dict[Color, GtpClient], size: int, limit: int) -> list[str] | None:
    """Moves of a game between two engines (already set up) until two passes in a row; a
    resignation counts as a pass from then on. None if it reaches `limit` moves."""
    moves: list[str] = []
    resigned: set[Color] = set()
    color = Color.BLACK
    while moves[-2:] != ["PASS", "PASS"]:
        if len(moves) >= limit:
            return None
        name = color.name.lower()
        if color in resigned:
            move = "PASS"
        else:
            move = players[color].send(f"genmove {name}").upper()
            if move == "RESIGN":
                resigned.add(color)
                move = "PASS"
        moves.append(move)
        players[color.opponent].send(f"play {name} {move}")
        color = color.opponent
    return moves


def game_moves(task: Task, gnugo: str) -> list[str] | None:
    """Play the game of a self-play or tengen-vs-GNU-Go task; None if it did not finish."""
    size = task.size

    def gnugo_player(level: int, seed: int) -> GtpClient:
        flags = ["--level", str(level), "--seed", str(seed), "--never-resign"]
        return _gtp([gnugo, "--mode", "gtp", *flags])

    if task.source == "gnugo":
        black = gnugo_player(task.black, task.seed)
        white = gnugo_player(task.white, task.seed + 1000)
    else:
        tengen = [
            str(ROOT / ".venv" / "bin" / "tengen"),
            "gtp",
            "--threads",
            "1",
            "--size",
            str(size),
            "--seed",
            str(task.seed),
        ]
        if task.black < 0:
            black = _gtp([*tengen, "--level", str(-task.black)])
            white = gnugo_player(task.white, task.seed)
        else:
            black = gnugo_player(task.black, task.seed)
            white = _gtp([*tengen, "--level", str(-task.white)])
    with black, white:
        for client in (black, white):
            _new_game(client, size)
        return play_game({Color.BLACK: black, Color.WHITE: white}, size, 3 * size * size)


def board_from_moves(size: int, moves: list[str]) -> Board:
    """The position after `moves` (GTP vertices, Black first)."""
    board = Board(size, size)
    color = Color.BLACK
    for move in moves:
        point = from_gtp(move, size, size)
        if point is not None:
            board.play(point, color)
        color = color.opponent
    return board


def rows_of(board: Board) -> tuple[str, ...]:
    """The board as diagram rows, top row first."""
    return tuple(
        "".join(_SYMBOL[board[Point(c, r)]] for c in range(board.width))
        for r in range(board.height)
    )


def position_sgf(board: Board, to_play: Color) -> str:
    """An SGF setting up `board` with `to_play` to move, for GNU Go's loadsgf."""
    setup = ""
    for color, key in ((Color.BLACK, "AB"), (Color.WHITE, "AW")):
        stones = "".join(f"[{to_sgf(p)}]" for p in board.points() if board[p] is color)
        setup += f"{key}{stones}" if stones else ""
    player = "B" if to_play is Color.BLACK else "W"
    return f"(;FF[4]GM[1]SZ[{board.width}]KM[{KOMI}]{setup}PL[{player}])"


def _load(client: GtpClient, board: Board, to_play: Color) -> None:
    with tempfile.NamedTemporaryFile("w", suffix=".sgf", delete=False) as handle:
        handle.write(position_sgf(board, to_play))
    try:
        client.send(f"loadsgf {handle.name}")
    finally:
        Path(handle.name).unlink()
    client.send(f"komi {KOMI}")


def _to_two_passes(
    client: GtpClient, track: Board, original: dict[Point, Color], to_play: Color
) -> tuple[set[Point], list[str]]:
    """Let the engine behind `client` take both sides from `track`'s position, `to_play`
    first, until two passes in a row (a resignation counts as a pass); the `original` stones
    it captured and the moves played. `track` follows the moves."""
    size = track.width
    captured: set[Point] = set()
    moves: list[str] = []
    color = to_play
    while moves[-2:] != ["PASS", "PASS"]:
        if len(moves) >= 2 * size * size:
            raise GtpClientError(f"play-out longer than {len(moves)} moves")
        move = client.send(f"genmove {color.name.lower()}").upper()
        move = "PASS" if move == "RESIGN" else move
        moves.append(move)
        point = from_gtp(move, size, size)
        if point is not None:
            track.play(point, color)
            captured |= {p for p in original if track[p] is not original[p]}
        color = color.opponent
    return captured, moves


def gnugo_dead(gnugo: str, board: Board, to_play: Color) -> set[Point]:
    """GNU Go's ``final_status_list dead`` on the position (Chinese rules, level 10)."""
    with _gtp([gnugo, "--mode", "gtp", "--chinese-rules"]) as client:
        _load(client, board, to_play)
        answer = client.send("final_status_list dead").split()
    return {p for v in answer if (p := from_gtp(v, board.width, board.height)) is not None}


def play_out(gnugo: str, board: Board, to_play: Color) -> tuple[set[Point], set[Point], list[str]]:
    """The play-out truth: (dead stones, seki stones, the play-out's moves)."""
    flags = ["--chinese-rules", "--capture-all-dead", "--never-resign", "--level"]
    size = board.width
    track = board.copy()
    original = {p: c for p in board.points() if (c := board[p]) is not None}
    with _gtp([gnugo, "--mode", "gtp", *flags, str(JUDGE_LEVEL)]) as client:
        _load(client, board, to_play)
        captured, moves = _to_two_passes(client, track, original, to_play)
    seki = set()
    for chain in track.chains():
        shared = any(
            any(track[q] is chain.color.opponent for q in _around(lib, size))
            for lib in chain.liberties
        )
        if shared:
            seki |= {p for p in chain.stones if p in original and p not in captured}
    return captured, seki, moves


def play_out_after(
    gnugo: str, case: Case, after: tuple[str, ...]
) -> tuple[set[Point], set[Point], list[str]]:
    """GNU Go's play-out (`play_out`) of the case's position after the moves `after` (each
    ``"B A12"`` or ``"B PASS"``, colour and vertex), the opponent of the last mover to move
    first: the dead and seki stones among the finished position's (stones the moves of
    `after` capture are dead: a ko taken and connected there, which a loaded position could
    not carry), and the play-out's moves."""
    board = case.board()
    original = {p: c for p in board.points() if (c := board[p]) is not None}
    mover = Color.BLACK if case.to_play == "B" else Color.WHITE
    for move in after:
        color, vertex = move.split()
        mover = Color.BLACK if color == "B" else Color.WHITE
        point = from_gtp(vertex, case.size, case.size)
        if point is not None:
            board.play(point, mover)
        mover = mover.opponent
    taken = {p for p, c in original.items() if board[p] is not c}
    dead, seki, moves = play_out(gnugo, board, mover)
    return (dead & set(original)) | taken, seki & set(original) - taken, moves


def find_pachi() -> str | None:
    """Pachi's executable: ``$PACHI``, else ``build/pachi/pachi`` (``make pachi``), else None."""
    path = Path(os.environ.get("PACHI", str(ROOT / "build" / "pachi" / "pachi")))
    return str(path) if path.is_file() and os.access(path, os.X_OK) else None


def close_komi(case: Case, behind: Color) -> float:
    """The komi with which the case's position, counted with GNU Go's play-out truth (area
    rules), is lost by half a point by `behind`: then every stone decides the game."""
    board = case.board()
    score = score_position(
        board, CHINESE.with_komi(0), case.points(case.dead), seki=case.points(case.seki)
    )
    margin = score.black - score.white
    return margin + 0.5 if behind is Color.BLACK else margin - 0.5


def pachi_play_out(
    pachi: str,
    board: Board,
    to_play: Color,
    komi: float,
    playouts: int,
    seed: int = 1,
) -> tuple[set[Point], set[Point], list[str]]:
    """Pachi's play-out: (dead stones, seki stones, the play-out's moves).

    Pachi takes both sides from `board` with `to_play` first, `playouts` simulations a move,
    under Chinese rules with `komi`, never resigning, and passing only once the opponent's
    dead stones are off the board (its ``pass_all_alive``, the KGS clean-up phase) or when it
    loses anyway (``allow_losing_pass``); two passes in a row end it. Stones it captures were
    dead. Pachi leaves dame empty, so a seki is what Pachi's own ``final_status_list seki``
    says of the standing original stones at the end, when nothing dead is left.
    """
    size = board.width
    options = "threads=1,resign_threshold=0,pass_all_alive,allow_losing_pass"
    argv = [pachi, "-D", "-s", str(seed), "-t", f"={playouts}", options]
    track = board.copy()
    original = {p: c for p in board.points() if (c := board[p]) is not None}
    with GtpClient(argv, timeout=1800, cwd=str(Path(pachi).parent)) as client:
        client.send(f"boardsize {size}")
        client.send("clear_board")
        client.send(f"komi {komi}")
        # The stones one by one, the opponent's last so that the player to move is next: as
        # every chain of the finished position has a liberty, none placed captures or dies.
        for color in (to_play, to_play.opponent):
            for p in original:
                if original[p] is color:
                    client.send(f"play {color.name.lower()} {to_gtp(p, size)}")
        captured, moves = _to_two_passes(client, track, original, to_play)
        in_seki = client.send("final_status_list seki").split()
    seki = {p for v in in_seki if (p := from_gtp(v, size, size)) is not None}
    return captured, {p for p in seki if p in original and p not in captured}, moves


@dataclass(frozen=True)
class PachiVerdict:
    """Pachi's judgement of a case, from two play-outs.

    A Monte-Carlo player plays to win, not for points: far ahead, it lets a group go; far
    behind, it gives up (and passes). So each case is played out twice, with a komi that
    makes GNU Go's play-out truth a half-point loss for Black (`black_behind_*`), then for
    White (`white_behind_*`). Each stone takes its fate from the play-out in which the side
    that would gain by overturning the truth is behind, and so must try: a stone the truth
    calls dead from the one where its own side is behind (it needs the stone to live), a
    stone it calls alive from the one where the opponent is behind (it needs the stone
    dead); the side ahead must answer every try, or lose. `dead` and `seki` are the result.
    """

    name: str
    why: str
    playouts: int
    dead: tuple[str, ...]
    seki: tuple[str, ...]
    black_behind_komi: float
    black_behind_dead: tuple[str, ...]
    black_behind_seki: tuple[str, ...]
    black_behind_moves: tuple[str, ...]
    white_behind_komi: float
    white_behind_dead: tuple[str, ...]
    white_behind_seki: tuple[str, ...]
    white_behind_moves: tuple[str, ...]


def pachi_verdict(pachi: str, case: Case, why: str, playouts: int = 0) -> PachiVerdict:
    """Play the case out with Pachi twice and combine the two (see `PachiVerdict`);
    `playouts` a move, by default `PACHI_PLAYOUTS` for the case's size."""
    playouts = playouts or PACHI_PLAYOUTS[case.size]
    board = case.board()
    to_play = Color.BLACK if case.to_play == "B" else Color.WHITE
    runs = {}
    for behind in Color:
        komi = close_komi(case, behind)
        runs[behind] = (komi, *pachi_play_out(pachi, board, to_play, komi, playouts))
    truth_dead = case.points(case.dead)
    dead: set[Point] = set()
    seki: set[Point] = set()
    for chain in board.chains():
        for p in chain.stones:
            gainer = chain.color if p in truth_dead else chain.color.opponent
            _, captured, in_seki, _ = runs[gainer]
            dead |= {p} & captured
            seki |= {p} & in_seki

    def vertices(points: set[Point]) -> tuple[str, ...]:
        return tuple(sorted(to_gtp(p, case.size) for p in points))

    b_komi, b_dead, b_seki, b_moves = runs[Color.BLACK]
    w_komi, w_dead, w_seki, w_moves = runs[Color.WHITE]
    return PachiVerdict(
        case.name,
        why,
        playouts,
        vertices(dead),
        vertices(seki),
        b_komi,
        vertices(b_dead),
        vertices(b_seki),
        tuple(b_moves),
        w_komi,
        vertices(w_dead),
        vertices(w_seki),
        tuple(w_moves),
    )


def pachi_result(case: Case, komi: float, moves: tuple[str, ...], seki: tuple[str, ...]) -> str:
    """The result (``B+0.5``) at the end of one of Pachi's play-outs of the case, with `komi`:
    area rules, every stone left standing alive, `seki` (Pachi's) in seki. With the close
    komi it says whether the side behind overturned the truth."""
    board = case.board()
    color = Color.BLACK if case.to_play == "B" else Color.WHITE
    for move in moves:
        point = from_gtp(move, case.size, case.size)
        if point is not None:
            board.play(point, color)
        color = color.opponent
    standing = {p for p in case.points(seki) if board[p] is not None}
    return score_position(board, CHINESE.with_komi(komi), seki=standing).result.to_sgf()


def disagreements(cases: list[Case]) -> dict[str, str]:
    """The cases where the judges disagree, each with who differs: GNU Go's play-out, its
    static list and tengen."""
    found = {}
    for case in cases:
        dead, seki = tengen_judges(case)
        truth = case.points(case.dead)
        notes = []
        if dead != truth or seki != case.points(case.seki):
            notes.append("tengen differs from the play-out")
        if case.points(case.gnugo_dead) != truth:
            notes.append("GNU Go's static list differs from the play-out")
        if notes:
            found[case.name] = "; ".join(notes)
    return found


def load_pachi(section: str = "verdicts", path: Path = PACHI_FIXTURE) -> dict[str, PachiVerdict]:
    """Pachi's committed verdicts by case name: in section ``verdicts`` those judged around
    GNU Go's play-out truth, in ``adjudicated`` those around the adjudicated truth (none
    before the first ``pachi`` run)."""
    if not path.exists():
        return {}
    items = json.loads(path.read_text()).get(section, [])
    return {
        d["name"]: PachiVerdict(**{k: tuple(v) if isinstance(v, list) else v for k, v in d.items()})
        for d in items
    }


def run_pachi(
    control: int, only: str | None, playouts: int, size: int = 0, adjudicated: bool = False
) -> None:
    """Play out with Pachi every disagreement and `control` cases drawn (seeded) from those
    where all judges agree, around GNU Go's play-out truth; or with `adjudicated` every
    adjudicated case around its adjudicated truth. The verdicts go into the committed file;
    those there already are skipped."""
    pachi = find_pachi()
    if pachi is None:
        raise SystemExit("Pachi not found (make pachi, or set PACHI)")
    cases = load_fixture(adjudicated=adjudicated)
    if adjudicated:
        todo = {name: "adjudicated truth" for name in load_adjudications()}
    else:
        differ = disagreements(cases)
        agreeing = [c.name for c in cases if c.name not in differ]
        sample = random.Random(PACHI_SAMPLE_SEED).sample(agreeing, min(control, len(agreeing)))
        todo = {**differ, **{name: "control: all judges agree" for name in sample}}
    section = "adjudicated" if adjudicated else "verdicts"
    sections = {name: load_pachi(name) for name in ("verdicts", "adjudicated")}
    verdicts = sections[section]
    for case in cases:
        if case.name not in todo or case.name in verdicts:
            continue
        if only and not any(s in case.name for s in only.split(",")):
            continue
        if size and case.size != size:
            continue
        start = time.monotonic()
        try:
            verdict = pachi_verdict(pachi, case, todo[case.name], playouts)
        except GtpClientError as err:
            print(f"{case.name}: {err}", flush=True)
            continue
        verdicts[case.name] = verdict
        _write_pachi(sections, cases)
        same = set(verdict.dead) == set(case.dead) and set(verdict.seki) == set(case.seki)
        took = time.monotonic() - start
        print(f"{case.name}: {'confirms' if same else 'DIFFERS from'} the truth, {took:.0f} s")


def _write_pachi(sections: dict[str, dict[str, PachiVerdict]], cases: list[Case]) -> None:
    parts = []
    for section, verdicts in sections.items():
        order = [c.name for c in cases if c.name in verdicts]
        lines = ",\n".join(
            json.dumps(asdict(verdicts[name]), separators=(",", ":")) for name in order
        )
        parts.append(f'"{section}":[\n{lines}\n]')
    PACHI_FIXTURE.write_text(
        '{"about":"Pachi playing cases of deadstones.json out'
        ' (tests/scoring/crosscheck.py pachi)",\n' + ",\n".join(parts) + "}\n"
    )


def _around(p: Point, size: int) -> Iterator[Point]:
    for q in (Point(p.col - 1, p.row), Point(p.col + 1, p.row)):
        if 0 <= q.col < size:
            yield q
    for q in (Point(p.col, p.row - 1), Point(p.col, p.row + 1)):
        if 0 <= q.row < size:
            yield q


def judge(task: Task, gnugo: str, board: Board, to_play: Color) -> Case:
    """The case of `task`'s finished position."""
    dead, seki, moves = play_out(gnugo, board, to_play)
    theirs = gnugo_dead(gnugo, board, to_play)

    def vertices(points: set[Point]) -> tuple[str, ...]:
        return tuple(sorted(to_gtp(p, board.height) for p in points))

    return Case(
        task.name,
        task.source,
        board.width,
        rows_of(board),
        "B" if to_play is Color.BLACK else "W",
        vertices(dead),
        vertices(seki),
        vertices(theirs),
        tuple(moves),
    )


def corpus_records(size: int) -> list[Path]:
    """Finished records of `size` in the corpus: a counted result or two final passes, a
    clean replay, at least size*size/4 moves; one per final position."""
    found: list[Path] = []
    seen: set[tuple[str, ...]] = set()
    for path in sorted(CORPUS.rglob("*.sgf")):
        try:
            trees = parse_file(path).games
        except (SgfError, OSError, ValueError):
            continue
        if not trees or trees[0].size != (size, size):
            continue
        result = (trees[0].root.get_raw("RE") or [""])[0]
        try:
            game, problems = replay(trees[0])
        except (SgfError, ValueError):
            continue
        if problems or game.move_number < size * size // 4:
            continue
        if not (COUNTED.match(result) or game.consecutive_passes >= 2):
            continue
        rows = rows_of(game.board)
        if rows not in seen:
            seen.add(rows)
            found.append(path)
    return found


def corpus_position(path: Path) -> tuple[Board, Color]:
    """The end of a corpus record's main line and the player to move."""
    game, _ = replay(parse_file(path).games[0])
    return game.board, game.to_play


def tasks() -> list[Task]:
    """Every game of the cross-check: the corpus records first (only judging them costs), then
    the games to play; each part interleaved so that any prefix mixes sizes and sources."""
    rng = random.Random(17)
    groups: list[list[Task]] = []
    for size, count in CORPUS_PLAN:
        records = corpus_records(size)
        random.Random(size).shuffle(records)
        groups.append(
            [
                Task(f"corpus-{size}-{p.relative_to(CORPUS)}", "corpus", size, path=str(p))
                for p in records[:count]
            ]
        )
    for size, selfplay, versus, top in GAME_PLAN:
        group = []
        for seed in range(1, selfplay + 1):
            b, w = rng.randint(1, top), rng.randint(1, top)
            group.append(Task(f"gnugo-{size}-b{b}-w{w}-s{seed}", "gnugo", size, b, w, seed))
        groups.append(group)
        group = []
        for seed in range(1, versus + 1):
            mine, theirs = rng.randint(2, 5), rng.randint(1, top)
            if seed % 2:
                name = f"tengen-{size}-t{mine}-g{theirs}-s{seed}"
                group.append(Task(name, "tengen", size, -mine, theirs, seed))
            else:
                name = f"gnugo-{size}-g{theirs}-t{mine}-s{seed}"
                group.append(Task(name, "tengen", size, theirs, -mine, seed))
        groups.append(group)
    return _interleave(groups[: len(CORPUS_PLAN)]) + _interleave(groups[len(CORPUS_PLAN) :])


def _interleave(groups: list[list[Task]]) -> list[Task]:
    """The tasks of `groups` taken one from each group in turn."""
    mixed: list[Task] = []
    for i in range(max(len(g) for g in groups)):
        mixed += [g[i] for g in groups if i < len(g)]
    return mixed


def cache_file(task: Task) -> Path:
    """Where the case (or the note that the game did not finish) of `task` is kept."""
    return CACHE / (re.sub(r"[^A-Za-z0-9_.-]", "_", task.name) + ".json")


def run_task(task: Task, gnugo: str) -> Case | None:
    """Make and judge one task's game; None when the game did not finish."""
    if task.source == "corpus":
        board, to_play = corpus_position(Path(task.path))
    else:
        moves = game_moves(task, gnugo)
        if moves is None:
            return None
        board, to_play = board_from_moves(task.size, moves), Color.BLACK
        if len(moves) % 2:
            to_play = Color.WHITE
    return judge(task, gnugo, board, to_play)


def run(worker: int, workers: int) -> None:
    """Judge every task of this worker's share not yet in the cache."""
    gnugo = find_gnugo()
    if gnugo is None:
        raise SystemExit("GNU Go not found")
    CACHE.mkdir(parents=True, exist_ok=True)
    for i, task in enumerate(tasks()):
        target = cache_file(task)
        if i % workers != worker or target.exists():
            continue
        start = time.monotonic()
        try:
            case = run_task(task, gnugo)
        except GtpClientError as err:
            print(f"{task.name}: {err}", flush=True)
            target.write_text(json.dumps({"name": task.name, "error": str(err)}))
            continue
        data = asdict(case) if case else {"name": task.name, "error": "unfinished"}
        target.write_text(json.dumps(data))
        took = time.monotonic() - start
        print(f"{task.name}: {len(data.get('dead', ()))} dead, {took:.0f} s", flush=True)


def cached_cases() -> list[Case]:
    """The judged cases in the cache, in task order."""
    cases = []
    for task in tasks():
        target = cache_file(task)
        if target.exists():
            data = json.loads(target.read_text())
            if "error" not in data:
                cases.append(Case.from_json(data))
    return cases


def load_fixture(path: Path = FIXTURE, *, adjudicated: bool = False) -> list[Case]:
    """The committed cases, with GNU Go's play-out as their truth, or with `adjudicated` the
    truth of `ADJUDICATED` for the cases it names (see `Adjudication`)."""
    cases = [Case.from_json(d) for d in json.loads(path.read_text())["cases"]]
    if adjudicated:
        rulings = load_adjudications()
        cases = [
            replace(c, dead=r.dead, seki=r.seki) if (r := rulings.get(c.name)) else c for c in cases
        ]
    return cases


@dataclass(frozen=True)
class Adjudication:
    """A case whose truth the project judges to be other than GNU Go's play-out, having looked
    at the position: the dead and seki stones it holds true, and the evidence. `pachi` says
    that Pachi's play-outs around this truth keep it (`PachiVerdict`, in the ``adjudicated``
    section of `PACHI_FIXTURE`); `after` are moves from the finished position (``"B A12"``,
    the move GNU Go's play-out missed, or the answer it missed) after which GNU Go's own
    play-out (`play_out_after`) gives this truth."""

    name: str
    dead: tuple[str, ...]
    seki: tuple[str, ...]
    pachi: bool
    after: tuple[str, ...]
    evidence: str


def load_adjudications(path: Path = ADJUDICATED) -> dict[str, Adjudication]:
    """The adjudicated cases by name."""
    items = json.loads(path.read_text())["adjudications"]
    return {
        d["name"]: Adjudication(**{k: tuple(v) if isinstance(v, list) else v for k, v in d.items()})
        for d in items
    }


def export() -> None:
    """Write the cached cases into the fixture, one compact line per case."""
    cases = cached_cases()
    lines = ",\n".join(
        json.dumps(asdict(c) | {"playout": []}, separators=(",", ":")) for c in cases
    )
    FIXTURE.write_text(
        '{"about":"dead stones of finished games, judged by GNU Go level 10 playing them out'
        ' (tests/scoring/crosscheck.py)",\n"cases":[\n' + lines + "\n]}\n"
    )
    print(f"{len(cases)} cases written to {FIXTURE}")


def tengen_judges(case: Case) -> tuple[set[Point], set[Point]]:
    """tengen's dead and seki stones on the case's position."""
    to_play = Color.BLACK if case.to_play == "B" else Color.WHITE
    est = estimate(case.board(), to_play)
    return dead_stones(est), seki_stones(est)


def kind(case: Case, dead: set[Point], seki: set[Point]) -> str:
    """What a disagreement of tengen with the play-out is about, from the stones it gets
    wrong: a seki one side sees, else a group left standing or captured (big: 10 stones or
    more), else dame (stones on neutral points the play-out filled or took)."""
    truth_dead, truth_seki = case.points(case.dead), case.points(case.seki)
    if seki != truth_seki:
        return "seki"
    board = case.board()
    wrong = dead ^ truth_dead
    chains = [c for c in board.chains() if c.stones & wrong]
    big = any(len(c.stones) >= 10 for c in chains)
    if wrong <= truth_dead:
        return "big group without two eyes" if big else "group without two eyes left alive"
    if wrong <= dead:
        return "big group called dead" if big else "group called dead"
    return "semeai: the wrong side dies"


def report(cases: list[Case]) -> str:
    """Markdown: figures per size, against GNU Go's play-out and against the adjudicated truth;
    every disagreement with the adjudicated truth with its kind; Pachi's play-outs beside."""
    rulings = load_adjudications()
    judged = {c.name: tengen_judges(c) for c in cases}
    rows = [
        "| size | games | tengen = play-out | tengen = adjudicated truth | "
        "GNU Go's dead = play-out's | tengen = both |"
    ]
    rows.append("| --- | --- | --- | --- | --- | --- |")
    found: list[str] = []
    for size in (9, 13, 19, 0):
        group = [c for c in cases if size in (0, c.size)]
        raw = fair = theirs = both = 0
        for case in group:
            dead, seki = judged[case.name]
            ruled = rulings.get(case.name)
            agree = dead == case.points(case.dead) and seki == case.points(case.seki)
            right = (
                agree
                if ruled is None
                else (case.points(ruled.dead), case.points(ruled.seki)) == (dead, seki)
            )
            gnugo = case.points(case.gnugo_dead) == case.points(case.dead)
            raw += agree
            fair += right
            theirs += gnugo
            both += gnugo and agree
            if size and not right:
                adjudged = replace(case, dead=ruled.dead, seki=ruled.seki) if ruled else case
                judge = "GNU Go agrees with the play-out" if gnugo else "GNU Go differs too"
                found.append(f"| {case.name} | {kind(adjudged, dead, seki)} | {judge} |")
        name = f"{size}x{size}" if size else "all"
        rows.append(
            f"| {name} | {len(group)} | {raw} ({_share(raw, len(group))}) | "
            f"{fair} ({_share(fair, len(group))}) | "
            f"{theirs} ({_share(theirs, len(group))}) | {both}/{theirs} |"
        )
    table = "\n".join(rows)
    listing = "\n".join(["| game | kind | GNU Go |", "| --- | --- | --- |", *found])
    return f"{table}\n\n{listing}\n\n{pachi_report(cases, judged)}"


def _share(part: int, whole: int) -> str:
    """`part` of `whole` as a percentage rounded down to 0.1, so that a share just short of
    a target (575 of 581 is 98.97%) never reads as reaching it."""
    return f"{(1000 * part // whole) / 10:.1f}%"


def pachi_report(cases: list[Case], judged: dict[str, tuple[set[Point], set[Point]]]) -> str:
    """Markdown: each of Pachi's verdicts around GNU Go's play-out truth against that truth,
    tengen and GNU Go's static list (dead stones), with the results of its two play-outs
    (the truth is a half-point loss for the side behind; a win for it overturned it)."""
    verdicts = load_pachi()
    rows = [
        "| game | why | Pachi's dead = play-out's | = tengen's | = GNU Go's static list "
        "| Black behind | White behind |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for case in cases:
        verdict = verdicts.get(case.name)
        if verdict is None:
            continue
        pachi = case.points(verdict.dead)
        why = "control" if verdict.why.startswith("control") else "disagreement"
        marks = [
            "yes" if pachi == case.points(case.dead) else "**no**",
            "yes" if pachi == judged[case.name][0] else "no",
            "yes" if pachi == case.points(case.gnugo_dead) else "no",
            pachi_result(
                case,
                verdict.black_behind_komi,
                verdict.black_behind_moves,
                verdict.black_behind_seki,
            ),
            pachi_result(
                case,
                verdict.white_behind_komi,
                verdict.white_behind_moves,
                verdict.white_behind_seki,
            ),
        ]
        rows.append(f"| {case.name} | {why} | {' | '.join(marks)} |")
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``run [--worker I/N]`` judges the missing tasks; ``export`` writes the fixture;
    ``report`` prints the figures of docs/DEADSTONES.md; ``list`` the tasks and which are
    done."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["run", "export", "list", "report", "pachi"])
    parser.add_argument("--worker", default="0/1", help="I/N: take every Nth task from I")
    parser.add_argument("--control", type=int, default=20, help="pachi: agreeing cases drawn")
    parser.add_argument("--only", help="pachi: only cases whose names hold one of A,B,...")
    parser.add_argument(
        "--adjudicated", action="store_true", help="pachi: around the adjudicated truth"
    )
    parser.add_argument("--size", type=int, default=0, help="pachi: only this board size")
    parser.add_argument("--playouts", type=int, default=0, help="pachi: a move")
    args = parser.parse_args(argv)
    if args.command == "run":
        worker, workers = (int(x) for x in args.worker.split("/"))
        run(worker, workers)
    elif args.command == "export":
        export()
    elif args.command == "pachi":
        run_pachi(args.control, args.only, args.playouts, args.size, args.adjudicated)
    elif args.command == "report":
        print(report(load_fixture()))
    else:
        for task in tasks():
            print(task.name, "done" if cache_file(task).exists() else "")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
