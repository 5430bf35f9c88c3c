"""Differential tests of the Graph API: schemas, reducers, node and edge forms, introspection.

Each test runs on both backends (`backend` fixture) and asserts the values langgraph 1.2.24
produces, so a failing engine variant shows exactly which observable behaviour differs.
"""

import asyncio
import operator
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Literal, Optional, TypedDict

import pydantic
import pytest
from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda

from tests.oracle import normalize


def _g(backend):
    return backend.graph.StateGraph, backend.graph.START, backend.graph.END


class Log(TypedDict):
    log: Annotated[list, operator.add]
    n: int


def _logger(name):
    def node(state):
        return {"log": [name]}

    node.__name__ = name
    return node


# --------------------------------------------------------------------------------------------
# State schemas
# --------------------------------------------------------------------------------------------


class TD(TypedDict):
    x: int
    y: str


def test_typeddict_state_node_sees_only_written_keys(backend):
    StateGraph, START, _ = _g(backend)
    seen = []
    g = StateGraph(TD)
    g.add_node("n", lambda s: seen.append(dict(s)) or {"x": 2})
    g.add_edge(START, "n")
    app = g.compile()
    assert app.invoke({"x": 1}) == {"x": 2}
    assert app.invoke({}) == {"x": 2}
    assert seen == [{"x": 1}, {}]


def test_typeddict_unknown_input_key_is_dropped(backend):
    StateGraph, START, _ = _g(backend)
    seen = []
    g = StateGraph(TD)
    g.add_node("n", lambda s: seen.append(dict(s)) or {"y": "w"})
    g.add_edge(START, "n")
    assert g.compile().invoke({"x": 1, "zzz": 3}) == {"x": 1, "y": "w"}
    assert seen == [{"x": 1}]


@dataclass
class DC:
    x: int
    y: str = "dflt"
    items: Annotated[list, operator.add] = field(default_factory=list)


def test_dataclass_state_defaults_and_output(backend):
    StateGraph, START, _ = _g(backend)
    seen = []

    def n(s):
        seen.append((type(s).__name__, s.x, s.y, s.items))
        return {"x": s.x + 1, "items": [s.y]}

    g = StateGraph(DC)
    g.add_node("n", n)
    g.add_edge(START, "n")
    app = g.compile()
    # the node gets a DC instance with defaults filled in; the output dict has only keys that
    # hold a value (y was never written) plus the reducer key
    assert app.invoke({"x": 1}) == {"x": 2, "items": ["dflt"]}
    assert seen == [("DC", 1, "dflt", [])]
    assert list(app.stream({"x": 1}, stream_mode="values")) == [
        {"x": 1, "items": []},
        {"x": 2, "items": ["dflt"]},
    ]


def test_dataclass_instance_as_input(backend):
    StateGraph, START, _ = _g(backend)
    g = StateGraph(DC)
    g.add_node("n", lambda s: {"x": s.x + 1, "items": [s.y]})
    g.add_edge(START, "n")
    assert g.compile().invoke(DC(x=5)) == {"x": 6, "y": "dflt", "items": ["dflt"]}


@dataclass
class DCFactory:
    items: Annotated[list, operator.add] = field(default_factory=lambda: [5])
    y: int = 3


def test_dataclass_reducer_channel_ignores_default_factory(backend):
    StateGraph, START, _ = _g(backend)
    seen = []
    g = StateGraph(DCFactory)
    g.add_node("n", lambda s: seen.append((s.items, s.y)) or {"items": [1]})
    g.add_edge(START, "n")
    app = g.compile()
    # the reducer channel starts from list() == [], not from the field's default_factory
    assert app.invoke({}) == {"items": [1]}
    assert app.invoke({"y": 4}) == {"items": [1], "y": 4}
    assert seen == [([], 3), ([], 4)]


class PM(pydantic.BaseModel):
    x: int
    y: str = "dflt"
    items: Annotated[list, operator.add] = []


def _pydantic_app(backend, seen=None):
    StateGraph, START, _ = _g(backend)

    def n(s):
        if seen is not None:
            seen.append((type(s).__name__, s.x, s.y, s.items))
        return {"x": s.x + 1, "items": [s.y]}

    g = StateGraph(PM)
    g.add_node("n", n)
    g.add_edge(START, "n")
    return g.compile()


