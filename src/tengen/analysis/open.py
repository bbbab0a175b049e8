"""Pick the engine class for a command line: the built-in search, a JSON analysis engine
(``katago analysis ...``, ``tengen analysis``) or a GTP engine."""

from __future__ import annotations

import shlex

from tengen.analysis.builtin import BuiltinEngine
from tengen.analysis.engine import Engine
from tengen.analysis.gtp import GtpAnalyser
from tengen.analysis.katago import JsonAnalyser

BUILTIN = "builtin"


def open_engine(
    command: str | None, *, cwd: str | None = None, threads: int | None = None, seed: int = 0
) -> Engine:
    """The engine `command` runs (None or ``builtin``: the built-in search with `threads`).

    A command whose first argument is ``analysis`` speaks KataGo's JSON protocol; any other
    speaks GTP. Raises EngineError (CannotAnalyse for a GTP engine that only plays), or
    ValueError for a command that cannot be split into words.
    """
    if command is None or command.strip() == BUILTIN:
        return BuiltinEngine(threads=threads, seed=seed)
    argv = shlex.split(command)
    if not argv:
        raise ValueError("the engine command is empty")
    if argv[1:2] == ["analysis"]:
        return JsonAnalyser(argv, cwd=cwd)
    return GtpAnalyser(argv, cwd=cwd)
