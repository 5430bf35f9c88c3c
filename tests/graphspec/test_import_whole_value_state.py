"""A StateGraph whose state is one builtin value (`StateGraph(int)`, as langgraph's
InMemorySaver docstring builds one) imports with that class as its state (`builtins:int`, no
keys to draw), as an entrypoint taking a plain value does (issue 33). Before, it was refused
("neither a TypedDict, a pydantic model nor a dataclass"); its lambda node got a broken import
path from a module global holding None.

The program is imported with the CLI and run three ways with the same result (the original on
langgraph, the spec compiled on the engine, its langgraph export on langgraph).
"""

from __future__ import annotations

from tests.graphspec.test_import_reach import program, three_ways


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
