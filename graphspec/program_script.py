"""A program whose graphs are built and run by its own `if __name__ == "__main__":` block: a script,
as tutorials and courses write them (`def main(): graph = build(); graph.invoke(...)`).

With no graph at module level to open, the block is run, once the module is loaded (the user
agreed to run the file's code), in the module's namespace, on the engine, watching which graphs
run at the root (`engine.pregel.root_runs`). Those graphs are the program's: live objects, with
the threads their own checkpointers kept of the script's runs, so a debugger opens them where the
script left them. They are named `__main__` (the first the block ran), `__main__2`, ... in the
order they first ran, so `FILE.py:__main__2` names the second. A block that runs none but makes
some (to draw them, or to serve them: a block that never ends can be stopped) gives those, in
the order they were made, but for the subgraphs inside them.
"""

from __future__ import annotations

import ast
import ctypes
import io
import sys
import threading
import traceback
from collections.abc import Callable
from contextlib import redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphspec.errors import SpecError

MAIN = "__main__"
KeepWaiting = Callable[[int], bool]
"""Asked again and again while a __main__ block runs, with how many graphs it has run so far:
False stops the block (a server, an endless loop) and takes the graphs it ran (or made)."""
ASK_EVERY = 0.05  # seconds between two questions to KeepWaiting
STOP_GRACE = 2.0  # seconds a stopped block gets to unwind (its `finally`s, the world it swapped)
STOPPED = "it was still running and was stopped"
STUCK = "it was still running and could not be stopped"


class BlockStopped(BaseException):
    """Raised inside a __main__ block whose caller stopped waiting for it. A BaseException, so
    the script's own `except Exception` does not swallow it."""


def is_main_name(name: str | None) -> bool:
    """Whether `name` names a graph the program's __main__ block runs (`__main__`, `__main__2`)."""
    return bool(name) and name.startswith(MAIN) and (name == MAIN or name[len(MAIN) :].isdigit())


def _is_main_test(node: ast.stmt) -> bool:
    """`if __name__ == "__main__":` (either way round)."""
    if not isinstance(node, ast.If) or not isinstance(test := node.test, ast.Compare):
        return False
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    texts = [s for s in sides if isinstance(s, ast.Constant) and s.value == MAIN]
    return len(names) == 1 and len(texts) == 1


def main_block(path: Path) -> Any:
    """The code of the file's top-level `if __name__ == "__main__":` blocks (their bodies, in
    order, with the file's line numbers, langgraph imports pointed at the engine), else None."""
    from graphspec.engine_source import engine_source

    try:
        tree = ast.parse(engine_source(path.read_text(encoding="utf-8")), str(path))
    except (OSError, SyntaxError, ValueError):
        return None  # loading the module already said what is wrong with the file
    body = [stmt for node in tree.body if _is_main_test(node) for stmt in node.body]
    if not body:
        return None
    return compile(ast.Module(body=body, type_ignores=[]), str(path), "exec")


@dataclass
class ScriptGraph:
    """A graph a program's __main__ block ran (or made, when it ran none)."""

    name: str  # `__main__`, `__main__2`... in the order the graphs first ran (or were made)
    graph: Any
    thread: Any = None  # the thread it last ran on (its checkpointer keeps it), if any
    stopped: str = ""  # how the block ended early (its exception's last line), if it did
    ran: bool = True  # False: the block made it (drew it, served it...) but never ran it


@dataclass
class ScriptRuns:
    """The graphs a program's __main__ block ran at the root, first runs first."""

    graphs: list[ScriptGraph] = field(default_factory=list)
    stopped: str = ""

    def names(self) -> list[str]:
        return [ran.name for ran in self.graphs]


def run_main_block(
    module: Any, path: Path, keep_waiting: KeepWaiting | None = None
) -> ScriptRuns | None:
    """Run the module's __main__ block (None when it has none) and take the graphs it ran (or,
    when it ran none, made). An exception ends the block as it would end the script; the graphs
    that ran before stay. With `keep_waiting`, the block is stopped when it answers False (else
    it is waited for, as `python FILE.py` would be)."""
    code = main_block(path)
    if code is None:
        return None
    found, runs, made, stoppable = ScriptRuns(), [], [], _Stoppable()
    saved, saved_argv, saved_stdin = list(sys.path), sys.argv, sys.stdin
    sys.path.insert(0, str(path.resolve().parent))  # as `python FILE.py` runs it, no arguments
    sys.argv = [str(path)]
    sys.stdin = io.StringIO()  # nobody types: a chat loop's input() ends it, never waits
    try:
        # in a thread of its own, where no event loop runs: the script's asyncio.run works
        # when the caller's does (the studio's qasync loop)
        worker = threading.Thread(target=_run_block,
                                  args=(code, module, stoppable, found, runs, made),
                                  name=f"{path.name} __main__", daemon=True)  # fmt: skip
        worker.start()
        _wait(worker, stoppable, runs, found, keep_waiting)
    finally:
        sys.path[:], sys.argv, sys.stdin = saved, saved_argv, saved_stdin
    by_graph: dict[int, ScriptGraph] = {}
    for run in list(runs):  # (a block that could not be stopped may still add to it)
        ran = by_graph.get(id(run.graph))
        if ran is None:
            ran = by_graph[id(run.graph)] = ScriptGraph(
                _nth(by_graph), run.graph, stopped=found.stopped
            )
        ran.thread = run.thread_id if run.thread_id is not None else ran.thread
    if not by_graph:  # a block that only draws its graphs, or serves them: the ones it made
        for graph in _outermost(list(made)):
            by_graph[id(graph)] = ScriptGraph(
                _nth(by_graph), graph, stopped=found.stopped, ran=False
            )
    found.graphs = list(by_graph.values())
    return found


