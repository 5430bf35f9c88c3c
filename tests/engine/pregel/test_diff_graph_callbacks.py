"""Differential tests: graph lifecycle callbacks (engine.callbacks) — on_interrupt when a run
pauses, on_resume when it continues from a checkpoint, subgraphs' included; only
GraphCallbackHandler subclasses hear them; a raising handler is logged unless raise_error."""

import asyncio
import re
from typing import TypedDict

import pytest

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


class S(TypedDict):
    answer: str | None


def _recorder(b):
    class Recorder(b.callbacks.GraphCallbackHandler):
        def __init__(self):
            self.events = []

        def on_interrupt(self, event):
            self.events.append(
                ("interrupt", event.status, _ns(event), [i.value for i in event.interrupts])
            )
            assert event.run_id is not None and event.checkpoint_id

        def on_resume(self, event):
            self.events.append(("resume", event.status, _ns(event)))

    return Recorder()


def _ns(event):
    return tuple(re.sub(r":[0-9a-f-]{36}$", ":<task>", part) for part in event.checkpoint_ns)


def _asking(b, nested=False):
    graph_mod = b.graph

    def ask(state):
        return {"answer": b.types.interrupt("Provide value")}

    g = graph_mod.StateGraph(S)
    g.add_node("ask", ask)
    g.add_edge(graph_mod.START, "ask")
    if nested:
        parent = graph_mod.StateGraph(S)
        parent.add_node("sub", g.compile())
        parent.add_edge(graph_mod.START, "sub")
        g = parent
    return g.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())


@pytest.mark.parametrize("nested", [False, True], ids=["graph", "subgraph"])
def test_interrupt_then_resume(nested):
    def scenario(b):
        graph, recorder = _asking(b, nested), _recorder(b)
        config = {"configurable": {"thread_id": "t"}, "callbacks": [recorder]}
        graph.invoke({"answer": None}, config)
        done = graph.invoke(b.types.Command(resume="done"), config)
        return done, recorder.events

    assert_same(scenario)


def test_async_api_and_a_breakpoint():
    def scenario(b):
        graph_mod = b.graph
        g = graph_mod.StateGraph(S)
        g.add_node("a", lambda s: {"answer": "a"})
        g.add_node("b", lambda s: {"answer": "b"})
        g.add_edge(graph_mod.START, "a")
        g.add_edge("a", "b")
        saver = b.mod("checkpoint.memory").InMemorySaver()
        graph = g.compile(checkpointer=saver, interrupt_before=["b"])
        recorder = _recorder(b)
        config = {"configurable": {"thread_id": "t"}, "callbacks": [recorder]}

        async def run():
            await graph.ainvoke({"answer": None}, config)
            return await graph.ainvoke(None, config)

        return asyncio.run(run()), recorder.events

    assert_same(scenario)


def test_handlers_in_a_langchain_manager_and_plain_handlers():
    from langchain_core.callbacks import BaseCallbackHandler, CallbackManager

    def scenario(b):
        class Plain(BaseCallbackHandler):
            seen = []

            def on_custom_event(self, name, data, **kwargs):
                self.seen.append(name)

        graph, recorder = _asking(b), _recorder(b)
        manager = CallbackManager.configure(inheritable_callbacks=[Plain()])
        manager.add_handler(recorder)
        graph.invoke({"answer": None}, {"configurable": {"thread_id": "t"}, "callbacks": manager})
        only_graph = b.callbacks.get_sync_graph_callback_manager_for_config(
            {"callbacks": [Plain(), recorder]}
        )
        return recorder.events, Plain.seen, [type(h).__name__ for h in only_graph.handlers]

    assert_same(scenario)


@pytest.mark.parametrize("raise_error", [False, True])
def test_a_raising_handler(raise_error):
    def scenario(b):
        class Raising(b.callbacks.GraphCallbackHandler):
            def on_interrupt(self, event):
                raise ValueError("boom-interrupt")

        handler = Raising()
        handler.raise_error = raise_error
        recorder = _recorder(b)
        graph = _asking(b)
        config = {"configurable": {"thread_id": "t"}, "callbacks": [handler, recorder]}
        try:
            out = graph.invoke({"answer": None}, config)
        except ValueError as exc:
            return "raised", str(exc), recorder.events
        return "ran", "__interrupt__" in out, recorder.events

    assert_same(scenario)
