"""Differential test: a @task call's callback run is a child of its caller's run (the
entrypoint's, or the calling task's), as tracers such as LangSmith show it in langgraph."""

import asyncio

import pytest
from langchain_core.tracers.base import BaseTracer

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


class _Runs(BaseTracer):
    def __init__(self) -> None:
        super().__init__()
        self.roots: list = []

    def _persist_run(self, run) -> None:
        self.roots.append(run)


def _tree(run) -> list:
    return [run.name, sorted((_tree(c) for c in run.child_runs), key=str)]


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_call_runs_nest_under_their_caller(kind):
    def scenario(b):
        func = b.func

        @func.task()
        def leaf(x: int) -> int:
            return x + 1

        @func.task()
        def branch(x: int) -> int:
            return leaf(x).result() * 2

        @func.task()
        async def aleaf(x: int) -> int:
            return x + 1

        @func.entrypoint()
        def flow(n: int) -> list:
            return [branch(n).result(), leaf(n).result()]

        @func.entrypoint()
        async def aflow(n: int) -> list:
            return list(await asyncio.gather(aleaf(n), aleaf(n + 1)))

        runs = _Runs()
        config = {"callbacks": [runs]}
        if kind == "sync":
            out = flow.invoke(1, config)
        else:
            out = asyncio.run(aflow.ainvoke(1, config))
        return out, [_tree(r) for r in runs.roots]

    assert_same(scenario)
