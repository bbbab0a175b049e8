"""The swap openings over the Gomocup protocol: ``SWAP2BOARD`` answered by the brain (in
process, and as ``tengen gomocup`` driven by tengen's manager), swap1 and swap2."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tengen.ai.gomoku_player import EVEN_AT, GomokuPlayer
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.gomoku import GomokuGame, GomokuRules, Opening, Rule
from tengen.gomoku.gomocup import Brain
from tengen.gomoku.manager import GomocupEngine, GomocupError, play_game
from tests.gomoku.support import TickingClock

BRAIN = [sys.executable, "-m", "tengen", "gomocup"]
ROOT = Path(__file__).resolve().parents[2]


def brain(*setup: str) -> Brain:
    b = Brain(GomokuPlayer(seed=3, time_limit=0.05))
    for line in setup:
        b.handle(line)
    return b


def stones_of(reply: str) -> list[Point]:
    points = []
    for word in reply.split(" "):
        col, row = word.split(",")
        points.append(Point(int(col), int(row)))
    return points


def swap2(b: Brain, *stones: str) -> str:
    (reply,) = b.handle("SWAP2BOARD") + [r for s in [*stones, "DONE"] for r in b.handle(s)]
    return reply


@pytest.mark.parametrize("rule", ["0", "1", "4"])
def test_the_brain_places_three_opening_stones(rule: str) -> None:
    b = brain("START 15", f"INFO rule {rule}")
    three = stones_of(swap2(b))
    assert len(set(three)) == 3
    game = GomokuGame(GomokuRules(Rule.RENJU, opening=Opening.SWAP2))
    game.decide_opening(three)  # legal, Black White Black
    assert not game.is_over


def test_after_three_stones_every_answer_is_one_the_opening_allows() -> None:
    for seed in range(4):
        b = brain("START 15", "INFO rule 1")
        b.player = GomokuPlayer(seed=seed, time_limit=0.05)
        reply = swap2(b, "7,7", "8,7", "7,9")
        game = GomokuGame(GomokuRules(Rule.STANDARD, opening=Opening.SWAP2))
        game.decide_opening([Point(7, 7), Point(8, 7), Point(7, 9)])
        game.decide_opening(None if reply == "SWAP" else stones_of(reply))


def test_the_side_judged_worse_is_swapped_away() -> None:
    """White to move against Black's open three with its two stones in a corner: the brain
    takes Black (SWAP). Black's three stones scattered at the edges, White's two at the centre:
    it keeps White and plays."""
    b = brain("START 15", "INFO rule 1")
    assert swap2(b, "6,7", "0,0", "7,7", "0,14", "8,7") == "SWAP"
    b = brain("START 15", "INFO rule 1")
    reply = swap2(b, "0,0", "7,7", "14,0", "8,8", "0,14")
    (sixth,) = stones_of(reply)
    assert b.game is not None and b.game.moves[-1] == (Color.WHITE, sixth)


@pytest.mark.parametrize("count", [3, 5])
def test_stones_written_as_board_lines_are_read_as_the_protocols(count: int) -> None:
    """``x,y,field`` lines (Rapfi's reading of SWAP2BOARD: 1 the side to move's, White's; 2
    Black's) set up the same stones, in turn, as ``x,y`` lines."""
    stones = ["7,7", "8,7", "7,9", "8,8", "6,6"][:count]
    fields = [f"{s},{2 - k % 2}" for k, s in enumerate(stones)]
    placed = []
    for lines in (stones, fields):
        b = brain("START 15", "INFO rule 1")
        assert not swap2(b, *lines).startswith("ERROR")
        assert b.game is not None
        placed.append(b.game.moves[:count])
    assert placed[0] == placed[1]
    turns = [Color.BLACK, Color.WHITE] * 3
    assert [c for c, _ in placed[1]] == turns[:count]
    assert [f"{p.col},{p.row}" for _, p in placed[1]] == stones


def test_swap1_never_places_two() -> None:
    for seed in range(6):
        b = brain("START 15", "INFO opening swap1")
        b.player = GomokuPlayer(seed=seed, time_limit=0.05)
        reply = swap2(b, "7,7", "8,8", "9,7")
        assert reply == "SWAP" or len(stones_of(reply)) == 1


@pytest.mark.parametrize(
    ("stones", "reason"),
    [
        (["7,7"], "1 stones"),
        (["7,7", "8,7", "7,7"], "occupied"),
        (["7,7", "8,7", "7,99"], "off the 15x15 board"),
        (["7,7", "8,7", "x"], "wants x,y"),
        (["7,7,1", "8,7,1", "7,9,2"], "line 1: field 1, but stone 1 is Black's, the opponent's"),
        (["7,7,2", "8,7,2", "7,9,2"], "line 2: field 2, but stone 2 is White's"),
        (["7,7,2", "8,7,1", "7,9,3"], "line 3: field 3"),
    ],
)
def test_swap2board_errors(stones: list[str], reason: str) -> None:
    reply = swap2(brain("START 15"), *stones)
    assert reply.startswith("ERROR") and reason in reply


@pytest.mark.parametrize(
    ("opening", "rule"),
    [(Opening.SWAP2, Rule.STANDARD), (Opening.SWAP2, Rule.RENJU), (Opening.SWAP, Rule.FREESTYLE)],
)
def test_manager_plays_two_brains_through_the_opening(opening: Opening, rule: Rule) -> None:
    rules = GomokuRules(rule, opening=opening)
    with GomocupEngine(BRAIN, timeout=60) as first, GomocupEngine(BRAIN, timeout=60) as second:
        for engine in (first, second):  # the protocol's time per move: the game, not strength
            engine.info("timeout_turn", 250)  # 0.14 s a move
        game = play_game(first, second, rules)
    assert game.is_over and game.opening_decision is None
    assert game.move_number >= 4
    replay = GomokuGame(GomokuRules(rule))
    for color, point in game.moves:  # the stones alternate and every one was legal
        replay.play(point, color)
    assert replay.result == game.result


@pytest.mark.parametrize(
    ("opening", "three", "then", "reason"),
    [
        (Opening.SWAP, "7,7 8,7 7,9", "6,6 6,8", "2 stones is no answer after 3 stones under swap"),
        (Opening.SWAP2, "7,7 8,7", "SWAP", "2 stones is no answer after 0 stones"),
        (Opening.SWAP2, "7,7 8,7 seven", "SWAP", "neither SWAP nor x,y stones"),
    ],
)
def test_manager_reports_an_opening_answer_the_rule_refuses(
    opening: Opening, three: str, then: str, reason: str
) -> None:
    """A brain (player 1 or 2) placing two stones under swap1, or answering nonsense."""
    fake = [sys.executable, "-c", _ANSWERS.format(three=three, then=then)]
    first, second = (BRAIN, fake) if then != "SWAP" else (fake, BRAIN)
    with (
        GomocupEngine(first, timeout=60) as one,
        GomocupEngine(second, timeout=60) as two,
        pytest.raises(GomocupError, match=reason),
    ):
        play_game(one, two, GomokuRules(opening=opening))


# A brain that answers SWAP2BOARD with no stones by `three`, any other by `then`, and OK to
# START; it ignores the rest.
_ANSWERS = """
import sys
stones = None
for line in sys.stdin:
    word = line.strip().upper()
    if word.startswith("START"):
        print("OK", flush=True)
    elif word == "SWAP2BOARD":
        stones = 0
    elif word == "DONE" and stones is not None:
        print("{three}" if stones == 0 else "{then}", flush=True)
        stones = None
    elif stones is not None:
        stones += 1
"""


@pytest.mark.parametrize(
    ("name", "fields"), [("pbrain-rapfi", True), ("Rapfi_brain.sh", True), ("pbrain-embryo", False)]
)
def test_manager_writes_the_stones_as_the_brain_reads_them(
    tmp_path: Path, name: str, fields: bool
) -> None:
    """The protocol's ``x,y`` lines, except to a brain whose command names it as one that
    reads only ``BOARD``'s ``x,y,field`` (Rapfi, which answers each ``x,y`` line with ERROR).
    The fake brain, run under `name`, answers SWAP2BOARD with the lines it was sent."""
    script = tmp_path / name
    script.write_text(_ECHO)
    with GomocupEngine([sys.executable, str(script)], timeout=60) as engine:
        engine.start(15)
        three = [Point(7, 7), Point(8, 7), Point(7, 9)]
        with pytest.raises(GomocupError) as sent:
            engine.swap2board(three)
        five = [*three, Point(8, 8), Point(6, 6)]
        with pytest.raises(GomocupError) as sent_five:
            engine.swap2board(five)
    expected = "7,7,2|8,7,1|7,9,2" if fields else "7,7|8,7|7,9"
    assert f"'{expected}'" in str(sent.value)
    expected = "7,7,2|8,7,1|7,9,2|8,8,1|6,6,2" if fields else "7,7|8,7|7,9|8,8|6,6"
    assert f"'{expected}'" in str(sent_five.value)


# A brain that answers OK to START and SWAP2BOARD with its lines joined by "|" (no answer the
# opening allows: the manager's error quotes it).
_ECHO = """
import sys
lines = None
for line in sys.stdin:
    text = line.strip()
    word = text.upper()
    if word.startswith("START"):
        print("OK", flush=True)
    elif word == "SWAP2BOARD":
        lines = []
    elif word == "DONE" and lines is not None:
        print("|".join(lines), flush=True)
        lines = None
    elif lines is not None:
        lines.append(text)
"""


def rapfi() -> list[str]:
    """Rapfi's brain (``$RAPFI``, else build/rapfi/pbrain-rapfi from ``make rapfi``), its
    classical evaluation; the test skips without it."""
    found = Path(os.environ.get("RAPFI", ROOT / "build" / "rapfi" / "pbrain-rapfi"))
    if not found.is_file():
        pytest.skip(f"Rapfi not found at {found} (make rapfi, or set RAPFI)")
    return [str(found)]


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.RENJU])
def test_rapfi_answers_every_swap2_question_of_the_manager(rule: Rule) -> None:
    """Against a program tengen did not write: Rapfi, asked as the manager asks (0, 3 and 5
    stones), answers each with a decision the opening allows, never ERROR. Before the
    manager sent it ``x,y,field`` lines, it refused every question with stones. Each question
    goes to a fresh Rapfi, as in a match the next question goes to the other brain: Rapfi
    drops a command that comes while it is still winding down its last search."""
    rules = GomokuRules(rule, opening=Opening.SWAP2)

    def ask(stones: list[Point]) -> list[Point] | None:
        with GomocupEngine(rapfi(), timeout=60) as engine:
            engine.start(15)
            engine.set_rules(rules)
            engine.info("timeout_turn", 300)
            return engine.swap2board(stones)

    three = ask([])
    assert three is not None and len(three) == 3
    game = GomokuGame(rules)
    game.decide_opening(three)
    game.decide_opening(ask(three))  # raises if the opening does not allow the answer
    five = GomokuGame(rules)
    five.decide_opening(three)
    five.decide_opening(_two_more(five))
    answer = ask([p for _, p in five.moves])
    assert answer is None or len(answer) == 1
    five.decide_opening(answer)


