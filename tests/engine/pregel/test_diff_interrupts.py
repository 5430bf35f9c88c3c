"""Differential tests: interrupt()/Command(resume), static interrupts, state inspection and time travel.

Every test runs on both backends through the `backend` fixture with an InMemorySaver; expected values
were taken from langgraph 1.2.24.
"""

import operator
import re
from typing import Annotated, TypedDict

import pytest
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage

from tests.engine.graphs import S
from tests.oracle import normalize

pytestmark = pytest.mark.differential

_ID = re.compile(r"^[0-9a-f]{32}$")


class Log(TypedDict):
    log: Annotated[list[str], operator.add]


class LogN(TypedDict):
    log: Annotated[list[str], operator.add]
    n: int


def cfg(thread: str = "t") -> dict:
    return {"configurable": {"thread_id": thread}}


def saver(b):
    return b.mod("checkpoint.memory").InMemorySaver()


def values_of(interrupts) -> list:
    return [i.value for i in interrupts]


# --------------------------------------------------------------------------------------------
# interrupt() + Command(resume=...)
# --------------------------------------------------------------------------------------------


def _ask_graph(b, calls: list):
    interrupt = b.types.interrupt

    def ask(state):
        calls.append("ask")
        answer = interrupt({"q": "name?"})
        calls.append(f"answer={answer}")
        return {"log": [f"ans:{answer}"]}

    g = b.graph.StateGraph(Log)
    g.add_node("pre", lambda s: {"log": ["pre"]})
    g.add_node("ask", ask)
    g.add_node("post", lambda s: {"log": ["post"]})
    g.add_edge(b.graph.START, "pre")
    g.add_edge("pre", "ask")
    g.add_edge("ask", "post")
    return g.compile(checkpointer=saver(b))


def test_interrupt_then_resume(backend):
    calls = []
    app = _ask_graph(backend, calls)
    out = app.invoke({"log": []}, cfg())
    assert set(out) == {"log", "__interrupt__"}
    assert out["log"] == ["pre"]
    assert isinstance(out["__interrupt__"], list) and len(out["__interrupt__"]) == 1
    intr = out["__interrupt__"][0]
    assert isinstance(intr, backend.types.Interrupt)
    assert intr.value == {"q": "name?"}
    assert _ID.match(intr.id)
    assert calls == ["ask"]

    assert app.invoke(backend.types.Command(resume="bob"), cfg()) == {
        "log": ["pre", "ans:bob", "post"]
    }
    # the interrupted node runs again from its start on resume
    assert calls == ["ask", "ask", "answer=bob"]


def test_get_state_while_interrupted(backend):
    app = _ask_graph(backend, [])
    out = app.invoke({"log": []}, cfg())
    st = app.get_state(cfg())
    assert st.values == {"log": ["pre"]}
    assert st.next == ("ask",)
    assert st.metadata == {"source": "loop", "step": 1, "parents": {}}
    assert len(st.tasks) == 1
    task = st.tasks[0]
    assert (task.name, task.path, task.error, task.state, task.result) == (
        "ask",
        ("__pregel_pull", "ask"),
        None,
        None,
        None,
    )
    assert values_of(task.interrupts) == [{"q": "name?"}]
    assert isinstance(st.interrupts, tuple)
    assert values_of(st.interrupts) == [{"q": "name?"}]
    assert st.interrupts[0].id == out["__interrupt__"][0].id == task.interrupts[0].id

    app.invoke(backend.types.Command(resume="x"), cfg())
    st = app.get_state(cfg())
    assert (st.next, st.tasks, st.interrupts) == ((), (), ())
    assert st.values == {"log": ["pre", "ans:x", "post"]}


def test_interrupt_stream_updates_chunk(backend):
    app = _ask_graph(backend, [])
    chunks = list(app.stream({"log": []}, cfg(), stream_mode="updates"))
    assert len(chunks) == 2
    assert chunks[0] == {"pre": {"log": ["pre"]}}
    assert list(chunks[1]) == ["__interrupt__"]
    assert isinstance(chunks[1]["__interrupt__"], tuple)  # a tuple here, a list in invoke()
    assert normalize(chunks[1]) == {"__interrupt__": (("Interrupt", {"q": "name?"}),)}
    resumed = list(app.stream(backend.types.Command(resume="x"), cfg(), stream_mode="updates"))
    assert resumed == [{"ask": {"log": ["ans:x"]}}, {"post": {"log": ["post"]}}]


