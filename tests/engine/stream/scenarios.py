"""Small graphs and event normalisation shared by the v3 stream differential tests."""

from __future__ import annotations

import operator
import uuid
import warnings
from typing import Annotated, Any

from typing_extensions import TypedDict


class State(TypedDict):
    items: Annotated[list, operator.add]


def thread() -> dict:
    return {"configurable": {"thread_id": str(uuid.uuid4())}}


def quiet(fn):
    """Run `fn` without the v3 beta warning (both backends emit it)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


def chain(b, *names: str, checkpointer: Any = None):
    """START -> names[0] -> ... each node appending its own name."""
    graph = b.graph
    builder = graph.StateGraph(State)
    for name in names:
        builder.add_node(name, lambda s, _n=name: {"items": [_n]})
    builder.add_edge(graph.START, names[0])
    for a, c in zip(names, names[1:], strict=False):
        builder.add_edge(a, c)
    return builder.compile(checkpointer=checkpointer)


def parent_with_child(b, child, *, checkpointer: Any = None):
    """START -> pre -> child (a subgraph node)."""
    graph = b.graph
    builder = graph.StateGraph(State)
    builder.add_node("pre", lambda s: {"items": ["pre"]})
    builder.add_node("child", child)
    builder.add_edge(graph.START, "pre")
    builder.add_edge("pre", "child")
    return builder.compile(checkpointer=checkpointer)


def event_view(event: dict) -> tuple:
    """An event without its wall-clock timestamp; task ids become <uuid> in normalize()."""
    params = {k: v for k, v in event["params"].items() if k != "timestamp"}
    return (event.get("seq"), event["method"], params)
