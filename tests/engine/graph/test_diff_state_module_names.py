"""Names a program imports from langgraph.graph.state although they live elsewhere (channel
classes, Send, RetryPolicy, Pregel...): the same import from the engine's module works and
gives the classes that behave the same."""

import operator
from typing import Annotated, TypedDict

import pytest

from tests.oracle import assert_same

pytestmark = pytest.mark.differential

IMPORTED_THERE = (
    "CompiledStateGraph",
    "BinaryOperatorAggregate",
    "LastValue",
    "LastValueAfterFinish",
    "NamedBarrierValue",
    "Send",
    "RetryPolicy",
    "CachePolicy",
    "Pregel",
    "InvalidUpdateError",
)


def test_the_names_import_from_the_state_module():
    def scenario(b):
        module = b.mod("graph.state")
        return [getattr(module, name).__name__ for name in IMPORTED_THERE]

    assert_same(scenario)


def test_a_channel_class_imported_from_there_annotates_a_key():
    def scenario(b):
        state = b.mod("graph.state")

        class S(TypedDict, total=False):
            status: Annotated[str, state.LastValueAfterFinish]
            log: Annotated[list, state.BinaryOperatorAggregate(list, operator.add)]

        def work(s: S) -> dict:
            return {"status": "done", "log": ["worked"]}

        builder = state.StateGraph(S)
        builder.add_node("work", work)
        builder.add_edge(b.graph.START, "work")
        builder.add_edge("work", b.graph.END)
        app = builder.compile()
        return app.invoke({"log": ["start"]}), list(app.stream({}, stream_mode="updates"))

    assert_same(scenario)


def test_an_unknown_name_is_still_an_attribute_error(backend):
    with pytest.raises(AttributeError, match="has no attribute 'Nope'"):
        backend.mod("graph.state").Nope  # noqa: B018
