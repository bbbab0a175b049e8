"""One match game: against GNU Go, against engines that crash, hang or answer garbage, and
resignation adjudication."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tengen.clock import TimeControl
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.core.rules import CHINESE
from tengen.gtp import seat
from tengen.match import game as match_game
from tengen.match.game import GameConfig, GameOutcome, ResignAdjudication, play_game
from tengen.match.players import PlayerSpec
from tengen.scoring import Result
from tengen.sgf import parse
from tengen.sgf.replay import check_tree
from tests.match.fakes import fake_engine


def play(black: PlayerSpec, white: PlayerSpec, config: GameConfig) -> GameOutcome:
    """Make the players, play, close them."""
    b, w = black.make(1), white.make(2)
    try:
        return play_game(b, w, config)
    finally:
        b.close()
        w.close()


def test_gnugo_beats_the_random_player_and_the_referee_agrees(gnugo: str) -> None:
    gnu = PlayerSpec("gnugo", f"{gnugo} --mode gtp --level 1")
    config = GameConfig(
        size=9,
        time=TimeControl.parse("byoyomi:60+3x10"),
        referee=f"{gnugo} --mode gtp",
        opening=((Color.BLACK, Point(4, 4)),),
    )
    outcome = play(PlayerSpec("random", "random"), gnu, config)
    assert outcome.result.winner is Color.WHITE, outcome.ending
    assert outcome.referee is not None and outcome.referee.startswith("W+")
    root = parse(outcome.sgf).games[0].root
    assert root.get("PB") == "random" and root.get("PW") == "gnugo"
    assert root.get("RE") == outcome.result.to_sgf() and root.get("OT") == "3x10 byo-yomi"
    first = root.children[0]
    assert first.get("B") == Point(4, 4) and first.get("BL") is None  # the opening: no time
    assert first.children[0].get("WL") is not None


def test_the_builtin_player_plays_gnugo_to_a_counted_end(gnugo: str) -> None:
    """The MCTS player (level 5, one thread) against GNU Go over a whole 9x9 game on the clock:
    no forfeit, no time loss, every move legal, and the referee names the same winner."""
    gnu = PlayerSpec("gnugo", f"{gnugo} --mode gtp --level 1 --seed 5")
    config = GameConfig(
        size=9,
        time=TimeControl.parse("byoyomi:60+3x10"),
        referee=f"{gnugo} --mode gtp --chinese-rules",
    )
    outcome = play(PlayerSpec.parse("builtin:5 --threads 1"), gnu, config)
    assert outcome.ending == "two passes" or outcome.ending.endswith(" resigned"), outcome.ending
    (tree,) = parse(outcome.sgf).games
    assert check_tree(tree) == []
    if outcome.ending == "two passes":
        assert outcome.referee is not None and outcome.referee[0] == outcome.result.to_sgf()[0]


def test_the_builtin_player_answers_gnugos_pass_and_the_referee_agrees(gnugo: str) -> None:
    """A short real 9x9 game (Chinese rules, komi 7): once GNU Go passes in the settled
    position, tengen passes too instead of playing on (it played two more moves of its own
    here before), and GNU Go's ``final_score`` gives the same result as tengen's count."""
    gnu = PlayerSpec("gnugo", f"{gnugo} --mode gtp --level 1 --seed 0")
    config = GameConfig(
        size=9, ruleset=CHINESE.with_komi(7.0), referee=f"{gnugo} --mode gtp --chinese-rules"
    )
    outcome = play(PlayerSpec.parse("builtin --playouts 1000 --threads 1"), gnu, config)
    assert outcome.ending == "two passes", outcome.ending
    (tree,) = parse(outcome.sgf).games
    moves = [node.move for node in tree.main_line() if node.move is not None]
    first_pass = next(i for i, (color, move) in enumerate(moves) if move is None)
    assert moves[first_pass][0] is Color.WHITE
    assert len(moves) - first_pass <= 2, moves[first_pass:]
    assert outcome.referee is not None
    assert black_lead(outcome.referee) == black_lead(outcome.result.to_sgf()), outcome.referee


def black_lead(result: str) -> float:
    """Black's lead in a counted result: ``B+2``, ``W+0.5``, ``0`` (a draw)."""
    if result[:2] in ("B+", "W+"):
        return float(result[2:]) * (1 if result[0] == "B" else -1)
    return float(result)


def test_the_builtin_player_beats_the_random_player() -> None:
    config = GameConfig(size=9)
    outcome = play(
        PlayerSpec("random", "random"), PlayerSpec.parse("builtin:4 --threads 1"), config
    )
    assert outcome.result.winner is Color.WHITE, outcome.ending


@pytest.mark.parametrize(
    ("mode", "reason", "says"),
    [
        ("crash", "forfeit", "out of cheese"),  # stderr's tail reaches the record
        ("garbage", "forfeit", "lorem ipsum"),
        ("offboard", "forfeit", "Z99"),
        ("hang", "time", "lost on time"),
    ],
)
def test_a_failing_engine_loses_mid_game(tmp_path: Path, mode: str, reason: str, says: str) -> None:
    bad = PlayerSpec("bad", fake_engine(tmp_path, mode, 3), timeout=1.0)
    outcome = play(PlayerSpec("random", "random"), bad, GameConfig(size=9))
    assert outcome.result.winner is Color.BLACK and outcome.result.reason == reason
    assert outcome.moves == 5 and says in outcome.ending