def test_pydantic_state_defaults_and_output(backend):
    seen = []
    app = _pydantic_app(backend, seen)
    assert app.invoke({"x": 1}) == {"x": 2, "items": ["dflt"]}
    assert seen == [("PM", 1, "dflt", [])]


def test_pydantic_model_instance_as_input(backend):
    app = _pydantic_app(backend)
    # every field of the instance is written, including defaults and the reducer's [ ]
    assert app.invoke(PM(x=3, items=["i"])) == {"x": 4, "y": "dflt", "items": ["i", "dflt"]}


def test_pydantic_state_validation_error(backend):
    app = _pydantic_app(backend)
    with pytest.raises(pydantic.ValidationError) as info:
        app.invoke({"x": "notint"})
    assert [e["type"] for e in info.value.errors()] == ["int_parsing"]
    with pytest.raises(pydantic.ValidationError) as info:
        app.invoke({})
    assert [(e["type"], e["loc"]) for e in info.value.errors()] == [("missing", ("x",))]


# --------------------------------------------------------------------------------------------
# Reducers
# --------------------------------------------------------------------------------------------


def test_reducer_channels_start_from_type_default(backend):
    StateGraph, START, _ = _g(backend)
    calls = []

    def custom(a, b):
        calls.append((a, b))
        return a * 10 + b

    class T(TypedDict, total=False):
        lst: Annotated[list, operator.add]
        num: Annotated[int, operator.add]
        s: Annotated[str, operator.add]
        c: Annotated[int, custom]
        tup: Annotated[tuple, operator.add]
        seq: Annotated[Sequence[int], operator.add]
        plain: int

    seen = []

    def n(s):
        seen.append(dict(s))
        return {"lst": [1], "num": 2, "s": "x", "c": 3, "tup": (9,)}

    g = StateGraph(T)
    g.add_node("n", n)
    g.add_edge(START, "n")
    app = g.compile()
    # before any write a reducer channel holds type(): [], 0, '', 0, (), and [] for Sequence
    assert app.invoke({"plain": 0}) == {
        "lst": [1],
        "num": 2,
        "s": "x",
        "c": 3,
        "tup": (9,),
        "seq": [],
        "plain": 0,
    }
    assert seen == [{"lst": [], "num": 0, "s": "", "c": 0, "tup": (), "seq": [], "plain": 0}]
    # the first write already goes through the reducer, against the type default
    assert calls == [(0, 3)]


def test_custom_reducer_applies_to_input_then_node_write(backend):
    StateGraph, START, _ = _g(backend)
    calls = []

    def custom(a, b):
        calls.append((a, b))
        return a * 10 + b

    class T(TypedDict):
        c: Annotated[int, custom]

    g = StateGraph(T)
    g.add_node("n", lambda s: {"c": 3})
    g.add_edge(START, "n")
    assert g.compile().invoke({"c": 7}) == {"c": 73}
    assert calls == [(0, 7), (7, 3)]


def test_reducer_on_uninstantiable_type_stores_first_write_as_is(backend):
    StateGraph, START, _ = _g(backend)
    calls = []

    def pair(a, b):
        calls.append((a, b))
        return [a, b]

    class T(TypedDict, total=False):
        o: Annotated[Optional[int], pair]
        x: int

    seen = []

    def first(s):
        seen.append(dict(s))
        return {"o": 1}

    g = StateGraph(T)
    g.add_node("first", first)
    g.add_node("second", lambda s: {"o": 2})
    g.add_edge(START, "first")
    g.add_edge("first", "second")
    # Optional[int]() is impossible: the channel starts empty, the node does not see the key,
    # the first write is stored without calling the reducer, the next one is reduced
    assert g.compile().invoke({"x": 0}) == {"o": [1, 2], "x": 0}
    assert seen == [{"x": 0}]
    assert calls == [(1, 2)]


def test_reducer_on_empty_channel_with_parallel_writes(backend):
    StateGraph, START, _ = _g(backend)
    calls = []

    def pair(a, b):
        calls.append((a, b))
        return [a, b]

    class T(TypedDict, total=False):
        o: Annotated[Optional[int], pair]

    g = StateGraph(T)
    g.add_node("b", lambda s: {"o": 2})
    g.add_node("a", lambda s: {"o": 1})
    g.add_edge(START, "b")
    g.add_edge(START, "a")
    assert g.compile().invoke({}) == {"o": [1, 2]}
    assert calls == [(1, 2)]


