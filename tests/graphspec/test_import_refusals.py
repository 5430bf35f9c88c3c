"""What the importer refuses or asks about, naming the element, instead of guessing: several
graphs, a lambda, path maps keyed by non-strings, retry rules the spec cannot hold; and what it
keeps (breakpoints, saver, store, pydantic state, ToolNode)."""

from __future__ import annotations

import sys
import textwrap

import pytest

from graphspec.errors import SpecError
from graphspec.import_refs import split_target
from graphspec.importer import import_module_graph, load_module
from graphspec.program_graphs import SeveralGraphs, graph_names, pick_name

HEAD = """
from typing_extensions import TypedDict
from langgraph.graph import START, END, StateGraph

class S(TypedDict):
    x: int
"""


def module(tmp_path, name, body):
    path = tmp_path / f"{name}.py"
    path.write_text(HEAD + textwrap.dedent(body), encoding="utf-8")
    return str(path)


def test_a_shadowed_function_still_held_by_another_name_is_referenced_by_that_name(tmp_path):
    path = module(
        tmp_path,
        "aliased_fn",
        """
        def step(state):
            return {"x": 1}
        first_step = step
        def step(state):
            return {"x": 2}
        b = StateGraph(S)
        b.add_node("first", first_step)
        b.add_node("second", step)
        b.add_edge(START, "first")
        b.add_edge("first", "second")
        graph = b.compile()
    """,
    )
    spec = import_module_graph(path)
    assert [n.import_path for n in spec.nodes] == ["aliased_fn:first_step", "aliased_fn:step"]


def test_several_graphs_without_a_usual_name_ask_which(tmp_path):
    path = module(
        tmp_path,
        "two_graphs",
        """
        def one(state):
            return {"x": 1}
        first = StateGraph(S)
        first.add_node("one", one)
        first.add_edge(START, "one")
        writer = first.compile()
        second = StateGraph(S)
        second.add_node("one", one)
        second.add_edge(START, "one")
        reviewer = second.compile()
    """,
    )
    with pytest.raises(SeveralGraphs) as info:
        import_module_graph(path)
    assert info.value.names == ["writer", "reviewer"]  # builders of compiled graphs not repeated
    assert graph_names(load_module(path)) == ["writer", "reviewer"]
    assert import_module_graph(path, "reviewer").nodes[0].id == "one"
    assert split_target(f"{path}:reviewer") == (path, "reviewer")
    assert split_target(r"C:\\x\\y.py") == (r"C:\\x\\y.py", None)


@pytest.mark.parametrize("held_as", ["writer", "builder"])
def test_of_several_graphs_the_one_holding_the_others_is_taken(tmp_path, held_as):
    # a supervisor beside the agents it runs as subgraphs (held as compiled, or as a builder
    # compiled in the call): the file means the supervisor
    path = module(
        tmp_path,
        f"team_{held_as}",
        f"""
        def one(state):
            return {{"x": 1}}
        builder = StateGraph(S)
        builder.add_node("one", one)
        builder.add_edge(START, "one")
        writer = builder.compile()
        reviewer = StateGraph(S).add_node("one", one).add_edge(START, "one").compile()
        team = StateGraph(S)
        team.add_node("write", {"writer" if held_as == "writer" else "builder.compile()"})
        team.add_node("review", reviewer)
        team.add_edge(START, "write")
        team.add_edge("write", "review")
        supervisor = team.compile()
    """,
    )
    names = graph_names(load_module(path))
    assert "supervisor" in names and "reviewer" in names
    assert [n.id for n in import_module_graph(path).nodes] == ["write", "review"]


