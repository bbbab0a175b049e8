"""GTP engines as analysis engines: ``kata-analyze`` where listed, else ``lz-analyze``.

The engine process is `tengen.gtp.client.GtpClient` (timeouts, its own process group, stderr
in the errors). An engine listing neither command cannot analyse, and `GtpAnalyser` says so
at once, naming it. Positions are sent incrementally: when the next position extends the one
the engine has, only the new moves are played; otherwise the board is cleared and set up.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence

from tengen.ai.analysis import Analysis
from tengen.analysis.engine import CannotAnalyse, EngineError, Update, one_by_one
from tengen.analysis.lines import BadReport, parse_report
from tengen.analysis.position import Position
from tengen.core.coords import to_gtp
from tengen.gtp.client import GtpClient, GtpClientError

COMMANDS = ("kata-analyze", "lz-analyze")
INTERVAL = 10  # centiseconds between the engine's reports
STALL = 60.0  # seconds an analysing engine may stay silent


class GtpAnalyser:
    """The GTP engine run by `argv` (in `cwd`). Raises CannotAnalyse if it lists no analysis
    command, EngineError if it cannot be started or does not speak GTP."""

    def __init__(self, argv: list[str], *, cwd: str | None = None, timeout: float = 30.0) -> None:
        try:
            self._client = GtpClient(argv, timeout, cwd=cwd)
        except OSError as err:
            raise EngineError(f"cannot start {argv[0]}: {err}") from None
        try:
            listed = set(self._client.send("list_commands").split())
            self.version = self._client.send("protocol_version")
            self.name = self._client.send("name") if "name" in listed else argv[0]
        except GtpClientError as err:
            self._client.close()
            raise EngineError(f"{argv[0]} does not answer GTP: {err}") from None
        found = [c for c in COMMANDS if c in listed]
        if not found:
            self._client.close()
            raise CannotAnalyse(
                f"{self.name} ({argv[0]}) cannot analyse: it lists neither kata-analyze nor"
                " lz-analyze (GTP engines such as GNU Go only play)"
            )
        self.command = found[0]
        self._listed = listed
        self._sent: Position | None = None

    def analyse(
        self,
        position: Position,
        visits: int,
        *,
        update: Update | None = None,
        stop: threading.Event | None = None,
    ) -> Analysis:
        """Analyse until the engine reports `visits` visits (or `stop` is set)."""
        try:
            self._set(position)
        except GtpClientError as err:
            self._sent = None
            raise EngineError(f"{self.name}: {err}") from None
        color = position.to_play
        kata = self.command == "kata-analyze"
        extra = " ownership true rootInfo true" if kata else ""
        command = f"{self.command} {color.letter} interval {INTERVAL}{extra}"
        last: list[Analysis] = []
        failure: list[BadReport] = []

        def on_line(line: str) -> bool:
            try:
                analysis = parse_report(line, color, position.width, position.height, kata=kata)
            except BadReport as err:
                failure.append(err)
                return False
            last[:] = [analysis]
            if update is not None:
                update(analysis)
            return analysis.visits < visits and not (stop is not None and stop.is_set())

        try:
            self._client.stream(command, on_line, timeout=STALL)
        except GtpClientError as err:
            raise EngineError(f"{self.name}: {err}") from None
        if failure:
            raise EngineError(f"{self.name} reported something unreadable: {failure[0]}")
        if not last:
            raise EngineError(f"{self.name} ended {self.command} without a report")
        return last[0]

    def analyse_line(
        self,
        position: Position,
        turns: Sequence[int],
        visits: int,
        *,
        stop: threading.Event | None = None,
    ) -> Iterator[tuple[int, Analysis]]:
        """Each turn in order, each position sent as the moves since the last."""
        return one_by_one(self, position, sorted(turns), visits, stop)

    def close(self) -> None:
        """Say quit and end the engine."""
        self._client.close()

    def _set(self, position: Position) -> None:
        """Bring the engine's board to `position`, playing only new moves when it can."""
        sent = self._sent
        send = self._client.send
        fresh = (
            sent is None
            or (sent.width, sent.height, sent.ruleset, sent.initial, sent.initial_player)
            != (position.width, position.height, position.ruleset, position.initial,
                position.initial_player)
            or position.moves[: len(sent.moves)] != sent.moves
        )  # fmt: skip
        if fresh:
            size = position.width
            if position.width != position.height:
                raise EngineError(f"GTP boards are square, not {position.width}x{position.height}")
            send(f"boardsize {size}")
            send("clear_board")
            send(f"komi {position.ruleset.komi:g}")
            self._client.set_rules(position.ruleset)
            for color, point in position.initial:
                send(f"play {color.letter} {to_gtp(point, position.height)}")
            done = 0
        else:
            assert sent is not None
            done = len(sent.moves)
        for color, move in position.moves[done:]:
            send(f"play {color.letter} {to_gtp(move, position.height)}")
        self._sent = position
