"""Real LangGraph programs by other people (tests/programs/, listed in manifest.json), each run
on real langgraph and on the engine with the same inputs and resumes: the final states must be
the same.

A program is loaded on langgraph by a plain import of its file (its folder on sys.path), and
on the engine by `graphspec.importer.load_module(path, on_engine=True)` (its langgraph and
langchain.agents imports pointed at the engine). The manifest says what to open (`attr`, a
factory to call, or a langgraph.json project's graph), the inputs, the resumes for its
interrupts, the run-scoped context, whether it runs async and the stream mode(s) a program
streamed with (`stream_mode`: each step's chunks are compared). Where the engine differs, the
entry says so in `engine_diverges` and the test is a strict xfail: an engine bug, listed.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import inspect
import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from graphspec.importer import load_module
from graphspec.program_names import module_name
from tests.oracle import normalize

HERE = Path(__file__).parent
MANIFEST = json.loads((HERE / "manifest.json").read_text(encoding="utf-8"))
ENTRIES = {entry["name"]: entry for entry in MANIFEST["programs"]}
KINDS = {"compiled", "builder", "pregel", "entrypoint", "create_agent", "create_react_agent",
         "deep_agent", "factory", "project"}  # fmt: skip
FEATURES = {"interrupt", "send", "subgraph", "multi_agent", "middleware", "response_format",
            "context", "store", "redefined_name"}  # fmt: skip


_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(\+00:00|Z)?")


def comparable(value: Any) -> Any:
    """`normalize`d, then clock times masked and objects without an equality of their own (a
    program's returned future) compared by their repr."""
    if isinstance(value, str):
        return _TIME.sub("<time>", value)
    if isinstance(value, dict):
        return {k: comparable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [comparable(v) for v in value]
        return items if isinstance(value, list) else tuple(items)
    if value is not None and type(value).__eq__ is object.__eq__:
        return (type(value).__name__, _TIME.sub("<time>", repr(value)))
    return value


def program_path(entry: dict) -> tuple[Path, str]:
    """The program's .py file and the attribute holding its graph (a project's langgraph.json
    names them as ./path.py:attr)."""
    path = HERE / entry["file"]
    if path.name != "langgraph.json":
        return path, entry["attr"]
    target = json.loads(path.read_text(encoding="utf-8"))["graphs"][entry["graph"]]
    file, _, attr = target.rpartition(":")
    return (path.parent / file).resolve(), attr


def forget_local_modules(folder: Path) -> None:
    """Drop the modules a program's folder holds (its helpers, a vendored package) so each load
    imports them again in its own world."""
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None) or ""
        if file.startswith(str(folder)) and Path(file).name != "_offline.py":
            del sys.modules[name]


def home(entry: dict) -> Path:
    """The folder a program's own imports resolve from: a project's (langgraph.json's
    "dependencies": ["."]), the package root a program inside a package names (`root`), or its
    file's."""
    if entry["kind"] == "project":
        return (HERE / entry["file"]).parent
    return HERE / entry["root"] if "root" in entry else program_path(entry)[0].parent


@contextmanager
def program_imports(entry: dict) -> Iterator[None]:
    """While it lasts, the program's own imports resolve from its folders, to modules loaded
    afresh."""
    path, _ = program_path(entry)
    forget_local_modules(home(entry))
    saved = list(sys.path)
    sys.path[:0] = [str(path.parent), str(HERE), str(home(entry))]  # HERE: for _offline
    try:
        yield
    finally:
        sys.path[:] = saved


def load(entry: dict, on_engine: bool) -> ModuleType:
    path, _ = program_path(entry)
    with program_imports(entry):
        if on_engine:
            return load_module(str(path), on_engine=True)
        name = module_name(path)  # the name the engine's load gives it, as `langgraph dev` does
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module


def graph_of(entry: dict, module: ModuleType, prefix: str) -> Any:
    """The runnable graph: the attribute, called if a factory, compiled if a builder (with an
    in-memory saver of its own runtime, so resumes and several inputs share a thread; a project's
    graph gets one too, as the server gives it)."""
    obj = module
    for part in program_path(entry)[1].split("."):
        obj = obj[part] if isinstance(obj, dict) else getattr(obj, part)
    if entry.get("factory"):
        positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        params = inspect.signature(obj).parameters.values()
        wants_config = any(p.kind in positional for p in params)  # as langgraph.json's factories
        obj = obj({"configurable": {}}) if wants_config else obj()
    saver = importlib.import_module(f"{prefix}.checkpoint.memory").InMemorySaver()
    if hasattr(obj, "compile") and not hasattr(obj, "invoke"):
        obj = obj.compile(checkpointer=saver)
    elif entry["kind"] == "project" and not obj.checkpointer:
        obj = obj.copy({"checkpointer": saver})  # as the langgraph server runs a project's graph
    return obj


def run(entry: dict, on_engine: bool) -> list[Any]:
    """Each input, then each resume, on one fresh thread: every output (or the error), then the
    thread's final state when the graph keeps one."""
    prefix = "engine" if on_engine else "langgraph"
    module = load(entry, on_engine)
    return run_graph(entry, graph_of(entry, module, prefix), module, prefix)


def run_graph(entry: dict, graph: Any, module: ModuleType, prefix: str) -> list[Any]:
    """`run` on a graph already made: `module` holds the program's context class, `prefix` is
    the runtime it runs on."""
    command = importlib.import_module(f"{prefix}.types").Command
    config = {"configurable": {"thread_id": f"program-{entry['name']}"}}
    kwargs = {}
    if "context" in entry:
        context = entry["context"]
        kwargs["context"] = getattr(module, entry["context_class"])(**context) if entry.get(
            "context_class") else context  # fmt: skip
    steps = [*entry["inputs"], *(command(resume=value) for value in entry.get("resume", []))]

    mode = entry.get("stream_mode")  # streamed: every chunk is compared, not only the result

    async def step_async(step: Any) -> Any:
        if mode:
            return [c async for c in graph.astream(step, config, stream_mode=mode, **kwargs)]
        return await graph.ainvoke(step, config, **kwargs)

    def step_sync(step: Any) -> Any:
        if mode:
            return list(graph.stream(step, config, stream_mode=mode, **kwargs))
        return graph.invoke(step, config, **kwargs)

    outs = []
    for step in steps:  # an async program runs each step in its own event loop, as a caller would
        try:
            out = asyncio.run(step_async(step)) if entry.get("async") else step_sync(step)
        except Exception as exc:  # compared as (class name, message)
            out = exc
        outs.append(out)
    if getattr(graph, "checkpointer", None):
        state = graph.get_state(config)
        outs.append({"values": state.values, "next": state.next})
    return comparable(normalize(outs))


def marks(entry: dict) -> list[Any]:
    reason = entry.get("engine_diverges")
    return [pytest.mark.xfail(strict=True, reason=reason)] if reason else []


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=marks(e)) for n, e in ENTRIES.items()]
)  # fmt: skip
def test_runs_the_same_on_the_engine(name):
    entry = ENTRIES[name]
    expected = run(entry, on_engine=False)
    assert run(entry, on_engine=True) == expected


def test_the_manifest_covers_every_kind_with_forty_programs():
    assert len(ENTRIES) >= 40
    kinds = [entry["kind"] for entry in ENTRIES.values()]
    assert set(kinds) == KINDS, set(kinds) ^ KINDS
    assert sum(entry["kind"] == "project" for entry in ENTRIES.values()) >= 3
    features = {f for entry in ENTRIES.values() for f in entry["features"]}
    assert FEATURES <= features, FEATURES - features
    for entry in ENTRIES.values():
        path, attr = program_path(entry)
        assert path.is_file() and attr, entry["name"]
        head = path.read_text(encoding="utf-8").splitlines()[:12]
        assert head[0].startswith("# Source: "), f"{path} does not name its source"
        assert any(line.startswith("# License: ") for line in head), f"{path} names no license"
        assert any(line.startswith("# Adapted: ") for line in head), f"{path} says no Adapted"
        assert entry["source"].startswith("https://") and "==" in entry["taken_from"]
