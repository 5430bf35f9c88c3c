"""Differential tests: when an async entrypoint awaits its @task calls, the order in which the
caller resumes, the stream's consumer sees each call's update, and the callback events of the
calls and the entrypoint reach astream_events, as in langgraph.

langgraph resolves a call's future in the loop turn the call is committed, so its caller goes on
before the consumer reads the call's update; and it starts and ends each node's run through
LangChain's async callback manager, so an entrypoint's end event comes after the update of the
last call it awaited, which it streams between its own output and its end."""

import asyncio

import pytest

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


def _workflow(b, log: list, body: str):
    """An async entrypoint on a saver awaiting async tasks. `body`: "caught" (a failing call
    between two good ones, its error caught), "raised" (the failing call's error ends the run),
    "ok" (two good calls), "gathered" (two good calls awaited together, then one more)."""
    func = b.func

    @func.task()
    async def double(n: int) -> int:
        await asyncio.sleep(0.01)
        return n * 2

    @func.task()
    async def fail(n: int) -> int:
        await asyncio.sleep(0.01)
        raise ValueError("boom")

    @func.entrypoint(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
    async def flow(n: int) -> str:
        await double(n)
        log.append("resumed")
        if body == "gathered":
            await asyncio.gather(double(n), double(n + 1))
            log.append("resumed")
        elif body == "caught":
            try:
                await fail(n)
            except ValueError:
                log.append("caught")
        elif body == "raised":
            await fail(n)
        await double(n)
        log.append("resumed")
        return "done"

    return flow


async def _events(flow, config: dict) -> list:
    """astream_events (v2) as (event, name, streamed chunk); an error ends the list."""
    seen: list = []
    try:
        async for event in flow.astream_events(1, config, version="v2"):
            seen.append((event["event"], event["name"], event["data"].get("chunk")))
    except ValueError as exc:
        seen.append(("raised", str(exc), None))
    return seen


@pytest.mark.parametrize("body", ["caught", "raised", "ok", "gathered"])
def test_astream_events_order_around_awaited_tasks(body):
    """The thread's third run (after ainvoke and astream): every event in langgraph's order,
    the graph's update chunks among the calls' and the entrypoint's runs."""

    def scenario(b):
        async def run():
            flow = _workflow(b, [], body)
            config = {"configurable": {"thread_id": "t"}}
            try:
                await flow.ainvoke(1, config)
                [chunk async for chunk in flow.astream(1, config)]
            except ValueError:
                pass
            return await _events(flow, config)

        return asyncio.run(run())

    assert_same(scenario)


@pytest.mark.parametrize(
    "stream_mode", ["updates", ["updates"], ["updates", "values", "debug"], ["custom", "updates"]]
)
def test_caller_resumes_before_the_consumer_reads_its_calls_update(stream_mode):
    """No callbacks: the entrypoint's steps and the chunks the consumer reads, in one list."""

    def scenario(b):
        async def run():
            log: list = []
            flow = _workflow(b, log, "caught")
            config = {"configurable": {"thread_id": "t"}}
            async for chunk in flow.astream(1, config, stream_mode=stream_mode):
                mode, data = chunk if isinstance(chunk, tuple) else ("updates", chunk)
                log.append((mode, data.get("type") if mode == "debug" else data))
            return log

        return asyncio.run(run())

    assert_same(scenario)
