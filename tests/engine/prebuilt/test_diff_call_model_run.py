"""create_react_agent's agent node runs its model call inside a chain run of its own, named
call_model, as langgraph's (a traced RunnableCallable): astream_events and every callback
handler see it start and end inside the agent node's run (a streaming how-to filtering
on_chat_model_stream events showed two fewer events a model turn on the engine), tagged
seq:step:1; a RunnableCallable built with trace=False makes no such run."""

from __future__ import annotations

import asyncio
import warnings

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import HumanMessage

from tests.engine.agents.helpers import add, ai, fake
from tests.oracle import assert_same

pytestmark = [pytest.mark.differential, pytest.mark.filterwarnings("ignore::DeprecationWarning")]


class ChainRuns(BaseCallbackHandler):
    """The chain runs started, by name and tags, and the names of those that ended."""

    def __init__(self) -> None:
        self.started: list = []
        self.ended: list = []
        self.names: dict = {}

    def on_chain_start(self, serialized, inputs, *, run_id, tags=None, **kwargs):
        self.names[run_id] = kwargs.get("name")
        self.started.append((kwargs.get("name"), sorted(tags or [])))

    def on_chain_end(self, outputs, *, run_id, **kwargs):
        self.ended.append(self.names.get(run_id))


def _agent(b, **kwargs):
    model = fake(ai("", ("add", {"a": 1, "b": 2}, "c1")), ai("3"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return b.prebuilt.create_react_agent(model, [add], **kwargs)


def test_the_model_call_is_a_run_of_its_own_in_callbacks():
    def scenario(b):
        runs = ChainRuns()
        _agent(b).invoke({"messages": [HumanMessage("1+2?", id="q")]}, {"callbacks": [runs]})
        return runs.started, runs.ended

    started, ended = assert_same(scenario)
    assert ("call_model", ["seq:step:1"]) in started and ended.count("call_model") == 2


def test_astream_events_show_the_model_call_run():
    def scenario(b):
        async def events():
            agent = _agent(b)
            question = {"messages": [HumanMessage("1+2?", id="q")]}
            return [
                (
                    e["event"],
                    e["name"],
                    sorted(e.get("tags", [])),
                    e["metadata"].get("langgraph_node"),
                )
                async for e in agent.astream_events(question, version="v2")
                if e["event"].startswith("on_chain")
            ]

        return asyncio.run(events())

    seen = assert_same(scenario)
    assert ("on_chain_start", "call_model", ["seq:step:1"], "agent") in seen


def test_a_runnable_callable_traces_unless_told_not_to():
    def scenario(b):
        runnable = b.mod("_internal._runnable").RunnableCallable
        builder = b.graph.StateGraph(dict)
        builder.add_node("shown", runnable(lambda s: {"x": 1}, name="body", tags=["mine"]))
        builder.add_node("hidden", runnable(lambda s: {"y": 2}, name="quiet", trace=False))
        builder.add_edge("__start__", "shown")
        builder.add_edge("shown", "hidden")
        runs = ChainRuns()
        out = builder.compile().invoke({"x": 0}, {"callbacks": [runs]})
        return out, runs.started

    out, started = assert_same(scenario)
    assert ("body", ["mine", "seq:step:1"]) in started and "quiet" not in [n for n, _ in started]
