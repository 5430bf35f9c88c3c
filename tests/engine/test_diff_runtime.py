"""Differential tests: Runtime/context, get_config metadata, RemainingSteps, store, custom stream
writer, async nodes.

Every test runs on both backends through the `backend` fixture; expected values were taken from
langgraph 1.2.24. Ids inside namespaces are normalised to "<uuid>".
"""

import asyncio
import operator
import re
from dataclasses import dataclass
from typing import Annotated, TypedDict

import pytest

from tests.engine.graphs import _chain, _one_node, _sg
from tests.oracle import normalize

pytestmark = pytest.mark.differential

_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


@dataclass
class Ctx:
    user: str
    factor: int = 2


class DictCtx(TypedDict):
    user: str


class S(TypedDict):
    n: int
    log: Annotated[list, operator.add]


class Mem(TypedDict):
    user: str
    log: Annotated[list, operator.add]


def _loop_schema(b):
    """A state schema with a RemainingSteps managed value, built from the backend's class."""
    return TypedDict(
        "LoopState",
        {
            "n": int,
            "log": Annotated[list, operator.add],
            "remaining_steps": b.managed.RemainingSteps,
        },
    )


# --------------------------------------------------------------------------------------------
# Runtime and context
# --------------------------------------------------------------------------------------------


def _ctx_app(b, **compile_kw):
    Runtime = b.runtime.Runtime

    def a(state: S, runtime: Runtime[Ctx]):
        runtime.stream_writer({"from": "a", "user": runtime.context.user})
        return {
            "n": state["n"] * runtime.context.factor,
            "log": [runtime.context.user, runtime.store is None, type(runtime.context).__name__],
        }

    g = b.graph.StateGraph(S, context_schema=Ctx)
    g.add_node("a", a)
    g.add_edge(b.graph.START, "a")
    return g.compile(**compile_kw)


def test_context_reaches_runtime(backend):
    app = _ctx_app(backend)
    assert app.invoke({"n": 3}, context=Ctx(user="ann", factor=5)) == {
        "n": 15,
        "log": ["ann", True, "Ctx"],
    }


def test_context_dict_is_coerced_to_dataclass_schema(backend):
    app = _ctx_app(backend)
    assert app.invoke({"n": 3}, context={"user": "dict"}) == {"n": 6, "log": ["dict", True, "Ctx"]}


def test_missing_context_is_none(backend):
    app = _ctx_app(backend)
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'user'"):
        app.invoke({"n": 3})


def test_runtime_stream_writer_custom_mode(backend):
    app = _ctx_app(backend)
    assert list(
        app.stream({"n": 3}, context=Ctx(user="bob"), stream_mode=["custom", "updates"])
    ) == [
        ("custom", {"from": "a", "user": "bob"}),
        ("updates", {"a": {"n": 6, "log": ["bob", True, "Ctx"]}}),
    ]
    # without "custom" in stream_mode the writer is a no-op
    assert list(app.stream({"n": 3}, context=Ctx(user="bob"))) == [
        {"a": {"n": 6, "log": ["bob", True, "Ctx"]}}
    ]


def test_typeddict_context_stays_dict_and_get_runtime(backend):
    Runtime, get_runtime = backend.runtime.Runtime, backend.runtime.get_runtime
    seen = []

    def a(state, runtime: Runtime[DictCtx]):
        seen.append((type(runtime.context).__name__, runtime.context))
        seen.append(get_runtime() is runtime)
        seen.append(get_runtime().context)
        return {"log": ["a"]}

    g = backend.graph.StateGraph(S, context_schema=DictCtx)
    g.add_node("a", a)
    g.add_edge(backend.graph.START, "a")
    assert g.compile().invoke({"n": 0}, context={"user": "u"}) == {"n": 0, "log": ["a"]}
    assert seen == [("dict", {"user": "u"}), True, {"user": "u"}]


def test_runtime_execution_info(backend):
    Runtime = backend.runtime.Runtime
    seen = []

    def a(state, runtime: Runtime):
        info = runtime.execution_info
        cfg = backend.config.get_config()
        seen.append(
            (
                info.thread_id,
                info.checkpoint_ns == f"a:{info.task_id}",
                cfg["configurable"]["checkpoint_ns"] == info.checkpoint_ns,
                info.node_attempt,
                bool(re.fullmatch(_UUID, info.checkpoint_id)),
            )
        )
        return {"log": ["a"]}

    g = backend.graph.StateGraph(S)
    g.add_node("a", a)
    g.add_edge(backend.graph.START, "a")
    g.compile().invoke({"n": 0})
    saver = backend.mod("checkpoint.memory").InMemorySaver()
    g.compile(checkpointer=saver).invoke({"n": 0}, {"configurable": {"thread_id": "x"}})
    assert seen == [(None, True, True, 1, True), ("x", True, True, 1, True)]


