"""The runnable examples of seed document 003 (Chinese notes on the LangGraph Graph API).

Source: /work/shared/seeds/003_502f2c5bb82525e1.txt. One test per example, in document order;
each runs on both backends through the `backend` fixture. Where the document prints an output
the test asserts it; otherwise it asserts what langgraph 1.2.24 gives (the oracle).

Skipped examples (need network / LLM providers / Postgres):
  - "LLM Tokens 流式" (stream_mode="messages" with init_chat_model), "按 tags 过滤",
    "禁用特定 LLM 流式" (init_chat_model)
  - "生产环境" PostgresSaver.from_conn_string
  - "语义搜索" InMemoryStore(index={"embed": init_embeddings("openai:...")})
  - "Per-invocation" and "Subagents 实现" (create_agent with model="gpt-4")
  - "Return from tools" (@tool returning Command; only meaningful inside a ToolNode/agent)
"""

import asyncio
import operator
import time
import uuid
from dataclasses import dataclass, field
from operator import add
from typing import Annotated, Literal, TypedDict

import pytest
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from pydantic import BaseModel, Field

from tests.oracle import normalize


def _sg(backend):
    """(StateGraph, START) of the backend."""
    return backend.graph.StateGraph, backend.graph.START


class FooPath(TypedDict):
    foo: str
    path: Annotated[list, operator.add]


def _chain(backend, schema, *nodes, schemas=None, **compile_kwargs):
    """StateGraph(schema, **schemas) running `nodes` (functions, or (name, function) pairs) in a
    line from START to END, compiled."""
    builder = backend.graph.StateGraph(schema, **(schemas or {}))
    previous = backend.graph.START
    for node in nodes:
        name, fn = node if isinstance(node, tuple) else (node.__name__, node)
        builder.add_node(name, fn)
        builder.add_edge(previous, name)
        previous = name
    builder.add_edge(previous, backend.graph.END)
    return builder.compile(**compile_kwargs)


def _one_node(backend, schema, fn, name="n", **compile_kwargs):
    """StateGraph(schema) with a single node `name` run from START, compiled."""
    return _chain(backend, schema, (name, fn), **compile_kwargs)


# --------------------------------------------------------------------------------------------
# HelloWorld and the core concepts
# --------------------------------------------------------------------------------------------


def test_hello_world(backend):
    # the document imports START/END from langgraph.constants: the same names as langgraph.graph's
    assert (backend.constants.START, backend.constants.END) == ("__start__", "__end__")
    assert (backend.graph.START, backend.graph.END) == ("__start__", "__end__")

    class HelloState(TypedDict):
        name: str

    def hello(state: HelloState) -> HelloState:
        return {"name": f"Hello, {state['name']}!"}

    def add_emoji(state: HelloState) -> HelloState:
        return {"name": f"{state['name']} 😊"}

    app = _chain(backend, HelloState, hello, add_emoji)

    assert app.invoke({"name": "liutianba7"}) == {"name": "Hello, liutianba7! 😊"}


def test_state_add_messages_reducer(backend):
    add_messages = backend.graph.add_messages

    class State(TypedDict):
        messages: Annotated[list, add_messages]  # 自动追加消息

    out = _one_node(
        backend,
        State,
        lambda s: {"messages": [AIMessage(content="hi there", id="a1")]},
        name="reply",
    ).invoke({"messages": [HumanMessage(content="hi", id="h1")]})
    assert out == {
        "messages": [HumanMessage(content="hi", id="h1"), AIMessage(content="hi there", id="a1")]
    }


def test_node_edge_graph_basics(backend):
    """Node (`my_node`), conditional edge (`route_fn`) and the 5-step graph-building recipe."""
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END

    class State(TypedDict, total=False):
        name: str
        count: int
        visited: Annotated[list, operator.add]

    def my_node(state: State) -> dict:
        name = state["name"]
        return {"name": f"Hello, {name}"}

    def route_fn(state: State) -> str:
        return "node_b" if state["count"] > 5 else "node_c"

    def run(count):
        graph = StateGraph(State)
        graph.add_node("node_a", my_node)
        graph.add_node("node_b", lambda s: {"visited": ["b"]})
        graph.add_node("node_c", lambda s: {"visited": ["c"]})
        graph.add_edge(START, "node_a")
        graph.add_conditional_edges("node_a", route_fn)
        graph.add_edge("node_b", END)
        graph.add_edge("node_c", END)
        return graph.compile().invoke({"name": "test", "count": count})

    assert run(6) == {"name": "Hello, test", "count": 6, "visited": ["b"]}
    assert run(5) == {"name": "Hello, test", "count": 5, "visited": ["c"]}


def test_set_entry_point_and_conditional_entry_point(backend):
    StateGraph = backend.graph.StateGraph

    class State(TypedDict):
        path: Annotated[list, operator.add]
        go_b: bool

    g = StateGraph(State)
    g.add_node("node_a", lambda s: {"path": ["a"]})
    g.set_entry_point("node_a")
    g.set_finish_point("node_a")
    assert g.compile().invoke({"path": [], "go_b": True}) == {"path": ["a"], "go_b": True}

    g = StateGraph(State)
    g.add_node("node_b", lambda s: {"path": ["b"]})
    g.add_node("node_c", lambda s: {"path": ["c"]})
    g.set_conditional_entry_point(lambda s: "node_b" if s["go_b"] else "node_c")
    app = g.compile()
    assert app.invoke({"path": [], "go_b": True}) == {"path": ["b"], "go_b": True}
    assert app.invoke({"path": [], "go_b": False}) == {"path": ["c"], "go_b": False}


# --------------------------------------------------------------------------------------------
# State definitions
# --------------------------------------------------------------------------------------------


def test_state_typeddict_operator_add(backend):
    StateGraph, START = _sg(backend)

    class AgentState(TypedDict):
        messages: Annotated[list[AnyMessage], operator.add]
        llm_calls: int

    builder = StateGraph(AgentState)
    builder.add_node(
        "llm", lambda s: {"messages": [AIMessage(content="ok")], "llm_calls": s["llm_calls"] + 1}
    )
    builder.add_edge(START, "llm")
    out = builder.compile().invoke({"messages": [HumanMessage(content="q")], "llm_calls": 0})
    assert out == {"messages": [HumanMessage(content="q"), AIMessage(content="ok")], "llm_calls": 1}


def test_state_dataclass_defaults(backend):

    @dataclass
    class StateWithDefaults:
        messages: list = field(default_factory=list)
        retries: int = 3
        status: str = "pending"

    seen = []

    def node(state: StateWithDefaults):
        seen.append((type(state).__name__, state.messages, state.retries, state.status))
        return {"status": "done"}

    out = _one_node(backend, StateWithDefaults, node, name="node").invoke({"messages": ["m"]})
    assert seen == [("StateWithDefaults", ["m"], 3, "pending")]
    # defaults fill the node's input; they are not channel values, so `retries` (never written)
    # is absent from the output
    assert out == {"messages": ["m"], "status": "done"}


