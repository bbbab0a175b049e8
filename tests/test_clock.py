"""Clocks: each time system's arithmetic on a fake time source, parsing, record text."""

from __future__ import annotations

import pytest

from tengen.clock import Clock, TimeControl


class FakeTime:
    """A time source the test moves by hand."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def move(clock: Clock, now: FakeTime, seconds: float) -> None:
    """One move of `seconds` on `clock`."""
    clock.start()
    now.t += seconds
    clock.stop()


def test_absolute_runs_down_and_expires() -> None:
    now = FakeTime()
    clock = Clock(TimeControl.parse("absolute:10"), now)
    move(clock, now, 4)
    assert clock.remaining() == 6 and not clock.expired
    clock.start()
    now.t += 2.5
    assert clock.remaining() == 3.5 and clock.allowance() == 3.5  # while running
    now.t += 3.6
    clock.stop()
    assert clock.expired and clock.format() == "time"


def test_fischer_adds_the_increment_after_each_move_in_time() -> None:
    now = FakeTime()
    clock = Clock(TimeControl.parse("fischer:10+5"), now)
    move(clock, now, 3)
    assert clock.remaining() == 12
    move(clock, now, 12)
    assert clock.remaining() == 5 and not clock.expired
    move(clock, now, 5.5)
    assert clock.expired


def test_byoyomi_keeps_a_period_used_in_time_and_loses_one_per_overrun() -> None:
    now = FakeTime()
    clock = Clock(TimeControl.parse("byoyomi:10+3x5"), now)
    move(clock, now, 8)
    assert clock.remaining() == 2 and clock.overtime_count() is None
    move(clock, now, 6)  # 2 s of main, then 4 s of a period: kept
    assert clock.in_overtime and clock.overtime_count() == 3 and clock.remaining() == 5
    assert clock.allowance() == 15
    move(clock, now, 7)  # one period lost
    assert clock.overtime_count() == 2 and not clock.expired
    assert clock.gtp_time_left() == (5, 2) and clock.format() == "0:05 (2)"
    move(clock, now, 10.5)  # both left
    assert clock.expired


def test_canadian_needs_the_stones_within_the_period() -> None:
    now = FakeTime()
    clock = Clock(TimeControl.parse("canadian:10+3/30"), now)
    move(clock, now, 12)  # 2 s into the first period, the first of its stones
    assert clock.in_overtime and clock.overtime_count() == 2 and clock.remaining() == 28
    move(clock, now, 10)
    move(clock, now, 10)  # third stone at 22 + 10 = 32 > 30? no: 2 + 10 + 10 = 22 used
    assert clock.overtime_count() == 3 and clock.remaining() == 30  # a fresh period
    move(clock, now, 29)
    move(clock, now, 2)
    assert clock.expired


def test_a_clock_must_be_started_before_it_is_stopped() -> None:
    clock = Clock(TimeControl.parse("absolute:10"), FakeTime())
    with pytest.raises(RuntimeError):
        clock.stop()
    clock.start()
    with pytest.raises(RuntimeError):
        clock.start()


def test_an_excused_time_is_not_charged_and_only_a_running_clock_excuses() -> None:
    now = FakeTime()
    clock = Clock(TimeControl.parse("byoyomi:0+3x2"), now)
    with pytest.raises(RuntimeError):
        clock.excuse(1.0)
    clock.start()
    now.t += 2.5  # a warm-up of 2.5 s, excused, then a move of 1.5 s
    clock.excuse(2.5)
    now.t += 1.5
    assert clock.allowance() == pytest.approx(4.5)  # three periods of 2 s, less 1.5 s
    clock.stop()
    assert clock.periods == 3 and not clock.expired
    move(clock, now, 2.5)  # the same 2.5 s not excused cost a period
    assert clock.periods == 2


@pytest.mark.parametrize(
    ("text", "ot"),
    [
        ("absolute:600", "none"),
        ("byoyomi:600+5x30", "5x30 byo-yomi"),
        ("canadian:600+25/300", "25/300 Canadian"),
        ("fischer:300+10", "10 fischer"),
    ],
)
def test_text_form_round_trips_and_gives_sgf_tm_ot(text: str, ot: str) -> None:
    control = TimeControl.parse(text)
    assert str(control) == text and TimeControl.parse(str(control)) == control
    assert control.sgf_ot == ot and control.sgf_tm == float(text.split(":")[1].split("+")[0])


@pytest.mark.parametrize("text", ["", "blitz:5", "byoyomi:600+0x30", "absolute:-5"])
def test_bad_time_controls_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        TimeControl.parse(text)
