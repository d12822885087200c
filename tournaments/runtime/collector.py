"""Keeping Python's cycle collector off large work whose many small objects live until the work
ends: a ratings rebuild (rankings.services), a printout's layout and a round's laid-out sheets
(tournaments.printing.render), and the whole archives a venue push reads and makes
(tournaments.venue). The collector starts a pass by the count of allocations alone,
and each pass over such objects walks all of them again: a fifth to a third of that work's
time (docs/performance.md). One place for how the app does this, since it acts on the whole
process.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


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
