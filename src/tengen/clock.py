"""Game clocks: absolute, byo-yomi, Canadian and Fischer time, as matches and the web app use them.

A `TimeControl` is the agreed system (what SGF ``TM``/``OT`` and GTP ``time_settings`` describe);
a `Clock` is one player's running clock under it. The clock reads a time source (monotonic by
default, a fake one in tests), is started when its player is to move and stopped when the move
is made; stopping does the system's arithmetic and sets `expired` when the flag fell.

=========  =================  =============================================================
system     text form          after the main time
=========  =================  =============================================================
absolute   ``absolute:600``   nothing: the flag falls
byoyomi    ``byoyomi:600+5x30``  5 periods of 30 s; a move within a period keeps it
canadian   ``canadian:600+25/300``  25 stones in each 300 s period
fischer    ``fischer:300+10``  no overtime; 10 s are added after each move made in time
=========  =================  =============================================================
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

SYSTEMS = ("absolute", "byoyomi", "canadian", "fischer")
LATE_DECAY = 0.9  # how much of a player's last lateness is still kept back at its next move
_FORMS = {
    "absolute": re.compile(r"absolute:(?P<main>[\d.]+)"),
    "byoyomi": re.compile(r"byoyomi:(?P<main>[\d.]+)\+(?P<periods>\d+)x(?P<period>[\d.]+)"),
    "canadian": re.compile(r"canadian:(?P<main>[\d.]+)\+(?P<stones>\d+)/(?P<period>[\d.]+)"),
    "fischer": re.compile(r"fischer:(?P<main>[\d.]+)\+(?P<period>[\d.]+)"),
}


@dataclass(frozen=True)
class TimeControl:
    """A time system: `main` seconds, then `periods` x `period` (byo-yomi), `stones` per
    `period` (Canadian), or `period` seconds added per move (Fischer's increment)."""

    system: str
    main: float
    period: float = 0.0
    periods: int = 0
    stones: int = 0

    def __post_init__(self) -> None:
        if self.system not in SYSTEMS:
            raise ValueError(f"unknown time system {self.system!r} (known: {', '.join(SYSTEMS)})")
        if self.main < 0 or self.period < 0 or self.periods < 0 or self.stones < 0:
            raise ValueError("times and counts of a time control must not be negative")
        if self.system == "byoyomi" and not (self.periods and self.period):
            raise ValueError("byo-yomi needs at least one period of some length")
        if self.system == "canadian" and not (self.stones and self.period):
            raise ValueError("Canadian overtime needs some stones and a period")

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read the text form of the module table. Raises ValueError naming the text."""
        t = text.strip().lower().replace("byo-yomi", "byoyomi")
        for system, form in _FORMS.items():
            m = form.fullmatch(t)
            if m:
                g = m.groupdict()
                return cls(
                    system,
                    float(g["main"]),
                    float(g.get("period") or 0),
                    int(g.get("periods") or 0),
                    int(g.get("stones") or 0),
                )
        raise ValueError(
            f"unrecognised time control {text!r} (e.g. absolute:600, byoyomi:600+5x30, "
            "canadian:600+25/300, fischer:300+10)"
        )

    @property
    def sgf_tm(self) -> float:
        """SGF ``TM[]``: the main time in seconds."""
        return self.main

    @property
    def sgf_ot(self) -> str:
        """SGF ``OT[]``: the overtime as players write it, e.g. ``5x30 byo-yomi``."""
        if self.system == "byoyomi":
            return f"{self.periods}x{_secs(self.period)} byo-yomi"
        if self.system == "canadian":
            return f"{self.stones}/{_secs(self.period)} Canadian"
        if self.system == "fischer":
            return f"{_secs(self.period)} fischer"
        return "none"

    def __str__(self) -> str:
        if self.system == "byoyomi":
            return f"byoyomi:{_secs(self.main)}+{self.periods}x{_secs(self.period)}"
        if self.system == "canadian":
            return f"canadian:{_secs(self.main)}+{self.stones}/{_secs(self.period)}"
        if self.system == "fischer":
            return f"fischer:{_secs(self.main)}+{_secs(self.period)}"
        return f"absolute:{_secs(self.main)}"


@dataclass(frozen=True)
class ClockState:
    """What a `Clock` holds, as plain numbers: how a server keeps a clock across requests and
    restarts. `started` is the time source's reading when the clock was started (None when
    stopped), so a clock restored with a wall-clock source keeps running while no one looks."""

    main: float
    periods: int
    period_left: float
    stones: int
    expired: bool
    started: float | None


class Clock:
    """One player's clock under `control`, reading `now` (seconds, monotonic)."""

    def __init__(self, control: TimeControl, now: Callable[[], float] = time.monotonic) -> None:
        self.control = control
        self.main = control.main
        self.periods = control.periods  # byo-yomi periods left
        self.period_left = control.period  # Canadian: time left in the current period
        self.stones = control.stones  # Canadian: stones still to play in the current period
        self.expired = False
        self._now = now
        self._started: float | None = None

    @classmethod
    def restore(
        cls, control: TimeControl, state: ClockState, now: Callable[[], float] = time.monotonic
    ) -> Clock:
        """The clock `state` describes, reading `now` (the same source it was saved with)."""
        clock = cls(control, now)
        clock.main, clock.periods = state.main, state.periods
        clock.period_left, clock.stones = state.period_left, state.stones
        clock.expired, clock._started = state.expired, state.started
        return clock

    def state(self) -> ClockState:
        """The clock's numbers, to keep and `restore` later."""
        return ClockState(
            self.main, self.periods, self.period_left, self.stones, self.expired, self._started
        )

    @property
    def running(self) -> bool:
        """True between `start` and `stop`."""
        return self._started is not None

    @property
    def in_overtime(self) -> bool:
        """True once the main time is spent (never for absolute or Fischer time)."""
        return self.main <= 0 and self.control.system in ("byoyomi", "canadian")

    def start(self) -> None:
        """The player is to move: the clock runs. Raises RuntimeError if it already does."""
        if self._started is not None:
            raise RuntimeError("the clock is already running")
        self._started = self._now()

    def stop(self) -> float:
        """The move is made: charge the time it took and return it. Sets `expired` when the
        flag fell; an expired clock stays expired. Raises RuntimeError if it was not running."""
        if self._started is None:
            raise RuntimeError("the clock is not running")
        used = max(self._now() - self._started, 0.0)
        self._started = None
        self._charge(used)
        return used

    def excuse(self, seconds: float) -> None:
        """Leave `seconds` of the running move's time uncharged (a computer player's warm-up,
        which the game should not pay for). Raises RuntimeError if the clock is not running."""
        if self._started is None:
            raise RuntimeError("the clock is not running")
        self._started += max(seconds, 0.0)

    def allowance(self) -> float:
        """Seconds the player may still take over the current move before the flag falls."""
        c = self.control
        if self.expired:
            return 0.0
        spent = 0.0 if self._started is None else self._now() - self._started
        if c.system == "byoyomi":
            total = self.main + self.periods * c.period
        elif c.system == "canadian":
            total = self.main + c.period if self.main > 0 else self.period_left
        else:
            total = self.main
        return max(total - spent, 0.0)

    def remaining(self) -> float:
        """Time left on the current phase (main time, or the period in overtime), as shown."""
        spent = 0.0 if self._started is None else self._now() - self._started
        if self.in_overtime:
            base = self.control.period if self.control.system == "byoyomi" else self.period_left
        else:
            base = self.main
        return max(base - spent, 0.0)

    def overtime_count(self) -> int | None:
        """Byo-yomi periods or Canadian stones left while in overtime (SGF ``OB``/``OW``)."""
        if not self.in_overtime:
            return None
        return self.periods if self.control.system == "byoyomi" else self.stones

    def gtp_time_left(self) -> tuple[int, int]:
        """The arguments of GTP ``time_left``: whole seconds, and stones (0 in main time)."""
        return int(self.remaining()), self.overtime_count() or 0

    def format(self) -> str:
        """``4:59``, ``0:28 (3)`` in overtime, or ``time`` once expired, for displays."""
        if self.expired:
            return "time"
        seconds = int(self.remaining())
        text = f"{seconds // 60}:{seconds % 60:02d}"
        count = self.overtime_count()
        return text if count is None else f"{text} ({count})"

    def _charge(self, used: float) -> None:
        c = self.control
        if c.system in ("absolute", "fischer"):
            self.main -= used
            if self.main < 0:
                self.expired = True
            elif c.system == "fischer":
                self.main += c.period
            return
        if self.main > 0:
            taken = min(used, self.main)
            self.main -= taken
            used -= taken
            if self.main > 0:
                return
        if c.system == "byoyomi":
            self.periods -= int(used // c.period)
            if self.periods <= 0:
                self.periods = 0
                self.expired = True
            return
        self.period_left -= used
        if self.period_left < 0:
            self.period_left = 0.0
            self.expired = True
            return
        self.stones -= 1
        if self.stones == 0:
            self.period_left, self.stones = c.period, c.stones


def _secs(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def lateness(kept: float, late: float) -> float:
    """How late a player's next answer may come, to keep back from its thinking time (seconds):
    this answer's `late` (past the time it gave itself) or the decayed `kept` of the answers
    before, whichever is more, and never below 0. The Go and Gomoku players both keep it."""
    return max(LATE_DECAY * kept, late, 0.0)
