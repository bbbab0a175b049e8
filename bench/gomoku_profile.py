"""Profile the Gomoku player's compiled search by function: a perf map of numba's code.

`perf` sees numba's compiled functions as anonymous JIT addresses. This runs
bench/gomoku_search.py's fixed-depth measurement in this process and then writes
``/tmp/perf-PID.map``, where `perf report` finds each compiled function's name (numba's
mangled name shortened to module and function; a function's extent runs to the next one's
start). With ``--code DIR`` it also writes each function's machine code to DIR, with an
index of addresses, for ``objdump -D -b binary -m i386:x86-64 --adjust-vma=ADDRESS FILE``
beside ``perf script -F ip`` (which instructions the samples fall on). It reads numba's
code libraries through private attributes: a bench tool, not part of tengen.

Run: ``perf record -F 2000 -o /tmp/perf.data python bench/gomoku_profile.py --depth 10``,
then ``perf report -i /tmp/perf.data --no-children --sort sym``.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import re
from pathlib import Path

from numba.core.dispatcher import Dispatcher

from gomoku_search import measure

_LENGTH = re.compile(r"\d+")  # a name's length in a mangled name


def short(mangled: str) -> str:
    """``tengen.ai.gomoku.kernels._move`` from numba's Itanium-mangled name: the
    length-prefixed names after ``_ZN``, behind any prefix such as ``cfunc.`` (the name as it
    is when there are none)."""
    start = mangled.find("_ZN")
    if start < 0:
        return mangled
    parts, at = [], start + 3
    while length := _LENGTH.match(mangled, at):
        at = length.end() + int(length.group())
        parts.append(mangled[length.end() : at])
    return mangled[:start] + ".".join(parts) if parts else mangled


def functions() -> dict[int, str]:
    """The address of every compiled function numba holds in this process, and its name."""
    found: dict[int, str] = {}
    for obj in gc.get_objects():
        if not isinstance(obj, Dispatcher):
            continue
        for result in obj.overloads.values():
            library = result.library  # type: ignore[attr-defined]
            engine = library._codegen._engine
            modules = [getattr(library, name, None) for name in ("_final_module", "_shared_module")]
            for module in (m for m in modules if m is not None):
                for function in module.functions:
                    if function.is_declaration:
                        continue
                    address = engine.get_function_address(function.name)
                    if address:
                        found[address] = function.name
    return found


def mapped() -> list[tuple[int, int]]:
    """This process's mapped memory, as (start, end) ranges (/proc/self/maps)."""
    ranges = []
    for line in Path("/proc/self/maps").read_text().splitlines():
        start, end = line.split()[0].split("-")
        ranges.append((int(start, 16), int(end, 16)))
    return ranges


def spans(named: dict[int, str]) -> list[tuple[int, int, str]]:
    """(address, size, name) of each function: to the next function's start, cut at the end
    of its memory mapping (the code past it is not this function's and may not be readable)."""
    starts = sorted(named)
    ranges = mapped()
    found = []
    for a, b in zip(starts, [*starts[1:], None], strict=True):
        end = next((e for s, e in ranges if s <= a < e), a)
        size = min(b, end) - a if b is not None else end - a
        if 0 < size < 1 << 20:
            found.append((a, size, named[a]))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--code", type=Path, help="write each function's machine code here")
    args = parser.parse_args()
    os.environ.setdefault("TENGEN_JIT", "compiled")  # before `measure` imports tengen
    row = measure(0.0, args.depth, 1)
    print(f"{row['nodes']:,} nodes in {row['seconds']:.2f} s to depth {args.depth}")
    extents = spans(functions())
    target = Path(f"/tmp/perf-{os.getpid()}.map")
    target.write_text("".join(f"{a:x} {size:x} {short(name)}\n" for a, size, name in extents))
    print(f"{len(extents)} functions in {target}")
    if args.code:
        args.code.mkdir(parents=True, exist_ok=True)
        index = []
        for a, size, name in extents:
            path = args.code / f"{a:x}.bin"
            path.write_bytes(ctypes.string_at(a, size))
            index.append(f"{a:x} {size} {path} {short(name)}\n")
        (args.code / "index.txt").write_text("".join(index))
        print(f"machine code in {args.code}")


if __name__ == "__main__":
    main()