def test_reducer_applies_parallel_writes_in_node_name_order(backend):
    StateGraph, START, _ = _g(backend)
    g = StateGraph(Log)
    for name in ("zeta", "alpha", "mid"):  # added in non-alphabetical order
        g.add_node(name, _logger(name))
    for name in ("mid", "zeta", "alpha"):
        g.add_edge(START, name)
    assert g.compile().invoke({"log": []}) == {"log": ["alpha", "mid", "zeta"]}


def test_reducer_applies_pull_writes_before_send_writes(backend):
    StateGraph, START, _ = _g(backend)
    Send = backend.types.Send
    g = StateGraph(Log)
    g.add_node("w", lambda a: {"log": [a["x"]]})
    g.add_node("n", _logger("n"))
    g.add_edge(START, "n")
    g.add_conditional_edges(START, lambda s: [Send("w", {"x": i}) for i in (3, 1, 2)], ["w"])
    assert g.compile().invoke({"log": []}) == {"log": ["n", 3, 1, 2]}


def _msgs_graph(backend, node):
    StateGraph, START, _ = _g(backend)
    add_messages = backend.mod("graph.message").add_messages

    class M(TypedDict):
        messages: Annotated[list, add_messages]

    g = StateGraph(M)
    g.add_node("node", node)
    g.add_edge(START, "node")
    return g.compile()


def test_add_messages_appends_and_coerces(backend):
    app = _msgs_graph(backend, lambda s: {"messages": [AIMessage("hi", id="a1")]})
    out = app.invoke({"messages": [("user", "hello")]})
    assert [(type(m).__name__, m.content) for m in out["messages"]] == [
        ("HumanMessage", "hello"),
        ("AIMessage", "hi"),
    ]
    assert normalize(out["messages"][0].id) == "<uuid>"  # ids are assigned to id-less messages
    assert out["messages"][1].id == "a1"
    out = app.invoke({"messages": "just a string"})
    assert [(type(m).__name__, m.content) for m in out["messages"]] == [
        ("HumanMessage", "just a string"),
        ("AIMessage", "hi"),
    ]
    out = app.invoke({"messages": {"role": "user", "content": "dict"}})
    assert [(type(m).__name__, m.content) for m in out["messages"]] == [
        ("HumanMessage", "dict"),
        ("AIMessage", "hi"),
    ]


def test_add_messages_replaces_by_id_and_removes(backend):
    def edit(s):
        return {"messages": [AIMessage("edited", id="h1"), RemoveMessage(id="a0")]}

    app = _msgs_graph(backend, edit)
    out = app.invoke({"messages": [HumanMessage("hello", id="h1"), AIMessage("x", id="a0")]})
    assert [(type(m).__name__, m.content, m.id) for m in out["messages"]] == [
        ("AIMessage", "edited", "h1")
    ]


def test_add_messages_function_directly(backend):
    add_messages = backend.mod("graph.message").add_messages
    merged = add_messages(
        [HumanMessage("a", id="1"), AIMessage("b", id="2")],
        [AIMessage("b2", id="2"), HumanMessage("c", id="3")],
    )
    assert [(m.content, m.id) for m in merged] == [("a", "1"), ("b2", "2"), ("c", "3")]


def test_messages_state(backend):
    StateGraph, START, _ = _g(backend)
    MessagesState = backend.graph.MessagesState
    g = StateGraph(MessagesState)
    g.add_node("bot", lambda s: {"messages": [AIMessage(f"n={len(s['messages'])}", id="b")]})
    g.add_edge(START, "bot")
    app = g.compile()
    out = app.invoke({"messages": [HumanMessage("hi", id="h")]})
    assert [(m.content, m.id) for m in out["messages"]] == [("hi", "h"), ("n=1", "b")]
    assert type(app.channels["messages"]).__name__ == "BinaryOperatorAggregate"


# --------------------------------------------------------------------------------------------
# Overwrite
# --------------------------------------------------------------------------------------------


class LstState(TypedDict):
    lst: Annotated[list, operator.add]


def test_overwrite_bypasses_reducer(backend):
    StateGraph, START, _ = _g(backend)
    Overwrite = backend.types.Overwrite
    g = StateGraph(LstState)
    g.add_node("w", lambda s: {"lst": Overwrite([42])})
    g.add_node("after", lambda s: {"lst": ["after"]})
    g.add_edge(START, "w")
    g.add_edge("w", "after")
    assert g.compile().invoke({"lst": [1, 2]}) == {"lst": [42, "after"]}


