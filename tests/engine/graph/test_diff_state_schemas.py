"""Differential tests of state schemas: TypedDict, dataclass and pydantic state, input and output
schemas, private state keys.

Each test runs on both backends (`backend` fixture) and asserts the values langgraph 1.2.24
produces, so a failing engine variant shows exactly which observable behaviour differs.
"""

import operator
import warnings
from dataclasses import dataclass, field
from typing import Annotated, TypedDict

import pydantic
import pytest
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from pydantic import BaseModel, Field

from tests.engine.graphs import _chain, _g, _one_node, _sg
from tests.oracle import assert_same


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


def test_routers_read_what_their_hint_or_their_node_reads():
    """A router hinted with a schema reads only its keys (a private schema); without a hint it
    reads what its node reads plus the keys the node returned; a callable object's __call__
    hint is its input schema, as a function's is."""

    class Overall(TypedDict):
        foo: Annotated[int, operator.add]
        bar: str

    class RouterIn(TypedDict):
        baz: str

    class Node2In(TypedDict):
        foo: Annotated[int, operator.add]
        baz: str

    class Secret(TypedDict):
        secret: str

    class Both(TypedDict):
        x: int
        secret: str

    def scenario(b):
        graph_mod, seen = b.graph, []

        def node_1(state: Overall):
            return {"foo": 1, "baz": "meow"}

        def node_2(state: Node2In):
            return {"foo": 1, "bar": state["baz"]}

        def hinted(state: RouterIn):
            seen.append(("hinted", dict(state)))
            return "node_2" if state["baz"] == "meow" else graph_mod.END

        g = graph_mod.StateGraph(Overall)
        g.add_node(node_1)
        g.add_node(node_2)
        g.add_edge(graph_mod.START, "node_1")
        g.add_conditional_edges("node_1", hinted)
        first = g.compile().invoke({"foo": 0})

        def reads_secret(state: Secret):
            return {"x": 2}

        def plain(state):
            seen.append(("plain", dict(state)))
            return graph_mod.END

        class Caller:
            def __call__(self, state: Secret):
                seen.append(("object", dict(state)))
                return {"x": 5}

        g = graph_mod.StateGraph(Both)
        g.add_node("start", lambda state: {"x": 1, "secret": "s"})
        g.add_node("private", reads_secret)
        g.add_node("object", Caller())
        g.add_edge(graph_mod.START, "start")
        g.add_edge("start", "private")
        g.add_conditional_edges("private", plain)
        g.add_edge("private", "object")
        second = g.compile().invoke({"x": 0})
        return first, second, seen

    assert_same(scenario)


class DictSubclass(dict):
    pass


class NoKeys(TypedDict):
    pass


@pytest.mark.parametrize("schema", [DictSubclass, NoKeys], ids=["dict_subclass", "empty_typeddict"])
def test_a_schema_class_with_no_fields_keeps_nothing(backend, schema):
    """A class with no annotated fields (`class MyState(dict): pass`, a learner's state) has no
    keys: the node gets an empty state and the run returns None; only a schema with no
    annotations at all (`dict`, `int`) holds the whole value."""
    StateGraph, START, _ = _g(backend)
    seen = []
    g = StateGraph(schema)
    g.add_node("n", lambda s: seen.append(s) or s)
    g.add_edge(START, "n")
    assert g.compile().invoke({"message": "Hello"}) is None
    assert seen == [{}]


def test_a_plain_dict_schema_holds_the_whole_value(backend):
    StateGraph, START, _ = _g(backend)
    g = StateGraph(dict)
    g.add_node("n", lambda s: {"x": 1})
    g.add_edge(START, "n")
    assert g.compile().invoke({"message": "Hello"}) == {"x": 1}
