"""The same graphs on langgraph's SqliteSaver and ours (the `backend` fixture runs each twice).

`langgraph.checkpoint.sqlite` and `engine.checkpoint.sqlite` share the import path, so each
test imports the saver through the backend and asserts the same literal expectations.
"""

from __future__ import annotations

import operator
import sqlite3
from typing import Annotated, TypedDict

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from tests.oracle import normalize


class Counter(TypedDict):
    count: int
    log: Annotated[list, operator.add]


def saver_for(backend, tmp_path, name="db.sqlite"):
    conn = sqlite3.connect(tmp_path / f"{backend.prefix}-{name}", check_same_thread=False)
    return backend.mod("checkpoint.sqlite").SqliteSaver(conn), conn


def chain_graph(backend, checkpointer, **compile_kwargs):
    g = backend.graph

    def a(state: Counter) -> dict:
        return {"count": state["count"] + 1, "log": ["a"]}

    def b(state: Counter) -> dict:
        return {"count": state["count"] * 10, "log": ["b"]}

    builder = g.StateGraph(Counter)
    builder.add_node("a", a)
    builder.add_node("b", b)
    builder.add_edge(g.START, "a")
    builder.add_edge("a", "b")
    builder.add_edge("b", g.END)
    return builder.compile(checkpointer=checkpointer, **compile_kwargs)


def summary(snapshot) -> tuple:
    return (
        snapshot.values,
        snapshot.next,
        snapshot.metadata["source"],
        snapshot.metadata["step"],
        tuple(t.name for t in snapshot.tasks),
    )


def test_invoke_get_state_and_history(backend, tmp_path):
    saver, conn = saver_for(backend, tmp_path)
    graph = chain_graph(backend, saver)
    config = {"configurable": {"thread_id": "1"}}
    assert graph.invoke({"count": 1, "log": []}, config) == {"count": 20, "log": ["a", "b"]}
    state = graph.get_state(config)
    assert summary(state) == ({"count": 20, "log": ["a", "b"]}, (), "loop", 2, ())
    history = [summary(s) for s in graph.get_state_history(config)]
    assert history == [
        ({"count": 20, "log": ["a", "b"]}, (), "loop", 2, ()),
        ({"count": 2, "log": ["a"]}, ("b",), "loop", 1, ("b",)),
        ({"count": 1, "log": []}, ("a",), "loop", 0, ("a",)),
        ({"log": []}, ("__start__",), "input", -1, ("__start__",)),
    ]
    parents = [s.parent_config for s in graph.get_state_history(config)]
    assert parents[-1] is None and all(p is not None for p in parents[:-1])
    limited = list(graph.get_state_history(config, limit=2))
    assert [s.metadata["step"] for s in limited] == [2, 1]
    inputs = list(graph.get_state_history(config, filter={"source": "input"}))
    assert [s.metadata["step"] for s in inputs] == [-1]
    before = list(graph.get_state_history(config, before=limited[1].config))
    assert [s.metadata["step"] for s in before] == [0, -1]
    conn.close()


def test_second_run_on_same_thread_appends(backend, tmp_path):
    saver, conn = saver_for(backend, tmp_path)
    graph = chain_graph(backend, saver)
    config = {"configurable": {"thread_id": "1"}}
    graph.invoke({"count": 1, "log": []}, config)
    assert graph.invoke({"count": 2, "log": ["x"]}, config) == {
        "count": 30,
        "log": ["a", "b", "x", "a", "b"],
    }
    steps = [s.metadata["step"] for s in graph.get_state_history(config)]
    assert steps == [6, 5, 4, 3, 2, 1, 0, -1]
    conn.close()