def test_the_clock_flags_a_slow_engine(tmp_path: Path) -> None:
    slow = PlayerSpec("slow", fake_engine(tmp_path, "hang", 3))  # genmove 1: the warm-up
    config = GameConfig(size=9, time=TimeControl.parse("absolute:0.5"))
    outcome = play(slow, PlayerSpec("random", "random"), config)
    assert outcome.result.to_sgf() == "W+T" and outcome.moves == 2


def test_an_engine_that_hangs_on_its_warm_up_move_forfeits_saying_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(seat, "WARM_TIMEOUT", 0.5)
    hung = PlayerSpec("hung", fake_engine(tmp_path, "hang", 1))  # genmove 1: the warm-up
    config = GameConfig(size=9, time=TimeControl.parse("absolute:60"))
    started = time.monotonic()
    outcome = play(PlayerSpec("random", "random"), hung, config)
    assert outcome.result.to_sgf() == "B+F" and outcome.moves == 0
    assert "hung: its warm-up move failed" in outcome.ending
    assert time.monotonic() - started < 30  # not the game's minute, nor a default timeout


def test_an_engine_is_warmed_up_before_its_clock_starts(tmp_path: Path) -> None:
    """The engine's first genmove takes 2 s (a cold start) on a clock of 1.5 s for the game:
    the warm-up move takes it off the clock."""
    cold = PlayerSpec("cold", fake_engine(tmp_path, "cold", 1))
    config = GameConfig(size=9, time=TimeControl.parse("absolute:1.5"), max_moves=6)
    outcome = play(cold, PlayerSpec("random", "random"), config)
    assert outcome.result.reason != "time", outcome.ending
    assert outcome.moves == 6


def test_move_limit_adjudicates_by_counting() -> None:
    config = GameConfig(size=9, max_moves=20)
    outcome = play(PlayerSpec("a", "random"), PlayerSpec("b", "random"), config)
    assert outcome.moves == 20 and outcome.result.reason in ("score", "draw")
    assert "move limit" in outcome.ending


def test_resignation_is_adjudicated_for_a_side_far_behind(tmp_path: Path) -> None:
    """Against an engine that only passes, Black's lead by tengen's count passes the margin at
    once; the game stops after the third such move, as a resignation said to be adjudicated."""
    passer = PlayerSpec("passer", fake_engine(tmp_path, "never", 0))
    config = GameConfig(size=9, resign=ResignAdjudication(10, 3))
    outcome = play(PlayerSpec("random", "random"), passer, config)
    assert outcome.result == Result(Color.BLACK, None, "resign") and outcome.moves == 3
    assert outcome.ending.startswith("adjudicated: white resigns, black led by more than 10")
    root = parse(outcome.sgf).games[0].root
    assert root.get("RE") == "B+R" and str(root.get("C")).startswith("adjudicated")


def test_adjudication_needs_the_same_leader_for_moves_in_a_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Black's lead after each move, scripted: a run of three over the margin is broken by
    White's lead and by a lead within the margin, so the game ends after move 9."""
    leads = [20, 20, -20, 20, 20, 5, 20, 20, 20, 20, 20]
    monkeypatch.setattr(match_game, "_lead", lambda game: leads[game.move_number - 1])
    config = GameConfig(size=9, resign=ResignAdjudication(10, 3))
    outcome = play(PlayerSpec("a", "random"), PlayerSpec("b", "random"), config)
    assert outcome.moves == 9 and outcome.result.to_sgf() == "B+R"
    leads[:9] = [-11, -11, 0, -11, -12, -13, -14, -15, 30]
    outcome = play(PlayerSpec("a", "random"), PlayerSpec("b", "random"), config)
    assert outcome.moves == 6 and outcome.result.to_sgf() == "W+R"
    assert "(tengen's count: W+13)" in outcome.ending


@pytest.mark.parametrize("text", ["30", "x:3", "30:0", "-1:3", "nan:3", "30:2.5"])
def test_bad_adjudication_settings_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="MARGIN:MOVES"):
        ResignAdjudication.parse(text)
    assert ResignAdjudication.parse("30.5:10") == ResignAdjudication(30.5, 10)


def test_seed_in_an_engine_command_is_the_games_seed(tmp_path: Path) -> None:
    """``{seed}`` lets a randomised engine (``gnugo --seed {seed}``) play each game its own way."""
    spec = PlayerSpec("fake", fake_engine(tmp_path, "garbage", 99) + " --seed {seed}")
    players = [spec.make(seed) for seed in (3, 4)]
    try:
        assert [p.argv[-2:] for p in players] == [["--seed", "3"], ["--seed", "4"]]  # type: ignore[attr-defined]
    finally:
        for p in players:
            p.close()