def _nth(named: dict) -> str:
    """The name of the next graph after `named`: `__main__`, then `__main__2`..."""
    return MAIN if not named else f"{MAIN}{len(named) + 1}"


def _outermost(made: list) -> list:
    """The graphs made, once each, but for those inside another as its subgraph."""
    inside = {id(sub) for graph in made for node in graph.nodes.values() for sub in node.subgraphs}
    return list({id(g): g for g in made if id(g) not in inside}.values())


class _Stoppable:
    """Raises BlockStopped in the block's thread, but only while the script's own code runs
    there: never while the thread sets up or puts back the world around it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._thread: int | None = None

    def enter(self) -> None:
        with self._lock:
            self._thread = threading.get_ident()

    def leave(self) -> None:
        with self._lock:
            self._thread = None

    def stop(self) -> None:
        with self._lock:
            if self._thread is not None:  # raised at its next Python instruction
                ctypes.pythonapi.PyThreadState_SetAsyncExc(
                    ctypes.c_ulong(self._thread), ctypes.py_object(BlockStopped)
                )


def _wait(worker: threading.Thread, stoppable: _Stoppable, runs: list, found: ScriptRuns,
          keep_waiting: KeepWaiting | None) -> None:  # fmt: skip
    if keep_waiting is None:
        worker.join()
        return
    while True:
        worker.join(ASK_EVERY)
        if not worker.is_alive():
            return
        if not keep_waiting(len({id(run.graph) for run in list(runs)})):
            break
    stoppable.stop()  # a server's loop, a polling loop: they wake every so often
    worker.join(STOP_GRACE)
    if worker.is_alive():  # blocked in a call that never returns: it keeps running, unwatched
        found.stopped = STUCK


def _run_block(code: Any, module: Any, stoppable: _Stoppable, found: ScriptRuns,
               runs: list, made: list) -> None:  # fmt: skip
    from engine.pregel.root_runs import watch_root_runs
    from graphspec.engine_world import on_engine

    # its printing goes to stderr: a command's stdout is its own (`superstep run`'s JSON)
    with on_engine(), watch_root_runs(runs, made, new_threads=True), redirect_stdout(sys.stderr):
        try:
            stoppable.enter()
            try:
                exec(code, module.__dict__)  # noqa: S102 - the user agreed to run this file
            finally:
                stoppable.leave()
        except SystemExit as exc:  # `sys.exit(main())`: the script's end, not a failure
            if exc.code not in (None, 0):
                found.stopped = f"SystemExit: {exc.code}"
        except BlockStopped:
            found.stopped = STOPPED
        except BaseException as exc:  # the script's own error, shown beside what it ran
            found.stopped = traceback.format_exception_only(exc)[-1].strip()


def main_graph(
    module: Any, path: Path, name: str | None, pick: Any, keep_waiting: KeepWaiting | None = None
) -> ScriptGraph | None:
    """The graph `name` the module's __main__ block ran, the only one when `name` is None, else
    `pick(path, names)`'s of several (None when it picks none). SpecError says why there is
    none."""
    runs = run_main_block(module, path, keep_waiting)
    if runs is None:
        raise SpecError(f"{path.name} holds no graph (a compiled graph, a StateGraph builder or an "
                        f"@entrypoint) and runs none from an if __name__ == \"__main__\" block; for "
                        f"a function making one, name it as {path.name}:FUNCTION")  # fmt: skip
    names = runs.names()
    if not names:
        ended = f" (it stopped: {runs.stopped})" if runs.stopped else ""
        raise SpecError(
            f'{path.name}\'s if __name__ == "__main__" block ran no graph and made none{ended}'
        )
    if name is None:
        name = names[0] if len(names) == 1 else pick(path, names)
        if name is None:
            return None
    if name not in names:
        raise SpecError(f"{path.name}'s __main__ block ran {len(names)} graph(s): "
                        f"{', '.join(names)}; there is no {name}")  # fmt: skip
    return runs.graphs[names.index(name)]


__all__ = [
    "MAIN",
    "STOPPED",
    "STUCK",
    "BlockStopped",
    "KeepWaiting",
    "ScriptGraph",
    "ScriptRuns",
    "is_main_name",
    "main_block",
    "main_graph",
    "run_main_block",
]
