"""Differential tests: replaying a parent checkpoint re-runs its subgraphs from before that
point, whether they keep their own history (checkpointer=True) or inherit the parent's."""

import operator
import uuid
from typing import Annotated

import pytest
from typing_extensions import TypedDict

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


class State(TypedDict):
    value: Annotated[list[str], operator.add]


def build(b, sub_checkpointer):
    graph_mod, types = b.graph, b.types
    called = []

    def node(name, ask=False):
        def run(state):
            called.append(name)
            if ask:
                return {"value": [f"human:{types.interrupt('Provide input:')}"]}
            return {"value": [name]}

        return run

    sub = graph_mod.StateGraph(State)
    sub.add_node("step_a", node("step_a"))
    sub.add_node("ask", node("ask", ask=True))
    sub.add_edge(graph_mod.START, "step_a")
    sub.add_edge("step_a", "ask")
    parent = graph_mod.StateGraph(State)
    parent.add_node("router", node("router"))
    parent.add_node("sub", sub.compile(checkpointer=sub_checkpointer))
    parent.add_node("post", node("post"))
    parent.add_edge(graph_mod.START, "router")
    parent.add_edge("router", "sub")
    parent.add_edge("sub", "post")
    return parent.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver()), called


@pytest.mark.parametrize("sub_checkpointer", [True, None], ids=["own-history", "inherited"])
def test_replaying_before_a_subgraph_asks_its_interrupt_again(sub_checkpointer):
    def scenario(b):
        graph, called = build(b, sub_checkpointer)
        config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        graph.invoke({"value": []}, config)
        finished = graph.invoke(b.types.Command(resume="first"), config)
        before_sub = [s for s in graph.get_state_history(config) if s.next == ("sub",)][-1]
        called.clear()
        replayed = graph.invoke(None, before_sub.config)
        ran_in_replay = list(called)
        called.clear()
        resumed = graph.invoke(b.types.Command(resume="second"), config)
        return finished, replayed, ran_in_replay, resumed, list(called)

    assert_same(scenario)


def test_a_second_call_of_the_same_subgraph_in_a_replay_continues_its_history():
    def scenario(b):
        graph_mod = b.graph
        sub = graph_mod.StateGraph(State)
        sub.add_node("count", lambda s: {"value": [f"n{len(s['value'])}"]})
        sub.add_edge(graph_mod.START, "count")
        compiled_sub = sub.compile(checkpointer=True)
        parent = graph_mod.StateGraph(State)
        parent.add_node("first", compiled_sub)
        parent.add_node("again", lambda s: compiled_sub.invoke({"value": ["x"]}))
        parent.add_edge(graph_mod.START, "first")
        parent.add_edge("first", "again")
        graph = parent.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        original = graph.invoke({"value": []}, config)
        start = [s for s in graph.get_state_history(config) if s.next == ("first",)][-1]
        return original, graph.invoke(None, start.config)

    assert_same(scenario)


@pytest.mark.parametrize("sub_checkpointer", [True, None], ids=["own-history", "inherited"])
def test_running_from_a_subgraph_checkpoint_config_replays_there(sub_checkpointer):
    """get_state(subgraphs=True) gives a subgraph's checkpoint config; invoking the parent with
    it runs the parent from its checkpoint in the map and the subgraph from its own."""

    def scenario(b):
        graph, called = build(b, sub_checkpointer)
        config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        graph.invoke({"value": []}, config)
        sub_config = graph.get_state(config, subgraphs=True).tasks[0].state.config
        called.clear()
        replayed = graph.invoke(None, sub_config)
        ran = list(called)
        called.clear()
        resumed = graph.invoke(b.types.Command(resume="x"), sub_config)
        return replayed, ran, resumed, list(called)

    assert_same(scenario)


def test_replaying_a_subgraph_checkpoint_after_the_thread_moved_on_asks_again():
    """The tasks of a replayed step run again: their saved answers and results are not reused."""

    def scenario(b):
        types = b.types
        graph, _called = _asks_twice(b)
        config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        graph.invoke({"value": []}, config)
        at_first = graph.get_state(config, subgraphs=True).tasks[0].state.config
        graph.invoke(types.Command(resume="one"), config)
        done = graph.invoke(types.Command(resume="two"), config)
        replayed = graph.invoke(None, at_first)
        return done, [i.value for i in replayed.get("__interrupt__", [])]

    assert_same(scenario)


def _asks_twice(b, levels=1):
    """START -> executor: a subgraph asking two questions, nested `levels` deep (each level a
    subgraph with its own history); returns the graph and the list of nodes called."""
    graph_mod, types = b.graph, b.types
    called = []

    def ask(n):
        def run(state):
            called.append(f"ask_{n}")
            return {"value": [f"ask_{n}:{types.interrupt(f'Question {n}?')}"]}

        return run

    sub = graph_mod.StateGraph(State)
    sub.add_node("ask_1", ask(1))
    sub.add_node("ask_2", ask(2))
    sub.add_edge(graph_mod.START, "ask_1")
    sub.add_edge("ask_1", "ask_2")
    graph = sub.compile(checkpointer=True)
    for level in range(levels):
        outer = graph_mod.StateGraph(State)
        outer.add_node(f"level_{level}", graph)
        outer.add_edge(graph_mod.START, f"level_{level}")
        last = level == levels - 1
        saver = b.mod("checkpoint.memory").InMemorySaver() if last else True
        graph = outer.compile(checkpointer=saver)
    return graph, called


def _history(graph, config):
    return [(s.metadata["source"], s.next, s.values) for s in graph.get_state_history(config)]