def test_overwrite_wins_over_parallel_reducer_write(backend):
    StateGraph, START, _ = _g(backend)
    Overwrite = backend.types.Overwrite
    for over, plain in (("a", "z"), ("z", "a")):  # independent of which task sorts first
        g = StateGraph(LstState)
        g.add_node(over, lambda s: {"lst": Overwrite(["o"])})
        g.add_node(plain, lambda s: {"lst": ["v"]})
        g.add_edge(START, over)
        g.add_edge(START, plain)
        assert g.compile().invoke({"lst": [1, 2]}) == {"lst": ["o"]}, (over, plain)


def test_overwrite_in_input(backend):
    StateGraph, START, _ = _g(backend)
    Overwrite = backend.types.Overwrite
    g = StateGraph(LstState)
    g.add_node("w", lambda s: {"lst": [3]})
    g.add_edge(START, "w")
    app = g.compile()
    assert app.invoke({"lst": Overwrite([1])}) == {"lst": [1, 3]}
    # the serialisable form is accepted too
    assert app.invoke({"lst": {"__overwrite__": [1]}}) == {"lst": [1, 3]}


def test_overwrite_repr(backend):
    Overwrite = backend.types.Overwrite
    assert repr(Overwrite([1])) == "Overwrite(value=[1], type='__overwrite__')"
    assert Overwrite([1]).value == [1]


# --------------------------------------------------------------------------------------------
# Input / output schemas and private state
# --------------------------------------------------------------------------------------------


class In(TypedDict):
    question: str


class Out(TypedDict):
    answer: str


class Overall(In, Out):
    scratch: str


def _io_app(backend, **schemas):
    StateGraph, START, END = _g(backend)
    seen = []

    def think(s):
        seen.append(("think", dict(s)))
        return {"scratch": s["question"] + "?"}

    def answer(s: Overall):
        seen.append(("answer", dict(s)))
        return {"answer": s["scratch"] + "!"}

    g = StateGraph(Overall, **schemas)
    g.add_node("think", think)
    g.add_node("answer", answer)
    g.add_edge(START, "think")
    g.add_edge("think", "answer")
    g.add_edge("answer", END)
    return g.compile(), seen


def test_input_and_output_schema(backend):
    app, seen = _io_app(backend, input_schema=In, output_schema=Out)
    # keys outside the input schema are dropped; invoke returns only output-schema keys
    assert app.invoke({"question": "q", "scratch": "ignored"}) == {"answer": "q?!"}
    assert seen == [
        ("think", {"question": "q"}),
        ("answer", {"question": "q", "scratch": "q?"}),
    ]
    assert list(app.channels)[:3] == ["question", "answer", "scratch"]


def test_output_schema_does_not_filter_values_stream(backend):
    app, _ = _io_app(backend, input_schema=In, output_schema=Out)
    assert list(app.stream({"question": "q"}, stream_mode="values")) == [
        {"question": "q"},
        {"question": "q", "scratch": "q?"},
        {"question": "q", "answer": "q?!", "scratch": "q?"},
    ]
    assert list(app.stream({"question": "q"}, stream_mode="updates")) == [
        {"think": {"scratch": "q?"}},
        {"answer": {"answer": "q?!"}},
    ]


def test_deprecated_input_output_kwargs(backend):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        app, _ = _io_app(backend, input=In, output=Out)
    messages = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
    assert any(m.startswith("`input` is deprecated") for m in messages), messages
    assert any(m.startswith("`output` is deprecated") for m in messages), messages
    assert app.invoke({"question": "q", "scratch": "ignored"}) == {"answer": "q?!"}


class Pub(TypedDict):
    x: int


class Priv(TypedDict):
    secret: int


def test_private_state_key_via_node_type_hints(backend):
    StateGraph, START, _ = _g(backend)
    seen = []

    def p1(s: Pub) -> Priv:
        return {"secret": s["x"] * 100}

    def p2(s: Priv) -> Pub:
        seen.append(dict(s))
        return {"x": s["secret"] + 1}

    g = StateGraph(Pub)
    g.add_node("p1", p1)
    g.add_node("p2", p2)
    g.add_edge(START, "p1")
    g.add_edge("p1", "p2")
    app = g.compile()
    assert app.invoke({"x": 2}) == {"x": 201}
    assert seen == [{"secret": 200}]  # p2 reads only its own schema's keys
    assert {k: type(v).__name__ for k, v in app.channels.items() if ":" not in k} == {
        "x": "LastValue",
        "secret": "LastValue",
        "__start__": "EphemeralValue",
        "__pregel_tasks": "Topic",
    }
    assert app.nodes["p1"].channels == ["x"]
    assert app.nodes["p2"].channels == ["secret"]
    assert list(app.stream({"x": 2}, stream_mode="updates")) == [
        {"p1": {"secret": 200}},
        {"p2": {"x": 201}},
    ]
    # the values stream shows the private key, invoke's output does not
    assert list(app.stream({"x": 2}, stream_mode="values")) == [
        {"x": 2},
        {"x": 2, "secret": 200},
        {"x": 201, "secret": 200},
    ]


