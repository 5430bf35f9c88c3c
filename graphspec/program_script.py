"""A program whose graphs its own code builds and runs: a script, as tutorials and courses write
them (`def main(): graph = build(); graph.invoke(...)`), called from an
`if __name__ == "__main__":` block or straight from the module's top-level code
(`asyncio.run(main())` with no guard).

Opening a program runs it as `python FILE.py` would, in two parts, once the user agreed to run
its code: its top-level code (the module is imported) and then, when no graph is at module
level, its `__main__` block, in the module's namespace. Both run on the engine in a thread of
their own, watching which graphs run at the root (`engine.pregel.root_runs`). Those graphs are
the program's: live objects, with the threads their own checkpointers kept of the script's
runs, so a debugger opens them where the script left them. They are named `__main__` (the
first that ran), `__main__2`, ... in the order they first ran, so `FILE.py:__main__2` names
the second. A program that runs none but makes some (to draw them, or to serve them: code that
never ends can be stopped) gives those, in the order they were made, but for the subgraphs
inside them.
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
from functools import partial
from pathlib import Path
from typing import Any

from graphspec.errors import SpecError
from graphspec.program_code import compile_user_code, future_flags

MAIN = "__main__"
TOP_LEVEL = "top-level code"
"""The part of a program its import runs (all but the __main__ block), run first."""
MAIN_BLOCK = "__main__ block"
"""Its `if __name__ == "__main__":` block, run next when no graph is at module level."""
KeepWaiting = Callable[[int, str], bool]
"""Asked again and again while a part of the program runs (TOP_LEVEL, MAIN_BLOCK), with how many
graphs it has run so far: False stops it (a server, an endless loop) and takes the graphs it
ran (or made)."""
ASK_EVERY = 0.05  # seconds between two questions to KeepWaiting
STOP_GRACE = 2.0  # seconds a stopped part gets to unwind (its `finally`s, the world it swapped)
STOPPED = "it was still running and was stopped"
STUCK = "it was still running and could not be stopped"


class BlockStopped(BaseException):
    """Raised inside a program's code whose caller stopped waiting for it. A BaseException, so
    the script's own `except Exception` does not swallow it."""


def is_main_name(name: str | None) -> bool:
    """Whether `name` names a graph the program's code runs (`__main__`, `__main__2`)."""
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
    # the block's own file's __future__ imports apply to it, as they do when python runs it
    module = ast.Module(body=body, type_ignores=[])
    return compile_user_code(module, str(path), flags=future_flags(tree))


@dataclass(frozen=True)
class ScriptInput:
    """The input a program's code first ran a graph with: a debugger's first run of that graph
    starts from it, so the run is the script's."""

    value: Any  # live, as the script gave it (messages, models...): kept in memory, never saved
    runs: int = 1  # how many times the script ran the graph (the value is its first run's)
    configurable: dict = field(default_factory=dict)  # that run's config keys but the thread's
    context: Any = None  # that run's context (`context=`), None without one


@dataclass
class ScriptGraph:
    """A graph a program's code ran (or made, when it ran none)."""

    name: str  # `__main__`, `__main__2`... in the order the graphs first ran (or were made)
    graph: Any
    thread: Any = None  # the thread it last ran on (its checkpointer keeps it), if any
    stopped: str = ""  # how the program ended early (its exception's last line), if it did
    ran: bool = True  # False: the program made it (drew it, served it...) but never ran it
    part: str = MAIN_BLOCK  # which part of the program first ran (or made) it
    stopped_in: str = MAIN_BLOCK  # which part ended early, when one did
    input: Any = None  # the input its first run was given: the live object, kept in memory only
    runs: int = 0  # how many times the program ran it at the root
    configurable: dict = field(default_factory=dict)  # its first run's config keys (user_id...)
    context: Any = None  # its first run's context

    @property
    def script_input(self) -> ScriptInput | None:
        """Its first run's input; None when it never ran, or ran from None (a thread resumed)."""
        if not self.ran or self.input is None:
            return None
        return ScriptInput(self.input, self.runs, dict(self.configurable), self.context)