def test_state_pydantic_validation(backend):

    class PydanticState(BaseModel):
        name: str = Field(..., description="name", max_length=10)
        age: int = Field(..., description="age", gt=0)

    seen = []

    def node(state: PydanticState):
        seen.append((type(state).__name__, state.name, state.age))
        return {"age": state.age + 1}

    app = _one_node(backend, PydanticState, node, name="node")
    assert app.invoke({"name": "bob", "age": 1}) == {"name": "bob", "age": 2}
    assert seen == [("PydanticState", "bob", 1)]

    with pytest.raises(Exception) as bad_age:
        app.invoke({"name": "bob", "age": 0})
    with pytest.raises(Exception) as long_name:
        app.invoke({"name": "x" * 11, "age": 1})
    assert type(bad_age.value).__name__ == "ValidationError"
    assert type(long_name.value).__name__ == "ValidationError"


def test_state_multiple_schemas_private_input_output(backend):

    class InputState(TypedDict):
        user_input: str

    class OutputState(TypedDict):
        graph_output: str

    class OverallState(TypedDict):
        foo: str
        user_input: str
        graph_output: str

    class PrivateState(TypedDict):
        bar: str

    def node_1(state: InputState) -> OverallState:
        return {"foo": state["user_input"] + " name"}  # writes a channel not in its input schema

    def node_2(state: OverallState) -> PrivateState:
        return {"bar": state["foo"] + " is"}  # declares a new channel (PrivateState)

    def node_3(state: PrivateState) -> OutputState:
        return {"graph_output": state["bar"] + " Lance"}

    # builder = StateGraph(OverallState, input_schema=InputState, output_schema=OutputState)
    schemas = {"input_schema": InputState, "output_schema": OutputState}
    graph = _chain(backend, OverallState, node_1, node_2, node_3, schemas=schemas)

    assert graph.invoke({"user_input": "My"}) == {"graph_output": "My name is Lance"}
    # the graph's state is the union of every schema, PrivateState's `bar` included
    assert sorted(graph.channels) == [
        "__pregel_tasks",
        "__start__",
        "bar",
        "branch:to:node_1",
        "branch:to:node_2",
        "branch:to:node_3",
        "foo",
        "graph_output",
        "user_input",
    ]


# --------------------------------------------------------------------------------------------
# Reducers
# --------------------------------------------------------------------------------------------


def test_reducer_default_overwrites(backend):

    class AgentState(TypedDict):
        name: str
        messages: list

    assert _one_node(backend, AgentState, lambda s: {"name": "new", "messages": ["z"]}).invoke(
        {"name": "old", "messages": ["a"]}
    ) == {
        "name": "new",
        "messages": ["z"],
    }


def test_reducer_builtin_operator_add(backend):

    class AgentState(TypedDict):
        name: Annotated[str, operator.add]
        messages: Annotated[list[AnyMessage], operator.add]

    out = _one_node(
        backend, AgentState, lambda s: {"name": "-b", "messages": [AIMessage(content="2")]}
    ).invoke({"name": "a", "messages": [HumanMessage(content="1")]})
    assert out == {"name": "a-b", "messages": [HumanMessage(content="1"), AIMessage(content="2")]}


def test_reducer_custom_dedupe(backend):

    def custom_reducer(current: list, new: list) -> list:
        return current + [x for x in new if x not in current]

    class State(TypedDict):
        items: Annotated[list[str], custom_reducer]

    # 输入：{"items": ["a", "b"]}, Node 返回 {"items": ["b", "c"]} -> 结果：{"items": ["a", "b", "c"]}
    assert _one_node(backend, State, lambda s: {"items": ["b", "c"]}).invoke(
        {"items": ["a", "b"]}
    ) == {"items": ["a", "b", "c"]}


def test_reducer_overwrite_bypasses_add(backend):
    # the document's `from langgraph.graph import Overwrite` fails in 1.2.24: it lives in types
    assert not hasattr(backend.graph, "Overwrite")
    Overwrite = backend.types.Overwrite

    class State(TypedDict):
        bar: Annotated[list[str], add]

    def append_node(state: State):
        return {"bar": ["appended"]}

    def force_overwrite_node(state: State):
        return {"bar": Overwrite(["new_value"])}

    app = _chain(backend, State, append_node, force_overwrite_node)
    assert app.invoke({"bar": ["old"]}) == {"bar": ["new_value"]}
    updates = list(app.stream({"bar": ["old"]}, stream_mode="updates"))
    assert normalize(updates[0]) == {"append_node": {"bar": ["appended"]}}
    assert list(updates[1]) == ["force_overwrite_node"]
    assert type(updates[1]["force_overwrite_node"]["bar"]).__name__ == "Overwrite"


def test_reducer_initial_value_trap_mul(backend):
    Overwrite = backend.types.Overwrite

    def mul_graph():
        class AgentState(TypedDict):
            age: Annotated[float, operator.mul]

        return _one_node(backend, AgentState, lambda s: {"age": 2}, name="double")

    # 结果：age = 0.0 ❌  (0.0 * 1 = 0.0, and then 0.0 * 2)
    out = mul_graph().invoke({"age": 1})
    assert out == {"age": 0.0} and isinstance(out["age"], float)

    # 方案 2：Overwrite(1) 包裹初始值
    assert mul_graph().invoke({"age": Overwrite(1)}) == {"age": 2}

    # 方案 1：不用 Annotated
    class Plain(TypedDict):
        age: float

    assert _one_node(backend, Plain, lambda s: {"age": s["age"] * 2}, name="double").invoke(
        {"age": 1}
    ) == {"age": 2}

    # 方案 3：自定义 Reducer (treat the 0.0 default as "unset")
    def mul_or_set(current, new):
        return new if not current else current * new

    class Custom(TypedDict):
        age: Annotated[float, mul_or_set]

    assert _one_node(backend, Custom, lambda s: {"age": 2}, name="double").invoke({"age": 1}) == {
        "age": 2
    }


# --------------------------------------------------------------------------------------------
# Nodes: config, runtime, cache, retry
# --------------------------------------------------------------------------------------------


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


