"""Differential tests: values of builtin subclasses are stored as their plain base value."""

from collections import Counter, OrderedDict, defaultdict

import pytest
from langchain_core.messages import AIMessage

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


class Label(str):
    pass


class Count(int):
    pass


def test_builtin_subclasses_round_trip_as_their_base():
    values = {
        "text accessor": AIMessage("hello").text,
        "ordered": OrderedDict(b=1, a=2),
        "default": defaultdict(int, a=1),
        "counter": Counter("abca"),
        "label": Label("x"),
        "count": Count(3),
        "nested": [{"in": Label("y")}],
    }

    def scenario(b):
        serde = b.mod("checkpoint.serde.jsonplus").JsonPlusSerializer()
        out = {}
        for name, value in values.items():
            loaded = serde.loads_typed(serde.dumps_typed(value))
            out[name] = (type(loaded).__name__, loaded)
        return out

    assert_same(scenario)


def test_a_message_text_in_state_is_checkpointed(backend):
    from typing import TypedDict

    class S(TypedDict):
        text: str

    graph = backend.graph.StateGraph(S)
    graph.add_node("speak", lambda s: {"text": AIMessage("said").text})
    graph.add_edge(backend.graph.START, "speak")
    app = graph.compile(checkpointer=backend.mod("checkpoint.memory").InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    assert app.invoke({"text": ""}, config) == {"text": "said"}
    assert app.get_state(config).values == {"text": "said"}
