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


def test_cancelling_a_calls_future_cancels_the_call():
    """An async entrypoint cancels one of its calls: that call is cancelled and records
    nothing, so the resumed workflow calls it again; the finished one is not run again."""

    def scenario(b):
        func, types = b.func, b.types
        log: list[str] = []

        async def run():
            started = {0: asyncio.Event(), 1: asyncio.Event()}

            @func.task()
            async def work(i: int) -> str:
                log.append(f"start {i}")
                started[i].set()
                if i == 1:
                    try:
                        await asyncio.Event().wait()
                    except asyncio.CancelledError:
                        log.append("cancelled 1")
                        raise
                return str(i) * 2

            @func.entrypoint(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
            async def flow(n: int) -> list:
                futures = [work(0), work(1)]
                await started[1].wait()  # (work 0 runs once: the resumed flow has its result)
                futures.pop().cancel()
                done = await asyncio.gather(*futures)
                return [*done, types.interrupt("go?")]

            config = {"configurable": {"thread_id": "t"}}
            first = [c async for c in flow.astream(2, config)]
            started[1].clear()
            resumed = await flow.ainvoke(types.Command(resume="yes"), config)
            return first, resumed, log

        return asyncio.run(run())

    assert_same(scenario)


def test_a_task_run_records_its_arguments_by_name(backend):
    func = backend.mod("func")
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver

    @func.task()
    async def scale(value: int, factor: int = 2, **extra) -> int:
        return value * factor

    @func.entrypoint(checkpointer=InMemorySaver())
    async def flow(values: list[int]) -> list[int]:
        return list(await asyncio.gather(scale(values[0]), scale(values[1], 3, note="n")))

    runs = _Runs()
    config = {"configurable": {"thread_id": "1"}, "callbacks": [runs]}
    assert asyncio.run(flow.ainvoke([1, 2], config)) == [2, 6]
    flow_run = runs.roots[0].child_runs[0]
    recorded = sorted((r.inputs for r in flow_run.child_runs if r.name == "scale"), key=str)
    assert recorded == [{"value": 1, "factor": 2}, {"value": 2, "factor": 3, "note": "n"}]
