"""Responses written while the engine works (the analysis commands), and the progress callback
that writes an analysis's lines."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from tengen.gtp.analyze import AnalyzeRequest
from tengen.gtp.search import Analysis, Progress

Write = Callable[[str], None]


@dataclass(frozen=True)
class Stream:
    """A response written while the engine works.

    The caller writes `head`, calls `run(write, stop)`, which writes whole lines, and then
    writes the empty line that ends the response. When `interruptible`, the next command line
    sets `stop` (``lz-analyze``); otherwise the caller lets `run` finish.
    """

    run: Callable[[Write, threading.Event], None]
    interruptible: bool = True
    head: str = ""


def reporter(
    request: AnalyzeRequest,
    line: Callable[[Analysis, AnalyzeRequest], str],
    write: Write,
    stop: threading.Event,
) -> Progress:
    """The search's progress callback: a report line every `request.interval` seconds at
    most; it asks the search to stop once `stop` is set."""
    last = -math.inf

    def progress(analysis: Analysis) -> bool:
        nonlocal last
        now = time.monotonic()
        if request.interval > 0 and now - last >= request.interval:
            text = line(analysis, request)
            if text:
                write(text + "\n")
                last = now
        return not stop.is_set()

    return progress
