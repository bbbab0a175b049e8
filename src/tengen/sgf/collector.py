"""Pause Python's cyclic garbage collector while a record is built or replayed.

Parsing makes thousands of nodes, each linked to its parent (a reference cycle), and replaying
makes an entry per move; while they are made, every automatic collection the allocations
trigger scans them all again and frees none of them, which cost more than the parsing itself.
Reference counting still frees everything acyclic at once during a pause; cyclic garbage
waits for the first collection after it. Call ``was_on = pause()`` and ``resume(was_on)`` in a
``finally`` rather than use a context manager: that would allocate, and so could trigger the
very collection the pause puts off while the caller's new objects are still young and alive.
"""

from __future__ import annotations

import gc


def pause(*, collect_due: bool = False) -> bool:
    """Turn automatic collection off; return whether it was on, for `resume`.

    With `collect_due`, first run the young collection that is due, if one is: a loop that
    makes cyclic garbage only inside pauses would otherwise never get it collected.
    """
    was_on = gc.isenabled()
    if was_on and collect_due and gc.get_count()[0] > gc.get_threshold()[0]:
        gc.collect(0)
    gc.disable()
    return was_on


def resume(was_on: bool) -> None:
    """Turn automatic collection back on if `pause` found it on (process-wide, like `pause`)."""
    if was_on:
        gc.enable()
