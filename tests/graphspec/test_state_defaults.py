"""State keys with a default (issue 27.8): reading the key by name gives the default while it
has no value, on the engine (compile_spec) and in the exported module on real langgraph alike."""

from __future__ import annotations

import pytest

from graphspec.compiler import compile_spec
from graphspec.errors import SpecValidationError
from graphspec.export import to_langgraph
from graphspec.model import StateKey
from tests.graphspec.helpers import graph, load_exported, setter


def counter(**count):
    return graph(
        state=[
            {"name": "count", "type": "int", **count},
            {"name": "limit", "type": "int", "default": 3},
            {"name": "seen", "type": "list", "default": []},
        ],  # fmt: skip
        nodes=[setter("increment", count="count + 1", seen="seen + [count]")],
        conditional_edges=[
            {
                "id": "again",
                "source": "increment",
                "router": {
                    "kind": "expression",
                    "expression": "'increment' if count < limit else END",
                },
                "path_map": ["increment", "__end__"],
            }
        ],  # fmt: skip
        entry=["increment"],
    )


@pytest.mark.parametrize(
    "given",
    [{}, {"limit": 5}, {"count": 2}, {"count": None}],
    ids=["empty", "limit given", "count given", "count None"],
)
def test_a_counter_with_defaults_runs_the_same_on_the_engine_and_on_langgraph(given, tmp_path):
    spec = counter(default=0)
    module = load_exported(spec, tmp_path, "defaults")

    def run(graph):
        try:
            return graph.invoke(dict(given))
        except Exception as exc:  # the same failure on both (the engine names the node)
            return "NoneType" in str(exc) and "fails on None"

    ours, theirs = run(compile_spec(spec)), run(module.compile_graph())
    assert ours == theirs
    if given == {}:
        assert ours == {"count": 3, "seen": [0, 1, 2]}  # defaults are read, not written
    if given == {"count": None}:
        assert ours == "fails on None"  # a key given None has a value: no default is read


def test_without_a_default_the_first_run_fails_as_before(tmp_path):
    spec = counter()
    with pytest.raises(Exception, match="NoneType"):
        compile_spec(spec).invoke({})
    assert "state.get('count')" in to_langgraph(spec)
    assert "state.get('limit', 3)" in to_langgraph(spec)


def test_a_default_must_fit_the_key_type():
    with pytest.raises(SpecValidationError, match="not a value of type 'int'"):
        counter(default="zero")
    with pytest.raises(SpecValidationError, match="not a value of type 'int'"):
        counter(default=True)
    with pytest.raises(ValueError, match="takes no default"):
        StateKey(name="steps", type="remaining_steps", default=3)
    assert StateKey(name="ratio", type="float", default=1).default == 1
