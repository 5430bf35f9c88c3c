"""Superstep Studio's Qt application (PySide6).

Depends on `spec` (and through it `engine`); neither imports `studio` or Qt.
"""

# Load the spec models (and pydantic's lazily imported modules) before any Qt module: shiboken's
# import hook inspects modules as they load and trips over pydantic's half-imported internals.
from studio.startup import collector_paused

with collector_paused():
    import graphspec.model  # noqa: F401


def debug(graph, **options):  # noqa: ANN001, ANN201 (the documented one is studio.debugger.debug)
    """Open the studio on a live graph object: see `studio.debugger.debug` (imports Qt on call).
    (Its module is not `studio.debug`: importing that would replace this function.)"""
    from studio.debugger import debug as open_debugger

    return open_debugger(graph, **options)