def test_interrupt_before_resume_and_update_state(backend, tmp_path):
    saver, conn = saver_for(backend, tmp_path)
    graph = chain_graph(backend, saver, interrupt_before=["b"])
    config = {"configurable": {"thread_id": "1"}}
    assert graph.invoke({"count": 1, "log": []}, config) == {"count": 2, "log": ["a"]}
    assert graph.get_state(config).next == ("b",)
    graph.update_state(config, {"count": 5, "log": ["edit"]})
    state = graph.get_state(config)
    assert summary(state) == ({"count": 5, "log": ["a", "edit"]}, ("b",), "update", 2, ("b",))
    assert graph.invoke(None, config) == {"count": 50, "log": ["a", "edit", "b"]}
    sources = [s.metadata["source"] for s in graph.get_state_history(config)]
    assert sources == ["loop", "update", "loop", "loop", "input"]
    conn.close()


def test_dynamic_interrupt_and_resume(backend, tmp_path):
    types, g = backend.types, backend.graph
    saver, conn = saver_for(backend, tmp_path)

    def ask(state: Counter) -> dict:
        answer = types.interrupt({"question": "how many?"})
        return {"count": answer, "log": ["asked"]}

    builder = g.StateGraph(Counter)
    builder.add_node("ask", ask)
    builder.add_edge(g.START, "ask")
    graph = builder.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "1"}}
    first = graph.invoke({"count": 0, "log": []}, config)
    assert normalize(first["__interrupt__"]) == [("Interrupt", {"question": "how many?"})]
    state = graph.get_state(config)
    assert state.next == ("ask",)
    assert normalize(state.tasks[0].interrupts) == (("Interrupt", {"question": "how many?"}),)
    assert graph.invoke(types.Command(resume=7), config) == {"count": 7, "log": ["asked"]}
    assert graph.get_state(config).next == ()
    conn.close()


class Chat(TypedDict):
    messages: Annotated[list, operator.add]


def test_messages_and_reopen_from_second_instance(backend, tmp_path):
    g = backend.graph
    path = tmp_path / f"{backend.prefix}-chat.sqlite"

    def reply(state: Chat) -> dict:
        return {"messages": [AIMessage(f"echo {state['messages'][-1].content}", id="ai")]}

    def build(saver):
        builder = g.StateGraph(Chat)
        builder.add_node("reply", reply)
        builder.add_edge(g.START, "reply")
        return builder.compile(checkpointer=saver)

    config = {"configurable": {"thread_id": "chat"}}
    with backend.mod("checkpoint.sqlite").SqliteSaver.from_conn_string(str(path)) as saver:
        build(saver).invoke({"messages": [HumanMessage("hi", id="h1")]}, config)
    with backend.mod("checkpoint.sqlite").SqliteSaver.from_conn_string(str(path)) as saver:
        graph = build(saver)
        messages = graph.get_state(config).values["messages"]
        assert [type(m).__name__ for m in messages] == ["HumanMessage", "AIMessage"]
        assert [m.content for m in messages] == ["hi", "echo hi"]
        result = graph.invoke({"messages": [HumanMessage("again", id="h2")]}, config)
        assert [m.content for m in result["messages"]] == ["hi", "echo hi", "again", "echo again"]
        assert len(list(graph.get_state_history(config))) == 6


class Outer(TypedDict):
    value: str


def test_subgraph_checkpoints_live_in_their_namespace(backend, tmp_path):
    g = backend.graph
    saver, conn = saver_for(backend, tmp_path)

    def inner_node(state: Outer) -> dict:
        return {"value": state["value"] + "-inner"}

    sub = g.StateGraph(Outer)
    sub.add_node("inner", inner_node)
    sub.add_edge(g.START, "inner")
    subgraph = sub.compile()

    builder = g.StateGraph(Outer)
    builder.add_node("child", subgraph)
    builder.add_edge(g.START, "child")
    graph = builder.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "1"}}
    assert graph.invoke({"value": "x"}, config) == {"value": "x-inner"}
    namespaces = sorted(
        {t.config["configurable"]["checkpoint_ns"].split(":")[0] for t in saver.list(config)}
    )
    assert namespaces == ["", "child"]
    root = [
        t.metadata["step"]
        for t in saver.list({"configurable": {"thread_id": "1", "checkpoint_ns": ""}})
    ]
    assert root == [1, 0, -1]
    conn.close()


