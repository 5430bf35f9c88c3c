"""Differential tests of LangChain callbacks in a graph run, and of stream_mode="messages" with
them: the run tree a handler given in the config sees (graph, task, router, model and tool runs:
names, parents, tags, metadata, ends and errors) and the tokens with their full metadata, for
nodes that invoke or stream a fake streaming chat model. These are what LangSmith's tracer sees.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import operator
import re
from typing import Annotated

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage, ToolCall
from langchain_core.outputs import ChatGenerationChunk
from langchain_core.tools import tool
from typing_extensions import TypedDict

from tests.oracle import PREFIXES, Backend, assert_same

pytestmark = pytest.mark.differential


class Recorder(BaseCallbackHandler):
    """Every run start/end as (event, name, run index, parent index, tags, metadata)."""

    def __init__(self) -> None:
        self.events: list[tuple] = []
        self._ids: dict = {}

    def _ix(self, run_id):
        return self._ids.setdefault(run_id, len(self._ids))

    def _start(self, kind, run_id, parent_run_id, tags, metadata, name):
        parent = self._ids.get(parent_run_id) if parent_run_id else None
        self.events.append(
            (kind, name, self._ix(run_id), parent, sorted(tags or []), dict(metadata or {}))
        )

    def on_chain_start(
        self, serialized, inputs, *, run_id, parent_run_id=None, tags=None, metadata=None, **kw
    ):
        self._start("chain", run_id, parent_run_id, tags, metadata, kw.get("name"))

    def on_chat_model_start(
        self, serialized, messages, *, run_id, parent_run_id=None, tags=None, metadata=None, **kw
    ):
        self._start("chat_model", run_id, parent_run_id, tags, metadata, kw.get("name"))

    def on_tool_start(
        self, serialized, input_str, *, run_id, parent_run_id=None, tags=None, metadata=None, **kw
    ):
        self._start("tool", run_id, parent_run_id, tags, metadata, kw.get("name"))

    def on_chain_end(self, outputs, *, run_id, **kw):
        self.events.append(("chain_end", self._ix(run_id)))

    def on_chain_error(self, error, *, run_id, **kw):
        self.events.append(("chain_error", self._ix(run_id), type(error).__name__))

    def on_llm_end(self, response, *, run_id, **kw):
        self.events.append(("llm_end", self._ix(run_id), response.generations[0][0].text))

    def on_tool_end(self, output, *, run_id, **kw):
        self.events.append(("tool_end", self._ix(run_id)))


def _model(text: str) -> GenericFakeChatModel:
    return GenericFakeChatModel(messages=iter([AIMessage(content=text)]))


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


def _graph(b: Backend, *, streaming: bool = False, router: bool = False, fail: bool = False):
    def chat(s):
        model = _model("hello there world")
        if not streaming:
            return {"messages": [model.invoke(s["messages"])]}
        out = None
        for chunk in model.stream(s["messages"]):
            out = chunk if out is None else out + chunk
        return {"messages": [out]}

    def calc(s):
        if fail:
            raise ValueError("calc failed")
        return {"messages": [AIMessage(str(add.invoke({"a": 1, "b": 2})), id="t1")]}

    def route(s) -> str:
        return "calc"

    g = b.graph.StateGraph(b.graph.MessagesState)
    g.add_node("chat", chat)
    g.add_node("calc", calc)
    g.add_edge(b.graph.START, "chat")
    if router:
        g.add_conditional_edges("chat", route, ["calc"])
    else:
        g.add_edge("chat", "calc")
    return g.compile()


CONFIG = {"tags": ["user-tag"], "metadata": {"user": "u1"}, "run_name": "my run"}


def _run(app, config=None, **kw):
    recorder = Recorder()
    config = {**(config if config is not None else CONFIG), "callbacks": [recorder]}
    try:
        out = [
            (type(m).__name__, m.content, meta)
            for m, meta in app.stream(
                {"messages": [HumanMessage("hi", id="h1")]}, config, stream_mode="messages", **kw
            )
        ]
    except ValueError as exc:
        out = [("error", str(exc))]
    return out, recorder.events


@pytest.mark.parametrize("streaming", [False, True], ids=["invoke", "stream"])
def test_messages_and_callbacks_from_a_model_node(streaming):
    out, events = assert_same(lambda b: _run(_graph(b, streaming=streaming)))
    # a token per word and space, each with langgraph's metadata and the user's tags
    assert [c for _, c, _ in out] == ["hello", " ", "there", " ", "world", "3"]
    meta = out[0][2]
    assert meta["langgraph_node"] == "chat" and meta["tags"] == ["user-tag"]
    assert meta["user"] == "u1" and meta["ls_provider"] == "genericfakechatmodel"
    # the tree: graph run "my run" > task "chat" > chat model; > task "calc" > tool
    starts = [(e[0], e[1], e[3]) for e in events if len(e) == 6]
    assert starts[:3] == [("chain", "my run", None), ("chain", "chat", 0), ("chat_model", None, 1)]


def test_callbacks_without_run_name_name_the_graph_and_keep_no_tags():
    out, events = assert_same(lambda b: _run(_graph(b), config={}))
    assert events[0][1] == "LangGraph"
    assert "tags" not in out[0][2]


def test_router_is_a_traced_run_under_its_node():
    assert_same(lambda b: _run(_graph(b, router=True)))


def test_failing_node_ends_its_run_and_the_graph_run_with_the_error():
    out, events = assert_same(lambda b: _run(_graph(b, fail=True)))
    assert out[-1] == ("error", "calc failed")
    assert [e for e in events if e[0] == "chain_error"][-1][2] == "ValueError"


def test_nostream_tagged_model_is_traced_but_not_streamed():
    def scenario(b):
        def chat(s):
            model = _model("quiet words").with_config(tags=["nostream"])
            return {"messages": [model.invoke(s["messages"])]}

        g = b.graph.StateGraph(b.graph.MessagesState)
        g.add_node("chat", chat)
        g.add_edge(b.graph.START, "chat")
        return _run(g.compile())

    out, _ = assert_same(scenario)
    assert [(t, c) for t, c, _ in out] == [("AIMessage", "quiet words")]


def test_subgraph_runs_nest_under_the_calling_task():
    def scenario(b):
        inner = _graph(b)
        g = b.graph.StateGraph(b.graph.MessagesState)
        g.add_node("inner", inner)
        g.add_edge(b.graph.START, "inner")
        return _run(g.compile(), subgraphs=True)

    assert_same(scenario)


def test_astream_messages_and_callbacks():
    def scenario(b):
        async def chat(s):
            model = _model("async words here")
            return {"messages": [await model.ainvoke(s["messages"])]}

        g = b.graph.StateGraph(b.graph.MessagesState)
        g.add_node("chat", chat)
        g.add_edge(b.graph.START, "chat")
        app = g.compile()

        async def go():
            recorder = Recorder()
            config = {**CONFIG, "callbacks": [recorder]}
            out = [
                (type(m).__name__, m.content, meta)
                async for m, meta in app.astream(
                    {"messages": [HumanMessage("hi", id="h1")]}, config, stream_mode="messages"
                )
            ]
            return out, recorder.events

        return asyncio.run(go())

    out, _ = assert_same(scenario)
    assert [c for _, c, _ in out] == ["async", " ", "words", " ", "here"]


def _agents(prefix: str):
    return importlib.import_module("langchain.agents" if prefix == "langgraph" else "engine.agents")


class _ToolCallingFake(GenericFakeChatModel):
    """Streams word by word, then the tool calls as one chunk (GenericFakeChatModel's own
    stream drops them)."""

    def bind_tools(self, tools, **kwargs):
        return self

    def _stream(self, messages, stop=None, run_manager=None, **kwargs):
        message = next(self.messages)
        chunks = [AIMessageChunk(content=w) for w in re.split(r"(\s)", message.content) if w]
        if message.tool_calls:
            calls = [
                {"name": c["name"], "args": json.dumps(c["args"]), "id": c["id"], "index": i}
                for i, c in enumerate(message.tool_calls)
            ]
            chunks.append(AIMessageChunk(content="", tool_call_chunks=calls))
        for chunk in chunks:
            generation = ChatGenerationChunk(message=chunk)
            if run_manager is not None:
                run_manager.on_llm_new_token(chunk.content, chunk=generation)
            yield generation


@pytest.mark.parametrize("prefix", PREFIXES)
def test_agent_streams_model_tokens_and_tool_messages(prefix):
    """create_agent: the model node's tokens, the tool node's ToolMessage, the final answer,
    and model/tool runs named as in langchain (run trees compared across backends below)."""

    def scenario(b):
        model = _ToolCallingFake(
            messages=iter(
                [
                    AIMessage(
                        "adding now",
                        tool_calls=[ToolCall(name="add", args={"a": 2, "b": 3}, id="c1")],
                    ),
                    AIMessage("the sum is 5"),
                ]
            )
        )
        agent = _agents(b.prefix).create_agent(model, tools=[add])
        return _run(agent)

    lg, eng = scenario(Backend("langgraph")), scenario(Backend(prefix))
    from tests.oracle import normalize

    assert normalize(eng) == normalize(lg)
    rows = [(t, c, meta["langgraph_node"]) for t, c, meta in eng[0]]
    after_tool = rows[rows.index(("ToolMessage", "5", "tools")) + 1 :]
    assert "".join(c for t, c, n in after_tool if t == "AIMessageChunk") == "the sum is 5"


_ = Annotated  # imported for scenario authors' type hints


@pytest.mark.parametrize("subgraphs", [True, False])
def test_subgraph_tokens_once_with_subgraphs_and_its_answer_whole_without(subgraphs):
    """With subgraphs, each token of the inner model once (not once per graph level); without,
    the inner graph's answer once, whole, when the subgraph node returns it."""

    def scenario(b):
        def chat(s):
            return {"messages": [_model("a b").invoke(s["messages"])]}

        inner = b.graph.StateGraph(b.graph.MessagesState)
        inner.add_node("chat", chat)
        inner.add_edge(b.graph.START, "chat")
        g = b.graph.StateGraph(b.graph.MessagesState)
        g.add_node("inner", inner.compile())
        g.add_edge(b.graph.START, "inner")
        parts = g.compile().stream(
            {"messages": [HumanMessage("hi", id="h1")]}, stream_mode="messages", subgraphs=subgraphs
        )
        rows = [(p[0], p[1]) if subgraphs else ((), p) for p in parts]
        return [(len(ns), type(m).__name__, m.content, meta) for ns, (m, meta) in rows]

    out = assert_same(scenario)
    assert [c for _, _, c, _ in out] == (["a", " ", "b"] if subgraphs else ["a b"])