def test_runtime_execution_info_node_attempt_counts_retries(backend):
    Runtime = backend.runtime.Runtime
    attempts = []

    def flaky(state, runtime: Runtime):
        attempts.append(runtime.execution_info.node_attempt)
        if len(attempts) < 3:
            raise ConnectionError("again")
        return {"log": ["ok"]}

    g = backend.graph.StateGraph(S)
    g.add_node(
        "f", flaky, retry_policy=backend.types.RetryPolicy(initial_interval=0.001, jitter=False)
    )
    g.add_edge(backend.graph.START, "f")
    assert g.compile().invoke({"n": 0}) == {"n": 0, "log": ["ok"]}
    assert attempts == [1, 2, 3]


# --------------------------------------------------------------------------------------------
# get_config() inside nodes
# --------------------------------------------------------------------------------------------


def _meta(config) -> dict:
    return {k: v for k, v in config["metadata"].items() if k.startswith("langgraph_")}


def test_get_config_metadata_keys(backend):
    seen = []

    def b_node(state, config):
        c = backend.config.get_config()
        seen.append((_meta(c), _meta(config), c["configurable"]["checkpoint_ns"]))
        seen.append({k: c["metadata"][k] for k in ("mine", "thread_id")})
        seen.append({k: c["configurable"][k] for k in ("thread_id", "foo")})
        seen.append(c["tags"])
        return {"n": 1}

    g = backend.graph.StateGraph(S)
    g.add_node("pre", lambda s: {"n": 0})
    g.add_node("b", b_node)
    g.add_edge(backend.graph.START, "pre")
    g.add_edge("pre", "b")
    g.compile().invoke(
        {"n": 0},
        {
            "metadata": {"mine": 1},
            "configurable": {"thread_id": "zz", "foo": "bar"},
            "tags": ["t1"],
        },
    )
    meta, meta_param, ns = seen[0]
    assert meta == meta_param
    assert re.fullmatch(f"b:{_UUID}", meta["langgraph_checkpoint_ns"])
    assert ns == meta["langgraph_checkpoint_ns"]
    assert normalize(meta) == {
        "langgraph_step": 2,
        "langgraph_node": "b",
        "langgraph_triggers": ("branch:to:b",),
        "langgraph_path": ("__pregel_pull", "b"),
        "langgraph_checkpoint_ns": "b:<uuid>",
    }
    # user metadata is kept and configurable thread_id is copied into metadata
    assert seen[1] == {"mine": 1, "thread_id": "zz"}
    assert seen[2] == {"thread_id": "zz", "foo": "bar"}
    assert seen[3] == ["t1"]


def test_get_config_metadata_for_send_task(backend):
    Send = backend.types.Send
    seen = []

    def w(state):
        seen.append(_meta(backend.config.get_config()))
        return {"log": [state["i"]]}

    g = backend.graph.StateGraph(S)
    g.add_node("w", w)
    g.add_conditional_edges(
        backend.graph.START, lambda s: [Send("w", {"i": 0}), Send("w", {"i": 1})]
    )
    assert g.compile().invoke({"n": 0}) == {"n": 0, "log": [0, 1]}
    assert sorted(map(repr, normalize(seen))) == sorted(
        map(
            repr,
            [
                {
                    "langgraph_step": 1,
                    "langgraph_node": "w",
                    "langgraph_triggers": ("__pregel_push",),
                    "langgraph_path": ("__pregel_push", i, False),
                    "langgraph_checkpoint_ns": "w:<uuid>",
                }
                for i in (0, 1)
            ],
        )
    )