def test_node_cache_policy_in_memory_cache(backend):
    StateGraph, START = _sg(backend)
    InMemoryCache = backend.mod("cache.memory").InMemoryCache
    CachePolicy = backend.types.CachePolicy

    class State(TypedDict, total=False):
        x: int
        result: int

    calls = []

    def expensive_node(state: State):
        calls.append(state["x"])
        return {"result": state["x"] * 2}

    builder = StateGraph(State)
    builder.add_node("expensive_node", expensive_node, cache_policy=CachePolicy(ttl=3))
    builder.add_edge(START, "expensive_node")
    graph = builder.compile(cache=InMemoryCache())

    assert graph.invoke({"x": 5}) == {"x": 5, "result": 10}
    assert graph.invoke({"x": 5}) == {"x": 5, "result": 10}
    assert calls == [5]
    # the document's `{'result': 10, '__metadata__': {'cached': True}}` is the updates-stream chunk
    assert list(graph.stream({"x": 5}, stream_mode="updates")) == [
        {"expensive_node": {"result": 10}, "__metadata__": {"cached": True}}
    ]
    assert list(graph.stream({"x": 6}, stream_mode="updates")) == [
        {"expensive_node": {"result": 12}}
    ]
    assert calls == [5, 6]

    # a tiny ttl expires: the node runs again
    calls.clear()
    builder = StateGraph(State)
    builder.add_node("expensive_node", expensive_node, cache_policy=CachePolicy(ttl=0.05))
    builder.add_edge(START, "expensive_node")
    graph = builder.compile(cache=InMemoryCache())
    graph.invoke({"x": 1})
    graph.invoke({"x": 1})
    time.sleep(0.08)
    assert graph.invoke({"x": 1}) == {"x": 1, "result": 2}
    assert calls == [1, 1]


def test_node_retry_policy_default_retry_on(backend):
    StateGraph, START = _sg(backend)
    RetryPolicy = backend.types.RetryPolicy

    class State(TypedDict, total=False):
        result: str

    def build(exc_type, fail_times):
        attempts = []

        def node_function(state: State):
            attempts.append(1)
            if len(attempts) <= fail_times:
                raise exc_type("boom")
            return {"result": f"ok after {len(attempts)}"}

        builder = StateGraph(State)
        builder.add_node(
            "node_name",
            node_function,
            retry_policy=RetryPolicy(initial_interval=0.001, max_interval=0.002, jitter=False),
        )
        builder.add_edge(START, "node_name")
        return builder.compile(), attempts

    class Flaky(Exception):
        pass

    app, attempts = build(Flaky, 2)
    assert app.invoke({}) == {"result": "ok after 3"}

    # default max_attempts=3
    app, attempts = build(Flaky, 5)
    with pytest.raises(Flaky):
        app.invoke({})
    assert len(attempts) == 3

    # ValueError / LookupError / RuntimeError ... are not retried by default_retry_on
    for exc_type in (ValueError, TypeError, ZeroDivisionError, KeyError, RuntimeError, OSError):
        app, attempts = build(exc_type, 1)
        with pytest.raises(exc_type):
            app.invoke({})
        assert len(attempts) == 1, exc_type


def test_node_retry_execution_info(backend):
    StateGraph, START = _sg(backend)
    RetryPolicy, Runtime = backend.types.RetryPolicy, backend.runtime.Runtime

    class State(TypedDict, total=False):
        result: str

    seen = []

    def call_primary_api():
        raise ConnectionError("primary down")

    def call_fallback_api():
        return "fallback"

    def my_node(state: State, runtime: Runtime):
        info = runtime.execution_info
        seen.append((info.node_attempt, info.node_first_attempt_time))
        if info.node_attempt > 1:
            return {"result": call_fallback_api()}
        return {"result": call_primary_api()}

    builder = StateGraph(State)
    builder.add_node(
        "my_node", my_node, retry_policy=RetryPolicy(max_attempts=3, initial_interval=0.001)
    )
    builder.add_edge(START, "my_node")
    assert builder.compile().invoke({}) == {"result": "fallback"}
    assert [a for a, _ in seen] == [1, 2]
    assert seen[0][1] == seen[1][1] and isinstance(seen[0][1], float)
    assert abs(seen[0][1] - time.time()) < 60


# --------------------------------------------------------------------------------------------
# Edges, Send, Command
# --------------------------------------------------------------------------------------------


def test_parallel_fan_out(backend):
    StateGraph, START = _sg(backend)

    class State(TypedDict):
        log: Annotated[list, operator.add]

    builder = StateGraph(State)
    builder.add_node("a", lambda s: {"log": ["a"]})
    builder.add_node("b", lambda s: {"log": ["b"]})
    builder.add_node("c", lambda s: {"log": ["c"]})
    builder.add_node("d", lambda s: {"log": ["d"]})
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    builder.add_edge("a", "c")
    builder.add_edge(["b", "c"], "d")
    app = builder.compile()
    assert app.invoke({"log": []}) == {"log": ["a", "b", "c", "d"]}
    assert [list(c) for c in app.stream({"log": []}, stream_mode="updates")] == [
        ["a"],
        ["b"],
        ["c"],
        ["d"],
    ]


def test_conditional_edge_path_map_and_conditional_entry(backend):
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END

    class State(TypedDict):
        success: bool
        path: Annotated[list, operator.add]

    def routing_function(state: State) -> bool:
        return state["success"]

    def build(entry_conditional):
        graph = StateGraph(State)
        graph.add_node("node_a", lambda s: {"path": ["a"]})
        graph.add_node("node_b", lambda s: {"path": ["b"]})
        graph.add_node("node_c", lambda s: {"path": ["c"]})
        if entry_conditional:
            graph.add_conditional_edges(START, routing_function, {True: "node_b", False: "node_c"})
        else:
            graph.add_edge(START, "node_a")
            graph.add_conditional_edges(
                "node_a", routing_function, {True: "node_b", False: "node_c"}
            )
        graph.add_edge("node_b", END)
        graph.add_edge("node_c", END)
        return graph.compile()

    assert build(False).invoke({"success": True, "path": []}) == {
        "success": True,
        "path": ["a", "b"],
    }
    assert build(False).invoke({"success": False, "path": []}) == {
        "success": False,
        "path": ["a", "c"],
    }
    assert build(True).invoke({"success": True, "path": []}) == {"success": True, "path": ["b"]}
    assert build(True).invoke({"success": False, "path": []}) == {"success": False, "path": ["c"]}