def test_interrupt_stream_values_chunk(backend):
    app = _ask_graph(backend, [])
    chunks = list(app.stream({"log": []}, cfg(), stream_mode="values"))
    assert normalize(chunks) == [
        {"log": []},
        {"log": ["pre"]},
        {"log": ["pre"], "__interrupt__": (("Interrupt", {"q": "name?"}),)},
    ]


def test_interrupt_stream_multiple_modes(backend):
    app = _ask_graph(backend, [])
    chunks = list(app.stream({"log": []}, cfg(), stream_mode=["values", "updates"]))
    intr = (("Interrupt", {"q": "name?"}),)
    assert normalize(chunks) == [
        ("values", {"log": []}),
        ("updates", {"pre": {"log": ["pre"]}}),
        ("values", {"log": ["pre"]}),
        ("updates", {"__interrupt__": intr}),
        ("values", {"log": ["pre"], "__interrupt__": intr}),
    ]


def test_interrupt_without_checkpointer_returns_interrupt(backend):
    """langgraph 1.2.24 does not raise when there is no checkpointer."""
    g = backend.graph.StateGraph(Log)
    g.add_node("ask", lambda s: {"log": [backend.types.interrupt("q")]})
    g.add_edge(backend.graph.START, "ask")
    out = g.compile().invoke({"log": []})
    assert normalize(out) == {"log": [], "__interrupt__": [("Interrupt", "q")]}


def test_resume_with_command_update(backend):
    app = _ask_graph(backend, [])
    app.invoke({"log": []}, cfg())
    Command = backend.types.Command
    # the update is applied before the resumed node writes
    assert app.invoke(Command(resume="r", update={"log": ["upd"]}), cfg()) == {
        "log": ["pre", "upd", "ans:r", "post"]
    }


def test_new_input_while_interrupted_reruns_node(backend):
    calls = []
    app = _ask_graph(backend, calls)
    app.invoke({"log": []}, cfg())
    out = app.invoke({"log": ["again"]}, cfg())
    assert normalize(out) == {
        "log": ["pre", "again", "pre"],
        "__interrupt__": [("Interrupt", {"q": "name?"})],
    }
    assert app.get_state(cfg()).next == ("ask",)


def test_two_interrupts_in_one_node_resumed_one_by_one(backend):
    interrupt, Command = backend.types.interrupt, backend.types.Command
    calls = []

    def ask(state):
        calls.append("start")
        a = interrupt("first?")
        calls.append(f"a={a}")
        b = interrupt("second?")
        calls.append(f"b={b}")
        return {"log": [f"{a}+{b}"]}

    g = backend.graph.StateGraph(Log)
    g.add_node("ask", ask)
    g.add_edge(backend.graph.START, "ask")
    app = g.compile(checkpointer=saver(backend))

    out = app.invoke({"log": []}, cfg())
    assert normalize(out) == {"log": [], "__interrupt__": [("Interrupt", "first?")]}
    out = app.invoke(Command(resume="A"), cfg())
    assert normalize(out) == {"log": [], "__interrupt__": [("Interrupt", "second?")]}
    st = app.get_state(cfg())
    assert values_of(st.interrupts) == ["second?"]
    assert st.next == ("ask",)
    assert app.invoke(Command(resume="B"), cfg()) == {"log": ["A+B"]}
    # each resume replays the node; earlier interrupt() calls return their stored answers
    assert calls == ["start", "start", "a=A", "start", "a=A", "b=B"]