def test_get_config_metadata_in_subgraph(backend):
    seen = []

    def inner(state):
        c = backend.config.get_config()
        seen.append(
            (_meta(c), c["metadata"].get("checkpoint_ns"), c["configurable"]["checkpoint_ns"])
        )
        return {"log": ["inner"]}

    sg = backend.graph.StateGraph(S)
    sg.add_node("inner", inner)
    sg.add_edge(backend.graph.START, "inner")
    g = backend.graph.StateGraph(S)
    g.add_node("outer", sg.compile())
    g.add_edge(backend.graph.START, "outer")
    g.compile().invoke({"n": 0})
    meta, parent_ns, ns = seen[0]
    assert normalize(meta) == {
        "langgraph_step": 1,
        "langgraph_node": "inner",
        "langgraph_triggers": ("branch:to:inner",),
        "langgraph_path": ("__pregel_pull", "inner"),
        "langgraph_checkpoint_ns": "outer:<uuid>|inner:<uuid>",
    }
    assert ns == meta["langgraph_checkpoint_ns"]
    assert normalize(parent_ns) == "outer:<uuid>"
    assert ns.startswith(parent_ns + "|")


# --------------------------------------------------------------------------------------------
# RemainingSteps
# --------------------------------------------------------------------------------------------


def _remaining_app(b):
    def a(s):
        return {"n": s["n"] + 1, "log": [s["remaining_steps"]]}

    g = b.graph.StateGraph(_loop_schema(b))
    g.add_node("a", a)
    g.add_edge(b.graph.START, "a")
    g.add_conditional_edges("a", lambda s: b.graph.END if s["remaining_steps"] <= 2 else "a")
    return g.compile()


def test_remaining_steps_loop_stops_before_limit(backend):
    app = _remaining_app(backend)
    assert app.invoke({"n": 0}, {"recursion_limit": 6}) == {"n": 4, "log": [5, 4, 3, 2]}
    assert app.invoke({"n": 0}, {"recursion_limit": 5}) == {"n": 3, "log": [4, 3, 2]}
    assert list(app.stream({"n": 0}, {"recursion_limit": 4}, stream_mode="values")) == [
        {"n": 0, "log": []},
        {"n": 1, "log": [3]},
        {"n": 2, "log": [3, 2]},
    ]
    assert list(app.stream({"n": 0}, {"recursion_limit": 4}, stream_mode="updates")) == [
        {"a": {"n": 1, "log": [3]}},
        {"a": {"n": 2, "log": [2]}},
    ]


def test_remaining_steps_default_limit_and_input_ignored(backend):
    def once(s):
        return {"log": [s["remaining_steps"]]}

    g = backend.graph.StateGraph(_loop_schema(backend))
    g.add_node("a", once)
    g.add_edge(backend.graph.START, "a")
    app = g.compile()
    # the default recursion_limit of langgraph 1.2.24 is 10007
    assert app.invoke({"n": 0}) == {"n": 0, "log": [10006]}
    assert app.invoke({"n": 0, "remaining_steps": 3}) == {"n": 0, "log": [10006]}
    assert app.invoke({"n": 0}, {"recursion_limit": 50}) == {"n": 0, "log": [49]}


# --------------------------------------------------------------------------------------------
# Store
# --------------------------------------------------------------------------------------------


def _store_app(b, store):
    Runtime = b.runtime.Runtime

    def w(state, runtime: Runtime):
        st = runtime.store
        ns = ("memories", state["user"])
        st.put(ns, "k1", {"text": "likes tea", "n": 1})
        st.put(ns, "k2", {"text": "likes cats", "n": 2})
        st.put(("memories", "other"), "k1", {"text": "x", "n": 3})
        return {"log": ["w"]}

    def r(state, runtime: Runtime):
        st = runtime.store
        ns = ("memories", state["user"])
        item = st.get(ns, "k1")
        out = [item.value, item.key, tuple(item.namespace), st.get(ns, "missing")]
        out.append(sorted((i.key, i.value["n"]) for i in st.search(ns)))
        out.append(sorted(i.key for i in st.search(("memories",))))
        out.append([i.key for i in st.search(ns, filter={"n": 2})])
        st.delete(ns, "k1")
        out.append(st.get(ns, "k1"))
        out.append(sorted(st.list_namespaces(prefix=("memories",))))
        out.append(b.config.get_store() is st)
        return {"log": out}

    g = b.graph.StateGraph(Mem)
    g.add_node("w", w)
    g.add_node("r", r)
    g.add_edge(b.graph.START, "w")
    g.add_edge("w", "r")
    return g.compile(store=store)