@dataclass
class Script:
    """A program run as `python FILE.py` runs it: what its parts ran at the root and made."""

    path: Path
    module: Any = None  # the module, once its top-level code ran to its end
    failure: SpecError | None = None  # why its import failed, when it raised
    stopped: str = ""  # how the part that ran last ended early, if it did
    part: str = TOP_LEVEL  # the part that ran last
    runs: list = field(default_factory=list)  # RootRun, both parts', in order
    made: list = field(default_factory=list)  # graphs compiled, both parts', in order
    block_from: tuple[int, int] | None = None  # where the block's runs and made start in them

    def graphs(self) -> list[ScriptGraph]:
        """The graphs it ran, once each, first runs first; else those it made."""
        runs_from, made_from = self.block_from or (len(self.runs), len(self.made))
        by_graph: dict[int, ScriptGraph] = {}
        for i, run in enumerate(list(self.runs)):  # (code that could not be stopped may add)
            ran = by_graph.get(id(run.graph))
            if ran is None:
                ran = by_graph[id(run.graph)] = self._graph(by_graph, run.graph, i >= runs_from)
            ran.thread = run.thread_id if run.thread_id is not None else ran.thread
            if ran.runs == 0:  # (a graph handed to `debug()` was noticed with no input)
                ran.input, ran.configurable, ran.context = run.input, run.configurable, run.context
            ran.runs += 1
        if not by_graph:  # a program that only draws its graphs, or serves them: those it made
            made = list(self.made)
            block = {id(g) for g in made[made_from:]} - {id(g) for g in made[:made_from]}
            for graph in _outermost(made):
                by_graph[id(graph)] = self._graph(by_graph, graph, id(graph) in block, ran=False)
        return list(by_graph.values())

    def _graph(self, named: dict, graph: Any, in_block: bool, ran: bool = True) -> ScriptGraph:
        name = MAIN if not named else f"{MAIN}{len(named) + 1}"
        part = MAIN_BLOCK if in_block else TOP_LEVEL
        return ScriptGraph(name, graph, stopped=self.stopped, ran=ran, part=part,
                           stopped_in=self.part)  # fmt: skip


def _outermost(made: list) -> list:
    """The graphs made, once each, but for those inside another as its subgraph."""
    inside = {id(sub) for graph in made for node in graph.nodes.values() for sub in node.subgraphs}
    return list({id(g): g for g in made if id(g) not in inside}.values())


def import_program(path: Path, keep_waiting: KeepWaiting | None = None) -> Script:
    """Import the program file on the engine (the user agreed), watching the graphs its
    top-level code runs and makes. An exception or a stop ends it as it would end the script
    (`module` stays None); the graphs that ran before stay."""
    from graphspec.importer import load_module

    script = Script(path)

    def load() -> None:
        try:
            script.module = load_module(str(path), on_engine=True)  # as the studio runs it
        except SpecError as exc:  # its code raised (or the file is no module)
            script.failure = exc
            script.stopped = traceback.format_exception_only(exc.__cause__ or exc)[-1].strip()

    _run_watched(load, script, TOP_LEVEL, keep_waiting)
    return script


def run_main_block(script: Script, keep_waiting: KeepWaiting | None = None) -> bool:
    """Run the imported module's __main__ block (False when it has none, or its top-level code
    did not end), watching the graphs it runs and makes after those of the top-level code. With
    `keep_waiting`, the block is stopped when it answers False (else it is waited for, as
    `python FILE.py` would be)."""
    code = main_block(script.path) if script.module is not None else None
    if code is None:
        return False
    script.block_from = (len(script.runs), len(script.made))
    script.part = MAIN_BLOCK
    saved = list(sys.path)
    sys.path.insert(0, str(script.path.resolve().parent))  # as `python FILE.py` runs it
    try:
        block = partial(exec, code, script.module.__dict__)  # the user agreed to run this file
        _run_watched(block, script, MAIN_BLOCK, keep_waiting)
    finally:
        sys.path[:] = saved
    return True