def test_private_state_key_via_add_node_input_schema(backend):
    StateGraph, START, _ = _g(backend)
    seen = []

    def p1(s) -> Priv:
        return {"secret": 7}

    def p2(s):
        seen.append(dict(s))
        return {"x": s["secret"]}

    g = StateGraph(Pub)
    g.add_node("p1", p1)
    g.add_node("p2", p2, input_schema=Priv)
    g.add_edge(START, "p1")
    g.add_edge("p1", "p2")
    assert g.compile().invoke({"x": 0}) == {"x": 7}
    assert seen == [{"secret": 7}]


# --------------------------------------------------------------------------------------------
# add_node forms
# --------------------------------------------------------------------------------------------


@dataclass
class Ctx:
    user: str


def test_add_node_forms_and_signatures(backend):
    StateGraph, START, _ = _g(backend)
    Runtime = backend.runtime.Runtime

    def by_name(s):
        return {"log": ["by_name"]}

    def with_config(s, config: RunnableConfig):
        md = config["metadata"]
        return {
            "log": [
                f"cfg:{config['configurable'].get('user')}:{md['langgraph_node']}"
                f":{md['langgraph_step']}"
            ]
        }

    def with_config_untyped(s, config):
        return {"log": [f"cfg2:{config['configurable'].get('user')}"]}

    def with_runtime(s, *, runtime: Runtime[Ctx]):
        return {"log": [f"rt:{runtime.context.user if runtime.context else None}"]}

    def with_runtime_positional(s, runtime: Runtime[Ctx]):
        return {"log": [f"rtpos:{runtime.context.user if runtime.context else None}"]}

    g = StateGraph(Log, context_schema=Ctx)
    g.add_node(by_name)  # name taken from the function
    g.add_node("cfg", with_config)
    g.add_node("cfg2", with_config_untyped)
    g.add_node("rt", with_runtime)
    g.add_node("rtpos", with_runtime_positional)
    g.add_node("lam", RunnableLambda(lambda s: {"log": ["runnable"]}))
    g.add_edge(START, "by_name")
    g.add_edge("by_name", "cfg")
    g.add_edge("cfg", "cfg2")
    g.add_edge("cfg2", "rt")
    g.add_edge("rt", "rtpos")
    g.add_edge("rtpos", "lam")
    app = g.compile()
    assert list(app.nodes) == ["__start__", "by_name", "cfg", "cfg2", "rt", "rtpos", "lam"]
    cfg = {"configurable": {"user": "u1"}}
    assert app.invoke({"log": []}, cfg, context=Ctx(user="c1")) == {
        "log": ["by_name", "cfg:u1:cfg:2", "cfg2:u1", "rt:c1", "rtpos:c1", "runnable"]
    }
    assert app.invoke({"log": []}, cfg)["log"] == [
        "by_name",
        "cfg:u1:cfg:2",
        "cfg2:u1",
        "rt:None",
        "rtpos:None",
        "runnable",
    ]


def test_add_node_lambda_gets_lambda_name(backend):
    StateGraph, START, _ = _g(backend)
    g = StateGraph(Log)
    g.add_node(lambda s: {"n": 1})
    g.add_edge(START, "<lambda>")
    assert list(g.nodes) == ["<lambda>"]
    assert g.compile().invoke({"log": []}) == {"log": [], "n": 1}


def test_node_named_like_a_state_key(backend):
    StateGraph, START, _ = _g(backend)
    g = StateGraph(Log)
    g.add_node("n", lambda s: {"n": 5})
    g.add_edge(START, "n")
    assert g.compile().invoke({"log": []}) == {"log": [], "n": 5}


