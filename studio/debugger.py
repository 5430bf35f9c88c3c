"""`debug(graph)`: open the studio on a live graph object from a script, a test or a notebook.

The graph is drawn from itself and runs as it is: its checkpointer, store and context are used
as given (a graph without a checkpointer keeps its threads in the studio's data folder). A graph
built with real `langgraph` is rebuilt on the engine from the file that built it (its source with
the `langgraph` imports pointed at the engine, as every program the studio opens), because the
debugger steps the engine's supersteps; the rebuilt module's own `debug` call does nothing.
"""

from __future__ import annotations

import inspect
from contextvars import ContextVar
from pathlib import Path
from typing import Any

_REBUILDING: ContextVar[bool] = ContextVar("superstep_debug_rebuilding", default=False)


def debug(graph: Any, *, name: str | None = None, context: Any = None, block: bool = True) -> Any:
    """Open the studio on `graph` (a compiled graph, a StateGraph, an @entrypoint, an agent).
    With `block` (a script), returns when the window closes; without (a notebook), returns the
    window at once and lets the notebook's Qt integration (`%gui qt`, turned on here when
    running under IPython) drive it. In a script the studio itself runs (its top-level code or
    its __main__ block, graphspec.program_script), it hands the graph over to be opened there
    instead."""
    from engine.pregel.root_runs import noticed, watched

    if _REBUILDING.get():
        return None
    caller = _caller_globals()
    graph, name = engine_graph(graph, name, caller)
    if watched():  # a script the studio runs hands this graph over: one to open, as if it ran
        noticed(graph, {})
        return None
    from studio.app import application, serve
    from studio.main_window import MainWindow

    app = application()
    window = MainWindow()
    window.open_code(graph, None, name, saver=own_saver(graph), context=context)
    window.show()
    window.raise_()
    if not block:
        _integrate_with_ipython()
        return window
    serve(app)
    return window


def engine_graph(graph: Any, name: str | None, caller: dict[str, Any]) -> tuple[Any, str]:
    """`graph` as a compiled engine graph, and its name (the caller's variable, else its own)."""
    from engine.graph.state import StateGraph
    from engine.pregel.main import Pregel

    name = name or next((k for k, v in caller.items() if v is graph and not k.startswith("_")),
                        None) or getattr(graph, "name", None) or "graph"  # fmt: skip
    if isinstance(graph, StateGraph):
        graph = graph.compile()
    if isinstance(graph, Pregel):
        return graph, name
    if type(graph).__module__.startswith("langgraph"):
        return _rebuilt_on_engine(graph, name, caller), name
    raise TypeError(f"debug() takes a compiled graph, a StateGraph, an @entrypoint or an agent; "
                    f"got {type(graph).__name__}")  # fmt: skip


def _rebuilt_on_engine(graph: Any, name: str, caller: dict[str, Any]) -> Any:
    """The same graph built by its file on the engine: the caller's module is loaded again with
    its langgraph imports pointed at the engine, and the same variable taken from it."""
    from graphspec.errors import SpecError
    from graphspec.importer import load_module
    from graphspec.program_graphs import compiled, graph_value

    file = caller.get("__file__")
    if not file or caller.get(name) is not graph:
        raise TypeError(
            "debug() got a graph built with langgraph outside a module variable: the studio steps "
            "the engine's supersteps, so build it with `engine` in place of `langgraph` (the same "
            "code), or keep it in a module-level variable of a .py file"
        )
    token = _REBUILDING.set(True)
    try:
        module = load_module(str(Path(file)), on_engine=True)
        return compiled(graph_value(module, name, Path(file).name), name)
    except SpecError as exc:
        raise TypeError(f"debug(): cannot rebuild {name} on the engine: {exc}") from None
    finally:
        _REBUILDING.reset(token)


def _caller_globals() -> dict[str, Any]:
    """The globals of the code that called `debug` (past the studio's own frames)."""
    frame = inspect.currentframe()
    while frame is not None and frame.f_globals.get("__name__", "").startswith("studio"):
        frame = frame.f_back
    return frame.f_globals if frame is not None else {}


def own_saver(graph: Any) -> Any:
    """The graph's own checkpointer (not True/False, a subgraph's marks), else None."""
    from engine.checkpoint.base import BaseCheckpointSaver

    saver = graph.checkpointer
    return saver if isinstance(saver, BaseCheckpointSaver) else None


def _integrate_with_ipython() -> None:
    try:
        shell = get_ipython()  # type: ignore[name-defined]  # noqa: F821 (IPython's builtin)
    except NameError:
        return
    shell.enable_gui("qt")


__all__ = ["debug", "engine_graph", "own_saver"]
