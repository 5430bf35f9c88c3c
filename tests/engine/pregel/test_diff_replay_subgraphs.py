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
        graph_mod, types = b.graph, b.types

        def ask(n):
            def run(state):
                return {"value": [f"ask_{n}:{types.interrupt(f'Question {n}?')}"]}

            return run

        sub = graph_mod.StateGraph(State)
        sub.add_node("ask_1", ask(1))
        sub.add_node("ask_2", ask(2))
        sub.add_edge(graph_mod.START, "ask_1")
        sub.add_edge("ask_1", "ask_2")
        parent = graph_mod.StateGraph(State)
        parent.add_node("executor", sub.compile(checkpointer=True))
        parent.add_edge(graph_mod.START, "executor")
        graph = parent.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        graph.invoke({"value": []}, config)
        at_first = graph.get_state(config, subgraphs=True).tasks[0].state.config
        graph.invoke(types.Command(resume="one"), config)
        done = graph.invoke(types.Command(resume="two"), config)
        replayed = graph.invoke(None, at_first)
        return done, [i.value for i in replayed.get("__interrupt__", [])]

    assert_same(scenario)
