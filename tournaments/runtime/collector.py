"""Keeping Python's cycle collector off large work whose many small objects live until the work
ends: a ratings rebuild (rankings.services), a printout's layout and a round's laid-out sheets
(tournaments.printing.render), an event's archive made, read, checked and written
(tournaments.archive) and a league season's with its events (leagues.archive), a venue push at either end (tournaments.venue) and a round's close
(tournaments.services.round_jobs). The collector
starts a pass by the count of allocations alone, and each pass over such objects walks all of
them again: a fifth to a third of that work's time (docs/performance.md). One place for how
the app does this, since it acts on the whole process.

The pause should last as long as the objects do: what is made while the collector waits is
all young when it comes back, and its first passes walk every such object still alive. So a
piece of work whose objects die with it is run paused as a whole (`run_paused`, its locals
gone before the collector is back), and only what it returns is walked afterwards.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")


# The pauses under way in the process: its threads (a laptop's web requests and its pusher)
# may pause at the same time, and the collector comes back when the last of them ends, as it
# was before the first.
_lock = threading.Lock()
_pauses = 0
_enabled_before = False


@contextmanager
def paused() -> Iterator[None]:
    """The collector paused while the block runs, and given back even on an error (when no
    other thread's pause is under way). For work that makes few reference cycles of its own;
    what other code running meanwhile leaves in cycles is collected when the collector is
    back."""
    global _pauses, _enabled_before
    with _lock:
        if _pauses == 0:
            _enabled_before = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _lock:
            _pauses -= 1
            if _pauses == 0 and _enabled_before:
                gc.enable()


def run_paused(work: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """`work(*args, **kwargs)` with the collector paused until it has returned: its own
    objects that reference counting frees (the frames' locals, and what they alone held; an
    archive is a tree) are gone by then, so the collector never walks them; left for it are the
    result, any reference cycles the work made, and on an error what its traceback holds."""
    with paused():
        return work(*args, **kwargs)
