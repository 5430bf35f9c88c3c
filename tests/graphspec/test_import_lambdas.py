"""A node or router given as a lambda at module level (`builder.add_node("a", lambda state:
...)`, as langgraph's docs write small graphs) becomes inline code: a function with the lambda's
arguments returning its body, after imports of the module globals it reads (issue 33). Before,
the whole program was refused ("<lambda> is not a module-level function"). A lambda made inside
a function, reading its variables, is still refused by name.

Each program is imported with the CLI and run three ways with the same result (the original on
langgraph, the spec compiled on the engine, its langgraph export on langgraph).
"""

from __future__ import annotations

import pytest

from graphspec.errors import SpecError
from graphspec.importer import import_module_graph
from tests.graphspec.test_import_reach import STATE_HEAD, program, three_ways


def test_module_level_lambdas_become_inline_code(tmp_path):
    path = program(tmp_path, "lambdas", """
SUFFIX = "!"

builder = StateGraph(S)
builder.add_node("a", lambda state: {"log": ["a" + SUFFIX]})
builder.add_node("b", lambda state: {"log": [f"b{len(state['log'])}"]})
builder.add_edge(START, "a")
builder.add_conditional_edges("a", lambda state: "b" if state["log"] else END, ["b", END])
graph = builder.compile()
""", STATE_HEAD)  # fmt: skip
    spec = three_ways(path, lambda m: m.graph, {"log": []}, tmp_path)
    a = spec.node("a")
    assert a.function == "a_lambda" and "from lambdas import SUFFIX" in a.code
    assert "return {'log': ['a' + SUFFIX]}" in a.code
    assert spec.conditional_edges[0].router.code is not None


def test_a_lambda_made_inside_a_function_is_refused_by_name(tmp_path):
    path = program(tmp_path, "closure_lambda", """
def make(word):
    builder = StateGraph(S)
    builder.add_node("a", lambda state: {"log": [word]})
    builder.add_edge(START, "a")
    return builder.compile()

graph = make("hi")
""", STATE_HEAD)  # fmt: skip
    with pytest.raises(SpecError, match="not a module-level function") as info:
        import_module_graph(str(path))
    assert info.value.element_id == "a"


def test_two_lambdas_on_one_line_are_refused_by_name(tmp_path):
    path = program(tmp_path, "two_lambdas", """
builder = StateGraph(S)
builder.add_node("a", lambda state: {"log": [1]}); builder.add_node("b", lambda s: {"log": [2]})
builder.add_edge(START, "a")
graph = builder.compile()
""", STATE_HEAD)  # fmt: skip
    with pytest.raises(SpecError, match="not alone on its line"):
        import_module_graph(str(path))