async def test_async_node_via_ainvoke(backend):
    StateGraph, START, _ = _g(backend)

    async def anode(s):
        await asyncio.sleep(0)
        return {"log": ["async"]}

    g = StateGraph(Log)
    g.add_node("a", anode)
    g.add_node("s", _logger("sync"))
    g.add_edge(START, "a")
    g.add_edge("a", "s")
    assert await g.compile().ainvoke({"log": []}) == {"log": ["async", "sync"]}


def test_async_node_via_sync_invoke_fails(backend):
    StateGraph, START, _ = _g(backend)

    async def anode(s):
        return {"log": ["async"]}

    g = StateGraph(Log)
    g.add_node("a", anode)
    g.add_edge(START, "a")
    with pytest.raises(TypeError) as info:
        g.compile().invoke({"log": []})
    assert str(info.value) == (
        'No synchronous function provided to "a".\nEither initialize with a synchronous '
        "function or invoke via the async API (ainvoke, astream, etc.)"
    )


# --------------------------------------------------------------------------------------------
# Edges
# --------------------------------------------------------------------------------------------


def _join_app(backend, joined: bool):
    StateGraph, START, _ = _g(backend)
    g = StateGraph(Log)
    for name in ("a", "b", "b2", "c"):
        g.add_node(name, _logger(name))
    g.add_edge(START, "a")
    g.add_edge(START, "b")
    g.add_edge("b", "b2")
    if joined:
        g.add_edge(["a", "b2"], "c")
    else:
        g.add_edge("a", "c")
        g.add_edge("b2", "c")
    return g.compile()


def test_add_edge_with_several_sources_waits_for_all(backend):
    app = _join_app(backend, joined=True)
    assert app.invoke({"log": []}) == {"log": ["a", "b", "b2", "c"]}
    steps = list(app.stream({"log": []}, stream_mode="updates"))
    # a and b run in parallel (completion order is free), then b2, then c exactly once
    assert sorted(map(str, steps[:2])) == [
        "{'a': {'log': ['a']}}",
        "{'b': {'log': ['b']}}",
    ]
    assert steps[2:] == [{"b2": {"log": ["b2"]}}, {"c": {"log": ["c"]}}]


def test_join_edge_channels_and_triggers(backend):
    app = _join_app(backend, joined=True)
    assert app.nodes["c"].triggers == ["branch:to:c", "join:a+b2:c"]
    assert type(app.channels["join:a+b2:c"]).__name__ == "NamedBarrierValue"


def test_separate_edges_into_one_target_run_it_twice(backend):
    app = _join_app(backend, joined=False)
    assert app.invoke({"log": []}) == {"log": ["a", "b", "b2", "c", "c"]}
    assert app.nodes["c"].triggers == ["branch:to:c"]


def _cond_app(backend, path, path_map=None):
    StateGraph, START, _ = _g(backend)
    g = StateGraph(Log)
    for name in ("start", "x", "y"):
        g.add_node(name, _logger(name))
    g.add_edge(START, "start")
    if path_map is None:
        g.add_conditional_edges("start", path)
    else:
        g.add_conditional_edges("start", path, path_map)
    return g.compile()


def route_literal(s) -> Literal["x", "y"]:
    return "x" if s["n"] > 0 else "y"


def test_conditional_edges_literal_return_type(backend):
    app = _cond_app(backend, route_literal)
    assert app.invoke({"log": [], "n": 1}) == {"log": ["start", "x"], "n": 1}
    assert app.invoke({"log": [], "n": 0}) == {"log": ["start", "y"], "n": 0}
    edges = [(e.source, e.target, e.conditional) for e in app.get_graph().edges]
    assert edges == [
        ("__start__", "start", False),
        ("start", "x", True),
        ("start", "y", True),
        ("x", "__end__", False),
        ("y", "__end__", False),
    ]


def test_conditional_edges_list_return_and_end(backend):
    END = backend.graph.END
    app = _cond_app(backend, lambda s: ["x", "y"] if s["n"] > 0 else END, ["x", "y", END])
    assert app.invoke({"log": [], "n": 1}) == {"log": ["start", "x", "y"], "n": 1}
    assert app.invoke({"log": [], "n": 0}) == {"log": ["start"], "n": 0}


def test_conditional_edges_path_map_dict(backend):
    END = backend.graph.END
    app = _cond_app(backend, lambda s: s["n"] > 0, {True: "x", False: END})
    assert app.invoke({"log": [], "n": 1}) == {"log": ["start", "x"], "n": 1}
    assert app.invoke({"log": [], "n": 0}) == {"log": ["start"], "n": 0}