def test_send_map_reduce(backend):
    StateGraph, START = _sg(backend)
    END, Send = backend.graph.END, backend.types.Send

    class OverallState(TypedDict):
        subjects: list[str]
        jokes: Annotated[list[str], operator.add]

    class JokeState(TypedDict):
        subject: str

    def continue_to_jokes(state: OverallState):
        return [Send("generate_joke", {"subject": s}) for s in state["subjects"]]

    def generate_joke(state: JokeState):
        return {"jokes": [f"Joke about {state['subject']}"]}

    graph = StateGraph(OverallState)
    graph.add_node("node_a", lambda s: {"subjects": ["lions", "tigers", "bears"]})
    graph.add_node("generate_joke", generate_joke)
    graph.add_edge(START, "node_a")
    graph.add_conditional_edges("node_a", continue_to_jokes)
    graph.add_edge("generate_joke", END)
    app = graph.compile()
    assert app.invoke({"subjects": [], "jokes": []}) == {
        "subjects": ["lions", "tigers", "bears"],
        "jokes": ["Joke about lions", "Joke about tigers", "Joke about bears"],
    }


def test_command_update_and_goto(backend):
    StateGraph, START = _sg(backend)
    Command = backend.types.Command
    State = FooPath

    def my_node(state: State) -> Command[Literal["my_other_node"]]:
        return Command(update={"foo": "bar"}, goto="my_other_node")

    builder = StateGraph(State)
    builder.add_node("my_node", my_node)
    builder.add_node("my_other_node", lambda s: {"path": [f"other saw {s['foo']}"]})
    builder.add_edge(START, "my_node")
    app = builder.compile()
    assert app.invoke({"foo": "", "path": []}) == {"foo": "bar", "path": ["other saw bar"]}
    # the Command[Literal[...]] annotation gives the drawn graph its edge
    edges = sorted((e.source, e.target, e.conditional) for e in app.get_graph().edges)
    assert edges == [
        ("__start__", "my_node", False),
        ("my_node", "my_other_node", True),
        ("my_other_node", "__end__", False),
    ]


def test_command_dynamic_control_flow(backend):
    StateGraph, START = _sg(backend)
    Command = backend.types.Command
    State = FooPath

    def my_node(state: State) -> Command[Literal["node_a", "node_b"]]:
        if state["foo"] == "bar":
            return Command(update={"foo": "baz"}, goto="node_a")
        return Command(update={"foo": "qux"}, goto="node_b")

    builder = StateGraph(State)
    builder.add_node("my_node", my_node)
    builder.add_node("node_a", lambda s: {"path": ["a"]})
    builder.add_node("node_b", lambda s: {"path": ["b"]})
    builder.add_edge(START, "my_node")
    app = builder.compile()
    assert app.invoke({"foo": "bar", "path": []}) == {"foo": "baz", "path": ["a"]}
    assert app.invoke({"foo": "zzz", "path": []}) == {"foo": "qux", "path": ["b"]}


def test_command_static_edges_still_run(backend):
    StateGraph, START = _sg(backend)
    Command = backend.types.Command

    class State(TypedDict):
        path: Annotated[list, operator.add]

    def node_a(state: State) -> Command[Literal["x"]]:
        return Command(update={"path": ["a"]}, goto="x")

    builder = StateGraph(State)
    builder.add_node("node_a", node_a)
    builder.add_node("node_b", lambda s: {"path": ["b"]})
    builder.add_node("x", lambda s: {"path": ["x"]})
    builder.add_edge(START, "node_a")
    builder.add_edge("node_a", "node_b")
    app = builder.compile()
    assert app.invoke({"path": []}) == {"path": ["a", "b", "x"]}


def test_command_graph_parent(backend):
    StateGraph, START = _sg(backend)
    Command = backend.types.Command

    class State(TypedDict):
        foo: Annotated[list, operator.add]  # shared key: the parent must define a reducer

    def my_node(state: State) -> Command[Literal["other_subgraph"]]:
        return Command(update={"foo": ["bar"]}, goto="other_subgraph", graph=Command.PARENT)

    # as written (the Literal names a parent node), the subgraph fails validation on compile
    sub = StateGraph(State)
    sub.add_node("my_node", my_node)
    sub.add_edge(START, "my_node")
    with pytest.raises(ValueError, match="Found edge ending at unknown node `other_subgraph`"):
        sub.compile()

    def my_node_unannotated(state: State):
        return Command(update={"foo": ["bar"]}, goto="other_subgraph", graph=Command.PARENT)

    sub = StateGraph(State)
    sub.add_node("my_node", my_node_unannotated)
    sub.add_edge(START, "my_node")

    builder = StateGraph(State)
    builder.add_node("subgraph", sub.compile())
    builder.add_node("other_subgraph", lambda s: {"foo": ["other"]})
    builder.add_edge(START, "subgraph")
    app = builder.compile()
    assert app.invoke({"foo": []}) == {"foo": ["bar", "other"]}


def test_command_resume_after_interrupt(backend, capsys):
    StateGraph = backend.graph.StateGraph
    Command, interrupt = backend.types.Command, backend.types.interrupt
    MemorySaver = backend.mod("checkpoint.memory").MemorySaver

    class AgentState(TypedDict):
        messages: Annotated[list[AnyMessage], operator.add]

    checkpointer = MemorySaver()

    def node_a(state: AgentState) -> AgentState:
        answer = interrupt("Do you approve?")
        print(f"用户回答：{answer}")
        if answer == "yes":
            return {"messages": [AIMessage(content="你同意了", id="ai")]}
        return {"messages": [AIMessage(content="你拒绝了", id="ai")]}

    graph = StateGraph(AgentState)
    graph.add_node("node_a", node_a)
    graph.set_entry_point("node_a")
    graph.set_finish_point("node_a")
    app = graph.compile(checkpointer=checkpointer)
    config = {"configurable": {"thread_id": "1"}}

    resp = app.invoke({"messages": [HumanMessage(content="111", id="h")]}, config=config)
    assert list(resp) == ["messages", "__interrupt__"]
    assert resp["messages"] == [HumanMessage(content="111", id="h")]
    assert normalize(resp["__interrupt__"]) == [("Interrupt", "Do you approve?")]
    assert capsys.readouterr().out == ""

    resp = app.invoke(Command(resume="yes"), config=config)
    assert resp == {
        "messages": [HumanMessage(content="111", id="h"), AIMessage(content="你同意了", id="ai")]
    }
    assert capsys.readouterr().out == "用户回答：yes\n"


def test_multi_turn_dict_input_restarts_from_start(backend):
    """Continuing a finished thread: a plain dict restarts at __start__; Command(update) does not."""
    StateGraph, START = _sg(backend)
    Command = backend.types.Command
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver

    class State(TypedDict):
        messages: Annotated[list, operator.add]

    builder = StateGraph(State)
    builder.add_node("bot", lambda s: {"messages": [f"echo {s['messages'][-1]}"]})
    builder.add_edge(START, "bot")
    app = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}

    app.invoke({"messages": ["hi"]}, config)
    assert app.invoke({"messages": ["again"]}, config) == {
        "messages": ["hi", "echo hi", "again", "echo again"]
    }
    # Command(update=...) resumes from the latest checkpoint: nothing is left to run, the bot is silent
    out = app.invoke(Command(update={"messages": ["cmd"]}), config)
    assert out == {"messages": ["hi", "echo hi", "again", "echo again", "cmd"]}
    assert app.get_state(config).next == ()


