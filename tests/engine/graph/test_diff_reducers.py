"""Differential tests of reducers: a plain key overwrites (and refuses two writes in one step),
operator.add and custom reducers, the order a step's writes reach a reducer, Overwrite.

Each test runs on both backends (`backend` fixture) and asserts what langgraph 1.2.24 gives.
"""

import operator
from collections.abc import Sequence
from operator import add
from typing import Annotated, Optional, TypedDict

import pytest
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage

from tests.engine.graphs import Log, _chain, _g, _logger, _one_node
from tests.oracle import normalize


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


def test_two_parallel_writers_to_last_value(backend):
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END
    InvalidUpdateError = backend.errors.InvalidUpdateError

    class T(TypedDict):
        total: int

    g = StateGraph(T)
    g.add_node("a", lambda s: {"total": 1})
    g.add_node("b", lambda s: {"total": 1})
    g.add_edge(START, "a")
    g.add_edge(START, "b")
    g.add_edge("a", END)
    g.add_edge("b", END)
    with pytest.raises(InvalidUpdateError) as info:
        g.compile().invoke({"total": 0})
    # langgraph 1.2.24 appends a troubleshooting link to the document's message
    assert str(info.value) == (
        "At key 'total': Can receive only one value per step. Use an Annotated key to handle "
        "multiple values.\nFor troubleshooting, visit: "
        "https://docs.langchain.com/oss/python/langgraph/errors/INVALID_CONCURRENT_GRAPH_UPDATE"
    )


def test_two_parallel_writers_with_reducer(backend):
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END

    class T(TypedDict):
        total: Annotated[list, operator.add]

    g = StateGraph(T)
    g.add_node("a", lambda s: {"total": ["a"]})
    g.add_node("b", lambda s: {"total": ["b"]})
    g.add_edge(START, "a")
    g.add_edge(START, "b")
    g.add_edge("a", END)
    g.add_edge("b", END)
    assert g.compile().invoke({"total": []}) == {"total": ["a", "b"]}
