"""Differential test: a checkpoint saved by an older langgraph (format v2: nodes triggered
through `start:<node>`, `branch:<source>:<condition>:<node>` or the source node's channel) is
read in today's channel layout, so get_state shows the same next task (issue 31.4)."""

from __future__ import annotations

import copy
import operator
from typing import Annotated, TypedDict

import pytest

pytestmark = pytest.mark.differential


class S(TypedDict):
    log: Annotated[list[str], operator.add]


def _graph(backend):
    graph_mod = backend.mod("graph")
    builder = graph_mod.StateGraph(S)
    for name in ("first", "second", "third"):
        builder.add_node(name, lambda s, name=name: {"log": [name]})
    builder.add_edge(graph_mod.START, "first")
    builder.add_edge("first", "second")
    builder.add_conditional_edges("second", lambda s: "third", ["third"])
    return builder.compile(checkpointer=backend.mod("checkpoint.memory").InMemorySaver())


def _v(n: int) -> str:
    return f"{n:032}.0.5"


_OLD = {
    "v": 2,
    "id": "1f00fe48-515c-679e-8003-5f85a56d5dba",
    "ts": "2025-04-02T17:04:20.824251+00:00",
    "channel_values": {"log": ["first"], "first": "first", "start:first": "__start__"},
    "channel_versions": {
        "__start__": _v(2),
        "log": _v(3),
        "first": _v(3),
        "start:first": _v(2),
        "branch:second:condition:third": _v(1),
    },  # fmt: skip
    "versions_seen": {
        "__input__": {},
        "__start__": {"__start__": _v(1)},
        "first": {"start:first": _v(2)},
        "second": {},
        "__interrupt__": {"start:first": _v(2), "first": _v(1), "log": _v(1)},
    },
    "pending_sends": [],
}


def test_an_old_checkpoint_is_read_in_todays_layout(backend):
    app = _graph(backend)
    migrated = copy.deepcopy(_OLD)
    app._migrate_checkpoint(migrated)
    config = {"configurable": {"thread_id": "old", "checkpoint_ns": ""}}
    old = copy.deepcopy(_OLD)
    app.checkpointer.put(config, old, {"source": "loop", "step": 1}, old["channel_versions"])
    state = app.get_state(config)
    assert (state.values, state.next) == ({"log": ["first"]}, ("second",))
    assert app.invoke(None, config) == {"log": ["first", "second", "third"]}
    assert (migrated["channel_versions"], migrated["versions_seen"]) == (
        {"__start__": _v(2), "log": _v(3), "branch:to:first": _v(2), "branch:to:third": _v(1),
         "branch:to:second": _v(3)},
        {"__input__": {}, "__start__": {"__start__": _v(1)}, "first": {"branch:to:first": _v(2)},
         "second": {}, "__interrupt__": {"branch:to:first": _v(2), "log": _v(1),
                           "branch:to:second": _v(1)}},
    )  # fmt: skip