def test_store_from_runtime(backend):
    store = backend.mod("store.memory").InMemoryStore()
    app = _store_app(backend, store)
    assert app.invoke({"user": "u1"}) == {
        "user": "u1",
        "log": [
            "w",
            {"text": "likes tea", "n": 1},
            "k1",
            ("memories", "u1"),
            None,
            [("k1", 1), ("k2", 2)],
            ["k1", "k1", "k2"],
            ["k2"],
            None,
            [("memories", "other"), ("memories", "u1")],
            True,
        ],
    }
    # writes made by nodes are visible in the store object afterwards
    item = store.get(("memories", "u1"), "k2")
    assert (item.key, item.value, tuple(item.namespace)) == (
        "k2",
        {"text": "likes cats", "n": 2},
        ("memories", "u1"),
    )
    assert store.get(("memories", "u1"), "k1") is None


def test_store_injected_by_keyword(backend):
    seen = []

    def node(state, *, store):
        store.put(("ns",), "key", {"v": state["n"]})
        seen.append(store.get(("ns",), "key").value)
        return {"log": ["ok"]}

    g = backend.graph.StateGraph(S)
    g.add_node("node", node)
    g.add_edge(backend.graph.START, "node")
    store = backend.mod("store.memory").InMemoryStore()
    assert g.compile(store=store).invoke({"n": 7}) == {"n": 7, "log": ["ok"]}
    assert seen == [{"v": 7}]


def test_store_is_none_without_store(backend):
    Runtime = backend.runtime.Runtime
    seen = []

    def node(state, runtime: Runtime):
        seen.append(runtime.store)
        return {"log": ["ok"]}

    g = backend.graph.StateGraph(S)
    g.add_node("node", node)
    g.add_edge(backend.graph.START, "node")
    g.compile().invoke({"n": 0})
    assert seen == [None]


# --------------------------------------------------------------------------------------------
# get_stream_writer
# --------------------------------------------------------------------------------------------


def _writer_app(b):
    def a(s):
        w = b.config.get_stream_writer()
        w("progress 1")
        w({"pct": 50})
        return {"log": ["a"]}

    g = b.graph.StateGraph(S)
    g.add_node("a", a)
    g.add_edge(b.graph.START, "a")
    return g.compile()


def test_get_stream_writer_custom_mode(backend):
    app = _writer_app(backend)
    assert list(app.stream({"n": 0}, stream_mode="custom")) == ["progress 1", {"pct": 50}]
    assert app.invoke({"n": 0}) == {"n": 0, "log": ["a"]}
    assert list(app.stream({"n": 0})) == [{"a": {"log": ["a"]}}]
    assert list(app.stream({"n": 0}, stream_mode=["custom", "values"])) == [
        ("values", {"n": 0, "log": []}),
        ("custom", "progress 1"),
        ("custom", {"pct": 50}),
        ("values", {"n": 0, "log": ["a"]}),
    ]


def test_get_stream_writer_in_subgraph(backend):
    g = backend.graph.StateGraph(S)
    g.add_node("sub", _writer_app(backend))
    g.add_edge(backend.graph.START, "sub")
    app = g.compile()
    chunks = list(app.stream({"n": 0}, stream_mode="custom", subgraphs=True))
    assert normalize(chunks) == [(("sub:<uuid>",), "progress 1"), (("sub:<uuid>",), {"pct": 50})]
    # without subgraphs=True a subgraph's custom chunks are not surfaced
    assert list(app.stream({"n": 0}, stream_mode="custom")) == []


# --------------------------------------------------------------------------------------------
# async nodes
# --------------------------------------------------------------------------------------------


def _async_app(b):
    events: dict[str, asyncio.Event] = {}

    async def aa(s):
        await asyncio.sleep(0)
        events["p1"], events["p2"] = asyncio.Event(), asyncio.Event()
        b.config.get_stream_writer()("async custom")
        return {"log": ["aa"]}

    async def p1(s):
        # p1 and p2 must run concurrently: each waits for the other to start
        events["p1"].set()
        await asyncio.wait_for(events["p2"].wait(), 2)
        return {"log": ["p1"]}

    async def p2(s):
        events["p2"].set()
        await asyncio.wait_for(events["p1"].wait(), 2)
        return {"log": ["p2"]}

    g = b.graph.StateGraph(S)
    g.add_node("aa", aa)
    g.add_node("p1", p1)
    g.add_node("p2", p2)
    g.add_node("join", lambda s: {"log": ["join"]})
    g.add_edge(b.graph.START, "aa")
    g.add_edge("aa", "p1")
    g.add_edge("aa", "p2")
    g.add_edge(["p1", "p2"], "join")
    return g.compile()


