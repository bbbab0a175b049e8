"""Live analysis over GTP: the lz-analyze / kata-analyze formats and a command that stops them.

A small stand-in search (`StubAnalyser`) reports a growing analysis until told to stop, so
the formats and the streaming can be checked exactly; the real search is tested in tests/ai
and end to end in test_cli.py.
"""

from __future__ import annotations

import io
import os
import threading
import time
from collections.abc import Callable

import pytest

from tengen.ai.analysis import Analysis, MoveInfo, Progress
from tengen.ai.mcts import MctsPlayer
from tengen.ai.players import RandomPlayer
from tengen.cli import serve
from tengen.core.color import Color
from tengen.core.coords import Point, to_gtp
from tengen.core.game import Game
from tengen.gtp.analyze import AnalyzeRequest, kata_line, lcb, lz_line, parse_request
from tengen.gtp.engine import GtpEngine
from tengen.gtp.protocol import GtpError
from tengen.gtp.stream import Stream

D4, E5 = Point(3, 5), Point(4, 4)  # on 9x9


def analysis(to_play: Color = Color.BLACK, visits: int = 10) -> Analysis:
    """Two searched moves and one never visited, on 9x9; Black owns every point by half."""
    return Analysis(
        to_play=to_play,
        visits=visits + 3,
        winrate=0.6,
        score_lead=2.5,
        moves=(
            MoveInfo(D4, visits, 0.6, 0.25, (D4, E5), score_lead=2.5),
            MoveInfo(None, 3, 0.123456789, 0.01, (None,), score_lead=-1.25),
            MoveInfo(E5, 0, 0.0, 0.5, (E5,)),
        ),
        ownership=(0.5,) * 81,
        width=9,
        height=9,
    )


class StubAnalyser:
    """Reports `analysis()` with one more visit each time until `progress` says stop."""

    def __init__(self) -> None:
        self.searched: list[tuple[Color, int]] = []  # (to play, moves) of each search
        self.budgets: list[tuple[int | None, float | None]] = []
        self.stopped = threading.Event()

    def analyse(
        self,
        game: Game,
        *,
        playouts: int | None = None,
        seconds: float | None = None,
        progress: Progress | None = None,
        interval: float = 0.5,
    ) -> Analysis:
        self.searched.append((game.to_play, game.move_number))
        self.budgets.append((playouts, seconds))
        visits = 0
        while True:
            visits += 1
            result = analysis(game.to_play, visits)
            if progress is not None and not progress(result):
                self.stopped.set()
                return result
            time.sleep(0.002)


def make_engine(analyser: StubAnalyser | None = None) -> GtpEngine:
    return GtpEngine(RandomPlayer(1), size=9, analyser=analyser)


# -- arguments -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "kata", "expected"),
    [
        ("", False, AnalyzeRequest(None, 1.0)),
        ("50", False, AnalyzeRequest(None, 0.5)),
        ("b 10", False, AnalyzeRequest(Color.BLACK, 0.1)),
        ("white interval 20 maxmoves 2", False, AnalyzeRequest(Color.WHITE, 0.2, 2)),
        ("W 0 minmoves 5", False, AnalyzeRequest(Color.WHITE, 0.0)),
        ("B 25 ownership true", True, AnalyzeRequest(Color.BLACK, 0.25, ownership=True)),
        ("interval 5 rootInfo TRUE", True, AnalyzeRequest(None, 0.05, root_info=True)),
    ],
)
def test_parse_request(args: str, kata: bool, expected: AnalyzeRequest) -> None:
    assert parse_request(args.split(), kata=kata) == expected


@pytest.mark.parametrize(
    ("args", "kata", "message"),
    [
        ("x", False, "invalid color 'x'"),
        ("b x", False, "unknown analyze option 'x'"),
        ("b 10 maxmoves", False, "analyze option 'maxmoves' needs a value"),
        ("b 10 maxmoves -1", False, "maxmoves must be a whole number, not '-1'"),
        ("interval 1.5", False, "invalid interval '1.5' (centiseconds)"),
        ("ownership true", False, "unknown analyze option 'ownership'"),
        ("ownership maybe", True, "ownership must be true or false, not 'maybe'"),
    ],
)
def test_parse_request_refusals(args: str, kata: bool, message: str) -> None:
    with pytest.raises(GtpError, match=f"^{message}$".replace("(", r"\(").replace(")", r"\)")):
        parse_request(args.split(), kata=kata)


