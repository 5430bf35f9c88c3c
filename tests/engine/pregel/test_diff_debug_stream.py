"""stream_mode="debug" (and "checkpoints"/"tasks") payloads, and the helpers of pregel.debug,
compared with langgraph."""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

import pytest

from tests.oracle import assert_same


class State(TypedDict):
    messages: Annotated[list[str], operator.add]


def _node(name: str):
    def run(state: State) -> dict:
        return {"messages": [f"entered {name}"]}

    return run


def _chain(b, names: list[str], sub: Any = None, sub_name: str = "sub"):
    g = b.graph.StateGraph(State)
    prev = b.graph.START
    for name in names:
        g.add_node(name, _node(name))
        g.add_edge(prev, name)
        prev = name
    if sub is not None:
        g.add_node(sub_name, sub)
        g.add_edge(prev, sub_name)
        prev = sub_name
    g.add_edge(prev, b.graph.END)
    return g


def _events(stream) -> list:
    out = []
    for part in stream:
        ns, part = part if isinstance(part, tuple) and len(part) == 2 else ((), part)
        if isinstance(part, tuple):  # (mode, payload) with several modes
            mode, part = part
        else:
            mode = "debug"
        if mode == "debug":
            part = {k: v for k, v in part.items() if k != "timestamp"}
        out.append((ns, mode, part))
    return out


@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
def test_subgraph_debug_events_and_history(durability: str) -> None:
    def scenario(b):
        child = _chain(b, ["c_one", "c_two"]).compile()
        graph = _chain(b, ["p_one"], child).compile(
            checkpointer=b.mod("checkpoint.memory").InMemorySaver()
        )
        config = {"configurable": {"thread_id": "1", "user_key": 7}}
        events = _events(
            graph.stream({"messages": []}, config, stream_mode="debug", durability=durability)
        )
        history = [(s.config, s.parent_config) for s in graph.get_state_history(config)]
        return events, history

    events, history = assert_same(scenario)
    # the last checkpoint streamed is the one saved, also when only the last one is saved
    last = [e[2]["payload"] for e in events if e[2]["type"] == "checkpoint"][-1]
    assert (
        last["config"]["configurable"]["checkpoint_id"]
        == (history[0][0]["configurable"]["checkpoint_id"])
    )


def test_nested_subgraph_checkpoint_map_and_modes() -> None:
    def scenario(b):
        child = _chain(b, ["c_one"]).compile()
        parent = _chain(b, ["p_one"], child, "child").compile()
        graph = _chain(b, ["g_one"], parent, "parent").compile(
            checkpointer=b.mod("checkpoint.memory").InMemorySaver()
        )
        config = {"configurable": {"thread_id": "t"}}
        stream = graph.stream(
            {"messages": []},
            config,
            stream_mode=["debug", "checkpoints", "tasks"],
            subgraphs=True,
        )
        return _events(stream)

    assert_same(scenario)


def test_task_metadata_and_tags_in_task_payloads() -> None:
    def scenario(b):
        graph = _chain(b, ["a", "b"]).compile(
            checkpointer=b.mod("checkpoint.memory").InMemorySaver()
        )
        config = {
            "configurable": {"thread_id": "m"},
            "tags": ["user-tag"],
            "metadata": {"owner": "me"},
        }
        return _events(graph.stream({"messages": []}, config, stream_mode=["debug", "tasks"]))

    assert_same(scenario)


def test_interrupt_then_resume_checkpoint_tasks() -> None:
    def scenario(b):
        interrupt = b.types.interrupt

        def ask(state: State) -> dict:
            return {"messages": [interrupt("name?")]}

        g = b.graph.StateGraph(State)
        g.add_node("first", _node("first"))
        g.add_node("ask", ask)
        g.add_node("other", _node("other"))
        g.add_edge(b.graph.START, "first")
        g.add_edge("first", "ask")
        g.add_edge("first", "other")
        g.add_edge("ask", b.graph.END)
        graph = g.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        config = {"configurable": {"thread_id": "i"}}
        first = _events(graph.stream({"messages": []}, config, stream_mode="debug"))
        resumed = _events(graph.stream(b.types.Command(resume="bob"), config, stream_mode="debug"))
        return first, resumed

    assert_same(scenario)


def test_error_task_result_payload() -> None:
    def scenario(b):
        def boom(state: State) -> dict:
            raise ValueError("boom")

        g = b.graph.StateGraph(State)
        g.add_node("boom", boom)
        g.add_edge(b.graph.START, "boom")
        graph = g.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        config = {"configurable": {"thread_id": "e"}}
        events = []
        try:
            for part in graph.stream({"messages": []}, config, stream_mode="debug"):
                part.pop("timestamp")
                events.append(part)
        except ValueError as exc:
            events.append(repr(exc))
        for e in events:
            if isinstance(e, dict) and e["type"] == "task_result":
                e["payload"]["error"] = repr(e["payload"]["error"])
        return events

    assert_same(scenario)


class _Task:
    def __init__(self, id: str, name: str, config: dict | None, path=("__pregel_pull", "n")):
        self.id, self.name, self.config, self.path = id, name, config, path
        self.input, self.triggers, self.subgraphs = {"x": 1}, ["x"], []


def test_debug_helpers() -> None:
    def scenario(b):
        debug = b.mod("pregel.debug")
        tasks = [
            _Task("1", "a", {"metadata": {"thread_id": "t", "k": 1}, "tags": ["seq:step:1", "u"]}),
            _Task("2", "hidden", {"tags": ["langsmith:hidden"]}),
            _Task("3", "none", None),
            _Task("4", "only_framework", {"metadata": {"langgraph_step": 2}}),
        ]
        writes = [("x", 1), ("x", 2), ("y", 3), ("__return__", 4)]
        pending = [
            ("1", "x", 5),
            ("1", "x", 6),
            ("3", "__error__", "bad"),
            ("00000000-0000-0000-0000-000000000000", "x", 9),
        ]
        return (
            list(debug.map_debug_tasks(tasks)),
            debug.map_task_result_writes(writes),
            debug.is_multiple_channel_write({"$writes": [1]}),
            debug.is_multiple_channel_write({"$writes": 1}),
            list(debug.map_debug_task_results((tasks[0], writes), ["x"])),
            list(debug.map_debug_task_results((tasks[0], writes), "y")),
            debug.rm_pregel_keys({"configurable": {"__pregel_x": 1, "a": 2}, "tags": []}),
            debug.rm_pregel_keys(None),
            debug.tasks_w_writes(tasks, pending, {"1": "state"}, ["x"]),
            debug.tasks_w_writes(tasks, pending, None, "x"),
            debug.get_colored_text("hi", "green"),
            debug.get_bolded_text("hi"),
            str(debug.TASK_NAMESPACE),
        )

    assert_same(scenario)
