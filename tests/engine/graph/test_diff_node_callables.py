"""Differential tests: what counts as a node's runnable (a Runnable is kept, any other
callable is called as a function, even when it happens to have an `invoke` attribute)."""

from typing import TypedDict
from unittest.mock import Mock

import pytest

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


class S(TypedDict):
    n: int


def test_a_mock_node_is_called_not_invoked():
    def scenario(b):
        node = Mock(return_value={"n": 5})
        graph = b.graph.StateGraph(S)
        graph.add_node("mocked", node)
        graph.add_edge(b.graph.START, "mocked")
        result = graph.compile().invoke({"n": 1})
        return result, node.call_count, node.invoke.call_count

    assert_same(scenario)


def test_an_object_with_invoke_but_not_callable_is_refused():
    class InvokeOnly:
        def invoke(self, state, config=None):
            return {"n": 0}

    def scenario(b):
        graph = b.graph.StateGraph(S)
        try:
            graph.add_node("odd", InvokeOnly())
        except TypeError as exc:
            return str(exc).split("Instead")[0]
        return "accepted"

    assert_same(scenario)


def test_a_langchain_runnable_is_invoked():
    def scenario(b):
        from langchain_core.runnables import RunnableLambda

        graph = b.graph.StateGraph(S)
        graph.add_node("lam", RunnableLambda(lambda s: {"n": s["n"] * 3}))
        graph.add_edge(b.graph.START, "lam")
        return graph.compile().invoke({"n": 2})

    assert_same(scenario)


def test_a_compiled_node_copies_with_an_update_dict():
    def scenario(b):
        graph = b.graph.StateGraph(S)
        graph.add_node("n", lambda s: {"n": s["n"] + 1})
        graph.add_edge(b.graph.START, "n")
        node = graph.compile().nodes["n"]
        same, tagged = node.copy({}), node.copy({"tags": ["copied"]})
        return same.triggers == node.triggers, tagged.tags, node.tags

    assert_same(scenario)
