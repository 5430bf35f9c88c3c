"""A ToolNode runs its calls on the executor the run's config asks for, as langgraph's does
(langchain's get_executor_for_config): with `max_concurrency=1` the calls run one after the
other, in order (a benchmark script sets it so its tools, which share one dataframe store, never
overlap); the engine ran them all at once whatever the config said."""

import threading
import time

import pytest
from langchain_core.messages import AIMessage

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


def _graph(b, log: list):
    lock = threading.Lock()

    def step(name: str) -> str:
        """Record the start and the end of a call."""
        with lock:
            log.append(f"start {name}")
        time.sleep(0.02)
        with lock:
            log.append(f"end {name}")
        return name

    node = b.prebuilt.ToolNode([step])
    builder = b.graph.StateGraph(b.graph.MessagesState)
    builder.add_node("tools", node)
    builder.add_edge(b.graph.START, "tools")
    return builder.compile()


def test_max_concurrency_one_runs_the_calls_one_by_one_in_order():
    def scenario(b):
        log: list = []
        calls = [{"name": "step", "args": {"name": n}, "id": n} for n in "abcd"]
        result = _graph(b, log).invoke(
            {"messages": [AIMessage("", tool_calls=calls)]}, {"max_concurrency": 1}
        )
        return log, [m.content for m in result["messages"][1:]]

    assert_same(scenario)
