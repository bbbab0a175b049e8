"""The GTP version 2 engine: standard commands plus GNU Go, KGS, Leela Zero and KataGo extensions.

`GtpEngine.handle_line` takes one line from the controller and returns the whole response;
it never raises. Every command is a method marked ``@command("name")`` (`tengen.gtp.registry`
derives the command table from the marks) that returns the result text or raises `GtpError`
with the failure message. The analysis commands
(``lz-analyze``, ``kata-analyze``), offered when the engine has an `Analyser`, answer with a
`Stream` instead: a response the caller writes while the search runs and ends when the next
command arrives (see `tengen.cli.serve`).

The module is one class of some forty short handlers over one session (the game, the clocks,
the player), which is why it runs past 500 lines: splitting the handlers would scatter that
state. What stands alone lives beside it: the command table in `registry`, ``loadsgf``'s file
checks and replay in `loading`, streamed responses in `stream`.
"""

from __future__ import annotations

import copy
import json
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import suppress
from dataclasses import replace
from typing import ClassVar, Protocol, TypeVar

from tengen import __version__, seat
from tengen.clock import Clock, TimeControl
from tengen.core.color import Color
from tengen.core.coords import GTP_COLUMNS, Move, Point, from_gtp, to_gtp
from tengen.core.diagram import render_with_coordinates
from tengen.core.errors import IllegalMove
from tengen.core.game import Game
from tengen.core.handicap import max_fixed
from tengen.core.rules import CHINESE, Ruleset
from tengen.gtp import arguments, gogui, timing
from tengen.gtp.analyze import AnalyzeRequest, kata_line, lz_line, parse_request
from tengen.gtp.handicap import free_points
from tengen.gtp.loading import check_record_file, load, never, stop_before
from tengen.gtp.protocol import (
    Command,
    GtpError,
    format_failure,
    format_stream_start,
    format_success,
    parse_line,
)
from tengen.gtp.registry import Entry, command, table
from tengen.gtp.search import Analyser, Analysis, Progress
from tengen.gtp.stream import Stream, Write, reporter
from tengen.records import game_record, open_record
from tengen.scoring import score_game
from tengen.scoring.life import Status, dead_stones, estimate, seki_stones
from tengen.seat import RESIGN, Resign
from tengen.sgf import GameTree, serialise

_T = TypeVar("_T")
MAX_SIZE = len(GTP_COLUMNS)  # GTP vertices have letters for 25 columns
KGS_RULES = ("japanese", "chinese", "aga", "new_zealand")
TICK = 0.1  # seconds between the search's progress calls: how soon a new command stops it
UNTIL_STOPPED = 24 * 3600.0  # an analysis's budget: it searches until the next command


class Player(seat.Player[Game, Move | Resign], Protocol):
    """What chooses the engine's moves for ``genmove``: a seat (`tengen.seat.Player`) that
    also reports its search."""

    def genmove(
        self,
        game: Game,
        color: Color,
        clock: Clock | None = None,
        *,
        progress: Progress | None = None,
        interval: float = 0.5,
    ) -> Move | Resign:
        """A legal move for `color` in `game` (None passes), or "resign"; the engine plays it.

        `clock` is `color`'s time as the controller set it (``time_settings``, ``time_left``);
        a searching player calls `progress` about every `interval` seconds (genmove_analyze).
        """
        ...