async def test_async_nodes_ainvoke_parallel(backend):
    app = _async_app(backend)
    assert await app.ainvoke({"n": 0}) == {"n": 0, "log": ["aa", "p1", "p2", "join"]}


async def test_async_nodes_astream(backend):
    app = _async_app(backend)
    chunks = [c async for c in app.astream({"n": 0}, stream_mode=["custom", "updates"])]
    assert chunks[:2] == [("custom", "async custom"), ("updates", {"aa": {"log": ["aa"]}})]
    assert sorted(map(repr, chunks[2:4])) == sorted(
        map(repr, [("updates", {"p1": {"log": ["p1"]}}), ("updates", {"p2": {"log": ["p2"]}})])
    )
    assert chunks[4:] == [("updates", {"join": {"log": ["join"]}})]


async def test_async_node_with_runtime_context(backend):
    Runtime = backend.runtime.Runtime

    async def a(state: S, runtime: Runtime[Ctx]):
        await asyncio.sleep(0)
        return {"n": state["n"] * runtime.context.factor, "log": [runtime.context.user]}

    g = backend.graph.StateGraph(S, context_schema=Ctx)
    g.add_node("a", a)
    g.add_edge(backend.graph.START, "a")
    out = await g.compile().ainvoke({"n": 2}, context=Ctx(user="z", factor=3))
    assert out == {"n": 6, "log": ["z"]}


async def test_sync_nodes_under_ainvoke(backend):
    app = _ctx_app(backend)
    assert await app.ainvoke({"n": 3}, context=Ctx(user="s")) == {"n": 6, "log": ["s", True, "Ctx"]}


def test_sync_invoke_of_async_node_fails(backend):
    async def a(s):
        return {"log": ["a"]}

    g = backend.graph.StateGraph(S)
    g.add_node("aa", a)
    g.add_edge(backend.graph.START, "aa")
    with pytest.raises(TypeError) as info:
        g.compile().invoke({"n": 0})
    assert str(info.value) == (
        'No synchronous function provided to "aa".\n'
        "Either initialize with a synchronous function or invoke via the async API "
        "(ainvoke, astream, etc.)"
    )


def test_node_with_config_and_runtime(backend):
    Runtime = backend.runtime.Runtime
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver
    from langchain_core.runnables import RunnableConfig

    class State(TypedDict, total=False):
        input: str
        results: Annotated[list, operator.add]

    @dataclass
    class Ctx:
        user_id: str

    def plain_node(state: State):
        return {}

    def node_with_config(state: State, config: RunnableConfig):
        thread_id = config["configurable"]["thread_id"]
        return {"results": [f"Hello, {state['input']}! ({thread_id})"]}

    def node_with_runtime(state: State, runtime: Runtime):
        user_id = runtime.context.user_id
        return {"results": [f"Hello, {state['input']}! [{user_id}]"]}

    nodes = (plain_node, node_with_config, node_with_runtime)
    schemas = {"context_schema": Ctx}
    app = _chain(backend, State, *nodes, schemas=schemas, checkpointer=InMemorySaver())
    out = app.invoke(
        {"input": "x"}, {"configurable": {"thread_id": "t-7"}}, context=Ctx(user_id="u1")
    )
    assert out == {"input": "x", "results": ["Hello, x! (t-7)", "Hello, x! [u1]"]}


def test_runtime_context_schema(backend):
    StateGraph, START = _sg(backend)
    Runtime = backend.runtime.Runtime

    class State(TypedDict, total=False):
        llm: str
        route: str

    @dataclass
    class ContextSchema:
        llm_provider: str = "openai"

    def get_llm(provider):
        return f"llm<{provider}>"

    def node_a(state: State, runtime: Runtime[ContextSchema]):
        return {"llm": get_llm(runtime.context.llm_provider)}

    def route(state: State, runtime: Runtime[ContextSchema]):  # context in an edge's router too
        return "node_b" if runtime.context.llm_provider == "anthropic" else "__end__"

    graph = StateGraph(State, context_schema=ContextSchema)
    graph.add_node("node_a", node_a)
    graph.add_node("node_b", lambda s: {"route": "b"})
    graph.add_edge(START, "node_a")
    graph.add_conditional_edges("node_a", route, ["node_b", "__end__"])
    app = graph.compile()
    assert app.invoke({}, context={"llm_provider": "anthropic"}) == {
        "llm": "llm<anthropic>",
        "route": "b",
    }
    assert app.invoke({}, context=ContextSchema()) == {"llm": "llm<openai>"}


