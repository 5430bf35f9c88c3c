"""The corpus (tests/graphspec/corpus/): real LangGraph programs, each our own version of a docs
how-to, tutorial or LangChain agent example (the source is named at the top of each file), with
model calls replaced by scripted models.

Each program runs the same on the engine as on langgraph (its source with `langgraph` imports
pointed at `engine`), and survives import -> spec -> langgraph export -> run on langgraph with the
same final state. A program says how it runs: INPUT (or INPUTS, one run each on one thread),
RESUME (answers to its interrupts, in order), CONTINUE (runs past breakpoints), ASYNC.
"""

from __future__ import annotations

import asyncio
import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from graphspec.export import to_langgraph
from graphspec.importer import import_module_graph, load_module
from graphspec.io import dumps_spec, load_spec
from graphspec.program_graphs import pick_name
from graphspec.validator import validate
from tests.oracle import normalize

CORPUS = Path(__file__).parent / "corpus"
PROGRAMS = sorted(p.stem for p in CORPUS.glob("*.py") if not p.stem.startswith("_"))


def on_engine(stem: str) -> ModuleType:
    """The program with its langgraph (and langchain.agents) imports pointed at the engine."""
    return load_module(str(CORPUS / f"{stem}.py"), on_engine=True)


def run(program: ModuleType, graph: Any, prefix: str) -> Any:
    """Every input of the program, its resumes and continues, on one thread: the last output."""
    command = importlib.import_module(f"{prefix}.types").Command
    config = {"configurable": {"thread_id": "corpus"}}
    inputs = getattr(program, "INPUTS", None) or [program.INPUT]
    steps = [*inputs, *(command(resume=v) for v in getattr(program, "RESUME", []))]
    steps += [None] * getattr(program, "CONTINUE", 0)

    async def run_async() -> Any:
        out = None
        for step in steps:
            out = await graph.ainvoke(step, config)
        return out

    if getattr(program, "ASYNC", False):
        return normalize(asyncio.run(run_async()))
    out = None
    for step in steps:
        out = graph.invoke(step, config)
    return normalize(out)


def original(stem: str) -> tuple[ModuleType, Any]:
    module = load_module(str(CORPUS / f"{stem}.py"))
    return module, getattr(module, pick_name(module, stem))


def test_the_corpus_is_big_enough():
    assert len(PROGRAMS) >= 30
    for stem in PROGRAMS:
        head = (CORPUS / f"{stem}.py").read_text(encoding="utf-8").splitlines()[0]
        assert head.startswith("# Follows: "), f"{stem} does not name its source"


@pytest.mark.parametrize("stem", PROGRAMS)
def test_runs_the_same_on_the_engine(stem):
    module, graph = original(stem)
    expected = run(module, graph, "langgraph")
    engine_module = on_engine(stem)
    ours = run(engine_module, getattr(engine_module, pick_name(engine_module, stem)), "engine")
    assert ours == expected


@pytest.mark.parametrize("stem", PROGRAMS)
def test_the_spec_imported_on_the_engine_runs_the_same_there(stem):
    """What the studio does with a .py: import it on the engine, compile the spec, run it."""
    module, graph = original(stem)
    expected = run(module, graph, "langgraph")
    spec = import_module_graph(str(CORPUS / f"{stem}.py"), on_engine=True)
    from engine.checkpoint.memory import InMemorySaver
    from graphspec.compiler import compile_spec

    saver = InMemorySaver() if spec.checkpointer else None
    compiled = compile_spec(spec, trusted=True, checkpointer=saver)
    assert run(on_engine(stem), compiled, "engine") == expected


@pytest.mark.parametrize("stem", PROGRAMS)
def test_round_trip_gives_the_same_final_state_on_langgraph(stem, tmp_path):
    module, graph = original(stem)
    expected = run(module, graph, "langgraph")
    spec = import_module_graph(str(CORPUS / f"{stem}.py"))
    assert dumps_spec(load_spec(dumps_spec(spec))) == dumps_spec(spec)
    errors = [f.labelled() for f in validate(spec) if f.severity == "error"]
    assert not errors
    exported = tmp_path / f"roundtrip_{stem}.py"
    exported.write_text(to_langgraph(spec), encoding="utf-8")
    again = load_module(str(exported))
    assert run(module, again.graph, "langgraph") == expected


def test_ordinary_programs_validate_without_warnings():
    noisy = {}
    for stem in PROGRAMS:
        spec = import_module_graph(str(CORPUS / f"{stem}.py"))
        if warnings := [f.labelled() for f in validate(spec)]:
            noisy[stem] = warnings
    assert noisy == {}
