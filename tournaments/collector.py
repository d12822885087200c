"""Keeping Python's cycle collector off large work whose many small objects live until the work
ends: a ratings rebuild (rankings.services), a printout's layout and a round's laid-out sheets
(tournaments.printing.render). The collector starts a pass by the count of allocations alone,
and each pass over such objects walks all of them again: a fifth to a third of that work's
time (docs/performance.md). One place for how the app does this, since both ways act on the
whole process.
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


@contextmanager
def freezing() -> Iterator[None]:
    """A block that may call `keep_out_of_collections`; everything frozen is unfrozen at its
    end, even on an error. (Python has one frozen generation: nothing else in the app may
    freeze objects for longer; nothing does.)"""
    try:
        yield
    finally:
        gc.unfreeze()


def keep_out_of_collections() -> None:
    """Collect the garbage made since the last call (that pass sees only what is not frozen
    yet), then freeze what is alive, out of every later pass. For pieces of work that stay
    alive until the end, made one after another: memory stays as it was, since nothing is
    frozen uncollected."""
    gc.collect()
    gc.freeze()
