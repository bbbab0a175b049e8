"""Hostile numbers in Gomocup commands (found by fuzz/fuzz_gomocup.py): a coordinate or size of
thousands of digits, or a digit that is not ASCII, is an ``ERROR`` naming the command, never an
internal error, and the position stays."""

from __future__ import annotations

import pytest

from tests.gomoku.test_gomocup import make_brain, one_error, say, stones

HUGE = "9" * 5000


@pytest.mark.parametrize(
    "line",
    [
        f"TURN 7,{HUGE}",
        f"TURN {HUGE},7",
        f"TAKEBACK 7,{HUGE}",
        f"PLAY {HUGE},{HUGE}",
        f"START {HUGE}",
        f"RECTSTART {HUGE},15",
        "START \u00b2",  # a digit to str.isdigit, not to int()
        "TURN \u0667,\u0667",
        "START 99999999999999999999",
    ],
)
def test_huge_or_foreign_numbers_are_errors(line: str) -> None:
    brain = make_brain("START 15", "TURN 7,7")
    before = stones(brain)
    reply = one_error(say(brain, line))
    assert "internal error" not in reply
    assert len(reply) < 200  # the message quotes the text, not 5000 digits of it
    assert stones(brain) == before


@pytest.mark.parametrize("block", ["BOARD", "YXBOARD"])
def test_a_board_line_with_a_huge_number_is_an_error(block: str) -> None:
    brain = make_brain("START 15", "TURN 7,7")
    before = stones(brain)
    replies = say(brain, block, "7,7,1", f"8,{HUGE},2", "DONE")
    reply = one_error(replies)
    assert "internal error" not in reply and "board line 2" in reply
    assert stones(brain) == before


@pytest.mark.parametrize("key", ["timeout_turn", "time_left", "rule"])
@pytest.mark.parametrize("value", ["1" + "0" * 80, "2147483648", "-2147483649", HUGE])
def test_info_numbers_beyond_32_bits_are_ignored_with_a_message(key: str, value: str) -> None:
    """Found by fuzz/fuzz_gomocup.py: INFO timeout_turn 10^80 was kept, and the next move
    failed dividing it (OverflowError)."""
    brain = make_brain("START 15")
    (reply,) = say(brain, f"INFO {key} {value}")
    assert reply.startswith("MESSAGE ignored") and len(reply) < 200
    (move,) = say(brain, "BEGIN")
    assert not move.startswith("ERROR"), move
