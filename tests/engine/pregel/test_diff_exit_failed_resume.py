"""Durability "exit": a resume that fails before making a step leaves the thread as it was.

The checkpoint it loaded is stored already; storing it again gave it itself as parent (the
history showed a checkpoint whose parent is itself) and changed what it had seen."""

import operator
from typing import Annotated, TypedDict

import pytest

from tests.oracle import Backend, assert_same

pytestmark = pytest.mark.differential


def _graph(b: Backend, saver, failing: dict):
    class S(TypedDict):
        total: Annotated[int, operator.add]

    def ok(s):
        return {"total": 10}

    def flaky(s):
        if failing["yes"]:
            raise ValueError("not yet")
        return {"total": 100}

    builder = b.graph.StateGraph(S)
    builder.add_node("ok", ok)
    builder.add_node("flaky", flaky)
    builder.add_edge(b.graph.START, "ok")
    builder.add_edge(b.graph.START, "flaky")
    return builder.compile(checkpointer=saver)


def _thread(graph, saver, cfg):
    out = []
    for snap in graph.get_state_history(cfg):
        stored = saver.get_tuple(snap.config)
        out.append(
            (
                snap.metadata,
                snap.values,
                snap.next,
                snap.parent_config is None,
                # which channels each node had seen (versions hold a random part)
                {n: sorted(v) for n, v in stored.checkpoint["versions_seen"].items()},
                sorted((w[1], repr(w[2])) for w in stored.pending_writes),
            )
        )
    return out


def test_failed_resume_stores_nothing_new():
    def scenario(b: Backend):
        saver = b.mod("checkpoint.memory").InMemorySaver()
        failing = {"yes": True}
        graph = _graph(b, saver, failing)
        cfg = {"configurable": {"thread_id": "t"}}
        seen = []
        for payload in ({"total": 1}, None):
            with pytest.raises(ValueError):
                graph.invoke(payload, cfg, durability="exit")
            seen.append(_thread(graph, saver, cfg))
        failing["yes"] = False
        done = graph.invoke(None, cfg, durability="exit")
        return seen, done, _thread(graph, saver, cfg)

    assert_same(scenario)
