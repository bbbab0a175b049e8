"""The invasion stress set's recipe (`tests.scoring.invasions`): what it draws."""

from __future__ import annotations

import random

from tengen.scoring.regions import adjacent, without
from tests.scoring.invasions import LARGEST, SMALLEST, invade, territories


def test_territories_are_one_colour_regions_of_the_allowed_size() -> None:
    found = territories()
    assert len(found) >= 200  # enough for the set the docs report
    for case, region in found:
        assert region.owner is not None
        assert SMALLEST <= len(region.points) <= LARGEST
        board = without(case.board(), case.points(case.dead))
        owner = region.owner
        border = {q for p in region.points for q in adjacent(p, case.size, case.size)}
        assert {board[q] for q in border - region.points} == {owner}


def test_invaders_stand_inside_with_room_and_touch_no_owner_stone() -> None:
    rng = random.Random(5)
    placed = 0
    for case, region in territories()[:40]:
        assert region.owner is not None
        board = without(case.board(), case.points(case.dead))
        stones = invade(board, region, rng)
        if stones is None:
            continue
        placed += 1
        size = case.size
        assert 1 <= len(stones) <= 4
        for p in stones:
            assert p in region.points
            assert board[p] is region.owner.opponent
            assert board.liberty_count(p) >= 2
            assert all(board[q] is not region.owner for q in adjacent(p, size, size))
    assert placed >= 30