def _parallel_ask(b):
    interrupt = b.types.interrupt
    g = b.graph.StateGraph(Log)
    g.add_node("p1", lambda s: {"log": ["p1:" + interrupt("q1")]})
    g.add_node("p2", lambda s: {"log": ["p2:" + interrupt("q2")]})
    g.add_edge(b.graph.START, "p1")
    g.add_edge(b.graph.START, "p2")
    return g.compile(checkpointer=saver(b))


def test_parallel_interrupts_resumed_with_id_map(backend):
    app = _parallel_ask(backend)
    out = app.invoke({"log": []}, cfg())
    assert out["log"] == []
    # the invoke() list is in completion order; compare as a set
    assert sorted(values_of(out["__interrupt__"])) == ["q1", "q2"]
    st = app.get_state(cfg())
    assert st.next == ("p1", "p2")
    assert [t.name for t in st.tasks] == ["p1", "p2"]
    assert values_of(st.interrupts) == ["q1", "q2"]  # task order here
    assert {i.id for i in st.interrupts} == {i.id for i in out["__interrupt__"]}
    ids = {i.value: i.id for i in st.interrupts}
    resume = backend.types.Command(resume={ids["q1"]: "x", ids["q2"]: "y"})
    assert app.invoke(resume, cfg()) == {"log": ["p1:x", "p2:y"]}


def test_parallel_interrupts_partial_resume(backend):
    app = _parallel_ask(backend)
    out = app.invoke({"log": []}, cfg())
    ids = {i.value: i.id for i in out["__interrupt__"]}
    Command = backend.types.Command

    out = app.invoke(Command(resume={ids["q2"]: "y"}), cfg())
    assert out["log"] == ["p2:y"]
    assert [(i.value, i.id) for i in out["__interrupt__"]] == [("q1", ids["q1"])]
    st = app.get_state(cfg())
    assert st.next == ("p1",)
    assert st.values == {"log": ["p2:y"]}
    assert [(t.name, values_of(t.interrupts), t.result) for t in st.tasks] == [
        ("p1", ["q1"], None),
        ("p2", [], {"log": ["p2:y"]}),
    ]
    assert app.invoke(Command(resume={ids["q1"]: "x"}), cfg()) == {"log": ["p1:x", "p2:y"]}


def test_parallel_interrupts_single_value_is_rejected(backend):
    app = _parallel_ask(backend)
    app.invoke({"log": []}, cfg())
    with pytest.raises(RuntimeError) as info:
        app.invoke(backend.types.Command(resume="z"), cfg())
    assert str(info.value).startswith(
        "When there are multiple pending interrupts, you must specify the interrupt id when resuming."
    )


def test_parallel_interrupts_stream_one_chunk_each(backend):
    app = _parallel_ask(backend)
    chunks = list(app.stream({"log": []}, cfg(), stream_mode="updates"))
    assert sorted(map(repr, normalize(chunks))) == sorted(
        map(
            repr,
            [
                {"__interrupt__": (("Interrupt", "q1"),)},
                {"__interrupt__": (("Interrupt", "q2"),)},
            ],
        )
    )


def test_interrupt_inside_send_task(backend):
    Send, interrupt, Command = backend.types.Send, backend.types.interrupt, backend.types.Command

    def w(state):
        v = interrupt(f"q{state['n']}")
        return {"log": [f"w{state['n']}:{v}"]}

    g = backend.graph.StateGraph(Log)
    g.add_node("w", w)
    g.add_conditional_edges(backend.graph.START, lambda s: [Send("w", {"n": n}) for n in (1, 2)])
    app = g.compile(checkpointer=saver(backend))
    out = app.invoke({"log": []}, cfg())
    assert sorted(values_of(out["__interrupt__"])) == ["q1", "q2"]
    st = app.get_state(cfg())
    assert st.next == ("w", "w")
    assert [(t.name, t.path) for t in st.tasks] == [
        ("w", ("__pregel_push", 0, False)),
        ("w", ("__pregel_push", 1, False)),
    ]
    assert values_of(st.interrupts) == ["q1", "q2"]
    ids = {i.value: i.id for i in st.interrupts}
    assert app.invoke(Command(resume={ids["q2"]: "b", ids["q1"]: "a"}), cfg()) == {
        "log": ["w1:a", "w2:b"]
    }


