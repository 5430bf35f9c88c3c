"""Start-up helpers: what makes the first window come sooner without changing what it shows."""

from __future__ import annotations

import gc
import sys
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


def spare_pyside_source_reads() -> None:
    """PySide reads the source of every module imported after it (or imported again), to learn
    whether the module uses PySide (its `__feature__` switches, such as snake_case, apply per
    module): about 40 ms of the window's start. For the studio's own modules (they use PySide, with no features: 0)
    and for the engine, the graph spec and Python's standard library (they never import Qt: -1,
    "ignore") the answer is known without reading, so a finder gives it before each of them is
    imported. Loads PySide6 (no Qt library yet); a PySide without that table is left as it is."""
    import PySide6  # noqa: F401  (sets up PySide6.support.feature)

    known = getattr(sys.modules.get("PySide6.support.feature"), "pyside_feature_dict", None)
    if isinstance(known, dict) and not any(isinstance(f, _KnownToPySide) for f in sys.meta_path):
        finder = _KnownToPySide(known)
        for name in list(sys.modules):  # imported before: PySide asks again at the next import
            finder.record(name)
        sys.meta_path.insert(0, finder)


_NO_QT = frozenset({"engine", "graphspec", *sys.stdlib_module_names})


class _KnownToPySide:
    """A meta path finder that finds nothing: it records PySide's answer for a module about to
    be imported, where the answer is known (see spare_pyside_source_reads)."""

    def __init__(self, known: dict[str, int]) -> None:
        self.known = known

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        self.record(name)
        return None

    def record(self, name: str) -> None:
        top = name.partition(".")[0]
        if top == "studio":
            self.known.setdefault(name, 0)
        elif top in _NO_QT:
            self.known.setdefault(name, -1)
