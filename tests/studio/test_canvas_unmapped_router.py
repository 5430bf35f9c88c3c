"""A router without a path map whose function returns a plain `str` (`add_conditional_edges(START,
route)`) may go anywhere: langgraph's `get_graph()` draws the routes it can see, a dashed edge
from START to END, and the canvas draws the same, for the opened program, the spec saved from it
and the LangGraph code exported from it, reopened."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.constants import END, START
from studio.cli import main
from tests.studio.code_programs import langgraph_graph, open_program

pytestmark = pytest.mark.gui

PROGRAM = """\
from typing import TypedDict

from langgraph.constants import END, START
from langgraph.graph import StateGraph


class State(TypedDict):
    number: int


def node_1(state: State):
    return {"number": state["number"] + 1}


def routing_func(state: State) -> str:
    return "node1" if state["number"] > 5 else END


builder = StateGraph(State)
builder.add_node("node1", node_1)
builder.add_conditional_edges(START, routing_func)
builder.add_edge("node1", END)
graph = builder.compile()
"""


def drawn(window) -> set[tuple[str, str, str]]:
    """(source, target, style) of every edge on the canvas."""
    return {(e.look.sources[0], e.look.target, e.look.style) for e in window.scene.edges.values()}


def langgraph_drawn(path: Path) -> set[tuple[str, str, str]]:
    """What real langgraph's `get_graph()` draws, in the canvas's terms (a conditional edge is
    the canvas's dashed "conditional")."""
    edges = langgraph_graph(path, "graph").get_graph().edges
    return {(e.source, e.target, "conditional" if e.conditional else "plain") for e in edges}


def test_a_router_returning_str_from_start_draws_langgraphs_routes(qtbot, window, tmp_path):
    program = tmp_path / "route_start.py"
    program.write_text(PROGRAM, encoding="utf-8")
    oracle = langgraph_drawn(program)
    assert (START, END, "conditional") in oracle

    open_program(qtbot, window, program, "graph")
    assert window.document.code is None  # an editable spec: its router is code, no path map
    assert drawn(window) == oracle | {("node1", END, "plain")}  # our canvas draws every edge

    saved = tmp_path / "saved.json"
    assert window.save_as(saved)
    assert window.open_path(saved)
    assert drawn(window) == oracle | {("node1", END, "plain")}

    exported = tmp_path / "exported_route.py"
    assert window.export("langgraph", exported)
    open_program(qtbot, window, exported, "graph")
    assert drawn(window) == oracle | {("node1", END, "plain")}


def test_the_mermaid_export_draws_it_too(tmp_path, capsys):
    program = tmp_path / "route_start.py"
    program.write_text(PROGRAM, encoding="utf-8")
    spec, chart = tmp_path / "spec.json", tmp_path / "chart.mmd"
    assert main(["import", f"{program}:graph", "--trust", "-o", str(spec)]) == 0
    assert main(["export", str(spec), "--to", "mermaid", "-o", str(chart)]) == 0
    assert '__start__ -.->|"__end__"| __end__' in chart.read_text(encoding="utf-8")