# -- formats -------------------------------------------------------------------------------


def test_lcb_is_wilsons_lower_bound() -> None:
    assert lcb(0.5, 100) == pytest.approx(0.4038, abs=1e-4)  # the textbook value
    assert lcb(1.0, 1) == pytest.approx(0.2065, abs=1e-4)  # one win is weak evidence
    assert lcb(0.7, 0) == 0.0
    assert lcb(0.7, 10) < lcb(0.7, 1000) < 0.7


def test_lz_line() -> None:
    line = lz_line(analysis(), AnalyzeRequest(None, 1.0))
    first, second = line.split(" info ")
    assert first.startswith("info move D4 visits 10 winrate 6000 prior 2500 lcb ")
    assert first.endswith(" order 0 pv D4 E5")
    assert int(first.split(" lcb ")[1].split()[0]) == round(lcb(0.6, 10) * 10000)
    assert second.startswith("move pass visits 3 winrate 1235 prior 100 lcb ")
    assert second.endswith(" order 1 pv pass")
    assert "E5 visits" not in line  # a move with no visits is not reported
    assert lz_line(analysis(), AnalyzeRequest(None, 1.0, max_moves=1)) == first


def test_kata_line_floats_root_info_and_ownership_for_the_player_to_move() -> None:
    request = AnalyzeRequest(None, 1.0, ownership=True, root_info=True)
    black = kata_line(analysis(Color.BLACK), request)
    assert black.startswith(
        "info move D4 visits 10 winrate 0.600000 scoreMean 2.500 scoreLead 2.500"
        " prior 0.250000 lcb "
    )
    assert (
        " order 0 pv D4 E5 info move pass visits 3 winrate 0.123457 scoreMean -1.250"
        " scoreLead -1.250 prior 0.010000 lcb "
    ) in black
    infos, rest = black.split(" rootInfo ")
    assert rest.startswith("visits 13 winrate 0.600000 scoreLead 2.500 ownership ")
    assert rest.split(" ownership ")[1].split() == ["0.5000"] * 81
    white = kata_line(analysis(Color.WHITE), request)
    assert white.split(" ownership ")[1].split() == ["-0.5000"] * 81
    plain = kata_line(analysis(), AnalyzeRequest(None, 1.0))
    assert plain == infos


def test_nothing_searched_gives_an_empty_line() -> None:
    empty = Analysis(Color.BLACK, 0, 0.5, 0.0, (), (0.0,) * 81, 9, 9)
    request = AnalyzeRequest(None, 1.0, ownership=True)
    assert lz_line(empty, request) == kata_line(empty, request) == ""


# -- the engine and the loop ---------------------------------------------------------------


def test_analysis_commands_only_with_an_analyser() -> None:
    plain = make_engine()
    assert plain.handle_line("lz-analyze 10") == "? unknown command\n\n"
    assert plain.handle_line("known_command kata-analyze") == "= false\n\n"
    engine = make_engine(StubAnalyser())
    assert engine.handle_line("known_command kata-analyze") == "= true\n\n"
    listed = engine.handle_line("list_commands")
    assert isinstance(listed, str)
    assert listed.endswith(
        "\nlz-analyze\nkata-analyze\nlz-genmove_analyze\nkata-genmove_analyze\ntengen-candidates\n\n"
    )


def test_bad_arguments_fail_before_the_stream_starts() -> None:
    engine = make_engine(StubAnalyser())
    assert engine.handle_line("4 lz-analyze b x") == "?4 unknown analyze option 'x'\n\n"
    stream = engine.handle_line("5 kata-analyze 10")
    assert isinstance(stream, Stream) and stream.head == "=5\n" and stream.interruptible