# --------------------------------------------------------------------------------------------
# interrupt_before / interrupt_after
# --------------------------------------------------------------------------------------------


def _abc(b, calls=None, **compile_kw):
    def mk(name):
        def node(s):
            if calls is not None:
                calls.append(name)
            return {"log": [name], "n": s.get("n", 0) + 1}

        return node

    g = b.graph.StateGraph(LogN)
    for name in "abc":
        g.add_node(name, mk(name))
    g.add_edge(b.graph.START, "a")
    g.add_edge("a", "b")
    g.add_edge("b", "c")
    return g.compile(checkpointer=saver(b), **compile_kw)


def test_interrupt_before_at_compile(backend):
    app = _abc(backend, interrupt_before=["b"])
    # a static interrupt adds no __interrupt__ key to the invoke() output
    assert app.invoke({"log": [], "n": 0}, cfg()) == {"log": ["a"], "n": 1}
    st = app.get_state(cfg())
    assert st.next == ("b",)
    assert st.interrupts == ()
    assert [(t.name, t.interrupts) for t in st.tasks] == [("b", ())]
    assert list(app.stream(None, cfg(), stream_mode="updates")) == [
        {"b": {"log": ["b"], "n": 2}},
        {"c": {"log": ["c"], "n": 3}},
    ]


def test_interrupt_before_stream_emits_empty_interrupt_chunk(backend):
    app = _abc(backend, interrupt_before=["b"])
    assert list(app.stream({"log": [], "n": 0}, cfg(), stream_mode="updates")) == [
        {"a": {"log": ["a"], "n": 1}},
        {"__interrupt__": ()},
    ]


def test_interrupt_after_at_compile(backend):
    app = _abc(backend, interrupt_after=["a"])
    assert list(app.stream({"log": [], "n": 0}, cfg(), stream_mode="updates")) == [
        {"a": {"log": ["a"], "n": 1}},
        {"__interrupt__": ()},
    ]
    st = app.get_state(cfg())
    assert (st.next, st.interrupts) == (("b",), ())
    assert app.invoke(None, cfg()) == {"log": ["a", "b", "c"], "n": 3}


def test_interrupt_before_given_to_invoke(backend):
    app = _abc(backend)
    assert app.invoke({"log": [], "n": 0}, cfg(), interrupt_before=["c"]) == {
        "log": ["a", "b"],
        "n": 2,
    }
    assert app.get_state(cfg()).next == ("c",)
    assert app.invoke(None, cfg()) == {"log": ["a", "b", "c"], "n": 3}


def test_interrupt_after_given_to_stream_applies_to_that_call_only(backend):
    app = _abc(backend)
    assert list(app.stream({"log": [], "n": 0}, cfg(), interrupt_after=["a", "b"])) == [
        {"a": {"log": ["a"], "n": 1}},
        {"__interrupt__": ()},
    ]
    assert list(app.stream(None, cfg())) == [
        {"b": {"log": ["b"], "n": 2}},
        {"c": {"log": ["c"], "n": 3}},
    ]
    assert list(app.stream(None, cfg())) == []


def test_interrupt_before_star(backend):
    app = _abc(backend)
    assert app.invoke({"log": [], "n": 0}, cfg(), interrupt_before="*") == {"log": [], "n": 0}
    assert app.get_state(cfg()).next == ("a",)
    assert app.invoke(None, cfg(), interrupt_before="*") == {"log": ["a"], "n": 1}
    assert app.get_state(cfg()).next == ("b",)