def test_parallel_branches_and_pending_writes(backend, tmp_path):
    g = backend.graph
    saver, conn = saver_for(backend, tmp_path)

    def left(state: Counter) -> dict:
        return {"log": ["left"]}

    def right(state: Counter) -> dict:
        return {"log": ["right"]}

    def join(state: Counter) -> dict:
        return {"count": len(state["log"])}

    builder = g.StateGraph(Counter)
    for name, fn in (("left", left), ("right", right), ("join", join)):
        builder.add_node(name, fn)
    builder.add_edge(g.START, "left")
    builder.add_edge(g.START, "right")
    builder.add_edge(["left", "right"], "join")
    graph = builder.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "1"}}
    assert graph.invoke({"count": 0, "log": []}, config) == {"count": 2, "log": ["left", "right"]}
    history = list(graph.get_state_history(config))
    assert [s.next for s in history] == [(), ("join",), ("left", "right"), ("__start__",)]
    # the step that ran both branches saved one pending write set per task
    step0 = saver.get_tuple(history[2].config)
    written = sorted(v for _, c, v in step0.pending_writes if c == "log")
    assert written == [["left"], ["right"]]
    conn.close()


@pytest.mark.parametrize("durability", ["sync", "exit"])
def test_durability_modes(backend, tmp_path, durability):
    saver, conn = saver_for(backend, tmp_path)
    graph = chain_graph(backend, saver)
    config = {"configurable": {"thread_id": "1"}}
    graph.invoke({"count": 1, "log": []}, config, durability=durability)
    steps = [s.metadata["step"] for s in graph.get_state_history(config)]
    assert steps == ([2, 1, 0, -1] if durability == "sync" else [2])
    assert graph.get_state(config).values == {"count": 20, "log": ["a", "b"]}
    conn.close()


async def test_async_saver_with_ainvoke(backend, tmp_path):
    AsyncSqliteSaver = backend.mod("checkpoint.sqlite.aio").AsyncSqliteSaver
    path = tmp_path / f"{backend.prefix}-async.sqlite"
    config = {"configurable": {"thread_id": "1"}}
    async with AsyncSqliteSaver.from_conn_string(str(path)) as saver:
        graph = chain_graph(backend, saver)
        assert await graph.ainvoke({"count": 1, "log": []}, config) == {
            "count": 20,
            "log": ["a", "b"],
        }
        state = await graph.aget_state(config)
        assert summary(state) == ({"count": 20, "log": ["a", "b"]}, (), "loop", 2, ())
        steps = [s.metadata["step"] async for s in graph.aget_state_history(config)]
        assert steps == [2, 1, 0, -1]
    # the file holds the thread for a later, separate saver
    async with AsyncSqliteSaver.from_conn_string(str(path)) as saver:
        graph = chain_graph(backend, saver)
        assert (await graph.aget_state(config)).values == {"count": 20, "log": ["a", "b"]}


def test_a_connection_to_the_programs_own_database_keeps_its_tables(backend, tmp_path):
    """A program (5zjk5's sqlite_memery.py) keeps a table of its own in the database whose
    connection it hands to SqliteSaver, creating it before the saver's first use: langgraph's
    saver adds its tables beside it; the engine's refused the file as another program's."""
    conn = sqlite3.connect(tmp_path / f"{backend.prefix}-own.db", isolation_level=None,
                           check_same_thread=False)  # fmt: skip
    conn.execute("CREATE TABLE IF NOT EXISTS history (thread_id TEXT, query TEXT)")
    conn.execute("INSERT INTO history VALUES ('t', 'hello')")
    saver = backend.mod("checkpoint.sqlite").SqliteSaver(conn)
    app = chain_graph(backend, saver)
    config = {"configurable": {"thread_id": "t"}}
    assert app.get_state(config).values == {}
    assert app.invoke({"count": 1, "log": []}, config) == {"count": 20, "log": ["a", "b"]}
    assert summary(app.get_state(config)) == ({"count": 20, "log": ["a", "b"]}, (), "loop", 2, ())
    assert conn.execute("SELECT * FROM history").fetchall() == [("t", "hello")]