# --------------------------------------------------------------------------------------------
# Runtime context and RunnableConfig
# --------------------------------------------------------------------------------------------


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


def test_recursion_limit(backend):
    StateGraph, START = _sg(backend)
    GraphRecursionError = backend.errors.GraphRecursionError

    class State(TypedDict):
        n: Annotated[int, operator.add]

    builder = StateGraph(State)
    builder.add_node("loop", lambda s: {"n": 1})
    builder.add_edge(START, "loop")
    builder.add_edge("loop", "loop")
    app = builder.compile()
    with pytest.raises(GraphRecursionError) as exc:
        app.invoke({"n": 0}, config={"recursion_limit": 5}, context={"llm": "anthropic"})
    assert str(exc.value).startswith(
        "Recursion limit of 5 reached without hitting a stop condition."
    )
    assert isinstance(exc.value, RecursionError)


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


# --------------------------------------------------------------------------------------------
# Streaming
# --------------------------------------------------------------------------------------------


class TopicState(TypedDict, total=False):
    topic: str
    joke: str


def _topic_graph(backend):
    get_stream_writer = backend.config.get_stream_writer
    State = TopicState

    def refine_topic(state: State):
        writer = get_stream_writer()
        writer({"status": "processing...", "progress": 50})
        return {"topic": state["topic"] + " and cats"}

    def generate_joke(state: State):
        return {"joke": f"This is a joke about {state['topic']}"}

    return _chain(backend, State, refine_topic, generate_joke)


def test_stream_updates_and_custom_v2(backend, capsys):
    graph = _topic_graph(backend)
    for chunk in graph.stream(
        {"topic": "ice cream"}, stream_mode=["updates", "custom"], version="v2"
    ):
        if chunk["type"] == "updates":
            for node_name, state in chunk["data"].items():
                print(f"Node {node_name} updated: {state}")
        elif chunk["type"] == "custom":
            print(f"Status: {chunk['data']['status']}")
    assert capsys.readouterr().out == (
        "Status: processing...\n"
        "Node refine_topic updated: {'topic': 'ice cream and cats'}\n"
        "Node generate_joke updated: {'joke': 'This is a joke about ice cream and cats'}\n"
    )
    chunks = list(
        graph.stream({"topic": "ice cream"}, stream_mode=["updates", "custom"], version="v2")
    )
    assert chunks == [
        {"type": "custom", "ns": (), "data": {"status": "processing...", "progress": 50}},
        {"type": "updates", "ns": (), "data": {"refine_topic": {"topic": "ice cream and cats"}}},
        {
            "type": "updates",
            "ns": (),
            "data": {"generate_joke": {"joke": "This is a joke about ice cream and cats"}},
        },
    ]


def test_stream_values_v2(backend):
    graph = _topic_graph(backend)
    chunks = list(graph.stream({"topic": "ice cream"}, stream_mode="values", version="v2"))
    assert [c["type"] for c in chunks] == ["values"] * 3
    assert [c["data"] for c in chunks] == [
        {"topic": "ice cream"},
        {"topic": "ice cream and cats"},
        {"topic": "ice cream and cats", "joke": "This is a joke about ice cream and cats"},
    ]


def test_stream_custom_v2(backend, capsys):
    graph = _topic_graph(backend)
    for chunk in graph.stream({"topic": "x"}, stream_mode="custom", version="v2"):
        if chunk["type"] == "custom":
            print(chunk["data"])
    assert capsys.readouterr().out == "{'status': 'processing...', 'progress': 50}\n"


def test_stream_v1_vs_v2_formats(backend):
    graph = _topic_graph(backend)
    # single mode, v1: raw data
    assert list(graph.stream({"topic": "x"}, stream_mode="custom")) == [
        {"status": "processing...", "progress": 50}
    ]
    # multi mode, v1: (mode, data) tuples
    assert list(graph.stream({"topic": "x"}, stream_mode=["custom"])) == [
        ("custom", {"status": "processing...", "progress": 50})
    ]
    # invoke(): v1 plain dict, v2 a GraphOutput object
    v1 = graph.invoke({"topic": "x"})
    v2 = graph.invoke({"topic": "x"}, version="v2")
    assert type(v1) is dict and v1 == {
        "topic": "x and cats",
        "joke": "This is a joke about x and cats",
    }
    assert type(v2).__name__ == "GraphOutput"
    assert v2.value == v1
    assert list(v2.interrupts) == []


def _sub_parent(backend, sub_checkpointer=None):
    StateGraph, START = _sg(backend)

    class SubgraphState(TypedDict):
        foo: str  # 与父图共享
        bar: str  # 子图私有

    class ParentState(TypedDict):
        foo: str

    def sub_1(state: SubgraphState):
        return {"bar": "bar"}

    def sub_2(state: SubgraphState):
        return {"foo": state["foo"] + state["bar"]}

    subgraph = _chain(backend, SubgraphState, sub_1, sub_2, checkpointer=sub_checkpointer)

    builder = StateGraph(ParentState)
    builder.add_node("node_1", lambda s: {"foo": "hi! " + s["foo"]})
    builder.add_node("node_2", subgraph)
    builder.add_edge(START, "node_1")
    builder.add_edge("node_1", "node_2")
    return builder


def test_stream_subgraphs_v2(backend, capsys):
    graph = _sub_parent(backend).compile()
    for chunk in graph.stream({"foo": "foo"}, subgraphs=True, stream_mode="updates", version="v2"):
        if chunk["ns"]:
            print(f"Subgraph {normalize(chunk['ns'])}: {chunk['data']}")
        else:
            print(f"Root: {chunk['data']}")
    assert capsys.readouterr().out == (
        "Root: {'node_1': {'foo': 'hi! foo'}}\n"
        "Subgraph ('node_2:<uuid>',): {'sub_1': {'bar': 'bar'}}\n"
        "Subgraph ('node_2:<uuid>',): {'sub_2': {'foo': 'hi! foobar'}}\n"
        "Root: {'node_2': {'foo': 'hi! foobar'}}\n"
    )


def test_stream_multi_mode_v2_uniform(backend):
    graph = _topic_graph(backend)
    kinds = []
    for chunk in graph.stream(
        {"topic": "x"}, stream_mode=["updates", "messages", "custom"], version="v2"
    ):
        assert set(chunk) == {"type", "ns", "data"}
        kinds.append(chunk["type"])
    assert kinds == ["custom", "updates", "updates"]  # no LLM in the graph: no "messages" parts


