"""Differential test: with LangSmith's tracer among a run's callbacks, a node sees its own task
run as the current run tree (`langsmith.get_current_run_tree()`), sync and async, so what it
traces itself (`@traceable`) nests under the node as with langgraph (issue 31.4). Offline: the
tracer's client is a mock."""

from __future__ import annotations

import asyncio
from typing import TypedDict
from unittest.mock import MagicMock

import langsmith
import pytest
from langchain_core.tracers import LangChainTracer

from tests.engine.graphs import _one_node

pytestmark = pytest.mark.differential


class S(TypedDict):
    seen: list


def _node(state: S) -> dict:
    tree = langsmith.get_current_run_tree()
    return {"seen": [*state["seen"], tree and (tree.name, tree.run_type)]}


async def _anode(state: S) -> dict:
    return _node(state)


@pytest.mark.parametrize("body", [_node, _anode], ids=["sync", "async"])
def test_a_node_sees_its_task_run_as_the_current_run_tree(backend, body):
    app = _one_node(backend, S, body, name="work")
    config = {"callbacks": [LangChainTracer(client=MagicMock())]}
    if body is _node:
        out = app.invoke({"seen": []}, config)
    else:
        out = asyncio.run(app.ainvoke({"seen": []}, config))
    assert out == {"seen": [("work", "chain")]}
    assert langsmith.get_current_run_tree() is None  # nothing left behind after the run