def test_a_graph_called_graph_that_another_runs_is_not_taken_for_the_file(tmp_path):
    # nested subgraphs, the middle one called `graph`: the file means the grandparent, which
    # holds it; named, the middle one opens
    path = module(
        tmp_path,
        "nested_three",
        """
        def one(state):
            return {"x": 1}
        child = StateGraph(S).add_node("child_step", one).add_edge(START, "child_step").compile()
        middle = StateGraph(S).add_node("parent_step", one).add_node("child", child)
        graph = middle.add_edge(START, "parent_step").add_edge("parent_step", "child").compile()
        top = StateGraph(S).add_node("gp_step", one).add_node("parent", graph)
        grandparent = top.add_edge(START, "gp_step").add_edge("gp_step", "parent").compile()
    """,
    )
    assert pick_name(load_module(path), path) == "grandparent"
    assert [n.id for n in import_module_graph(path).nodes] == ["gp_step", "parent"]
    assert [n.id for n in import_module_graph(path, "graph").nodes] == ["parent_step", "child"]


def test_lambdas_bool_path_maps_and_custom_retry_rules_are_refused_by_element(tmp_path):
    lam = module(
        tmp_path,
        "lambda_node",
        """
        def make(step):  # a module-level lambda becomes code; this one reads `step`
            b = StateGraph(S)
            b.add_node("inc", lambda s: {"x": s["x"] + step})
            b.add_edge(START, "inc")
            return b.compile()
        graph = make(1)
    """,
    )
    with pytest.raises(SpecError, match="module-level") as info:
        import_module_graph(lam)
    assert info.value.element_id == "inc"
    bools = module(
        tmp_path,
        "bool_map",
        """
        def a(state):
            return {}
        def big(state):
            return state["x"] > 3
        b = StateGraph(S)
        b.add_node("a", a)
        b.add_edge(START, "a")
        b.add_conditional_edges("a", big, {True: END, False: "a"})
        graph = b.compile()
    """,
    )
    with pytest.raises(SpecError, match="not all strings"):
        import_module_graph(bools)
    retry = module(
        tmp_path,
        "custom_retry",
        """
        from langgraph.types import RetryPolicy
        class Flaky(Exception):
            pass
        def a(state):
            return {}
        b = StateGraph(S)
        b.add_node("a", a, retry_policy=RetryPolicy(retry_on=Flaky))
        b.add_edge(START, "a")
        graph = b.compile()
    """,
    )
    with pytest.raises(SpecError, match="builtin exception") as info:
        import_module_graph(retry)
    assert info.value.element_id == "a"


def test_what_compile_was_given_comes_back(tmp_path):
    path = module(
        tmp_path,
        "compiled_with",
        """
        from langgraph.checkpoint.memory import InMemorySaver
        from langgraph.store.memory import InMemoryStore
        def a(state):
            return {}
        b = StateGraph(S)
        b.add_node("a", a)
        b.add_edge(START, "a")
        graph = b.compile(checkpointer=InMemorySaver(), store=InMemoryStore(),
                          interrupt_before=["a"], interrupt_after="*")
    """,
    )
    spec = import_module_graph(path)
    assert (spec.checkpointer, spec.store, spec.cache) == ("memory", "memory", None)
    assert (spec.breakpoints.before, spec.breakpoints.after) == (["a"], ["a"])


def test_tool_node_becomes_a_tools_node_with_its_tools(tmp_path):
    path = module(
        tmp_path,
        "tools_mod",
        """
        from langchain_core.tools import tool
        from langgraph.prebuilt import ToolNode
        @tool
        def add(a: int, b: int) -> int:
            "Add two numbers."
            return a + b
        b = StateGraph(S)
        b.add_node("tools", ToolNode([add]))
        b.add_edge(START, "tools")
        graph = b.compile()
    """,
    )
    [node] = import_module_graph(path).nodes
    assert node.kind == "tools"
    assert [(t.name, t.description, t.import_path) for t in node.tools] == [
        ("add", "Add two numbers.", "tools_mod:add.func")
    ]


def test_importing_leaves_sys_path_as_it_was(tmp_path):
    path = module(
        tmp_path,
        "path_probe",
        """
        def a(state):
            return {}
        b = StateGraph(S)
        b.add_node("a", a)
        b.add_edge(START, "a")
        graph = b.compile()
    """,
    )
    before = list(sys.path)
    import_module_graph(path)
    assert sys.path == before