def test_stream_checkpoints_tasks_modes(backend):
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver
    builder = _sub_parent(backend)
    graph = builder.compile(checkpointer=InMemorySaver())
    cfg = {"configurable": {"thread_id": "s"}}
    chunks = list(
        graph.stream({"foo": "a"}, cfg, stream_mode=["checkpoints", "tasks"], version="v2")
    )
    summary = []
    for c in chunks:
        if c["type"] == "tasks":
            summary.append(("tasks", c["data"]["name"], "result" in c["data"]))
        else:
            summary.append(("checkpoints", c["data"]["metadata"]["step"], c["data"]["next"]))
    assert summary == [
        ("checkpoints", -1, ["__start__"]),
        ("checkpoints", 0, ["node_1"]),
        ("tasks", "node_1", False),
        ("tasks", "node_1", True),
        ("checkpoints", 1, ["node_2"]),
        ("tasks", "node_2", False),
        ("tasks", "node_2", True),
        ("checkpoints", 2, []),
    ]
    # stream_mode="debug" is covered by tests/engine/test_diff_streams.py


# --------------------------------------------------------------------------------------------
# Checkpointer: state, history, replay, update_state, thread memory
# --------------------------------------------------------------------------------------------


def _abc_graph(backend):
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver

    class State(TypedDict):
        foo: str
        bar: Annotated[list[str], add]

    calls = []

    def node_a(state: State):
        calls.append("node_a")
        return {"foo": "a", "bar": ["a"]}

    def node_b(state: State):
        calls.append("node_b")
        return {"foo": "b", "bar": ["b"]}

    return _chain(backend, State, node_a, node_b, checkpointer=InMemorySaver()), calls


def test_checkpoint_namespace_in_config(backend):
    StateGraph, START = _sg(backend)
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver
    from langchain_core.runnables import RunnableConfig

    seen = []

    class State(TypedDict):
        foo: str

    def my_node(state: State, config: RunnableConfig):
        seen.append(config["configurable"]["checkpoint_ns"])
        return {}

    sb = StateGraph(State)
    sb.add_node("inner", my_node)
    sb.add_edge(START, "inner")
    builder = StateGraph(State)
    builder.add_node("outer", my_node)
    builder.add_node("sub", sb.compile())
    builder.add_edge(START, "outer")
    builder.add_edge("outer", "sub")
    builder.compile(checkpointer=InMemorySaver()).invoke(
        {"foo": "x"}, {"configurable": {"thread_id": "1"}}
    )
    # the document says "" for the parent graph; in 1.2.24 a node's config carries its own task
    # namespace ("outer:<uuid>"), and a subgraph node's is "sub:<uuid>|inner:<uuid>"
    assert normalize(seen) == ["outer:<uuid>", "sub:<uuid>|inner:<uuid>"]


def test_get_state_and_history(backend):
    graph, _ = _abc_graph(backend)
    config = {"configurable": {"thread_id": "1"}}
    graph.invoke({"foo": "", "bar": []}, config)

    snap = graph.get_state(config)
    assert snap.values == {"foo": "b", "bar": ["a", "b"]}
    assert snap.next == ()
    assert snap.tasks == ()
    assert snap.metadata["source"] == "loop" and snap.metadata["step"] == 2
    assert set(snap.config["configurable"]) == {"thread_id", "checkpoint_ns", "checkpoint_id"}
    assert isinstance(snap.created_at, str) and "T" in snap.created_at
    assert (
        snap.parent_config["configurable"]["checkpoint_id"]
        != snap.config["configurable"]["checkpoint_id"]
    )

    history = list(graph.get_state_history(config))
    steps = [f"{s.metadata['step']}:{'+'.join(s.next)}" for s in history]
    assert steps == ["2:", "1:node_b", "0:node_a", "-1:__start__"]
    before_node_b = next(s for s in history if s.next == ("node_b",))
    step_2 = next(s for s in history if s.metadata["step"] == 2)
    assert before_node_b.values == {"foo": "a", "bar": ["a"]}
    assert step_2.values == snap.values

    # a specific checkpoint
    old = graph.get_state(before_node_b.config)
    assert old.values == {"foo": "a", "bar": ["a"]} and old.next == ("node_b",)


def test_replay_from_checkpoint(backend):
    graph, calls = _abc_graph(backend)
    config = {"configurable": {"thread_id": "1"}}
    graph.invoke({"foo": "", "bar": []}, config)
    history = list(graph.get_state_history(config))
    before_node_b = next(s for s in history if s.next == ("node_b",))
    calls.clear()
    assert graph.invoke(None, before_node_b.config) == {"foo": "b", "bar": ["a", "b"]}
    assert calls == ["node_b"]  # nodes before the checkpoint are not re-run
    assert len(list(graph.get_state_history(config))) == 6


def test_update_state_reducer_and_as_node(backend):
    graph, calls = _abc_graph(backend)
    config = {"configurable": {"thread_id": "1"}}
    graph.invoke({"foo": "", "bar": []}, config)

    new_config = graph.update_state(config, {"foo": "new_value", "bar": ["u"]})
    snap = graph.get_state(config)
    assert snap.values == {
        "foo": "new_value",
        "bar": ["a", "b", "u"],
    }  # bar has a reducer: accumulated
    assert (
        snap.config["configurable"]["checkpoint_id"] == new_config["configurable"]["checkpoint_id"]
    )
    assert snap.metadata["source"] == "update"
    assert snap.next == ()

    graph.update_state(config, {"foo": "new"}, as_node="node_a")
    assert graph.get_state(config).next == ("node_b",)
    calls.clear()
    assert graph.invoke(None, config) == {"foo": "b", "bar": ["a", "b", "u", "b"]}
    assert calls == ["node_b"]


def test_in_memory_saver_thread_memory(backend):
    StateGraph, START = _sg(backend)
    MessagesState = backend.graph.MessagesState
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver

    def chat(state: MessagesState):
        names = [m.content for m in state["messages"] if m.type == "human"]
        return {
            "messages": [
                {"role": "ai", "content": f"seen {len(names)}: {names[0]}", "id": f"ai{len(names)}"}
            ]
        }

    builder = StateGraph(MessagesState)
    builder.add_node("chat", chat)
    builder.add_edge(START, "chat")
    checkpointer = InMemorySaver()
    graph = builder.compile(checkpointer=checkpointer)

    graph.invoke(
        {"messages": [{"role": "user", "content": "hi! i am Bob", "id": "u1"}]},
        {"configurable": {"thread_id": "1"}},
    )
    out = graph.invoke(
        {"messages": [{"role": "user", "content": "who am i", "id": "u2"}]},
        {"configurable": {"thread_id": "1"}},
    )
    assert [m.content for m in out["messages"]] == [
        "hi! i am Bob",
        "seen 1: hi! i am Bob",
        "who am i",
        "seen 2: hi! i am Bob",
    ]
    other = graph.invoke(
        {"messages": [{"role": "user", "content": "new", "id": "u3"}]},
        {"configurable": {"thread_id": "2"}},
    )
    assert [m.content for m in other["messages"]] == ["new", "seen 1: new"]


