"""A thread id that is not a string is stored as its string, as langgraph stores it: a thread
run with `1` is read back with `"1"` (and with `1`) through the graph and through the saver
(issue 31)."""

from __future__ import annotations

import operator
import sqlite3
from typing import Annotated, TypedDict

import pytest

from tests.oracle import normalize


class S(TypedDict):
    log: Annotated[list, operator.add]


def _saver(backend, kind: str, tmp_path):
    if kind == "memory":
        return backend.mod("checkpoint.memory").InMemorySaver()
    conn = sqlite3.connect(tmp_path / f"{backend.prefix}.sqlite", check_same_thread=False)
    return backend.mod("checkpoint.sqlite").SqliteSaver(conn)


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_an_integer_thread_id_is_read_back_as_a_string(backend, kind, tmp_path):
    saver = _saver(backend, kind, tmp_path)
    seen = []

    def node(state: S, config) -> dict:
        seen.append(config["configurable"]["thread_id"])
        return {"log": ["x"]}

    builder = backend.graph.StateGraph(S)
    builder.add_node("n", node)
    builder.add_edge(backend.graph.START, "n")
    app = builder.compile(checkpointer=saver)

    def as_int():  # a new dict each time: langgraph's get_state turns the caller's id to a string
        return {"configurable": {"thread_id": 1}}

    def as_text():
        return {"configurable": {"thread_id": "1"}}

    checkpoints = [
        normalize(c["payload"]["config"])
        for c in app.stream({"log": []}, as_int(), stream_mode="debug")
        if c["type"] == "checkpoint"
    ]
    out = []
    for config in (as_int, as_text):
        state = app.get_state(config())
        out.append((state.values, state.config["configurable"]["thread_id"]))
        out.append(len(list(app.get_state_history(config()))))
    out.append(saver.get_tuple(as_text()) is not None)
    updated = app.update_state(as_int(), {"log": ["u"]})
    out.append(updated["configurable"]["thread_id"])
    out.append(app.invoke({"log": ["again"]}, as_int()))
    out.append(app.get_state(as_text()).values)
    assert out == [
        ({"log": ["x"]}, "1"),
        3,
        ({"log": ["x"]}, "1"),
        3,
        True,
        "1",
        {"log": ["x", "u", "again", "x"]},
        {"log": ["x", "u", "again", "x"]},
    ]
    assert seen == [1, 1]  # the node's own config keeps the id as given
    assert [c["configurable"]["thread_id"] for c in checkpoints] == ["1", "1", "1"]