def test_breakpoint_fires_again_when_the_saved_thread_has_a_channel_the_graph_lost(backend):
    # a thread paused under one version of a graph, resumed under the next one where a node
    # was renamed: the old node's branch:to: channel is still in the checkpoint and never
    # counts as seen, so the breakpoint stops every resume before the node runs
    def build(side: str):
        g = backend.graph.StateGraph(Log)
        for name in ("a", "b", side):
            g.add_node(name, lambda s, name=name: {"log": [name]})
        g.add_edge(backend.graph.START, "a")
        g.add_edge("a", "b")
        g.add_edge("a", side)
        return g

    shared = saver(backend)
    before = build("side").compile(checkpointer=shared, interrupt_before=["b"])
    assert before.invoke({"log": []}, cfg()) == {"log": ["a"]}
    after = build("side_v2").compile(checkpointer=shared, interrupt_before=["b"])
    assert after.invoke(None, cfg()) == {"log": ["a"]}
    assert after.invoke(None, cfg()) == {"log": ["a"]}
    assert after.get_state(cfg()).next == ("b",)
    # the graph it was paused under goes on as usual
    assert before.invoke(None, cfg()) == {"log": ["a", "b", "side"]}


# --------------------------------------------------------------------------------------------
# update_state, history, time travel
# --------------------------------------------------------------------------------------------


def test_update_state_then_continue(backend):
    app = _abc(backend, interrupt_before=["b"])
    app.invoke({"log": [], "n": 0}, cfg())
    new_cfg = app.update_state(cfg(), {"log": ["edited"], "n": 10})
    assert new_cfg["configurable"]["thread_id"] == "t"
    assert new_cfg["configurable"]["checkpoint_ns"] == ""
    assert isinstance(new_cfg["configurable"]["checkpoint_id"], str)
    st = app.get_state(cfg())
    assert st.config["configurable"]["checkpoint_id"] == new_cfg["configurable"]["checkpoint_id"]
    assert st.values == {"log": ["a", "edited"], "n": 10}
    assert st.next == ("b",)
    assert st.metadata == {"source": "update", "step": 2, "parents": {}}
    assert app.invoke(None, cfg()) == {"log": ["a", "edited", "b", "c"], "n": 12}
    hist = list(app.get_state_history(cfg()))
    assert [(h.metadata["source"], h.metadata["step"], h.next) for h in hist] == [
        ("loop", 4, ()),
        ("loop", 3, ("c",)),
        ("update", 2, ("b",)),
        ("loop", 1, ("b",)),
        ("loop", 0, ("a",)),
        ("input", -1, ("__start__",)),
    ]


def test_update_state_as_node(backend):
    app = _abc(backend, interrupt_before=["b"])
    app.invoke({"log": []}, cfg())
    app.update_state(cfg(), {"log": ["as_b"]}, as_node="b")
    st = app.get_state(cfg())
    assert st.values == {"log": ["a", "as_b"], "n": 1}
    assert st.next == ("c",)
    assert st.metadata == {"source": "update", "step": 2, "parents": {}}
    assert app.invoke(None, cfg()) == {"log": ["a", "as_b", "c"], "n": 2}


def test_get_state_history_order_and_metadata(backend):
    app = _abc(backend)
    app.invoke({"log": ["in"]}, cfg())
    hist = list(app.get_state_history(cfg()))
    assert [(h.metadata, h.next, h.values) for h in hist] == [
        ({"source": "loop", "step": 3, "parents": {}}, (), {"log": ["in", "a", "b", "c"], "n": 3}),
        ({"source": "loop", "step": 2, "parents": {}}, ("c",), {"log": ["in", "a", "b"], "n": 2}),
        ({"source": "loop", "step": 1, "parents": {}}, ("b",), {"log": ["in", "a"], "n": 1}),
        ({"source": "loop", "step": 0, "parents": {}}, ("a",), {"log": ["in"]}),
        # the input checkpoint: reducer channels already hold their empty value
        ({"source": "input", "step": -1, "parents": {}}, ("__start__",), {"log": []}),
    ]
    # each checkpoint's parent is the next (older) one
    for newer, older in zip(hist, hist[1:], strict=False):
        assert (
            newer.parent_config["configurable"]["checkpoint_id"]
            == (older.config["configurable"]["checkpoint_id"])
        )
    assert hist[-1].parent_config is None
    assert hist[0].config == app.get_state(cfg()).config