class GtpEngine:
    """One GTP session: a game that either colour may move in, and a player for ``genmove``."""

    TABLE: ClassVar[dict[str, Entry]]  # these three from the @command handlers, below
    COMMANDS: ClassVar[tuple[str, ...]]
    ANALYSIS_COMMANDS: ClassVar[tuple[str, ...]]

    def __init__(
        self,
        player: Player,
        *,
        size: int = 19,
        ruleset: Ruleset = CHINESE,
        analyser: Analyser | None = None,
    ) -> None:
        if not 1 <= size <= MAX_SIZE:
            raise ValueError(f"GTP boards are 1x1 to {MAX_SIZE}x{MAX_SIZE}, not {size}x{size}")
        self.player = player
        self.analyser = analyser
        self.commands = self.COMMANDS + (self.ANALYSIS_COMMANDS if analyser else ())
        self.game = _new_game(size, size, ruleset)
        self.clocks: dict[Color, Clock] = {}  # none: no time limit
        self.quit_requested = False

    def handle_line(self, line: str) -> str | Stream | None:
        """The response to one input line: its text, a `Stream` for an analysis command, or
        None for a line with no command."""
        id_: str | None = None
        try:
            command = parse_line(line)
            if command is None:
                return None
            id_ = command.id
            result = self.execute(command)
            if isinstance(result, Stream):
                return replace(result, head=format_stream_start(id_))
            return format_success(result, id_)
        except GtpError as err:
            return format_failure(str(err), id_)
        except Exception as err:
            return format_failure(f"internal error: {type(err).__name__}: {err}", id_)

    def execute(self, command: Command) -> str | Stream:
        """Run one parsed command; its result, or GtpError with the failure message."""
        if not command.name:
            raise GtpError("syntax error")
        if command.name not in self.commands:
            raise GtpError("unknown command")
        handler: Callable[[Sequence[str]], str | Stream] = getattr(
            self, self.TABLE[command.name].method
        )
        return handler(command.args)

    # -- administration ----------------------------------------------------------------------

    @command("protocol_version")
    def cmd_protocol_version(self, args: Sequence[str]) -> str:
        """The GTP version spoken: 2."""
        _arity(args, 0)
        return "2"

    @command("name")
    def cmd_name(self, args: Sequence[str]) -> str:
        """The engine's name."""
        _arity(args, 0)
        return "tengen"

    @command("version")
    def cmd_version(self, args: Sequence[str]) -> str:
        """The package version (Lizzie reads it as Leela Zero's and warns below 0.15)."""
        _arity(args, 0)
        return __version__

    @command("known_command")
    def cmd_known_command(self, args: Sequence[str]) -> str:
        """``true`` if the command is implemented, else ``false``."""
        _arity(args, 1)
        return "true" if args[0] in self.commands else "false"

    @command("list_commands")
    def cmd_list_commands(self, args: Sequence[str]) -> str:
        """Every command, one a line."""
        _arity(args, 0)
        return "\n".join(self.commands)

    @command("cputime")
    def cmd_cputime(self, args: Sequence[str]) -> str:
        """Seconds of CPU the engine has used, all threads (GoGui's twogtp reports them)."""
        _arity(args, 0)
        return f"{time.process_time():.3f}"

    @command("quit")
    def cmd_quit(self, args: Sequence[str]) -> str:
        """Ask the caller to close the connection after this response."""
        _arity(args, 0)
        self.quit_requested = True
        return ""

    # -- setup -------------------------------------------------------------------------------

    @command("boardsize")
    def cmd_boardsize(self, args: Sequence[str]) -> str:
        """A new empty board of the given size, keeping the rules and komi."""
        _arity(args, 1)
        size = _size(args[0])
        self.game = _new_game(size, size, self.game.ruleset)
        return ""

    @command("rectangular_boardsize")
    def cmd_rectangular_boardsize(self, args: Sequence[str]) -> str:
        """``rectangular_boardsize WIDTH HEIGHT`` (GoGui's and Sabaki's): a new empty board of
        that shape, keeping the rules and komi."""
        _arity(args, 2)
        width, height = _size(args[0]), _size(args[1])
        self.game = _new_game(width, height, self.game.ruleset)
        return ""

    @command("clear_board")
    def cmd_clear_board(self, args: Sequence[str]) -> str:
        """Empty the board, the captures and the history."""
        _arity(args, 0)
        self.game.clear()
        return ""

    @command("komi")
    def cmd_komi(self, args: Sequence[str]) -> str:
        """Set komi (kept by later board changes)."""
        _arity(args, 1)
        self.game.ruleset = self.game.ruleset.with_komi(arguments.komi(args[0]))
        return ""

    @command("fixed_handicap")
    def cmd_fixed_handicap(self, args: Sequence[str]) -> str:
        """Black stones on the spec's fixed handicap points; the vertices, board order."""
        _arity(args, 1)
        count = _stones(args[0])
        self._check_empty()
        if self.game.width != self.game.height or not 2 <= count <= max_fixed(self.game.width):
            raise GtpError("invalid number of stones")
        return self._vertices(self._handicap(lambda game: game.place_handicap(count)))

    @command("place_free_handicap")
    def cmd_place_free_handicap(self, args: Sequence[str]) -> str:
        """Black handicap stones where the engine likes them; the vertices, board order."""
        _arity(args, 1)
        count = _stones(args[0])
        self._check_empty()
        width, height = self.game.width, self.game.height
        if not 2 <= count < width * height:
            raise GtpError("invalid number of stones")
        points = free_points(count, width, height)
        self._handicap(lambda game: game.set_handicap(points))
        return self._vertices(points)

    @command("set_free_handicap")
    def cmd_set_free_handicap(self, args: Sequence[str]) -> str:
        """Black handicap stones where the controller says."""
        if not args:
            raise GtpError("syntax error")
        self._check_empty()
        moves = [self._vertex(a) for a in args]
        points = [p for p in moves if p is not None]
        if len(points) != len(moves):
            raise GtpError("bad vertex list")
        try:
            self._handicap(lambda game: game.set_handicap(points))
        except ValueError:
            raise GtpError("bad vertex list") from None
        return ""

    @command("kgs-rules")
    def cmd_kgs_rules(self, args: Sequence[str]) -> str:
        """KGS's rules names (japanese, chinese, aga, new_zealand); komi is kept."""
        _arity(args, 1)
        if args[0].lower() not in KGS_RULES:
            raise GtpError("unknown rules")
        self._set_rules(Ruleset.parse(args[0]), keep_komi=True)
        return ""

    @command("kata-set-rules")
    def cmd_kata_set_rules(self, args: Sequence[str]) -> str:
        """A preset name or KataGo's JSON rule object; komi is kept unless the JSON gives one."""
        if not args:
            raise GtpError("syntax error")
        text = " ".join(args)
        try:
            ruleset = Ruleset.parse(text)
        except ValueError as err:
            raise GtpError(str(err)) from None
        arguments.check(ruleset.komi, "komi", -arguments.MAX_KOMI, arguments.MAX_KOMI)
        self._set_rules(ruleset, keep_komi=not _json_has_komi(text))
        return ""

    @command("kata-get-rules")
    def cmd_kata_get_rules(self, args: Sequence[str]) -> str:
        """The rules as KataGo's JSON object."""
        _arity(args, 0)
        return self.game.ruleset.to_json()

    # -- play --------------------------------------------------------------------------------

    @command("play")
    def cmd_play(self, args: Sequence[str]) -> str:
        """Play a move (or pass) for either colour."""
        _arity(args, 2)
        color, move = _color(args[0]), self._vertex(args[1])
        try:
            self.game.play(move, color)
        except IllegalMove:
            raise GtpError("illegal move") from None
        return ""

    @command("genmove")
    def cmd_genmove(self, args: Sequence[str]) -> str:
        """Let the player choose a move for the colour, play it and name it."""
        _arity(args, 1)
        color = _color(args[0])
        move = self.player.genmove(self.game, color, self.clocks.get(color))
        if move == RESIGN:
            return RESIGN
        self.game.play(move, color)
        return to_gtp(move, self.game.height)

    @command("time_settings")
    def cmd_time_settings(self, args: Sequence[str]) -> str:
        """Both clocks from GTP's main time, byo-yomi time and stones (Canadian overtime)."""
        self._set_clocks(timing.from_time_settings(args))
        return ""

    @command("kgs-time_settings")
    def cmd_kgs_time_settings(self, args: Sequence[str]) -> str:
        """Both clocks from KGS's none / absolute / byoyomi / canadian forms."""
        self._set_clocks(timing.from_kgs_time_settings(args))
        return ""

    @command("time_left")
    def cmd_time_left(self, args: Sequence[str]) -> str:
        """What is left on one colour's clock: seconds, and overtime stones (0: main time)."""
        _arity(args, 3)
        color = _color(args[0])
        seconds, stones = timing.number(args[1]), timing.count(args[2])
        clock = self.clocks.get(color)
        if clock is not None:  # without time_settings there is no limit to track
            timing.apply_time_left(clock, seconds, stones)
        return ""

    @command("undo")
    def cmd_undo(self, args: Sequence[str]) -> str:
        """Take back the last move (not handicap stones)."""
        _arity(args, 0)
        if self.game.move_number == 0:
            raise GtpError("cannot undo")
        self.game.undo()
        return ""

    # -- queries -----------------------------------------------------------------------------

    @command("showboard")
    def cmd_showboard(self, args: Sequence[str]) -> str:
        """The board with coordinates and the captures, starting on a new line as GNU Go does."""
        _arity(args, 0)
        board = self.game.board
        lines = [
            render_with_coordinates(board),
            f"WHITE (O) has captured {board.captures(Color.WHITE)} stones",
            f"BLACK (X) has captured {board.captures(Color.BLACK)} stones",
        ]
        return "\n" + "\n".join(lines)

    @command("is_legal")
    def cmd_is_legal(self, args: Sequence[str]) -> str:
        """``1`` if the colour may play the vertex now, else ``0``."""
        _arity(args, 2)
        color, move = _color(args[0]), self._vertex(args[1])
        return "1" if self.game.is_legal(move, color) else "0"

    @command("all_legal")
    def cmd_all_legal(self, args: Sequence[str]) -> str:
        """Every point the colour may play, in board order (as GNU Go lists them)."""
        _arity(args, 1)
        return self._vertices(self.game.legal_moves(_color(args[0])))

    @command("list_stones")
    def cmd_list_stones(self, args: Sequence[str]) -> str:
        """The colour's stones, in board order."""
        _arity(args, 1)
        return self._vertices(self.game.board.stones(_color(args[0])))

    @command("captures")
    def cmd_captures(self, args: Sequence[str]) -> str:
        """How many stones the colour has captured."""
        _arity(args, 1)
        return str(self.game.board.captures(_color(args[0])))

    # -- scoring ----------------------------------------------------------------------------

    @command("final_score")
    def cmd_final_score(self, args: Sequence[str]) -> str:
        """The result by the ruleset, counting with tengen's own dead-stone estimate."""
        _arity(args, 0)
        est = estimate(self.game)
        return score_game(self.game, dead_stones(est), seki_stones(est)).result.to_sgf()

    @command("final_status_list")
    def cmd_final_status_list(self, args: Sequence[str]) -> str:
        """The stones of status alive, dead or seki (by the estimate), one chain a line."""
        _arity(args, 1)
        wanted = args[0].lower()
        if wanted not in {s.value for s in Status}:
            raise GtpError("invalid status")
        chains = [c for c in estimate(self.game).chains if c.status.value == wanted]
        return "\n".join(self._vertices(c.stones) for c in chains)

    # -- analysis ----------------------------------------------------------------------------

    @command("lz-analyze", analysis=True)
    def cmd_lz_analyze(self, args: Sequence[str]) -> Stream:
        """``[color] [interval] [key value]...``: search until the next command, reporting in
        Leela Zero's format every interval (centiseconds)."""
        return self._analysis(parse_request(args, kata=False), lz_line)

    @command("kata-analyze", analysis=True)
    def cmd_kata_analyze(self, args: Sequence[str]) -> Stream:
        """As ``lz-analyze``, in KataGo's format (``ownership true`` adds the ownership)."""
        return self._analysis(parse_request(args, kata=True), kata_line)

    def _analysis(
        self, request: AnalyzeRequest, line: Callable[[Analysis, AnalyzeRequest], str]
    ) -> Stream:
        """A stream that searches a copy of the position and reports every interval."""
        analyser = self.analyser
        assert analyser is not None  # the commands are offered only with one
        game = copy.deepcopy(self.game)
        if request.color is not None and request.color is not game.to_play:
            game.setup(to_play=request.color)

        def run(write: Write, stop: threading.Event) -> None:
            progress = reporter(request, line, write, stop)
            if not game.is_over:
                analyser.analyse(game, seconds=UNTIL_STOPPED, progress=progress, interval=TICK)
            stop.wait()  # the response lasts until the next command, as Leela Zero's does

        return Stream(run)

    @command("lz-genmove_analyze", analysis=True)
    def cmd_lz_genmove_analyze(self, args: Sequence[str]) -> Stream:
        """``genmove`` that reports its search as ``lz-analyze`` does, then ``play VERTEX``."""
        return self._genmove_analysis(parse_request(args, kata=False), lz_line)

    @command("kata-genmove_analyze", analysis=True)
    def cmd_kata_genmove_analyze(self, args: Sequence[str]) -> Stream:
        """As ``lz-genmove_analyze``, in KataGo's format."""
        return self._genmove_analysis(parse_request(args, kata=True), kata_line)

    def _genmove_analysis(
        self, request: AnalyzeRequest, line: Callable[[Analysis, AnalyzeRequest], str]
    ) -> Stream:
        """A stream of the move search's reports, ending with the move played (or resign).

        The move is not interrupted by the next command: the controller waits for ``play``.
        """
        color = request.color or self.game.to_play

        def run(write: Write, stop: threading.Event) -> None:
            progress = reporter(request, line, write, stop)
            clock = self.clocks.get(color)
            move = self.player.genmove(self.game, color, clock, progress=progress, interval=TICK)
            if move == RESIGN:
                write("play resign\n")
                return
            self.game.play(move, color)
            write(f"play {to_gtp(move, self.game.height)}\n")

        return Stream(run, interruptible=False)

    # -- GoGui's overlays --------------------------------------------------------------------

    @command("gogui-analyze_commands")
    def cmd_gogui_analyze_commands(self, args: Sequence[str]) -> str:
        """GoGui's menu of overlays, ``type/label/command`` a line (candidates need a search)."""
        _arity(args, 0)
        offered = [c for c in gogui.ANALYZE_COMMANDS if c.split("/")[2].split()[0] in self.commands]
        return "\n".join(offered)

    @command("tengen-ownership")
    def cmd_tengen_ownership(self, args: Sequence[str]) -> str:
        """The dead-stone estimate's ownership of every point, as a GoGui ``dboard``."""
        _arity(args, 0)
        return gogui.dboard(estimate(self.game).ownership)

    @command("tengen-dead_stones")
    def cmd_tengen_dead_stones(self, args: Sequence[str]) -> str:
        """Dead stones, territory and the result ``final_score`` gives, as GoGui ``gfx``."""
        _arity(args, 0)
        est = estimate(self.game)
        score = score_game(self.game, dead_stones(est), seki_stones(est))
        return gogui.dead_stones_gfx(score.status, self.game.height, score.result.to_sgf())

    @command("tengen-liberties")
    def cmd_tengen_liberties(self, args: Sequence[str]) -> str:
        """Each stone's chain's liberties, as a GoGui ``sboard``."""
        _arity(args, 0)
        game = self.game
        return gogui.sboard(gogui.liberties(game.board), game.width, game.height)

    @command("tengen-candidates", analysis=True)
    def cmd_tengen_candidates(self, args: Sequence[str]) -> str:
        """``[seconds]`` (default 1): the AI's most searched moves for the player to move and
        their win rates in %, as GoGui ``pspairs``."""
        if len(args) > 1:
            raise GtpError("syntax error")
        seconds = arguments.real(args[0], "seconds", 0.0, 3600.0) if args else 1.0
        analyser = self.analyser
        assert analyser is not None  # the command is offered only with one
        if self.game.is_over:
            return ""
        return gogui.candidates(analyser.analyse(copy.deepcopy(self.game), seconds=seconds))

    # -- records -----------------------------------------------------------------------------

    @command("loadsgf")
    def cmd_loadsgf(self, args: Sequence[str]) -> str:
        """Load a record's first game (any format tengen reads), as GNU Go does: the whole main
        line, or the position before move MOVE_NUMBER or before the first move at a vertex.

        Board size, rules (RU) and komi (KM) come from the record where it has them; moves the
        rules refuse are entered anyway. The answer is the colour to move.
        """
        if not args:
            raise GtpError("missing filename")
        if len(args) > 2:
            raise GtpError("syntax error")
        check_record_file(args[0])
        try:
            tree = open_record(args[0]).games[0]
            width, height = tree.size
            game_type = tree.game_type
        except (ValueError, IndexError):
            raise GtpError(f"cannot open or parse '{args[0]}'") from None
        if game_type != 1:
            raise GtpError(f"not a Go record: '{args[0]}'")
        if max(width, height) > MAX_SIZE:
            raise GtpError("unacceptable size")
        stop = stop_before(args[1], width, height) if len(args) == 2 else never
        self.game = load(tree, self._record_rules(tree), stop)
        return "black" if self.game.to_play is Color.BLACK else "white"

    @command("printsgf")
    def cmd_printsgf(self, args: Sequence[str]) -> str:
        """The game as SGF: SZ, KM, RU, handicap and setup stones, then every move played.

        (GNU Go's optional file argument is left out: a controller can save the answer.)
        """
        _arity(args, 0)
        return serialise(game_record(self.game)).decode("utf-8").rstrip("\n")

    # -- helpers -----------------------------------------------------------------------------

    def _set_clocks(self, control: TimeControl | None) -> None:
        """Fresh clocks for both colours under `control`, or none for no limit."""
        self.clocks = {} if control is None else {c: Clock(control) for c in Color}

    def _check_empty(self) -> None:
        """Fail unless the board is empty (handicap stones go on an empty board only)."""
        if self.game.board.grid().any():
            raise GtpError("board not empty")

    def _handicap(self, place: Callable[[Game], _T]) -> _T:
        """Put handicap stones down with `place` on a copy of the game with its passes
        forgotten; the copy becomes the game only if `place` succeeds, so a refusal changes
        nothing."""
        game = copy.deepcopy(self.game)
        if game.move_number:
            game.clear()
        result = place(game)
        self.game = game
        return result

    def _record_rules(self, tree: GameTree) -> Ruleset:
        """The record's RU and KM where it has readable ones (a komi GTP accepts), else this
        session's."""
        ruleset, komi = self.game.ruleset, self.game.ruleset.komi
        with suppress(ValueError):
            ruleset = Ruleset.parse(tree.root.get("RU") or "")
        with suppress(ValueError, GtpError):
            recorded = tree.root.get("KM")
            if recorded is not None:
                arguments.check(recorded, "komi", -arguments.MAX_KOMI, arguments.MAX_KOMI)
                komi = recorded
        return ruleset.with_komi(komi)

    def _set_rules(self, ruleset: Ruleset, *, keep_komi: bool) -> None:
        """New rules for later moves; the position stays."""
        self.game.ruleset = ruleset.with_komi(self.game.ruleset.komi) if keep_komi else ruleset

    def _vertex(self, text: str) -> Move:
        """A vertex on this board, or None for pass."""
        try:
            return from_gtp(text, self.game.width, self.game.height)
        except ValueError:
            raise GtpError("invalid vertex") from None

    def _vertices(self, points: Iterable[Point]) -> str:
        """Vertices space-separated, top row first and left to right (GNU Go's order)."""
        ordered = sorted(points, key=lambda p: (p.row, p.col))
        return " ".join(to_gtp(p, self.game.height) for p in ordered)


