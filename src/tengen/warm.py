"""Compile every kernel a user meets, so that numba caches them: ``python -m tengen.warm``.

`tengen.core.jit` runs this in a subprocess when numba's cache has none of tengen's kernels
(a fresh install, an upgrade): a little of each path (games under every kind of ko and
suicide rule, undo, setup, playouts, the dead-stone estimate, its reading and the count,
the built-in players, SGF parsing and replay on both paths), then the list of the
signatures compiled, which the waiting process loads from the cache. ``--signatures PATH``
says where to write that list; run it with ``TENGEN_JIT=compiled``.
"""

from __future__ import annotations

import argparse
import os
import threading
import time
from pathlib import Path

from tengen.ai.gomoku_player import GomokuPlayer
from tengen.ai.mcts import MctsPlayer
from tengen.core import jit
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.core.diagram import parse as parse_diagram
from tengen.core.game import Game
from tengen.core.rules import Ruleset
from tengen.gomoku import GomokuGame, GomokuRules, Rule, renju
from tengen.scoring.count import score_game
from tengen.scoring.life import dead_stones, estimate
from tengen.scoring.reading import Budget, Fight
from tengen.sgf import bulk
from tengen.sgf import parse as parse_sgf
from tengen.sgf.replay import replay

# Positional superko, simple ko, suicide allowed, situational superko.
RULESETS = ("chinese", "japanese", "tromp-taylor", "aga")
CORNER = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O O O O . . . .
    . . X X O . . . .
    . . X X O . . . .
    """
RECORD = b"(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]AB[cc]AW[gg];B[ee];W[ec](;B[dc];W[tt])(;B[cd]))"


def play_game(game: Game, moves: int) -> None:
    """Play `moves` moves (the first legal point, the eye filter on), undo and redo one."""
    game.setup(black=[Point(0, 0)], white=[Point(game.width - 1, game.height - 1)])
    for _ in range(moves):
        points = game.legal_moves(own_eyes=False)
        if not points or game.is_over:
            break
        game.play(points[len(points) // 2])
        game.legal_moves()
        game.is_legal(points[0])
    game.pass_move()
    game.undo()
    game.redo()
    game.board.chains()
    game.board.copy().playout(Color.BLACK, seed=1)


def exit_with_parent() -> None:
    """End this process soon after the one that started it: a warm-up nobody waits for
    keeps no core busy (numba has cached each kernel compiled so far; the next run goes on)."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="tengen-warm-watch", daemon=True).start()


def warm_reading() -> None:
    """A reading of a small fight (the dead-stone estimate reads only positions that need it):
    Black's A1-B2 corner, an eye of two points inside White's wall, dies even moving first."""
    board = parse_diagram(CORNER)
    region = {p for p in board.points() if p.row >= 7 and p.col <= 3}
    Fight(board, region, Color.BLACK).captured_moving_first(Point(2, 7), Budget(1000), 1000)


def warm_gomoku() -> None:
    """The Gomoku player's own warm-up (short searches for both colours, freestyle and renju),
    and the renju judge's calls from Python."""
    GomokuPlayer().warm()
    game = GomokuGame(GomokuRules(Rule.RENJU))
    for p in (Point(7, 7), Point(7, 6), Point(8, 8), Point(6, 6)):
        game.play(p)
    game.forbidden_points()
    renju.has_allowed_point(game.board)


def main() -> None:
    """The workload, then the signature list."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--signatures", help="write the signature list here")
    args = parser.parse_args()
    if jit.mode() != "compiled":
        parser.exit(2, "tengen.warm: run it with TENGEN_JIT=compiled (as tengen.core.jit does)\n")
    exit_with_parent()
    for size in (9, 19):
        for rules in RULESETS:
            play_game(Game(size, ruleset=Ruleset.parse(rules)), 30)
    game = Game(9)
    play_game(game, 40)
    score_game(game, dead_stones(estimate(game, playouts=20)))
    warm_reading()
    player = MctsPlayer(playouts=64, threads=1)
    try:
        player.genmove(game, game.to_play)
    finally:
        player.close()
    replay(parse_sgf(RECORD).games[0])
    bulk.replay_main_line(RECORD)
    warm_gomoku()
    path = jit.record(None if args.signatures is None else Path(args.signatures))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