def test_subgraph_inherits_parent_checkpointer(backend):
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver
    graph = _sub_parent(backend).compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    assert graph.invoke({"foo": "foo"}, config) == {"foo": "hi! foobar"}
    assert graph.get_state(config).values == {"foo": "hi! foobar"}


# --------------------------------------------------------------------------------------------
# Memory Store
# --------------------------------------------------------------------------------------------


def test_store_put_search(backend):
    InMemoryStore = backend.mod("store.memory").InMemoryStore
    store = InMemoryStore()
    namespace = ("user_123", "memories")
    store.put(namespace, str(uuid.uuid4()), {"food_preference": "I like pizza"})
    store.put(namespace, "k2", {"food_preference": "I like sushi"})
    memories = store.search(namespace)
    assert len(memories) == 2
    d = memories[-1].dict()
    assert sorted(d) == ["created_at", "key", "namespace", "score", "updated_at", "value"]
    assert d["namespace"] == ["user_123", "memories"]
    assert (
        d["key"] == "k2"
        and d["value"] == {"food_preference": "I like sushi"}
        and d["score"] is None
    )
    assert store.search(("other",)) == []


def test_store_in_graph_async_runtime(backend):
    StateGraph, START = _sg(backend)
    MessagesState = backend.graph.MessagesState
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver
    InMemoryStore = backend.mod("store.memory").InMemoryStore
    Runtime = backend.runtime.Runtime

    @dataclass
    class Context:
        user_id: str

    infos = []

    async def update_memory(state: MessagesState, runtime: Runtime[Context]):
        namespace = (runtime.context.user_id, "memories")
        await runtime.store.aput(namespace, str(uuid.uuid4()), {"memory": "用户今天很烦躁"})
        return {}

    async def call_model(state: MessagesState, runtime: Runtime[Context]):
        namespace = (runtime.context.user_id, "memories")
        memories = await runtime.store.asearch(
            namespace, query=state["messages"][-1].content, limit=3
        )
        info = "\n".join([d.value["memory"] for d in memories])
        infos.append(info)
        return {"messages": [{"role": "ai", "content": info or "nothing", "id": f"ai{len(infos)}"}]}

    builder = StateGraph(MessagesState, context_schema=Context)
    builder.add_node("update_memory", update_memory)
    builder.add_node("call_model", call_model)
    builder.add_edge(START, "update_memory")
    builder.add_edge("update_memory", "call_model")

    checkpointer = InMemorySaver()
    store = InMemoryStore()
    graph = builder.compile(checkpointer=checkpointer, store=store)

    async def main():
        config = {"configurable": {"thread_id": "1"}}
        await graph.ainvoke(
            {"messages": [{"role": "user", "content": "hi", "id": "u1"}]},
            config,
            context=Context(user_id="1"),
        )
        await graph.ainvoke(
            {"messages": [{"role": "user", "content": "hi", "id": "u2"}]},
            config,
            context=Context(user_id="1"),
        )
        await graph.ainvoke(
            {"messages": [{"role": "user", "content": "hi", "id": "u3"}]},
            {"configurable": {"thread_id": "2"}},
            context=Context(user_id="2"),
        )

    asyncio.run(main())
    assert infos == ["用户今天很烦躁", "用户今天很烦躁\n用户今天很烦躁", "用户今天很烦躁"]
    assert len(store.search(("1", "memories"))) == 2
    assert len(store.search(("2", "memories"))) == 1


# --------------------------------------------------------------------------------------------
# Time travel
# --------------------------------------------------------------------------------------------


def _joke_graph(backend):
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver
    State = TopicState
    calls = []

    def generate_topic(state: State):
        calls.append("generate_topic")
        return {"topic": "socks"}

    def write_joke(state: State):
        calls.append("write_joke")
        return {"joke": f"joke about {state['topic']}"}

    return _chain(backend, State, generate_topic, write_joke, checkpointer=InMemorySaver()), calls


def _joke_history(backend):
    """Run the joke graph once on thread 1; return (graph, calls, config, before_joke)."""
    graph, calls = _joke_graph(backend)
    config = {"configurable": {"thread_id": "1"}}
    assert graph.invoke({}, config) == {"topic": "socks", "joke": "joke about socks"}
    history = list(graph.get_state_history(config))
    before_joke = next(s for s in history if s.next == ("write_joke",))
    calls.clear()
    return graph, calls, config, before_joke


def test_time_travel_replay(backend):
    graph, calls, config, before_joke = _joke_history(backend)
    assert graph.invoke(None, before_joke.config) == {"topic": "socks", "joke": "joke about socks"}
    assert calls == ["write_joke"]


def test_time_travel_fork(backend):
    graph, calls, config, before_joke = _joke_history(backend)
    fork_config = graph.update_state(before_joke.config, values={"topic": "chickens"})
    fork_result = graph.invoke(None, fork_config)
    assert fork_result == {"topic": "chickens", "joke": "joke about chickens"}
    assert calls == ["write_joke"]
    # the original history is untouched
    assert graph.get_state(before_joke.config).values == {"topic": "socks"}
    assert len(list(graph.get_state_history(config))) == 6


def test_time_travel_fork_as_node(backend):
    graph, calls, _, before_joke = _joke_history(backend)
    fork_config = graph.update_state(
        before_joke.config, values={"topic": "chickens"}, as_node="generate_topic"
    )
    assert graph.get_state(fork_config).next == ("write_joke",)
    calls.clear()
    assert graph.invoke(None, fork_config) == {"topic": "chickens", "joke": "joke about chickens"}
    assert calls == ["write_joke"]


def _ask_graph(backend):
    interrupt = backend.types.interrupt
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver

    class State(TypedDict):
        value: Annotated[list[str], operator.add]

    def ask_name(state: State):
        return {"value": [f"name={interrupt('name?')}"]}

    def ask_age(state: State):
        return {"value": [f"age={interrupt('age?')}"]}

    def final(state: State):
        return {"value": ["done"]}

    graph = _chain(backend, State, ask_name, ask_age, final, checkpointer=InMemorySaver())
    # run it to the end on thread 1, answering "Alice" then "30"
    Command = backend.types.Command
    config = {"configurable": {"thread_id": "1"}}
    graph.invoke({"value": ["start"]}, config)
    graph.invoke(Command(resume="Alice"), config)
    assert graph.invoke(Command(resume="30"), config) == {
        "value": ["start", "name=Alice", "age=30", "done"]
    }
    return graph, list(graph.get_state_history(config))


