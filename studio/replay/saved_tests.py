"""Runs saved as tests: a thread's recording written as a pytest file plus its data, replayed
offline and checked against the recorded run's steps, final state and path.

`save_test` writes `test_<name>.py` (fixed text that calls `check_saved_run`; `<name>` is the
thread's id cut down to ASCII letters, digits and `_`) and `test_<name>.recording.json`: the
thread, the spec's path (relative to the test), the recorded inputs and model calls, what a
replay serves, and the recorded run's supersteps. The thread id and the spec's name (which may
come from someone else's files) live in the data only, never in the Python file. The recording
is data: it is read with `json` and decoded by `engine.record.codec`, which imports nothing; what
it may make run is ruled by `saved_trust` (its spec stays in the project, trust is never read
from it). Tools run live by default (`serve: ["model"]`): they are the code under test. A model
call whose input changed is served from the recording anyway and named in the failure, with the
run diff.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.record.store import RecordedCall, RecordedRun, RecordingStore
from studio.replay.run_diff import RunDiff, Step, diff_runs, run_steps
from studio.replay.saved_trust import (
    PROGRAM_TRUST_HINT,
    Refused,
    may_run_code,
    may_run_program,
    refuse_untrusted,
    spec_in_project,
)

if TYPE_CHECKING:
    from engine.record.replay import ReplayReport

FORMAT_VERSION = 1
MAX_NAME = 80
"""Characters of the thread id kept in the file names (a file name has 255 bytes at most)."""
TEST_SOURCE = '''"""Saved by Superstep Studio: a recorded thread replayed from its recording (the data file
beside this one, which names the thread and the spec); checks every superstep, the final state
and the path."""

from studio.replay.saved_tests import check_saved_run


def test_{name}():
    check_saved_run(__file__, {data!r})
'''


@dataclass
class SavedResult:
    """One saved test's outcome: `lines` say what differs (empty when it passed)."""

    name: str
    passed: bool
    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """The lines that are not the run diff: the replay's error, each changed model call."""
    diff: RunDiff | None = None
    report: ReplayReport | None = None


