"""A bulk update's writes come back from the saver in the order the updates were given.

langgraph saves each `as_node` update's writes with its path, (__interrupt__, i), which savers
order a checkpoint's pending writes by; without it they came back in task-id order (random).
"""

import operator
from typing import Annotated, TypedDict

from tests.oracle import run_both


class State(TypedDict):
    items: Annotated[list, operator.add]


def _saved_order(b):
    def a(state):
        return {"items": ["a"]}

    def c(state):
        return {"items": ["c"]}

    builder = b.graph.StateGraph(State)
    builder.add_node("a", a)
    builder.add_node("c", c)
    for name in ("a", "c"):
        builder.add_edge(b.graph.START, name)
        builder.add_edge(name, b.graph.END)
    graph = builder.compile(
        checkpointer=b.mod("checkpoint.memory").InMemorySaver(), interrupt_before=["a", "c"]
    )
    config = {"configurable": {"thread_id": "1"}}
    graph.invoke({"items": []}, config)
    names = ["c", "a"] * 4
    updates = [
        b.types.StateUpdate(values={"items": [f"u{i}"]}, as_node=name)
        for i, name in enumerate(names)
    ]
    graph.bulk_update_state(config, [updates])
    updated = list(graph.get_state_history(config))[1]  # the checkpoint the writes are kept on
    saved = graph.checkpointer.get_tuple(updated.config)
    return [value for _, channel, value in saved.pending_writes if channel == "items"]


def test_bulk_update_writes_are_saved_in_the_updates_order():
    on_langgraph, on_engine = run_both(_saved_order)
    assert on_engine == on_langgraph == [[f"u{i}"] for i in range(8)]