def test_a_run_id_in_the_config_names_only_the_graph_run():
    # the tasks' configs inherit the graph's; their runs get ids of their own, so the run tree
    # (and astream_events, which rejects a run that is its own parent) stays a tree
    import uuid

    def scenario(b):
        run_id = uuid.uuid4()
        out, events = _run(_graph(b), config={"run_id": run_id})
        recorder = Recorder()
        _graph(b).invoke(
            {"messages": [HumanMessage("hi", id="h1")]}, {"run_id": run_id, "callbacks": [recorder]}
        )

        async def events_v2():
            app = _graph(b)
            inputs = {"messages": [HumanMessage("hi", id="h1")]}
            return [
                (e["event"], e["name"])
                async for e in app.astream_events(inputs, {"run_id": run_id}, version="v2")
                if e["event"] in ("on_chain_start", "on_chain_end")
            ]

        return out, events, recorder.events, asyncio.run(events_v2())

    out, events, invoked, streamed = assert_same(scenario)
    assert [e[1] for e in events if e[0] == "chain"][:2] == ["LangGraph", "chat"]
    assert ("on_chain_start", "chat") in streamed


class Log(TypedDict):
    log: Annotated[list, operator.add]


def test_astream_events_streams_each_node_output():
    """Under astream_events each node's run streams its output once (on_chain_stream named
    after the node, before its end): a dict, None, a Command, a subgraph's state, an async
    node's, after its routers ran (issue 31)."""

    def scenario(b):
        Command = b.types.Command
        sub = b.graph.StateGraph(Log)
        sub.add_node("inner", lambda s: {"log": ["inner"]})
        sub.add_edge(b.graph.START, "inner")

        def route(state: Log) -> str:
            return "b"

        async def e(state: Log) -> dict:
            return {"log": ["e"]}

        g = b.graph.StateGraph(Log)
        g.add_node("a", lambda s: {"log": ["a"]})
        g.add_node("b", lambda s: None)
        g.add_node("c", lambda s: Command(update={"log": ["c"]}, goto="d"))
        g.add_node("d", sub.compile())
        g.add_node("e", e)
        g.add_edge(b.graph.START, "a")
        g.add_conditional_edges("a", route, ["b"])
        g.add_edge("b", "c")
        g.add_edge("d", "e")
        app = g.compile()

        async def events():
            return [
                (e["event"], e["name"], e["data"].get("chunk"))
                async for e in app.astream_events({"log": []}, version="v2")
                if e["name"] != "route"  # langgraph names a router's run after its function
            ]

        return asyncio.run(events())

    events = assert_same(scenario)
    streamed = [(name, chunk) for kind, name, chunk in events if kind == "on_chain_stream"]
    assert [name for name, _ in streamed if name != "LangGraph"] == [
        "a",
        "b",
        "c",
        "inner",
        "d",
        "e",
    ]
    assert ("b", None) in streamed and ("e", {"log": ["e"]}) in streamed
    assert len(events) == 27


