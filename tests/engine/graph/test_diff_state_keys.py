"""Differential tests: state keys with leading underscores are ordinary keys, as in langgraph."""

import pytest
from typing_extensions import TypedDict

from tests.oracle import assert_same

pytestmark = pytest.mark.differential

Private = TypedDict("Private", {"__secret": int, "_half": int, "plain": int})


def test_keys_with_leading_underscores_reach_nodes_and_the_output():
    def scenario(b):
        seen = []

        def node(state: Private) -> dict:
            seen.append(dict(state))
            return {"__secret": state["__secret"] + 1, "_half": 2, "plain": 3}

        graph = b.graph.StateGraph(Private)
        graph.add_node("node", node)
        graph.add_edge(b.graph.START, "node")
        app = graph.compile()
        return app.invoke({"__secret": 10, "plain": 1}), list(app.stream({"__secret": 1})), seen

    assert_same(scenario)