def test_resuming_after_replaying_a_subgraph_checkpoint_follows_the_new_branch():
    """The replay forks the subgraph's checkpoint as well as the parent's: the next resumes of
    the thread answer the replayed questions, not the old branch's finished run."""

    def scenario(b):
        graph, called = _asks_twice(b)
        config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        graph.invoke({"value": []}, config)
        at_first = graph.get_state(config, subgraphs=True).tasks[0].state.config
        graph.invoke(b.types.Command(resume="one"), config)
        graph.invoke(b.types.Command(resume="two"), config)
        called.clear()
        replayed = graph.invoke(None, at_first)
        after_replay = _history(graph, config)
        first = graph.invoke(b.types.Command(resume="new one"), config)
        second = graph.invoke(b.types.Command(resume="new two"), config)
        return replayed, after_replay, first, second, list(called), _history(graph, config)

    assert_same(scenario)


def test_update_state_on_a_middle_subgraph_checkpoint_reruns_the_inner_one():
    """Three levels: an update of the middle graph's checkpoint is written as the node that
    updated it last (its START), so running from it runs the inner subgraph again."""

    def scenario(b):
        graph, called = _asks_twice(b, levels=2)
        config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        graph.invoke({"value": []}, config)
        graph.invoke(b.types.Command(resume="one"), config)
        middle = graph.get_state(config, subgraphs=True).tasks[0].state.config
        graph.invoke(b.types.Command(resume="two"), config)
        called.clear()
        replayed = graph.invoke(None, middle)
        forked = graph.update_state(middle, {"value": ["forked"]})
        from_fork = graph.invoke(None, forked)
        return replayed, from_fork, list(called)

    assert_same(scenario)


def test_update_state_with_none_values_runs_the_nodes_edges_again():
    """update_state(config, None) still writes as the inferred node: its edges fire, so the
    next node runs again and asks its question again."""

    def scenario(b):
        graph_mod, types = b.graph, b.types

        def ask(state):
            return {"value": [f"human:{types.interrupt('What?')}"]}

        g = graph_mod.StateGraph(State)
        g.add_node("a", lambda state: {"value": ["a"]})
        g.add_node("ask", ask)
        g.add_node("b", lambda state: {"value": ["b"]})
        g.add_edge(graph_mod.START, "a")
        g.add_edge("a", "ask")
        g.add_edge("ask", "b")
        graph = g.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        graph.invoke({"value": []}, config)
        graph.invoke(types.Command(resume="hello"), config)
        before_ask = [s for s in graph.get_state_history(config) if s.next == ("ask",)][-1]
        forked = graph.update_state(before_ask.config, None)
        state = graph.get_state(forked)
        return state.next, state.metadata, graph.invoke(None, forked)

    assert_same(scenario)


@pytest.mark.parametrize("nodes", [1, 2])
def test_update_state_infers_as_node_on_a_fresh_thread(nodes):
    def scenario(b):
        graph_mod = b.graph
        g = graph_mod.StateGraph(State)
        for i in range(nodes):
            g.add_node(f"n{i}", lambda state: {"value": ["ran"]})
            g.add_edge(graph_mod.START if i == 0 else f"n{i - 1}", f"n{i}")
        graph = g.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        updated = graph.update_state(config, {"value": ["given"]})
        state = graph.get_state(updated)
        return state.values, state.next, state.metadata, graph.invoke(None, updated)

    assert_same(scenario)


def test_a_copied_inner_checkpoint_resumes_the_subgraph_after_it():
    """The studio's re-run from a node inside a subgraph: the parent's checkpoint before the
    subgraph's step and the subgraph's before the node, copied to a new thread; resuming runs
    only the node and what follows it."""

    def scenario(b):
        graph_mod, memory = b.graph, b.mod("checkpoint.memory")
        ran = []

        def node(name):
            def run(state):
                ran.append(name)
                return {"value": [name]}

            return run

        inner = graph_mod.StateGraph(State)
        for name in ("upper", "exclaim"):
            inner.add_node(name, node(name))
        inner.add_edge(graph_mod.START, "upper")
        inner.add_edge("upper", "exclaim")
        outer = graph_mod.StateGraph(State)
        outer.add_node("prepare", node("prepare"))
        outer.add_node("shout", inner.compile())
        outer.add_node("done", node("done"))
        outer.add_edge(graph_mod.START, "prepare")
        outer.add_edge("prepare", "shout")
        outer.add_edge("shout", "done")
        saver = memory.InMemorySaver()
        graph = outer.compile(checkpointer=saver)
        first = graph.invoke({"value": []}, {"configurable": {"thread_id": "a"}})

        def at_step(ns: str, step: int):
            config = {"configurable": {"thread_id": "a", "checkpoint_ns": ns}}
            return next(c for c in saver.list(config) if c.metadata["step"] == step)

        inner_ns = next(c.config["configurable"]["checkpoint_ns"]
                        for c in saver.list({"configurable": {"thread_id": "a"}})
                        if c.config["configurable"]["checkpoint_ns"])  # fmt: skip
        for found, ns in ((at_step("", 1), ""), (at_step(inner_ns, 1), inner_ns)):
            saver.put({"configurable": {"thread_id": "b", "checkpoint_ns": ns}}, found.checkpoint,
                      found.metadata, dict(found.checkpoint["channel_versions"]))  # fmt: skip
        ran.clear()
        again = graph.invoke(None, {"configurable": {"thread_id": "b"}})
        return first, again, ran

    first, again, ran = assert_same(scenario)
    assert ran == ["exclaim", "done"] and again == first
