"""Gomoku matches: ``tengen gomocup`` run as a Gomocup brain against the built-in player, and
brains that crash, hang, answer garbage or play an occupied point."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tengen.cli import main
from tengen.clock import TimeControl
from tengen.core.color import Color
from tengen.gomoku.record import game_from_tree
from tengen.gomoku.rules import GomokuRules, Opening, Rule
from tengen.match.gomoku import GomokuConfig, make_side, play_gomoku
from tengen.match.players import PlayerSpec
from tengen.match.runner import RESULTS
from tengen.scoring import Result
from tengen.sgf import parse
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
    argv += ["--time", "absolute:60", "-o", str(tmp_path)]
    assert main(argv) == 0
    assert capsys.readouterr().out.startswith("brain vs builtin: ")
    checked = replay_games(tmp_path, GomokuRules(Rule(rule)))
    assert {r["black"] for r, _ in checked} == {"brain", "builtin"}  # colours alternate
    for record, judged in checked:
        assert record["result"] == judged.to_sgf() != "0", record  # a five ended each game
        assert record["ending"].endswith("made a winning row")
    game = (tmp_path / checked[0][0]["file"]).read_text()
    assert "TM[60]" in game and "BL[" in game and "WL[" in game


def test_an_opening_reaches_the_brain_as_a_board(tmp_path: Path) -> None:
    """After three opening stones the brain, of either colour, is sent the position."""
    openings = tmp_path / "openings"
    openings.mkdir()
    (openings / "three.sgf").write_text("(;GM[4]SZ[15];B[hh];W[hi];B[ig])")
    argv = ["match", BRAIN, "builtin", "--game", "gomoku", "--games", "2"]
    argv += ["--openings", str(openings), "-o", str(tmp_path / "out")]
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
    argv += ["--games", "2", "-o", str(tmp_path)]
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
        outcome = play_gomoku(first, second, GomokuConfig(rules))
    finally:
        first.close()
        second.close()
    root = parse(outcome.sgf).games[0].root
    assert (root.get("PB"), root.get("PW")) == (
        ("second", "first") if outcome.swapped else ("first", "second")
    )
    assert outcome.moves >= 4 and outcome.result.to_sgf() == root.get("RE")


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
