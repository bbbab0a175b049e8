"""The engines behind `Engine`, driven as real programs: `tengen analysis` (KataGo's JSON
protocol) and `tengen gtp` (kata-analyze) always, KataGo itself over both protocols when
``TENGEN_KATAGO`` is set; GNU Go must be refused with a clear message, and broken programs
must end in an EngineError that says why."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tengen.analysis.engine import CannotAnalyse, Engine, EngineError
from tengen.analysis.gtp import GtpAnalyser
from tengen.analysis.katago import JsonAnalyser
from tengen.analysis.open import open_engine
from tengen.analysis.position import Position
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.core.rules import Ruleset
from tests.analysis.katago import TENGEN, katago_command

POSITION = Position(
    9,
    9,
    Ruleset.parse("chinese").with_komi(7),
    initial=((Color.BLACK, Point(2, 6)),),
    moves=((Color.WHITE, Point(4, 4)), (Color.BLACK, Point(6, 2))),
    initial_player=Color.WHITE,
)


@pytest.fixture(params=["tengen-json", "tengen-gtp", "katago-json", "katago-gtp"], scope="module")
def engine(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Engine]:
    kind = request.param
    folder = tmp_path_factory.mktemp(kind)
    made: Engine
    if kind == "tengen-json":
        made = JsonAnalyser([*TENGEN, "analysis", "--threads", "1"])
    elif kind == "tengen-gtp":
        made = GtpAnalyser([*TENGEN, "gtp", "--threads", "1"])
    elif kind == "katago-json":
        made = JsonAnalyser(katago_command("analysis", folder))
    else:
        made = GtpAnalyser(katago_command("gtp", folder), timeout=300)
    yield made
    made.close()


def test_a_position_is_analysed_for_the_side_to_move(engine: Engine) -> None:
    updates: list[object] = []
    a = engine.analyse(POSITION, 60, update=updates.append)
    assert a.to_play is Color.WHITE and a.visits >= 60 and (a.width, a.height) == (9, 9)
    assert a.moves and all(m.visits > 0 for m in a.moves)
    assert POSITION.game().is_legal(a.moves[0].move, Color.WHITE)
    assert len(a.ownership) == 81 and all(-1 <= v <= 1 for v in a.ownership)
    assert a.ownership[6 * 9 + 2] > 0  # Black's setup stone at C3 is Black's, not White's


def test_a_line_gives_every_turn(engine: Engine) -> None:
    got = dict(engine.analyse_line(POSITION, [0, 1, 2], 30))
    assert sorted(got) == [0, 1, 2]
    assert [got[t].to_play for t in (0, 1, 2)] == [Color.WHITE, Color.BLACK, Color.WHITE]


def test_stop_ends_a_search_with_what_it_has(engine: Engine) -> None:
    stop = threading.Event()
    seen: list[int] = []

    def update(analysis: object) -> None:
        seen.append(1)
        stop.set()

    a = engine.analyse(POSITION, 5_000_000, update=update, stop=stop)
    assert seen and a.visits < 5_000_000
    # The engine is still usable afterwards.
    assert engine.analyse(POSITION.prefix(1), 20).to_play is Color.BLACK


def test_gnugo_is_refused_by_name(gnugo: str) -> None:
    with pytest.raises(CannotAnalyse, match=r"GNU Go .* cannot analyse"):
        open_engine(f"{gnugo} --mode gtp")


def _script(tmp_path: Path, body: str) -> list[str]:
    path = tmp_path / "engine.py"
    path.write_text(body, encoding="utf-8")
    return [sys.executable, str(path)]


def test_a_json_engine_that_dies_says_why(tmp_path: Path) -> None:
    body = "import sys\nsys.stderr.write('no model file given\\n')\nsys.exit(3)\n"
    argv = _script(tmp_path, body)
    with pytest.raises(EngineError, match=r"(?s)status 3.*no model file given"):
        JsonAnalyser(argv)


def test_a_json_engine_that_prints_garbage_is_named(tmp_path: Path) -> None:
    argv = _script(tmp_path, "import sys\nsys.stdin.readline()\nprint('Loading...')\n")
    with pytest.raises(EngineError, match="not JSON: 'Loading"):
        JsonAnalyser(argv)


def test_a_silent_json_engine_times_out(tmp_path: Path) -> None:
    argv = _script(tmp_path, "import time\ntime.sleep(60)\n")
    with pytest.raises(EngineError, match="did not answer query_version"):
        JsonAnalyser(argv, start_timeout=0.5)


def test_a_program_that_does_not_speak_gtp(tmp_path: Path) -> None:
    argv = _script(tmp_path, "import sys\nfor line in sys.stdin:\n    print('hello?')\n")
    with pytest.raises(EngineError, match="does not answer GTP"):
        GtpAnalyser(argv, timeout=5)


def test_a_missing_program(tmp_path: Path) -> None:
    with pytest.raises(EngineError, match="cannot start"):
        open_engine(str(tmp_path / "no-such-engine") + " analysis")
    with pytest.raises(EngineError, match="cannot start"):
        open_engine(str(tmp_path / "no-such-engine") + " gtp")


FAKE_GTP = """\
import sys
mode = sys.argv[1]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "list_commands":
        print("= protocol_version\\nname\\nplay\\nboardsize\\nclear_board\\nkomi\\nkata-analyze\\n")
    elif words[0] == "kata-analyze":
        if mode == "refuse":
            print("? no network loaded\\n")
        elif mode == "garbage":
            print("=\\ninfo move E5 visits lots\\n")
        else:  # ends its answer by itself, after one report
            print("=\\ninfo move E5 visits 7 winrate 0.6 scoreLead 2 prior 0.5 order 0 pv E5 D4\\n")
    elif words[0] == "quit":
        print("=\\n")
        break
    else:
        print("= 2\\n" if words[0] == "protocol_version" else "=\\n")
    sys.stdout.flush()
"""


@pytest.mark.parametrize(
    ("mode", "message"),
    [("refuse", "no network loaded"), ("garbage", "unreadable: visits is not a whole number")],
)
def test_a_gtp_engine_that_fails_to_analyse_says_why(
    tmp_path: Path, mode: str, message: str
) -> None:
    engine = GtpAnalyser([*_script(tmp_path, FAKE_GTP), mode], timeout=10)
    try:
        with pytest.raises(EngineError, match=message):
            engine.analyse(POSITION, 100)
    finally:
        engine.close()


def test_a_gtp_engine_that_ends_its_report_itself(tmp_path: Path) -> None:
    engine = GtpAnalyser([*_script(tmp_path, FAKE_GTP), "short"], timeout=10)
    try:
        a = engine.analyse(POSITION, 100)
        assert a.visits == 7 and a.moves[0].pv == (Point(4, 4), Point(3, 5))
        assert engine.analyse(POSITION, 100).visits == 7  # in step after it
    finally:
        engine.close()