def test_conditional_edges_path_map_list(backend):
    app = _cond_app(backend, lambda s: "y", ["x", "y"])
    assert app.invoke({"log": [], "n": 0}) == {"log": ["start", "y"], "n": 0}
    assert [(e.source, e.target, e.conditional) for e in app.get_graph().edges][1:3] == [
        ("start", "x", True),
        ("start", "y", True),
    ]


def test_conditional_edges_router_returning_empty_list_ends(backend):
    app = _cond_app(backend, lambda s: [], ["x", "y"])
    assert app.invoke({"log": [], "n": 0}) == {"log": ["start"], "n": 0}


def test_two_named_conditional_edges_from_one_node(backend):
    StateGraph, START, _ = _g(backend)

    def to_x(s):
        return "x"

    def to_y(s):
        return "y"

    g = StateGraph(Log)
    for name in ("start", "x", "y"):
        g.add_node(name, _logger(name))
    g.add_edge(START, "start")
    g.add_conditional_edges("start", to_x, ["x"])
    g.add_conditional_edges("start", to_y, ["y"])
    app = g.compile()
    assert app.invoke({"log": []}) == {"log": ["start", "x", "y"]}
    assert len(app.nodes["start"].writers) == 3  # state write + one per branch


def test_add_sequence(backend):
    StateGraph, START, _ = _g(backend)
    g = StateGraph(Log)
    g.add_sequence([_logger("s1"), ("two", _logger("s2")), _logger("s3")])
    g.add_edge(START, "s1")
    app = g.compile()
    assert app.invoke({"log": []}) == {"log": ["s1", "s2", "s3"]}
    assert list(app.nodes) == ["__start__", "s1", "two", "s3"]
    assert [(e.source, e.target, e.conditional) for e in app.get_graph().edges] == [
        ("__start__", "s1", False),
        ("s1", "two", False),
        ("two", "s3", False),
        ("s3", "__end__", False),
    ]


def test_set_entry_point_and_finish_point(backend):
    StateGraph, _, _ = _g(backend)
    g = StateGraph(Log)
    g.add_node("a", _logger("a"))
    g.add_node("b", _logger("b"))
    g.set_entry_point("a")
    g.add_edge("a", "b")
    g.set_finish_point("b")
    app = g.compile()
    assert app.invoke({"log": []}) == {"log": ["a", "b"]}
    assert [(e.source, e.target, e.conditional) for e in app.get_graph().edges] == [
        ("__start__", "a", False),
        ("a", "b", False),
        ("b", "__end__", False),
    ]


def test_set_conditional_entry_point(backend):
    StateGraph, _, _ = _g(backend)
    g = StateGraph(Log)
    g.add_node("a", _logger("a"))
    g.add_node("b", _logger("b"))
    g.set_conditional_entry_point(lambda s: "a" if s["n"] else "b", {"a": "a", "b": "b"})
    app = g.compile()
    assert app.invoke({"log": [], "n": 1}) == {"log": ["a"], "n": 1}
    assert app.invoke({"log": [], "n": 0}) == {"log": ["b"], "n": 0}
    assert [(e.source, e.target, e.conditional) for e in app.get_graph().edges] == [
        ("__start__", "a", True),
        ("__start__", "b", True),
        ("a", "__end__", False),
        ("b", "__end__", False),
    ]


def test_command_goto_and_static_edge_both_followed(backend):
    StateGraph, START, _ = _g(backend)
    Command = backend.types.Command
    g = StateGraph(Log)
    g.add_node("a", lambda s: Command(goto="b", update={"log": ["a"]}))
    g.add_node("b", _logger("b"))
    g.add_node("c", _logger("c"))
    g.add_edge(START, "a")
    g.add_edge("a", "c")
    assert g.compile().invoke({"log": []}) == {"log": ["a", "b", "c"]}


# --------------------------------------------------------------------------------------------
# Introspection: get_graph, draw_mermaid, channels, triggers
# --------------------------------------------------------------------------------------------

MERMAID_HEADER = "---\nconfig:\n  flowchart:\n    curve: linear\n---\ngraph TD;\n"
MERMAID_FOOTER = (
    "\tclassDef default fill:#f2f0ff,line-height:1.2\n"
    "\tclassDef first fill-opacity:0\n"
    "\tclassDef last fill:#bfb6fc\n"
)


