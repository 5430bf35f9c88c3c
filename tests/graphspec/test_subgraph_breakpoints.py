"""A subgraph compiled with its own interrupt_before pauses the run inside it, as on langgraph:
the importer keeps those breakpoints in the subgraph's spec, the compiler and the exported code
compile the subgraph with them (all three dropped them: the run went through)."""

from __future__ import annotations

from langgraph.checkpoint.memory import InMemorySaver as LgSaver

from engine.checkpoint.memory import InMemorySaver
from graphspec.compiler import compile_spec
from graphspec.importer import import_module_graph
from tests.graphspec.helpers import load_exported

PROGRAM = """
from typing import TypedDict

from langgraph.graph import END, START, StateGraph


class S(TypedDict):
    x: int


def add_one(state):
    return {"x": state["x"] + 1}


def double(state):
    return {"x": state["x"] * 2}


inner = StateGraph(S)
inner.add_node("inner_a", add_one)
inner.add_node("inner_b", double)
inner.add_edge(START, "inner_a")
inner.add_edge("inner_a", "inner_b")
inner.add_edge("inner_b", END)

outer = StateGraph(S)
outer.add_node("prep", add_one)
outer.add_node("team", inner.compile(interrupt_before=["inner_b"]))
outer.add_edge(START, "prep")
outer.add_edge("prep", "team")
outer.add_edge("team", END)
graph = outer.compile()
"""


def paused(graph) -> tuple:
    """Where the first run waits: the parent's next, the subgraph's next, the values."""
    config = {"configurable": {"thread_id": "t"}}
    graph.invoke({"x": 1}, config)
    state = graph.get_state(config, subgraphs=True)
    return state.next, state.tasks[0].state.next, state.tasks[0].state.values


def test_a_subgraphs_own_breakpoints_are_kept_and_pause_inside_it(tmp_path):
    program = tmp_path / "team_with_a_breakpoint.py"
    program.write_text(PROGRAM, encoding="utf-8")
    spec = import_module_graph(str(program))
    assert spec.subgraphs[0].graph.breakpoints.before == ["inner_b"]
    expected = (("team",), ("inner_b",), {"x": 3})
    assert paused(compile_spec(spec, trusted=True, checkpointer=InMemorySaver())) == expected
    exported = load_exported(spec, tmp_path, "subgraph_breakpoints")
    assert (
        "interrupt_before=['inner_b']"
        in (tmp_path / "exported_subgraph_breakpoints.py").read_text()
    )
    assert paused(exported.compile_graph(LgSaver())) == expected  # langgraph runs it the same
