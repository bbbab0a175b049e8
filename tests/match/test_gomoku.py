"""Gomoku matches: ``tengen gomocup`` run as a Gomocup brain against the built-in player, and
brains that crash, hang, answer garbage or play an occupied point."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tengen.ai.gomoku_player import GomokuPlayer
from tengen.cli import main
from tengen.clock import Clock, TimeControl
from tengen.core.color import Color
from tengen.gomoku.record import game_from_tree
from tengen.gomoku.rules import GomokuRules, Opening, Rule
from tengen.match.gomoku import GomokuConfig, ProtocolTimes, make_side, play_gomoku
from tengen.match.players import PlayerSpec
from tengen.match.runner import RESULTS
from tengen.scoring import Result
from tengen.sgf import parse
from tests.gomoku.support import shut_out_moves
from tests.match.fakes import fake_brain

BRAIN = f"brain={sys.executable} -m tengen gomocup"


def replay_games(out: Path, rules: GomokuRules) -> list[tuple[dict[str, object], Result]]:
    """Each results line with the result of replaying its SGF under `rules` (which raises at
    any move the rules refuse, renju's forbidden points included)."""
    checked = []
    for line in (out / RESULTS).read_text().splitlines():
        record = json.loads(line)
        tree = parse((out / record["file"]).read_bytes()).games[0]
        assert tree.root.get("GM") == 4 and tree.root.get("RU") == rules.rule.value
        assert (tree.root.get("PB"), tree.root.get("PW")) == (record["black"], record["white"])
        game = game_from_tree(tree, rules)
        judged = Result(game.winner, None, "unknown") if game.winner else Result(None, None, "draw")
        checked.append((record, judged))
    return checked


@pytest.mark.parametrize("rule", ["freestyle", "renju"])
def test_the_tengen_brain_against_the_builtin_player(
    tmp_path: Path, rule: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["match", BRAIN, "builtin", "--game", "gomoku", "--rules", rule, "--games", "2"]
    argv += ["--time", "absolute:10", "-o", str(tmp_path)]
    assert main(argv) == 0
    assert capsys.readouterr().out.startswith("brain vs builtin: ")
    checked = replay_games(tmp_path, GomokuRules(Rule(rule)))
    assert {r["black"] for r, _ in checked} == {"brain", "builtin"}  # colours alternate
    for record, judged in checked:  # a five, or a draw (two equal players may draw)
        assert record["result"] == judged.to_sgf(), record
        if judged.winner is None:  # a full board, or under renju Black left only fouls
            assert record["ending"] in ("the board is full", "Black has only forbidden points left")
        else:
            assert record["ending"].endswith("made a winning row")
    game = (tmp_path / checked[0][0]["file"]).read_text()
    assert "TM[10]" in game and "BL[" in game and "WL[" in game


def test_an_opening_reaches_the_brain_as_a_board(tmp_path: Path) -> None:
    """After three opening stones the brain, of either colour, is sent the position."""
    openings = tmp_path / "openings"
    openings.mkdir()
    (openings / "three.sgf").write_text("(;GM[4]SZ[15];B[hh];W[hi];B[ig])")
    argv = ["match", BRAIN, "builtin", "--game", "gomoku", "--games", "2"]
    argv += ["--openings", str(openings), "--time", "absolute:5", "-o", str(tmp_path / "out")]
    assert main(argv) == 0
    for record, judged in replay_games(tmp_path / "out", GomokuRules()):
        assert record["result"] == judged.to_sgf(), record
        text = (tmp_path / "out" / str(record["file"])).read_text()
        assert ";B[hh];W[hi];B[ig];W[" in text


@pytest.mark.parametrize(
    ("mode", "reason", "says"),
    [
        ("crash", "forfeit", "out of cheese"),
        ("garbage", "forfeit", "lorem ipsum"),
        ("occupied", "forfeit", "occupied"),
        ("hang", "time", "lost on time"),
    ],
)
def test_a_failing_brain_loses(tmp_path: Path, mode: str, reason: str, says: str) -> None:
    bad = make_side(PlayerSpec("bad", fake_brain(tmp_path, mode, 3), timeout=1.0), 0)
    good = make_side(PlayerSpec("builtin", "builtin"), 0)
    try:
        outcome = play_gomoku(bad, good, GomokuConfig())
    finally:
        bad.close()
        good.close()
    assert outcome.result == Result(Color.WHITE, None, reason)
    assert outcome.moves == 4 and says in outcome.ending
    assert parse(outcome.sgf).games[0].root.get("RE") == f"W+{reason[0].upper()}"


def test_a_brain_that_overruns_its_clock_loses_on_time(tmp_path: Path) -> None:
    slow = make_side(PlayerSpec("slow", fake_brain(tmp_path, "hang", 2)), 0)
    good = make_side(PlayerSpec("builtin", "builtin"), 0)
    config = GomokuConfig(time=TimeControl.parse("absolute:0.5"))
    try:
        outcome = play_gomoku(good, slow, config)
    finally:
        slow.close()
        good.close()
    assert outcome.result.to_sgf() == "B+T" and outcome.moves == 3


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--komi", "6.5"], "--komi: for Go only"),
        (["--adjudicate-resign", "30:5"], "--adjudicate-resign: for Go only"),
        (["--rules", "go-moku"], "unknown Gomoku rule 'go-moku'"),
        (["--size", "4"], "board size 4x4 is outside"),
        (["--size", "9", "--rules", "renju"], "plays Go only"),
    ],
)
def test_bad_gomoku_options_are_named(
    tmp_path: Path, extra: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    players = ["a=builtin", "b=random" if "renju" in extra else "b=builtin"]
    argv = ["match", *players, "--game", "gomoku", *extra, "-o", str(tmp_path)]
    assert main(argv) == 2
    assert says in capsys.readouterr().err


@pytest.mark.parametrize(("swap", "rule"), [("swap2", "renju"), ("swap1", "standard")])
def test_a_swap_opening_between_the_brain_and_the_builtin_player(
    tmp_path: Path, swap: str, rule: str
) -> None:
    """Each game opens by the swap rule (the brain asked with SWAP2BOARD): the results name
    the colours as played, whoever took Black, and every stone replays legally."""
    argv = ["match", BRAIN, "builtin", "--game", "gomoku", "--rules", rule, "--swap", swap]
    argv += ["--games", "2", "--time", "absolute:5", "-o", str(tmp_path)]
    assert main(argv) == 0
    checked = replay_games(tmp_path, GomokuRules(Rule(rule)))
    assert len(checked) == 2
    for record, judged in checked:
        assert {record["black"], record["white"]} == {"brain", "builtin"}
        assert record["result"] == judged.to_sgf(), record
    assert main(argv) == 0  # resuming finds the games of this run, swapped or not


def test_two_brains_open_by_swap2_and_the_outcome_says_who_took_black() -> None:
    first = make_side(PlayerSpec("first", BRAIN.split("=", 1)[1]), 0)
    second = make_side(PlayerSpec("second", BRAIN.split("=", 1)[1]), 0)
    rules = GomokuRules(Rule.STANDARD, opening=Opening.SWAP2)
    try:
        outcome = play_gomoku(first, second, GomokuConfig(rules, TimeControl.parse("absolute:5")))
    finally:
        first.close()
        second.close()
    root = parse(outcome.sgf).games[0].root
    assert (root.get("PB"), root.get("PW")) == (
        ("second", "first") if outcome.swapped else ("first", "second")
    )
    assert outcome.moves >= 4 and outcome.result.to_sgf() == root.get("RE")


def test_a_brain_asked_for_its_swap_decision_is_told_its_time_first(tmp_path: Path) -> None:
    """The protocol: ``INFO time_left`` goes before ``SWAP2BOARD`` as before a move; tengen
    sends the turn's time too, so that a brain decides in the time a move would take (the
    decision is not charged to the clock). The brain here logs its lines, takes Black and
    then answers nonsense (a forfeit that ends the game)."""
    log = tmp_path / "lines.log"
    script = tmp_path / "swapper.py"
    script.write_text(_SWAPPER)
    brain = make_side(PlayerSpec("brain", f"{sys.executable} {script} {log}"), 0)
    opener = make_side(PlayerSpec("builtin", "builtin"), 0)
    rules = GomokuRules(Rule.STANDARD, opening=Opening.SWAP2)
    try:
        config = GomokuConfig(rules, TimeControl.parse("byoyomi:0+1x2"))
        outcome = play_gomoku(opener, brain, config)
    finally:
        brain.close()
        opener.close()
    assert outcome.swapped and outcome.result.winner is Color.WHITE  # brain took Black, failed
    lines = log.read_text().splitlines()
    asked = lines.index("SWAP2BOARD")
    told = [line.split()[1:] for line in lines[:asked] if line.startswith("INFO")]
    assert ["timeout_turn", "2000"] in told[-2:] and ["time_left", "2147483647"] in told[-2:]
    opening = game_from_tree(parse(outcome.sgf).games[0], rules).moves[:3]
    assert lines[asked + 1 : asked + 5] == [*(f"{p.col},{p.row}" for _, p in opening), "DONE"]


# A brain that logs every line to the file it is given, answers SWAP to SWAP2BOARD and
# nonsense to a request for a move.
_SWAPPER = """
import sys
log = open(sys.argv[1], "a")
swap2board = False
for line in sys.stdin:
    text = line.strip()
    log.write(text + "\\n")
    log.flush()
    if text.startswith("START"):
        print("OK", flush=True)
    elif text == "SWAP2BOARD":
        swap2board = True
    elif text == "DONE" and swap2board:
        swap2board = False
        print("SWAP", flush=True)
    elif text in ("DONE", "BEGIN") or text.startswith("TURN"):
        print("lorem ipsum", flush=True)
    elif text == "END":
        break
"""


@pytest.mark.parametrize(
    ("extra", "says"),
    [(["--game", "go"], "--swap: for Gomoku only"), (["--openings", "x"], "a game opens one way")],
)
def test_swap_option_errors(
    tmp_path: Path, extra: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["match", "a=builtin", "b=builtin", "--game", "gomoku", "--swap", "swap2", *extra]
    assert main([*argv, "-o", str(tmp_path)]) == 2
    assert says in capsys.readouterr().err


def told(control: str, tmp_path: Path) -> list[tuple[str, int]]:
    """The ``INFO`` time lines a brain is sent over a short game under `control`."""
    log = tmp_path / "info.log"
    brain = make_side(PlayerSpec("brain", fake_brain(tmp_path, "none", 0, log)), 0)
    good = make_side(PlayerSpec("builtin", "builtin"), 0)
    try:
        play_gomoku(good, brain, GomokuConfig(time=TimeControl.parse(control)))
    finally:
        brain.close()
        good.close()
    lines = [line.split() for line in log.read_text().splitlines()]
    return [(key, int(value)) for _, key, value in lines if key != "rule"]


def test_byo_yomi_without_main_time_is_a_time_per_move_and_no_match_limit(tmp_path: Path) -> None:
    """The protocol: ``timeout_match`` 0 is no limit, and then ``time_left`` is 2147483647;
    a 1 s period is each move's ``timeout_turn`` (it was sent as a 1 s match)."""
    info = told("byoyomi:0+1x1", tmp_path)
    assert info[0] == ("timeout_match", 0)
    assert {v for k, v in info if k == "time_left"} == {2_147_483_647}
    turns = [v for k, v in info if k == "timeout_turn"]
    assert len(turns) >= 3 and all(900 < t <= 1000 for t in turns)


def test_byo_yomi_main_time_is_shared_and_a_period_is_added_per_move(tmp_path: Path) -> None:
    info = told("byoyomi:20+3x2", tmp_path)
    assert info[0] == ("timeout_match", 20_000)
    pairs = list(zip(info[1::2], info[2::2], strict=True))
    assert all(t[0] == "timeout_turn" and left[0] == "time_left" for t, left in pairs)
    assert all(19_000 < left[1] <= 20_000 and t[1] == left[1] + 2000 for t, left in pairs)


def test_absolute_time_is_a_match_time(tmp_path: Path) -> None:
    info = told("absolute:60", tmp_path)
    assert info[0] == ("timeout_match", 60_000)
    lefts = [v for k, v in info if k == "time_left"]
    assert lefts == sorted(lefts, reverse=True) and 59_000 < lefts[-1] <= 60_000
    assert [v for k, v in info if k == "timeout_turn"] == lefts


@pytest.mark.parametrize(("control", "least"), [("byoyomi:0+1x1", 0.5), ("byoyomi:0+1x5", 2.5)])
def test_the_builtin_player_uses_most_of_a_byo_yomi_period(control: str, least: float) -> None:
    """Read as a Gomocup brain reads it, a period is most of a move's thinking (it was a
    25th of it: the period was told as the whole match's time left)."""
    limits = ProtocolTimes.of(Clock(TimeControl.parse(control))).limits()
    assert least < limits.move_seconds() < TimeControl.parse(control).period


def test_a_renju_game_where_black_has_only_forbidden_points_is_drawn() -> None:
    """From a position where Black, to play, has only a foul left, the runner records a draw
    and says why; it does not ask the brain for a move it does not have (a match once did,
    and the brain, refusing, lost by forfeit)."""
    rules = GomokuRules(Rule.RENJU)
    moves = shut_out_moves()
    opening = tuple((Color.BLACK if i % 2 == 0 else Color.WHITE, p) for i, p in enumerate(moves))
    brain = make_side(PlayerSpec("brain", BRAIN.split("=", 1)[1], timeout=60), 0)
    good = make_side(PlayerSpec("builtin", "builtin"), 0)
    try:
        outcome = play_gomoku(brain, good, GomokuConfig(rules, opening=opening))
    finally:
        brain.close()
        good.close()
    assert outcome.result == Result(None, None, "draw") and outcome.moves == 224
    assert outcome.ending == "Black has only forbidden points left"
    root = parse(outcome.sgf).games[0].root
    assert root.get("RE") == "0"


def test_the_builtin_player_warms_up_before_any_clock_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The built-in side loads its compiled code when a game is set up, which the runner does
    before either clock starts (the first searched move once paid 0.7 s of a 0.17 s budget for
    it)."""
    calls: list[str] = []
    monkeypatch.setattr(GomokuPlayer, "warm", lambda self: calls.append("warm"))
    side = make_side(PlayerSpec("builtin", "builtin"), 0)
    clock = Clock(TimeControl.parse("absolute:5"))
    side.new_game(GomokuRules(Rule.RENJU), clock)
    assert calls == ["warm"] and not clock.running
