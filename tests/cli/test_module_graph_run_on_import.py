"""A module's own graph that its top-level code also runs (a tutorial's `graph =
builder.compile(checkpointer=MemorySaver())` then `graph.invoke(first_input, config)` with no
__main__ guard) is that run's graph: it opens where the code left it, with the thread it ran on
and the input it was given, as a graph a __main__ block ran. Picked by its module name, it
was taken as a fresh graph, and a run from `{}` failed in its first node (KeyError)."""

from __future__ import annotations

import json
import textwrap

import pytest

from graphspec.program_run import load_graph
from studio.cli import main

REVIEW = textwrap.dedent("""\
    from typing import TypedDict

    from langgraph.checkpoint.memory import MemorySaver
    from langgraph.graph import END, START, StateGraph


    class Doc(TypedDict):
        title: str
        stage: str


    def intake(state: Doc) -> dict:
        return {"stage": "read " + state["title"]}


    builder = StateGraph(Doc)
    builder.add_node("intake", intake)
    builder.add_edge(START, "intake")
    builder.add_edge("intake", END)
    graph = builder.compile(checkpointer=MemorySaver())
    FIRST = {"title": "Q4 report", "stage": ""}
    graph.invoke(FIRST, {"configurable": {"thread_id": "doc_001"}})
    history = list(graph.get_state_history({"configurable": {"thread_id": "doc_001"}}))
""")


@pytest.fixture
def review(tmp_path):
    path = tmp_path / "review_at_import.py"
    path.write_text(REVIEW, encoding="utf-8")
    return path


def test_the_module_graph_its_import_ran_keeps_its_thread_and_input(review):
    found = load_graph(review, None, pytest.fail)
    assert found.name == "graph" and found.graph is found.module.graph
    ran = found.script
    assert ran is not None and ran.thread == "doc_001" and ran.runs == 1
    assert ran.script_input.value is found.module.FIRST  # the live object, not a copy
    # the run's checkpoints are the graph's own: its saver keeps the thread the code ran
    assert len(list(found.graph.get_state_history({"configurable": {"thread_id": "doc_001"}})))


def test_a_module_graph_its_import_did_not_run_is_no_scripts(review):
    review.write_text(REVIEW.split("FIRST =")[0], encoding="utf-8")
    assert load_graph(review, None, pytest.fail).script is None


def test_superstep_run_starts_it_from_the_input_its_import_gave(review, capsys):
    code = main(["run", str(review), "--trust"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out) == {"title": "Q4 report", "stage": "read Q4 report"}
    assert "starts from the script's input" in err
