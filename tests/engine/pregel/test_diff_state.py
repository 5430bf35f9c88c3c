"""Differential tests of a thread's state: get_state, get_state_history, update_state (reducers,
as_node), checkpoint listing, versions and metadata, replay and forks (time travel).

Every test runs on both backends through the `backend` fixture and asserts what langgraph
1.2.24 gives.
"""

import operator
from operator import add
from typing import Annotated, TypedDict

from tests.engine.graphs import TopicState, _chain, _sg, _two_node
from tests.oracle import normalize


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

    # stream_mode="debug" is covered by tests/engine/pregel/test_diff_stream_modes.py


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


def _checkpointed_run(backend):
    saver = backend.mod("checkpoint.memory").InMemorySaver()
    app = _two_node(backend, checkpointer=saver)
    cfg = {"configurable": {"thread_id": "1"}}
    out = app.invoke({"total": 10, "visited": []}, cfg)
    return app, saver, cfg, out


def test_checkpoint_listing(backend):
    _app, saver, cfg, out = _checkpointed_run(backend)
    assert out == {"total": 21, "visited": ["a", "b"]}
    tuples = list(saver.list(cfg))  # newest first
    rows = [
        (t.metadata["step"], t.metadata["source"], t.checkpoint["channel_values"])
        for t in reversed(tuples)
    ]
    # The document hides them, but langgraph 1.2.24 keeps 'branch:to:X': None in channel_values.
    assert rows == [
        (-1, "input", {"__start__": {"total": 10, "visited": []}}),
        (0, "loop", {"total": 10, "visited": [], "branch:to:a": None}),
        (1, "loop", {"total": 20, "visited": ["a"], "branch:to:b": None}),
        (2, "loop", {"total": 21, "visited": ["a", "b"]}),
    ]


def test_checkpoint_versions(backend):
    _app, saver, cfg, _out = _checkpointed_run(backend)
    last = next(iter(saver.list(cfg))).checkpoint
    assert sorted(last) == [
        "channel_values",
        "channel_versions",
        "id",
        "ts",
        "updated_channels",
        "v",
        "versions_seen",
    ]
    assert sorted(last["versions_seen"]) == ["__input__", "__start__", "a", "b"]
    # real versions are "<zero-padded counter>.<random suffix>"; the document shortened them
    assert {k: int(str(v).split(".")[0]) for k, v in last["channel_versions"].items()} == {
        "__start__": 2,
        "total": 4,
        "visited": 4,
        "branch:to:a": 3,
        "branch:to:b": 4,
    }
    assert list(last["channel_versions"]) == [
        "__start__",
        "total",
        "visited",
        "branch:to:a",
        "branch:to:b",
    ]
    # what each node consumed, by counter
    seen = {
        node: {ch: int(str(v).split(".")[0]) for ch, v in chans.items()}
        for node, chans in last["versions_seen"].items()
    }
    assert seen == {
        "__input__": {},
        "__start__": {"__start__": 1},
        "a": {"branch:to:a": 2},
        "b": {"branch:to:b": 3},
    }


def test_state_snapshot_fields(backend):
    app, _saver, cfg, _out = _checkpointed_run(backend)
    snap = app.get_state(cfg)
    for field in (
        "values",
        "next",
        "config",
        "metadata",
        "created_at",
        "parent_config",
        "tasks",
        "interrupts",
    ):
        assert hasattr(snap, field), field
    assert snap.values == {"total": 21, "visited": ["a", "b"]}
    assert snap.next == ()
    history = list(app.get_state_history(cfg))
    assert [(h.metadata["step"], h.next) for h in history] == [
        (2, ()),
        (1, ("b",)),
        (0, ("a",)),
        (-1, ("__start__",)),
    ]


def test_time_travel(backend):
    app, _saver, cfg, _out = _checkpointed_run(backend)
    before_b = next(s for s in app.get_state_history(cfg) if s.next == ("b",))
    assert before_b.values == {"total": 20, "visited": ["a"]}
    assert app.invoke(None, before_b.config) == {"total": 21, "visited": ["a", "b"]}
