"""Keeping Python's cycle collector off large work whose many small objects live until the work
ends: a ratings rebuild (rankings.services), a printout's layout and a round's laid-out sheets
(tournaments.printing.render), an event's archive made, read, checked and written
(tournaments.archive), and a venue push at either end (tournaments.venue). The collector
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")


@contextmanager
def paused() -> Iterator[None]:
    """The collector paused while the block runs, and given back even on an error. For work
    that makes few reference cycles of its own; what other code running meanwhile leaves in
    cycles is collected when the collector is back."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def run_paused(work: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """`work(*args, **kwargs)` with the collector paused until it has returned: its own
    objects are freed by then (the frames' locals, and what they alone held), so the collector
    never walks them; only the result is left for it."""
    with paused():
        return work(*args, **kwargs)
