"""Which graphs ran at the root (and which were compiled), while someone watches: for a debugger
that runs a program's script (its top-level code, its `if __name__ == "__main__":` block) and
then opens the graphs the script ran, or made.

Beyond LangGraph. A run is at the root when no graph's task runs it (not a subgraph, nor a graph
called inside a node). Watching is per context (a ContextVar): the script's own runs are seen,
in its thread and the asyncio tasks it starts, and, when asked, in the threads started while it
is watched (a thread pool the script makes), and nobody else's; nothing is kept otherwise.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RootRun:
    graph: Any  # the compiled graph that ran
    thread_id: Any  # its config's thread, None without one
    input: Any = None  # what the run was given, the live object as given (never copied)
    configurable: dict = field(default_factory=dict)  # its config's own keys (user_id...)
    context: Any = None  # the run context it was given (`context=`), as given


_LOOP_KEYS = frozenset({"thread_id", "checkpoint_id", "checkpoint_ns", "checkpoint_map"})
"""A run config's keys that say where it runs, not what it runs with: a debugger sets its own."""
_watching: ContextVar[list[RootRun] | None] = ContextVar("superstep_root_runs", default=None)
_made: ContextVar[list[Any] | None] = ContextVar("superstep_made_graphs", default=None)
# while watching the threads born inside a block too: where their runs go, and the threads
# that were alive before (a program's worker threads are new; the debugger's own are not)
_born: tuple[list[RootRun], frozenset[threading.Thread]] | None = None


@contextmanager
def watch_root_runs(
    runs: list[RootRun] | None = None,
    made: list[Any] | None = None,
    *,
    new_threads: bool = False,
) -> Iterator[list[RootRun]]:
    """The root runs started inside the block, in order, in the list it yields (`runs`, when
    given: someone else may read it while the block runs); with `new_threads`, also those of the
    threads started while it runs (a script's thread pool), one watch at a time. Into `made`,
    when given, every graph compiled inside it (subgraphs too), for a script that makes its
    graphs and runs none."""
    global _born
    runs = [] if runs is None else runs
    token = _watching.set(runs)
    made_token = _made.set(made)
    born = _born
    if new_threads:
        _born = (runs, frozenset(threading.enumerate()))
    try:
        yield runs
    finally:
        _born = born
        _made.reset(made_token)
        _watching.reset(token)


def watched() -> bool:
    """Whether someone watches this context's root runs."""
    return _watching.get() is not None


def noticed(graph: Any, configurable: dict, input: Any = None, context: Any = None) -> None:
    """A root run of `graph` starts with `input` (called by the run's setup; two lookups when
    nobody watches). The input is kept by reference, in memory only, for as long as the
    watcher keeps the list: a debugger starts its first run from the script's own input, with
    the config keys and the run context the script gave (a node reading
    `config["configurable"]["user_id"]` fails without them)."""
    runs = _watching.get()
    if runs is None:
        born = _born
        if born is None or threading.current_thread() in born[1]:
            return
        runs = born[0]
    own = {k: v for k, v in configurable.items() if k not in _LOOP_KEYS and not k.startswith("__")}
    runs.append(RootRun(graph, configurable.get("thread_id"), input, own, context))


def made(graph: Any) -> None:
    """A graph was compiled (called by Pregel's constructor; one lookup when nobody watches)."""
    graphs = _made.get()
    if graphs is not None:
        graphs.append(graph)


__all__ = ["RootRun", "made", "noticed", "watch_root_runs", "watched"]
