"""Start-up helpers: what makes the first window come sooner without changing what it shows."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the block, then as it was, with what the block
    made frozen (`gc.freeze`). Start-up makes hundreds of thousands of long-lived objects (the
    spec models, the studio's modules, Qt's enums) and frees almost none, so the collector's
    passes over them find nothing; they were about a tenth of the time to the window. Left in
    the youngest generation, the block's objects would all be walked by the first pass after
    it (20-70 ms); frozen, no pass walks them until `thaw()` puts them in the oldest generation,
    once the window has painted."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_on:
            gc.enable()


def thaw() -> None:
    """What start-up froze goes back to the collector, in its oldest generation: collected
    when it becomes garbage, walked only by the rare full passes."""
    gc.unfreeze()