GtpEngine.TABLE = table(GtpEngine)
GtpEngine.COMMANDS = tuple(e.name for e in GtpEngine.TABLE.values() if not e.analysis)
GtpEngine.ANALYSIS_COMMANDS = tuple(e.name for e in GtpEngine.TABLE.values() if e.analysis)


def _new_game(width: int, height: int, ruleset: Ruleset) -> Game:
    """A game as GTP plays it: either colour may move, two passes do not end it."""
    return Game(width, height, ruleset, free_turns=True, end_after_passes=False)


def _arity(args: Sequence[str], count: int) -> None:
    """Fail with the spec's ``syntax error`` unless there are exactly `count` arguments."""
    if len(args) != count:
        raise GtpError("syntax error")


def _stones(text: str) -> int:
    """A number of handicap stones (the spec's ``invalid number of stones`` if huge)."""
    return arguments.whole(text, "stones", refusal="invalid number of stones")


def _size(text: str) -> int:
    """A board side, 1 to 25 (the spec's ``unacceptable size`` otherwise)."""
    return arguments.whole(text, "size", 1, MAX_SIZE, refusal="unacceptable size")


def _color(text: str) -> Color:
    """A GTP colour (``b``, ``white``, any case)."""
    try:
        return Color.parse(text)
    except ValueError:
        raise GtpError("invalid color") from None


def _json_has_komi(text: str) -> bool:
    """Whether a rules text is a JSON object that sets komi."""
    if not text.lstrip().startswith("{"):
        return False
    data = json.loads(text)
    return isinstance(data, dict) and "komi" in data