def test_time_travel_with_interrupt(backend):
    Command = backend.types.Command
    graph, history = _ask_graph(backend)
    before_ask = next(s for s in history if s.next == ("ask_name",))

    replay_result = graph.invoke(None, before_ask.config)
    assert normalize(replay_result["__interrupt__"]) == [("Interrupt", "name?")]
    assert replay_result["value"] == ["start"]

    fork_config = graph.update_state(before_ask.config, {"value": ["forked"]})
    fork_result = graph.invoke(None, fork_config)
    assert normalize(fork_result["__interrupt__"]) == [("Interrupt", "name?")]
    assert fork_result["value"] == ["start", "forked"]
    out = graph.invoke(Command(resume="Bob"), fork_config)
    assert normalize(out["__interrupt__"]) == [("Interrupt", "age?")]
    assert out["value"] == ["start", "forked", "name=Bob"]


def test_time_travel_multi_interrupt(backend):
    Command = backend.types.Command
    graph, history = _ask_graph(backend)
    between = [s for s in history if s.next == ("ask_age",)][-1]
    fork_config = graph.update_state(between.config, {"value": ["modified"]})
    result = graph.invoke(None, fork_config)
    assert result["value"] == ["start", "name=Alice", "modified"]  # ask_name 结果保留
    assert normalize(result["__interrupt__"]) == [("Interrupt", "age?")]  # ask_age 暂停等待新答案
    assert graph.invoke(Command(resume="99"), fork_config)["value"] == [
        "start",
        "name=Alice",
        "modified",
        "age=99",
        "done",
    ]


def test_subgraph_time_travel_own_checkpointer(backend):
    StateGraph, START = _sg(backend)
    interrupt, Command = backend.types.interrupt, backend.types.Command
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver

    class State(TypedDict):
        value: Annotated[list[str], operator.add]

    sb = StateGraph(State)
    sb.add_node("step_1", lambda s: {"value": ["s1"]})
    sb.add_node("ask", lambda s: {"value": [f"ans={interrupt('q?')}"]})
    sb.add_edge(START, "step_1")
    sb.add_edge("step_1", "ask")
    subgraph = sb.compile(checkpointer=True)

    builder = StateGraph(State)
    builder.add_node("sub", subgraph)
    builder.add_edge(START, "sub")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    graph.invoke({"value": ["start"]}, config)

    parent_state = graph.get_state(config, subgraphs=True)
    assert parent_state.next == ("sub",)
    sub_state = parent_state.tasks[0].state
    assert sub_state.values == {"value": ["start", "s1"]}
    assert sub_state.next == ("ask",)
    sub_config = sub_state.config
    assert sub_config["configurable"]["checkpoint_ns"] == "sub"  # per-thread subgraph: stable ns

    fork_config = graph.update_state(sub_config, {"value": ["forked"]})
    assert graph.get_state(config, subgraphs=True).tasks[0].state.values == {
        "value": ["start", "s1", "forked"]
    }
    out = graph.invoke(Command(resume="x"), config)
    assert out == {"value": ["start", "start", "s1", "forked", "ans=x"]}
    assert fork_config["configurable"]["thread_id"] == "1"


# --------------------------------------------------------------------------------------------
# Subgraphs
# --------------------------------------------------------------------------------------------


def test_subgraph_called_inside_node(backend):
    StateGraph, START = _sg(backend)

    class SubgraphState(TypedDict):
        bar: str

    class ParentState(TypedDict):
        foo: str

    sb = StateGraph(SubgraphState)
    sb.add_node("sub", lambda s: {"bar": s["bar"] + " from sub"})
    sb.add_edge(START, "sub")
    subgraph = sb.compile()

    def call_subgraph(state: ParentState):
        subgraph_output = subgraph.invoke({"bar": state["foo"]})
        return {"foo": subgraph_output["bar"]}

    assert _one_node(backend, ParentState, call_subgraph, name="node_1").invoke({"foo": "hi"}) == {
        "foo": "hi from sub"
    }


def test_subgraph_as_node_shared_key(backend):
    graph = _sub_parent(backend).compile()
    assert graph.invoke({"foo": "foo"}) == {"foo": "hi! foobar"}  # bar (private) is not visible


def test_subgraph_persistence_modes(backend):
    StateGraph, START = _sg(backend)
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver

    class SubState(TypedDict):
        foo: str
        seen: Annotated[list, operator.add]  # subgraph-private, accumulates only if it persists

    class Parent(TypedDict):
        foo: str

    def build(sub_checkpointer):
        sb = StateGraph(SubState)
        sb.add_node(
            "count", lambda s: {"seen": [s["foo"]], "foo": f"{s['foo']}:{len(s.get('seen', []))}"}
        )
        sb.add_edge(START, "count")
        builder = StateGraph(Parent)
        builder.add_node("agent", sb.compile(checkpointer=sub_checkpointer))
        builder.add_edge(START, "agent")
        return builder.compile(checkpointer=InMemorySaver())

    def two_turns(graph):
        config = {"configurable": {"thread_id": "1"}}
        first = graph.invoke({"foo": "m1"}, config)
        return first, graph.invoke({"foo": "m2"}, config)

    assert two_turns(build(None)) == ({"foo": "m1:0"}, {"foo": "m2:0"})  # Per-invocation
    assert two_turns(build(True)) == ({"foo": "m1:0"}, {"foo": "m2:1"})  # Per-thread: remembers m1
    assert two_turns(build(False)) == ({"foo": "m1:0"}, {"foo": "m2:0"})  # Stateless


def test_get_state_subgraphs_true(backend):
    StateGraph, START = _sg(backend)
    interrupt = backend.types.interrupt
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver

    class State(TypedDict):
        foo: str

    sb = StateGraph(State)
    sb.add_node("ask", lambda s: {"foo": interrupt("?")})
    sb.add_edge(START, "ask")
    builder = StateGraph(State)
    builder.add_node("node_1", sb.compile())
    builder.add_edge(START, "node_1")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    graph.invoke({"foo": "x"}, config)

    state = graph.get_state(config, subgraphs=True)
    subgraph_state = state.tasks[0].state
    assert subgraph_state.values == {"foo": "x"}
    assert subgraph_state.next == ("ask",)
    assert (
        graph.get_state(config)
        .tasks[0]
        .state["configurable"]["checkpoint_ns"]
        .startswith("node_1:")
    )
