"""A StateGraph whose state is one builtin value (`StateGraph(int)`, as langgraph's
InMemorySaver docstring builds one) imports with that class as its state (`builtins:int`, no
keys to draw), as an entrypoint taking a plain value does (issue 33). Before, it was refused
("neither a TypedDict, a pydantic model nor a dataclass"); its lambda node got a broken import
path from a module global holding None.

The program is imported with the CLI and run three ways with the same result (the original on
langgraph, the spec compiled on the engine, its langgraph export on langgraph).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.graphspec.test_import_reach import program, three_ways

PROGRAMS = Path(__file__).parents[1] / "programs"


def test_a_graph_whose_state_is_an_int_imports(tmp_path):
    path = program(tmp_path, "int_state", """
from langgraph.graph import StateGraph

NOTHING = None

builder = StateGraph(int)
builder.add_node("add_one", lambda x: x + 1)
builder.set_entry_point("add_one")
builder.set_finish_point("add_one")
graph = builder.compile()
""")  # fmt: skip
    spec = three_ways(path, lambda m: m.graph, 1, tmp_path)
    assert (spec.state_class, spec.state) == ("builtins:int", [])
    assert spec.node("add_one").function == "add_one_lambda"


def test_a_graph_whose_state_is_a_plain_dict_imports_as_one_value(tmp_path):
    """`StateGraph(dict)` (as a course's tiny projects build them, tests/programs/gh_09_subgraph.py):
    langgraph keeps the whole dict as one value that each node's return replaces, so the spec's
    state is `builtins:dict`; before, it was an empty TypedDict and the run returned None."""
    path = program(tmp_path, "dict_state", """
from langgraph.graph import StateGraph

def count(state):
    return {"seen": sorted(state), "n": len(state)}

inner = StateGraph(dict)
inner.add_node("count", count)
inner.set_entry_point("count")
outer = StateGraph(dict)
outer.add_node("inner", inner.compile())
outer.set_entry_point("inner")
graph = outer.compile()
""")  # fmt: skip
    spec = three_ways(path, "graph", {"y": 2, "x": 1}, tmp_path)
    assert (spec.state_class, spec.state) == ("builtins:dict", [])
    assert spec.subgraphs[0].graph.state_class == "builtins:dict"


def test_a_dict_subclass_without_fields_imports_with_no_keys(tmp_path):
    """A subclass of dict has annotations (none), so langgraph gives it no channel and the run
    returns None (an app author's first try, tests/programs/gh_langgraph_test.py): the spec has
    no key and is no whole value, and it runs to None on the engine and as exported (the engine
    returned the input)."""
    path = shutil.copy(PROGRAMS / "gh_langgraph_test.py", tmp_path / "dict_subclass_state.py")
    spec = three_ways(Path(path), "g", {"message": "Hello"}, tmp_path)
    assert (spec.state_class, spec.state) == (None, [])