class Controller:
    """`serve` on a pipe, as a GUI drives it: lines go in when the test says."""

    def __init__(self, engine: GtpEngine) -> None:
        read, self._write = os.pipe()
        self.source = open(read, "rb")  # noqa: SIM115 (closed in `close`)
        self.sink = io.BytesIO()
        self.thread = threading.Thread(target=serve, args=(engine, self.source, self.sink))
        self.thread.start()

    def send(self, line: str) -> None:
        os.write(self._write, line.encode() + b"\n")

    def wait_for(self, done: Callable[[str], bool], seconds: float = 10) -> str:
        """The output once `done` holds for it (fails after `seconds`)."""
        deadline = time.monotonic() + seconds
        while not done(text := self.sink.getvalue().decode()):
            assert time.monotonic() < deadline, f"timed out; output so far: {text!r}"
            time.sleep(0.01)
        return text

    def close(self) -> None:
        os.close(self._write)
        self.thread.join(timeout=10)
        assert not self.thread.is_alive()
        self.source.close()


def test_the_next_command_stops_the_analysis_and_is_answered() -> None:
    analyser = StubAnalyser()
    engine = make_engine(analyser)
    controller = Controller(engine)
    controller.send("play b e5")
    controller.send("7 lz-analyze w 1")
    controller.wait_for(lambda text: text.count("info move") >= 6)
    assert not analyser.stopped.is_set()
    controller.send("8 name")
    text = controller.wait_for(lambda text: text.endswith("=8 tengen\n\n"))
    controller.close()
    assert analyser.stopped.is_set()
    assert analyser.searched == [(Color.WHITE, 1)]
    assert analyser.budgets == [(None, 24 * 3600.0)]  # no budget of its own: until stopped
    head, body = text.split("=7\n")
    assert head == "= \n\n"
    reports, rest, end = body.split("\n\n")
    assert (rest, end) == ("=8 tengen", "")
    lines = reports.split("\n")
    assert len(lines) >= 3
    assert all(line.startswith("info move D4 visits ") for line in lines)
    visits = [int(line.split()[4]) for line in lines]
    assert visits == sorted(visits) and visits[0] < visits[-1]  # one line a report, in order
    assert engine.game.move_number == 1 and engine.game.to_play is Color.WHITE


def test_kata_analyze_with_ownership_and_a_blank_line_to_stop() -> None:
    engine = make_engine(StubAnalyser())
    controller = Controller(engine)
    controller.send("kata-analyze b 1 ownership true")
    controller.wait_for(lambda text: text.count("\n") >= 3)
    controller.send("")
    text = controller.wait_for(lambda text: text.endswith("\n\n"))
    controller.close()
    assert text.startswith("=\ninfo move D4 ")
    line = text.split("\n")[1]
    assert line.split(" ownership ")[1].split() == ["0.5000"] * 81


def test_end_of_input_stops_the_analysis() -> None:
    analyser = StubAnalyser()
    controller = Controller(make_engine(analyser))
    controller.send("lz-analyze 0")  # interval 0: search, report nothing
    time.sleep(0.05)
    controller.close()
    assert analyser.stopped.is_set()
    assert controller.sink.getvalue() == b"=\n\n"


@pytest.mark.parametrize(
    ("command", "kata"), [("lz-genmove_analyze", False), ("kata-genmove_analyze", True)]
)
def test_genmove_analyze_reports_the_search_then_plays(command: str, kata: bool) -> None:
    """The real search: its reports, then ``play VERTEX``, and the move is on the board."""
    player = MctsPlayer(playouts=2000, threads=1, seed=3)
    engine = GtpEngine(player, size=9, analyser=player)
    controller = Controller(engine)
    controller.send("play b e5")
    controller.send(f"3 {command} w 1")
    # A cold numba cache compiles the search first (~10 s on a loaded 2-core machine).
    text = controller.wait_for(lambda text: "play " in text and text.endswith("\n\n"), 120)
    controller.close()
    player.close()
    head, body = text.split("=3\n")
    assert head == "= \n\n"
    *reports, played, end, last = body.split("\n")
    assert (end, last) == ("", "")
    assert reports and all(r.startswith("info move ") for r in reports)
    winrate = reports[-1].split(" winrate ")[1].split()[0]
    assert ("." in winrate) is kata  # KataGo's floats, Leela Zero's integers
    vertex = played.removeprefix("play ")
    assert engine.game.move_number == 2 and engine.game.moves[-1].color is Color.WHITE
    move = engine.game.moves[-1].move
    assert vertex == ("pass" if move is None else to_gtp(move, 9))