def test_get_state_history_limit_before_filter(backend):
    app = _abc(backend)
    app.invoke({"log": []}, cfg())
    hist = list(app.get_state_history(cfg()))
    assert [h.metadata["step"] for h in app.get_state_history(cfg(), limit=2)] == [3, 2]
    assert [h.metadata["step"] for h in app.get_state_history(cfg(), before=hist[1].config)] == [
        1,
        0,
        -1,
    ]
    assert [
        h.metadata["step"] for h in app.get_state_history(cfg(), filter={"source": "loop"})
    ] == [3, 2, 1, 0]


def test_time_travel_replay_from_past_checkpoint(backend):
    calls = []
    app = _abc(backend, calls)
    app.invoke({"log": ["in"]}, cfg())
    before_b = next(h for h in app.get_state_history(cfg()) if h.next == ("b",))
    calls.clear()
    chunks = list(app.stream(None, before_b.config, stream_mode="updates"))
    assert chunks == [{"b": {"log": ["b"], "n": 2}}, {"c": {"log": ["c"], "n": 3}}]
    assert calls == ["b", "c"]  # "a" is not re-run
    assert app.get_state(cfg()).values == {"log": ["in", "a", "b", "c"], "n": 3}
    # replaying writes a "fork" copy of the past checkpoint, then continues from it
    assert [
        (h.metadata["source"], h.metadata["step"], h.next) for h in app.get_state_history(cfg())
    ] == [
        ("loop", 4, ()),
        ("loop", 3, ("c",)),
        ("fork", 2, ("b",)),
        ("loop", 3, ()),
        ("loop", 2, ("c",)),
        ("loop", 1, ("b",)),
        ("loop", 0, ("a",)),
        ("input", -1, ("__start__",)),
    ]


def test_time_travel_replay_with_interrupt_before(backend):
    calls = []
    app = _abc(backend, calls, interrupt_before=["b"])
    app.invoke({"log": [], "n": 0}, cfg())
    app.invoke(None, cfg())
    first = next(h for h in app.get_state_history(cfg()) if h.next == ("a",))
    calls.clear()
    # replaying re-runs "a" and stops again before "b"
    assert app.invoke(None, first.config) == {"log": ["a"], "n": 1}
    assert calls == ["a"]
    assert app.get_state(cfg()).next == ("b",)
    assert app.invoke(None, cfg()) == {"log": ["a", "b", "c"], "n": 3}


def test_fork_via_update_state_on_past_config(backend):
    calls = []
    app = _abc(backend, calls)
    app.invoke({"log": ["in"]}, cfg())
    before_b = next(h for h in app.get_state_history(cfg()) if h.next == ("b",))
    calls.clear()
    fork_cfg = app.update_state(before_b.config, {"log": ["forked"]})
    st = app.get_state(fork_cfg)
    assert st.values == {"log": ["in", "a", "forked"], "n": 1}
    assert st.next == ("b",)
    assert st.metadata == {"source": "update", "step": 2, "parents": {}}
    assert (
        st.parent_config["configurable"]["checkpoint_id"]
        == (before_b.config["configurable"]["checkpoint_id"])
    )
    assert calls == []
    assert app.invoke(None, fork_cfg) == {"log": ["in", "a", "forked", "b", "c"], "n": 3}
    assert calls == ["b", "c"]
    # the fork is now the thread's latest state
    assert app.get_state(cfg()).values == {"log": ["in", "a", "forked", "b", "c"], "n": 3}
    assert [(h.metadata["source"], h.metadata["step"]) for h in app.get_state_history(cfg())] == [
        ("loop", 4),
        ("loop", 3),
        ("update", 2),
        ("loop", 3),
        ("loop", 2),
        ("loop", 1),
        ("loop", 0),
        ("input", -1),
    ]


def test_threads_are_isolated(backend):
    app = _abc(backend, interrupt_before=["c"])
    app.invoke({"log": ["one"]}, cfg("1"))
    app.invoke({"log": ["two"]}, cfg("2"))
    assert app.get_state(cfg("1")).values == {"log": ["one", "a", "b"], "n": 2}
    assert app.get_state(cfg("2")).values == {"log": ["two", "a", "b"], "n": 2}
    assert app.invoke(None, cfg("2")) == {"log": ["two", "a", "b", "c"], "n": 3}
    assert app.get_state(cfg("1")).next == ("c",)
    empty = app.get_state(cfg("never"))
    assert (empty.values, empty.next, empty.tasks, empty.interrupts) == ({}, (), (), ())