def test_a_lambda_routers_run_is_named_as_langgraph_names_it():
    """A lambda router's run: "RunnableCallable" under invoke, unnamed under the async API
    ("Unnamed" in astream_events); a function router's run bears its name (issue 31)."""

    class Names(BaseCallbackHandler):
        def __init__(self) -> None:
            self.names: list = []

        def on_chain_start(self, serialized, inputs, *, name=None, **kwargs) -> None:
            self.names.append(name)

    def scenario(b):
        def route(state: Log) -> str:
            return "c"

        g = b.graph.StateGraph(Log)
        for name in ("a", "b", "c"):
            g.add_node(name, lambda s, name=name: {"log": [name]})
        g.add_edge(b.graph.START, "a")
        g.add_conditional_edges("a", lambda s: "b", ["b"])
        g.add_conditional_edges("b", route, ["c"])
        app = g.compile()
        sync, async_ = Names(), Names()
        app.invoke({"log": []}, {"callbacks": [sync]})
        asyncio.run(app.ainvoke({"log": []}, {"callbacks": [async_]}))

        async def events():
            return [e["name"] async for e in app.astream_events({"log": []}, version="v2")
                    if e["event"] == "on_chain_start"]  # fmt: skip

        return sync.names, async_.names, asyncio.run(events())

    sync, async_, events = assert_same(scenario)
    assert sync[2:5] == ["RunnableCallable", "b", "route"] and async_[2] is None
    assert "Unnamed" in events