def save_test(graph: Any, spec_path: Path, thread: str, folder: Path,
              serve: tuple[str, ...] = ("model",), graph_name: str | None = None) -> Path:  # fmt: skip
    """Write the test of `thread` (recorded on `graph`'s checkpointer) into `folder`; returns
    the test file. `spec_path` is the spec, or with `graph_name` the program holding that graph
    (a graph from code). One outside the folder's project is refused (its test could not run)."""
    store = RecordingStore.for_saver(graph.checkpointer)
    runs = store.runs(thread)
    if not runs:
        raise ValueError(f"thread {thread!r} has no recording: run it with recording on first")
    source = _relative(spec_path, folder)
    spec_in_project(folder, source)
    name = saved_name(thread)
    folder.mkdir(parents=True, exist_ok=True)
    data_name = f"test_{name}.recording.json"
    where = {"spec": source} if graph_name is None else {"program": source, "graph": graph_name}
    data = {
        "version": FORMAT_VERSION, "thread": thread, "serve": list(serve), **where,
        "runs": [{"input": json.loads(r.input)} for r in runs],
        "calls": [_call_data(c) for c in store.calls(thread)],
        "steps": [_step_data(s) for s in run_steps(graph, thread)],
    }  # fmt: skip
    (folder / data_name).write_text(
        json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    test = folder / f"test_{name}.py"
    test.write_text(TEST_SOURCE.format(name=name, data=data_name), encoding="utf-8")
    return test


def saved_name(thread: str) -> str:
    """The part of a test's names taken from its thread: ASCII letters, digits and `_` only, so
    it is a Python identifier and a plain file name (no `..`, no separator, no quote)."""
    return re.sub(r"[^A-Za-z0-9_]+", "_", thread).strip("_")[:MAX_NAME].strip("_") or "thread"


def load_replaying() -> None:
    """Import what replaying a saved test needs (the in-memory saver, and replaying's serving:
    langchain-core's LLM cache, the tool node), which the window does not load: the Tests dock
    calls this on the GUI thread, so its worker is never the first to import the engine's
    modules (two threads importing into one import cycle can see half-made modules)."""
    import engine.checkpoint.memory  # noqa: F401
    import engine.record.replay  # noqa: F401


def run_saved(data_path: Path, *, trusted: Callable[[Path], bool] | None = None) -> SavedResult:
    """Replay one saved test's recording on the spec as it is now and compare. `trusted`
    decides whether the spec's code may run (given the spec's path); without it
    `saved_trust.may_run_code` does. The data file's own `trusted` (older files) is ignored."""
    from engine.checkpoint.memory import InMemorySaver
    from engine.record.replay import replay_thread  # serving loads langchain-core's LLM cache
    from graphspec import commands
    from graphspec.compiler import run_config
    from graphspec.providers import keyless_models

    name = data_path.name.removesuffix(".recording.json")
    try:
        data = json.loads(data_path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not isinstance(data.get("thread"), str):
            raise Refused("it is not a saved test's data (a JSON object with a thread)")
        if "program" in data:
            graph, config = _program_graph(data_path.parent, data, trusted)
        else:
            spec, path = commands.load(str(spec_in_project(data_path.parent, data.get("spec"))))
            allowed = may_run_code(path) if trusted is None else trusted(path)
            if not allowed:
                refuse_untrusted(spec, path)
            with keyless_models():  # offline, no account: the recording answers the model calls
                graph = commands.compile_for_run(spec, path, trusted=allowed,
                                                 checkpointer=InMemorySaver())  # fmt: skip
            config = run_config(spec)
        store = _store_of(data)
        expected = [_step_of(s) for s in data["steps"]]
    except Exception as exc:  # a bad file or a spec that no longer loads: a failure, named
        problem = f"{data_path}: {exc if isinstance(exc, Refused) else _line(exc)}"
        return SavedResult(name, False, [problem], [problem])
    report = replay_thread(graph, data["thread"], "saved-test", on_change="recorded",
                           serve=tuple(data.get("serve", ("model",))), store=store,
                           config=config)  # fmt: skip
    diff = diff_runs(expected, [_step_of(_step_data(s)) for s in run_steps(graph, "saved-test")],
                     "recorded", "now")  # fmt: skip
    problems = [] if report.error is None else [f"the replay stopped: {_line(report.error)}"]
    problems += [d.describe() for d in report.changed]
    lines = problems + ([] if diff.same else diff.lines())
    return SavedResult(name, not lines, lines, problems, diff, report)


def _program_graph(folder: Path, data: dict,
                   trusted: Callable[[Path], bool] | None) -> tuple[Any, dict]:  # fmt: skip
    """A graph from code's test: its program (inside the project, and only when trusted: it is
    all code) loaded on the engine, the graph it names with a fresh in-memory saver."""
    from engine.checkpoint.memory import InMemorySaver
    from graphspec.importer import load_module
    from graphspec.program_graphs import compiled, graph_value
    from graphspec.providers import keyless_models

    path = spec_in_project(folder, data.get("program"))
    name = data.get("graph")
    if not isinstance(name, str) or not name.isidentifier():
        raise Refused(f"its graph {name!r} is not a name in the program")
    if not (may_run_program() if trusted is None else trusted(path)):
        raise Refused(f"program {path.name} is Python code, which a saved test runs only when "
                      f"trusted: {PROGRAM_TRUST_HINT}")  # fmt: skip
    with keyless_models():
        module = load_module(str(path), on_engine=True)
        graph = compiled(graph_value(module, name, path.name), f"{path.name}:{name}")
    return graph.copy({"checkpointer": InMemorySaver()}), {}


def check_saved_run(test_file: str, data_name: str) -> None:
    """The body of a saved test: replay and fail with the differences, if any."""
    if Path(data_name).name != data_name:
        raise AssertionError(f"{data_name!r} is not a file name beside the test")
    result = run_saved(Path(test_file).resolve().parent / data_name)
    if not result.passed:
        raise AssertionError("\n".join(result.lines))


def find_saved(folder: Path) -> list[Path]:
    """The saved tests' recordings below `folder`."""
    return sorted(folder.rglob("test_*.recording.json"))


# ------------------------------------------------------------------ the data file


def _relative(path: Path, folder: Path) -> str:
    """`path` from `folder`, as a spec names files (`/` on every OS: a test saved on Windows
    runs in a Linux CI)."""
    import os

    from graphspec.model import portable_path

    return portable_path(os.path.relpath(path.resolve(), folder.resolve()))


def _call_data(call: RecordedCall) -> dict:
    # its clock times are left out: a test saved twice from one run reads the same
    fields = {k: v for k, v in call.__dict__.items() if k not in ("started", "ended")}
    for key in ("input", "output"):
        fields[key] = json.loads(fields[key]) if fields[key] is not None else None
    return fields


def _step_data(step: Step) -> dict:
    from engine.record import codec  # langchain-core's messages: loaded with a run's values

    return {"step": step.step, "tasks": list(step.tasks), "copied": step.copied,
            "writes": codec.encode([list(w) for w in step.writes]),
            "values": codec.encode(step.values)}  # fmt: skip


def _step_of(data: dict) -> Step:
    # through JSON both ways, so tuples and lists compare alike
    plain = json.loads(json.dumps(data))
    return Step(int(plain["step"]), tuple(plain["tasks"]),
                tuple((w[0], w[1]) for w in plain["writes"]), plain["values"],
                bool(plain.get("copied")))  # fmt: skip


def _store_of(data: dict) -> RecordingStore:
    store = RecordingStore()
    thread = data["thread"]
    for i, run in enumerate(data["runs"]):
        store.add_run(RecordedRun(thread, f"run-{i}", i, "", json.dumps(run["input"])))
    for call in data["calls"]:
        fields = {**call, "thread_id": thread}
        for key in ("input", "output"):
            if fields[key] is not None:
                fields[key] = json.dumps(fields[key])
        store.add_call(RecordedCall(**fields))
    return store


def _line(exc: BaseException) -> str:
    text = str(exc).splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"