def _run_watched(
    run: Callable[[], None], script: Script, part: str, keep_waiting: KeepWaiting | None
) -> None:
    """`run()` as a part of the program: in a thread of its own, where no event loop runs (the
    script's asyncio.run works when the caller's does: the studio's qasync loop), with no
    arguments and no one typing, until it ends or `keep_waiting` says stop."""
    saved_argv, saved_stdin = sys.argv, sys.stdin
    sys.argv = [str(script.path)]  # as `python FILE.py` runs it, no arguments
    sys.stdin = io.StringIO()  # nobody types: a chat loop's input() ends it, never waits
    stoppable = _Stoppable()
    try:
        worker = threading.Thread(target=_run_part, args=(run, stoppable, script),
                                  name=f"{script.path.name} {part}", daemon=True)  # fmt: skip
        worker.start()
        _wait(worker, stoppable, script, part, keep_waiting)
    finally:
        sys.argv, sys.stdin = saved_argv, saved_stdin


class _Stoppable:
    """Raises BlockStopped in the part's thread, but only while the script's own code runs
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


def _wait(worker: threading.Thread, stoppable: _Stoppable, script: Script, part: str,
          keep_waiting: KeepWaiting | None) -> None:  # fmt: skip
    if keep_waiting is None:
        worker.join()
        return
    while True:
        worker.join(ASK_EVERY)
        if not worker.is_alive():
            return
        if not keep_waiting(len({id(run.graph) for run in list(script.runs)}), part):
            break
    stoppable.stop()  # a server's loop, a polling loop: they wake every so often
    worker.join(STOP_GRACE)
    if worker.is_alive():  # blocked in a call that never returns: it keeps running, unwatched
        script.stopped = STUCK


def _run_part(run: Callable[[], None], stoppable: _Stoppable, script: Script) -> None:
    from engine.pregel.root_runs import watch_root_runs
    from graphspec.engine_world import on_engine

    # its printing goes to stderr: a command's stdout is its own (`superstep run`'s JSON)
    with on_engine(), watch_root_runs(script.runs, script.made, new_threads=True), \
            redirect_stdout(sys.stderr):  # fmt: skip
        try:
            stoppable.enter()
            try:
                run()
            finally:
                stoppable.leave()
        except SystemExit as exc:  # `sys.exit(main())`: the script's end, not a failure
            if exc.code not in (None, 0):
                script.stopped = f"SystemExit: {exc.code}"
        except BlockStopped:
            script.stopped = STOPPED
        except BaseException as exc:  # the script's own error, shown beside what it ran
            script.stopped = traceback.format_exception_only(exc)[-1].strip()


def main_graph(
    script: Script, name: str | None, pick: Any, keep_waiting: KeepWaiting | None = None
) -> ScriptGraph | None:
    """The graph `name` the program's code ran (its top-level code, then its __main__ block,
    run now), the only one when `name` is None, else `pick(path, names)`'s of several (None
    when it picks none). SpecError says why there is none."""
    path = script.path
    block = run_main_block(script, keep_waiting)
    graphs = script.graphs()
    names = [graph.name for graph in graphs]
    if not names:
        if script.failure is not None:  # its import failed before it ran any
            raise script.failure
        ended = f" (it stopped: {script.stopped})" if script.stopped else ""
        if block:
            raise SpecError(f'{path.name}\'s if __name__ == "__main__" block ran no graph and '
                            f"made none{ended}")  # fmt: skip
        if script.module is None:
            raise SpecError(f"{path.name}'s top-level code ran no graph and made none{ended}")
        raise SpecError(f"{path.name} holds no graph (a compiled graph, a StateGraph builder or "
                        "an @entrypoint) and runs none, from its top-level code or from an if "
                        f"__name__ == \"__main__\" block; for a function making one, name it as "
                        f"{path.name}:FUNCTION")  # fmt: skip
    if name is None:
        name = names[0] if len(names) == 1 else pick(path, names)
        if name is None:
            return None
    if name not in names:
        raise SpecError(f"{path.name}'s code ran {len(names)} graph(s): {', '.join(names)}; "
                        f"there is no {name}")  # fmt: skip
    return graphs[names.index(name)]


__all__ = [
    "MAIN",
    "MAIN_BLOCK",
    "STOPPED",
    "STUCK",
    "TOP_LEVEL",
    "BlockStopped",
    "KeepWaiting",
    "Script",
    "ScriptGraph",
    "ScriptInput",
    "import_program",
    "is_main_name",
    "main_block",
    "main_graph",
    "run_main_block",
]
