"""Cross-check scoring with GNU Go on games it plays against itself to the end.

Each game is played by ``gnugo --level 1`` with a fixed ``--seed`` until two passes in a row
(the *passed* position, often with dead stones left on the board), then GNU Go goes on with
``--play-out-aftermath`` until two passes again: it seals every open border and settles what it
is unsure of (the *played-out* position, the end of a game played to the end). GNU Go then
judges both positions under ``--chinese-rules`` and ``--japanese-rules`` with the same komi:
``final_status_list dead`` / ``seki`` and ``final_score``.

* Given GNU Go's dead and seki stones, tengen's count of the played-out position with the
  Chinese and Japanese presets (same komi, the game's captures) equals GNU Go's final_score
  exactly. On a merely passed position GNU Go's final_score also plays out borders that are
  still open and counts them for whoever it thinks would win them, where the rules count a
  region touching both colours for nobody; so those are not compared.
* tengen's own estimate (`scoring.life`) agrees with GNU Go's dead stones on at least 95% of
  the stones of all positions, passed and played out; every disagreement is printed (``-s``
  shows them on a passing run).

TENGEN_SCORING_GAMES sets the games: ``N`` for N per size, or ``9:3,13:2,19:1`` (the default).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pytest

from tengen.core.coords import Point, from_gtp, to_gtp
from tengen.core.diagram import render_with_coordinates
from tengen.core.game import Game
from tengen.core.rules import CHINESE, JAPANESE, Ruleset
from tengen.gtp.client import GtpClient
from tengen.scoring import Result, score_game
from tengen.scoring.life import dead_stones, estimate

pytestmark = pytest.mark.gnugo

LEVEL = 1
KOMI = 7.5
RULES = {"chinese": CHINESE, "japanese": JAPANESE}
AGREEMENT = 0.95


def games_per_size() -> dict[int, int]:
    """Board size -> number of games, from TENGEN_SCORING_GAMES."""
    spec = os.environ.get("TENGEN_SCORING_GAMES", "9:3,13:2,19:1")
    if spec.isdigit():
        return dict.fromkeys((9, 13, 19), int(spec))
    return {int(size): int(n) for size, n in (item.split(":") for item in spec.split(","))}


@dataclass(frozen=True)
class Judgement:
    """GNU Go's verdict on one position under one ruleset."""

    dead: frozenset[Point]
    seki: frozenset[Point]
    score: str


@dataclass(frozen=True)
class Position:
    """One end position of a self-play game, with GNU Go's verdict per ruleset."""

    name: str
    size: int
    moves: tuple[str, ...]
    verdicts: dict[str, Judgement]

    def game(self, ruleset: Ruleset) -> Game:
        """The position replayed on tengen under `ruleset` with the komi GNU Go had."""
        game = Game(self.size, ruleset=ruleset.with_komi(KOMI))
        for vertex in self.moves:
            game.play(from_gtp(vertex, self.size, self.size))
        return game


def _gnugo(path: str, *flags: str) -> GtpClient:
    return GtpClient([path, "--mode", "gtp", *flags], timeout=120)


def _setup(client: GtpClient, size: int, moves: list[str] | tuple[str, ...]) -> None:
    client.send(f"boardsize {size}")
    client.send("clear_board")
    client.send(f"komi {KOMI}")
    for number, vertex in enumerate(moves):
        client.send(f"play {'black' if number % 2 == 0 else 'white'} {vertex}")


def _play_until_two_passes(client: GtpClient, moves: list[str]) -> None:
    while moves[-2:] != ["PASS", "PASS"]:
        color = "black" if len(moves) % 2 == 0 else "white"
        moves.append(client.send(f"genmove {color}").upper())


def _judge(path: str, size: int, moves: list[str], rules: str) -> Judgement:
    with _gnugo(path, f"--{rules}-rules") as client:
        _setup(client, size, moves)

        def points(kind: str) -> frozenset[Point]:
            answer = client.send(f"final_status_list {kind}").split()
            return frozenset(p for v in answer if (p := from_gtp(v, size, size)) is not None)

        return Judgement(points("dead"), points("seki"), client.send("final_score"))


def _self_play(path: str, size: int, seed: int) -> list[Position]:
    """The passed and played-out positions of GNU Go's game `seed` on `size`."""
    flags = ["--level", str(LEVEL), "--seed", str(seed), "--never-resign"]
    moves: list[str] = []
    with _gnugo(path, *flags) as client:
        _setup(client, size, moves)
        _play_until_two_passes(client, moves)
    passed = list(moves)
    with _gnugo(path, *flags, "--play-out-aftermath") as client:
        moves = moves[:-2]
        _setup(client, size, moves)
        _play_until_two_passes(client, moves)
    return [
        Position(
            f"{size}x{size} seed {seed} {stage}",
            size,
            tuple(line),
            {rules: _judge(path, size, line, rules) for rules in RULES},
        )
        for stage, line in (("passed", passed), ("played out", moves))
    ]


@pytest.fixture(scope="module")
def positions(gnugo: str) -> list[Position]:
    """Every position of the configured self-play games."""
    return [
        position
        for size, count in games_per_size().items()
        for seed in range(1, count + 1)
        for position in _self_play(gnugo, size, seed)
    ]


def _describe(position: Position, game: Game, extra: str) -> str:
    vertices = " ".join(v.lower() for v in position.moves)
    return (
        f"{position.name}: {extra}\n{render_with_coordinates(game.board)}\n"
        f"moves from the empty board: {vertices}"
    )


@pytest.mark.parametrize("rules", list(RULES))
def test_score_with_gnugo_dead_stones_equals_gnugo_final_score(
    positions: list[Position], rules: str
) -> None:
    wrong = []
    for position in positions:
        if not position.name.endswith("played out"):
            continue
        verdict = position.verdicts[rules]
        game = position.game(RULES[rules])
        score = score_game(game, verdict.dead, verdict.seki)
        if score.result != Result.from_sgf(verdict.score):
            dead = " ".join(sorted(to_gtp(p, position.size) for p in verdict.dead))
            wrong.append(
                _describe(
                    position,
                    game,
                    f"GNU Go {verdict.score}, tengen {score.result.to_sgf()} "
                    f"(dead: {dead or 'none'})\n{score.explain()}",
                )
            )
    assert not wrong, "\n\n".join(wrong)


def test_estimate_agrees_with_gnugo_dead_stones(positions: list[Position]) -> None:
    agree = total = 0
    report = []
    for position in positions:
        game = position.game(CHINESE)
        ours = dead_stones(estimate(game))
        for rules, verdict in position.verdicts.items():
            stones = [p for p in game.board.points() if game.board[p] is not None]
            differ = sorted(
                (to_gtp(p, position.size) for p in stones if (p in ours) != (p in verdict.dead)),
            )
            total += len(stones)
            agree += len(stones) - len(differ)
            if differ:
                report.append(
                    _describe(position, game, f"{rules}: dead for one side only: {differ}")
                )
    print(f"\ndead-stone agreement with GNU Go: {agree}/{total} stones = {agree / total:.2%}")
    print("\n\n".join(report))
    assert agree >= AGREEMENT * total, "\n\n".join(report)