def _two_more(game: GomokuGame) -> list[Point]:
    """A white and a black stone on the first empty points of the middle row."""
    taken = {p for _, p in game.moves}
    free = [Point(c, 7) for c in range(15) if Point(c, 7) not in taken]
    return free[:2]


def three_stones(rule: Rule = Rule.FREESTYLE) -> GomokuGame:
    game = GomokuGame(GomokuRules(rule, opening=Opening.SWAP2))
    game.decide_opening([Point(7, 7), Point(8, 7), Point(7, 9)])
    return game


@pytest.mark.parametrize(
    ("rule", "value", "may_place_two", "answer"),
    [(Rule.FREESTYLE, -400, True, "swap"), (Rule.FREESTYLE, 400, True, "move"),
     (Rule.FREESTYLE, -1, False, "swap"), (Rule.FREESTYLE, 0, False, "move"),
     (Rule.FREESTYLE, 0, True, "two"), (Rule.FREESTYLE, -150, True, "two"),
     (Rule.FREESTYLE, 151, True, "move"), (Rule.RENJU, -250, False, "move"),
     (Rule.RENJU, -301, False, "swap"), (Rule.RENJU, -200, True, "two"),
     (Rule.RENJU, -451, True, "swap"), (Rule.RENJU, 0, True, "move")],
)  # fmt: skip
def test_the_chooser_follows_its_search(
    rule: Rule, value: int, may_place_two: bool, answer: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The colour the search (here a stand-in for `weigh`) calls better for the side to move,
    measured from the rule's even score (EVEN_AT: -300 in renju, 0 in freestyle), is taken; a
    score within SWAP_EVEN of even, when swap2 allows, places the pair whose five-stone
    position the searches score nearest even, all within the move's time."""
    even = EVEN_AT.get(rule, 0)
    game = three_stones(rule)
    player = GomokuPlayer(seed=4, time_limit=0.8, book=False)
    asked: list[tuple[tuple[Point, ...], float, int]] = []

    def weigh(trial: GomokuGame, seconds: float) -> tuple[Point, int]:
        stones = tuple(p for _, p in trial.moves)
        score = value if len(stones) == 3 else 7 * stones[3].col - 11 * stones[4].row + 30
        asked.append((stones, seconds, score))
        return trial.legal_moves()[0], score

    monkeypatch.setattr(player, "weigh", weigh)
    chosen = player.choose_side(game, may_place_two)
    assert sum(seconds for _, seconds, _ in asked) <= player.time_limit + 1e-9
    if answer == "swap":
        assert chosen is None
    elif answer == "move":
        assert chosen == [game.legal_moves()[0]]
        assert len(asked) == 1
    else:
        assert chosen is not None and len(chosen) == 2
        pairs = {stones[3:]: score for stones, _, score in asked[1:]}
        assert len(pairs) >= 8
        assert abs(pairs[tuple(chosen)] - even) == min(abs(s - even) for s in pairs.values())
        game.decide_opening(chosen)  # White's stone, then Black's: legal


def test_the_chooser_weighs_a_real_position_in_its_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the real search: an answer the opening allows, and within the move's time: on a
    fake clock that moves a millisecond at each look (so that the machine's load does not
    matter), the clock is read only a few times once past the move's limit (each of the
    chooser's searches is cut by its own deadline, inside the move's)."""
    import time

    limit = 0.3
    clock = TickingClock()
    for may_place_two in (True, False):
        game = three_stones(Rule.RENJU)
        player = GomokuPlayer(seed=1, time_limit=limit, threads=1)
        clock.start()
        with monkeypatch.context() as patched:
            patched.setattr(time, "monotonic", clock)
            chosen = player.choose_side(game, may_place_two)
        assert clock.looks  # it searched
        assert clock.past(limit) <= 4
        if not may_place_two:
            assert chosen is None or len(chosen) == 1
        game.decide_opening(chosen)