def test_get_graph_nodes(backend):
    app = _cond_app(backend, route_literal)
    graph = app.get_graph()
    assert list(graph.nodes) == ["__start__", "start", "x", "y", "__end__"]
    assert [(n.id, n.name) for n in graph.nodes.values()] == [
        ("__start__", "__start__"),
        ("start", "start"),
        ("x", "x"),
        ("y", "y"),
        ("__end__", "__end__"),
    ]


def test_draw_mermaid_linear_with_join(backend):
    app = _join_app(backend, joined=False)
    assert app.get_graph().draw_mermaid() == (
        MERMAID_HEADER + "\t__start__([<p>__start__</p>]):::first\n"
        "\ta(a)\n"
        "\tb(b)\n"
        "\tb2(b2)\n"
        "\tc(c)\n"
        "\t__end__([<p>__end__</p>]):::last\n"
        "\t__start__ --> a;\n"
        "\t__start__ --> b;\n"
        "\ta --> c;\n"
        "\tb --> b2;\n"
        "\tb2 --> c;\n"
        "\tc --> __end__;\n" + MERMAID_FOOTER
    )


def test_draw_mermaid_conditional(backend):
    app = _cond_app(backend, route_literal)
    assert app.get_graph().draw_mermaid() == (
        MERMAID_HEADER + "\t__start__([<p>__start__</p>]):::first\n"
        "\tstart(start)\n"
        "\tx(x)\n"
        "\ty(y)\n"
        "\t__end__([<p>__end__</p>]):::last\n"
        "\t__start__ --> start;\n"
        "\tstart -.-> x;\n"
        "\tstart -.-> y;\n"
        "\tx --> __end__;\n"
        "\ty --> __end__;\n" + MERMAID_FOOTER
    )


def test_draw_mermaid_path_map_labels_and_unreachable_node(backend):
    END = backend.graph.END
    app = _cond_app(backend, lambda s: s["n"] > 0, {True: "x", False: END})
    # y is unreachable: it is still drawn, without edges, and the start/end nodes then lose
    # their :::first / :::last classes
    assert app.get_graph().draw_mermaid() == (
        MERMAID_HEADER + "\t__start__(<p>__start__</p>)\n"
        "\tstart(start)\n"
        "\tx(x)\n"
        "\ty(y)\n"
        "\t__end__(<p>__end__</p>)\n"
        "\t__start__ --> start;\n"
        "\tstart -. &nbsp;False&nbsp; .-> __end__;\n"
        "\tstart -. &nbsp;True&nbsp; .-> x;\n"
        "\tx --> __end__;\n" + MERMAID_FOOTER
    )


def test_compiled_channels_and_triggers(backend):
    app = _cond_app(backend, route_literal)
    assert {k: type(v).__name__ for k, v in app.channels.items()} == {
        "log": "BinaryOperatorAggregate",
        "n": "LastValue",
        "__start__": "EphemeralValue",
        "__pregel_tasks": "Topic",
        "branch:to:start": "EphemeralValue",
        "branch:to:x": "EphemeralValue",
        "branch:to:y": "EphemeralValue",
    }
    assert {k: n.triggers for k, n in app.nodes.items()} == {
        "__start__": ["__start__"],
        "start": ["branch:to:start"],
        "x": ["branch:to:x"],
        "y": ["branch:to:y"],
    }
    assert app.nodes["__start__"].channels == "__start__"
    assert app.nodes["x"].channels == ["log", "n"]


# --------------------------------------------------------------------------------------------
# batch
# --------------------------------------------------------------------------------------------


def test_batch(backend):
    app = _cond_app(backend, route_literal)
    assert app.batch([{"log": [], "n": 1}, {"log": [], "n": 0}]) == [
        {"log": ["start", "x"], "n": 1},
        {"log": ["start", "y"], "n": 0},
    ]


def test_batch_return_exceptions(backend):
    app = _cond_app(backend, route_literal)
    out = app.batch([{"log": [], "n": 1}, {"log": 5, "n": 0}], return_exceptions=True)
    assert out[0] == {"log": ["start", "x"], "n": 1}
    assert normalize(out[1]) == ("TypeError", 'can only concatenate list (not "int") to list')


async def test_abatch(backend):
    app = _cond_app(backend, route_literal)
    assert await app.abatch([{"log": [], "n": 1}, {"log": [], "n": 0}]) == [
        {"log": ["start", "x"], "n": 1},
        {"log": ["start", "y"], "n": 0},
    ]
