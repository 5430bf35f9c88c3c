"""Differential tests: `run.messages` under v3 (content-block streams from chat models, whole
messages nodes return, scoping to the run's level) and v1 messages streams nested in v3."""

from __future__ import annotations

import operator
from typing import Annotated, Any

import pytest
from langchain_core.language_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk
from typing_extensions import TypedDict

from tests.engine.stream.scenarios import quiet
from tests.oracle import PREFIXES, Backend, assert_same

pytestmark = pytest.mark.differential


def model_graph(b, text: str):
    graph = b.graph
    model = GenericFakeChatModel(messages=iter([text]))

    def call(state):
        return {"messages": [model.invoke(state["messages"])]}

    builder = graph.StateGraph(graph.MessagesState)
    builder.add_node("call", call)
    builder.add_edge(graph.START, "call")
    return builder.compile()


def test_a_chat_model_call_becomes_one_stream_with_its_text():
    def scenario(b):
        app = model_graph(b, "hello there")
        run = quiet(lambda: app.stream_events({"messages": ["hi"]}, version="v3"))
        streams = list(run.messages)
        return [(s.node, s.output.text) for s in streams], len(run.output["messages"])

    streams, count = assert_same(scenario)
    assert streams == [("call", "hello there")] and count == 2


def test_a_returned_message_is_replayed_once_and_subgraph_messages_stay_below():
    def scenario(b):
        graph = b.graph

        def reply(state):
            return {"messages": AIMessage(content="from below", id="m-1")}

        inner = graph.StateGraph(graph.MessagesState)
        inner.add_node("reply", reply)
        inner.add_edge(graph.START, "reply")

        class Outer(TypedDict):
            messages: Annotated[list[Any], operator.add]

        outer = graph.StateGraph(Outer)
        outer.add_node("say", lambda s: {"messages": [AIMessage(content="top", id="m-0")]})
        outer.add_node("inner", inner.compile())
        outer.add_edge(graph.START, "say")
        outer.add_edge("say", "inner")
        app = outer.compile()
        root = quiet(lambda: app.stream_events({"messages": []}, version="v3"))
        top = [s.output.text for s in root.messages]
        drilled = quiet(lambda: app.stream_events({"messages": []}, version="v3"))
        below = [[s.output.text for s in h.messages] for h in drilled.subgraphs]
        return top, below

    assert assert_same(scenario) == (["top"], [["from below"]])


def test_a_v1_messages_stream_inside_a_v3_run_still_gets_token_chunks():
    def scenario(b):
        graph = b.graph
        inner = model_graph(b, "nested tokens")

        def relay(state, config):
            parts = list(inner.stream({"messages": "hi"}, config, stream_mode="messages"))
            return {
                "kinds": sorted({type(p).__name__ for p, _ in parts}),
                "text": "".join(p.content for p, _ in parts if isinstance(p, AIMessageChunk)),
            }

        class Out(TypedDict, total=False):
            kinds: list
            text: str

        builder = graph.StateGraph(Out)
        builder.add_node("relay", relay)
        builder.add_edge(graph.START, "relay")
        return quiet(lambda: builder.compile().stream_events({}, version="v3").output)

    assert assert_same(scenario) == {"kinds": ["AIMessageChunk"], "text": "nested tokens"}


@pytest.mark.filterwarnings("ignore::langchain_core._api.beta_decorator.LangChainBetaWarning")
async def test_async_message_streams_drive_the_run():
    async def scenario(b):
        app = model_graph(b, "async words")
        run = await app.astream_events({"messages": ["hi"]}, version="v3")
        texts = []
        async for stream in run.messages:
            texts.append(await stream.text)
        return texts, len((await run.output())["messages"])

    results = [await scenario(Backend(prefix)) for prefix in PREFIXES]
    assert results[0] == results[1] == (["async words"], 2)