# --------------------------------------------------------------------------------------------
# interrupt(response_schema=...)
# --------------------------------------------------------------------------------------------


def _typed_ask_graph(b):
    from pydantic import BaseModel

    class Decision(BaseModel):
        approve: bool
        note: str = ""

    def ask(state):
        decision = b.types.interrupt("ok?", response_schema=Decision)
        return {"log": [f"{type(decision).__name__}:{decision.approve}:{decision.note}"]}

    g = b.graph.StateGraph(Log)
    g.add_node("ask", ask)
    g.add_edge(b.graph.START, "ask")
    return g.compile(checkpointer=saver(b))


def test_response_schema_is_shown_as_json_schema(backend):
    app = _typed_ask_graph(backend)
    out = app.invoke({"log": []}, cfg())
    (intr,) = out["__interrupt__"]
    assert intr.response_schema["properties"]["approve"] == {"title": "Approve", "type": "boolean"}
    assert intr.response_schema["required"] == ["approve"]
    assert repr(intr).endswith("'title': 'Decision', 'type': 'object'})")


def test_response_schema_validates_the_answer(backend):
    from pydantic import ValidationError

    app = _typed_ask_graph(backend)
    app.invoke({"log": []}, cfg())
    with pytest.raises(ValidationError) as err:
        app.invoke(backend.types.Command(resume={"note": "missing approve"}), cfg())
    assert backend.errors.is_invalid_resume(err.value)
    # nothing was saved: the same interrupt can be answered again, with a valid value
    assert [i.value for i in app.get_state(cfg()).interrupts] == ["ok?"]
    out = app.invoke(backend.types.Command(resume={"approve": True, "note": "fine"}), cfg())
    assert out == {"log": ["Decision:True:fine"]}


def test_dict_response_schema_is_shown_not_enforced(backend):
    def ask(state):
        return {"log": [str(backend.types.interrupt("v?", response_schema={"type": "integer"}))]}

    g = backend.graph.StateGraph(Log)
    g.add_node("ask", ask)
    g.add_edge(backend.graph.START, "ask")
    app = g.compile(checkpointer=saver(backend))
    (intr,) = app.invoke({"log": []}, cfg())["__interrupt__"]
    assert intr.response_schema == {"type": "integer"}
    assert app.invoke(backend.types.Command(resume="not an int"), cfg()) == {"log": ["not an int"]}


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


HEX32 = re.compile(r"^[0-9a-f]{32}$")


def test_interrupt_and_resume(backend):
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver
    Command, interrupt = backend.types.Command, backend.types.interrupt

    def ask(s):
        answer = interrupt("approve?")
        return {"visited": [f"answer={answer}"]}

    h = StateGraph(S)
    h.add_node("ask", ask)
    h.add_edge(START, "ask")
    h.add_edge("ask", END)
    happ = h.compile(checkpointer=InMemorySaver())
    cfg = {"configurable": {"thread_id": "t"}}

    first = happ.invoke({"total": 0, "visited": []}, cfg)
    assert set(first) == {"total", "visited", "__interrupt__"}
    assert first["total"] == 0 and first["visited"] == []
    assert isinstance(first["__interrupt__"], list) and len(first["__interrupt__"]) == 1
    intr = first["__interrupt__"][0]
    assert type(intr).__name__ == "Interrupt"
    assert intr.value == "approve?"
    assert HEX32.match(intr.id), intr.id
    # langgraph 1.2.24's repr also shows response_schema=None (the document shortened the id)
    assert normalize(repr(intr)) == "Interrupt(value='approve?', id='<id>', response_schema=None)"

    assert happ.get_state(cfg).next == ("ask",)
    assert happ.invoke(Command(resume="yes"), cfg) == {"total": 0, "visited": ["answer=yes"]}
    assert happ.get_state(cfg).next == ()