def test_config_metadata_langgraph_step(backend, capsys):
    from langchain_core.runnables import RunnableConfig

    def my_node(state: dict, config: RunnableConfig) -> dict:
        current_step = config["metadata"]["langgraph_step"]
        print(f"Currently on step: {current_step}")
        return state

    class State(TypedDict):
        x: int

    assert _chain(backend, State, ("first", my_node), ("second", my_node)).invoke({"x": 1}) == {
        "x": 1
    }
    assert capsys.readouterr().out == "Currently on step: 1\nCurrently on step: 2\n"


def test_remaining_steps(backend):
    StateGraph, START = _sg(backend)
    RemainingSteps = backend.managed.RemainingSteps

    class State(TypedDict):
        messages: Annotated[list, lambda x, y: x + y]
        remaining_steps: RemainingSteps

    seen = []

    def reasoning_node(state: State) -> dict:
        remaining = state["remaining_steps"]
        seen.append(remaining)
        if remaining <= 2:
            return {"messages": ["Approaching limit, wrapping up..."]}
        return {"messages": ["thinking..."]}

    def route(state: State):
        return "__end__" if state["messages"][-1].startswith("Approaching") else "reasoning_node"

    builder = StateGraph(State)
    builder.add_node("reasoning_node", reasoning_node)
    builder.add_edge(START, "reasoning_node")
    builder.add_conditional_edges("reasoning_node", route, ["reasoning_node", "__end__"])
    out = builder.compile().invoke({"messages": []}, {"recursion_limit": 6})
    assert seen == [5, 4, 3, 2]
    assert out == {
        "messages": [
            "thinking...",
            "thinking...",
            "thinking...",
            "Approaching limit, wrapping up...",
        ]
    }


def test_other_metadata(backend):
    from langchain_core.runnables import RunnableConfig

    seen = []

    def inspect_metadata(state: dict, config: RunnableConfig) -> dict:
        metadata = config["metadata"]
        seen.append(
            (
                metadata["langgraph_step"],
                metadata["langgraph_node"],
                metadata["langgraph_triggers"],
                metadata["langgraph_path"],
                metadata["langgraph_checkpoint_ns"],
            )
        )
        return state

    class State(TypedDict):
        x: int

    _one_node(backend, State, inspect_metadata, name="inspect").invoke({"x": 1})
    assert len(seen) == 1
    step, node, triggers, path, ns = seen[0]
    assert (step, node, tuple(triggers), tuple(path)) == (
        1,
        "inspect",
        ("branch:to:inspect",),
        ("__pregel_pull", "inspect"),
    )
    assert normalize(ns) == "inspect:<uuid>"


def test_is_last_step_from_its_module_path(backend):
    """Programs import IsLastStep from langgraph.managed.is_last_step (issue 31)."""
    StateGraph, START = _sg(backend)
    IsLastStep = backend.mod("managed.is_last_step").IsLastStep

    class State(TypedDict):
        log: Annotated[list, operator.add]
        is_last_step: IsLastStep

    def step(state: State) -> dict:
        return {"log": [state["is_last_step"]]}

    def route(state: State) -> str:
        return "__end__" if state["is_last_step"] else "step"

    builder = StateGraph(State)
    builder.add_node("step", step)
    builder.add_edge(START, "step")
    builder.add_conditional_edges("step", route, ["step", "__end__"])
    assert builder.compile().invoke({"log": []}, {"recursion_limit": 4}) == {
        "log": [False, False, True]
    }


def test_a_managed_value_subscripted_by_its_type(backend):
    """A program's own managed value subclasses `ManagedValue[int]` from langgraph.managed.base."""
    StateGraph, START = _sg(backend)
    ManagedValue = backend.mod("managed.base").ManagedValue

    class StepsTaken(ManagedValue[int]):
        @staticmethod
        def get(scratchpad) -> int:
            return scratchpad.step

    class State(TypedDict):
        log: Annotated[list, operator.add]
        taken: Annotated[int, StepsTaken]

    out = _chain(backend, State, ("a", lambda s: {"log": [s["taken"]]}), ("b", lambda s: {
        "log": [s["taken"]]})).invoke({"log": []})  # fmt: skip
    assert out == {"log": [1, 2]}
