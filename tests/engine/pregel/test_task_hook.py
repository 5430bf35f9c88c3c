"""The debugger's task hook (CONFIG_KEY_TASK_HOOK, beyond langgraph): seen before and after each
task, in subgraphs too, may edit a task's input, and may run a failed task again; on the sync
and the async API."""

from __future__ import annotations

import asyncio

import pytest
from typing_extensions import TypedDict

from engine._constants import CONF, CONFIG_KEY_CHECKPOINT_NS, CONFIG_KEY_TASK_HOOK
from engine.graph import END, START, StateGraph


class S(TypedDict):
    divisor: int
    result: int


class Hook:
    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    def before(self, task) -> None:
        self.seen.append(("before", task.config[CONF][CONFIG_KEY_CHECKPOINT_NS].split(":")[0]))

    def after(self, task) -> None:
        self.seen.append(("after", task.name))

    def failed(self, task, error) -> bool:
        self.seen.append(("failed", type(error).__name__))
        if task.input["divisor"] == 0:
            task.input = {**task.input, "divisor": 4}  # the user's edit, then retry
            return True
        return False


def graph(asynchronous: bool):
    def divide(state: S) -> dict:
        return {"result": 100 // state["divisor"]}

    async def adivide(state: S) -> dict:
        return divide(state)

    inner = StateGraph(S)
    inner.add_node("divide", adivide if asynchronous else divide)
    inner.add_edge(START, "divide")
    inner.add_edge("divide", END)
    outer = StateGraph(S)
    outer.add_node("sub", inner.compile())
    outer.add_edge(START, "sub")
    return outer.compile()


def test_a_hook_sees_tasks_in_subgraphs_and_retries_a_failed_one_with_its_edit():
    hook = Hook()
    out = graph(False).invoke({"divisor": 0}, {"configurable": {CONFIG_KEY_TASK_HOOK: hook}})
    assert out == {"divisor": 0, "result": 25}  # the edit reached the task, not the state
    assert ("failed", "ZeroDivisionError") in hook.seen
    assert ("after", "divide") in hook.seen and ("before", "sub") in hook.seen


def test_the_async_api_calls_the_hook_too():
    hook = Hook()
    config = {"configurable": {CONFIG_KEY_TASK_HOOK: hook}}
    out = asyncio.run(graph(True).ainvoke({"divisor": 0}, config))
    assert out["result"] == 25 and ("failed", "ZeroDivisionError") in hook.seen


def test_a_hook_that_declines_leaves_the_error_raised():
    hook = Hook()
    hook.failed = lambda task, error: False
    with pytest.raises(ZeroDivisionError):
        graph(False).invoke({"divisor": 0}, {"configurable": {CONFIG_KEY_TASK_HOOK: hook}})
