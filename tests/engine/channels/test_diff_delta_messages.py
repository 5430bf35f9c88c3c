"""The messages DeltaChannel against langgraph: the batch reducer (_messages_delta_reducer) and
the ids the loop stamps on delta writes, stable across reads, history and resumes, so that a
RemoveMessage can target a message that arrived without an id."""

from __future__ import annotations

import operator
from typing import Annotated

import pytest
from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage
from typing_extensions import TypedDict

from tests.oracle import assert_same

pytestmark = pytest.mark.differential

CONFIG = {"configurable": {"thread_id": "t"}}


def _graph(b, reducer=None):
    message = b.mod("graph.message")
    delta = b.mod("channels.delta").DeltaChannel(reducer or message._messages_delta_reducer)

    # the functional form: the annotations hold this call's channel
    State = TypedDict(  # noqa: UP013  (a class body could not see `delta`)
        "State", {"messages": Annotated[list, delta], "log": Annotated[list, operator.add]}
    )

    def reply(state: dict) -> dict:
        n = len(state["messages"])
        return {
            "messages": [("ai", f"reply {n}"), {"role": "user", "content": "again"}],
            "log": [n],
        }

    def drop_first(state: dict) -> dict:
        return {"messages": [RemoveMessage(id=state["messages"][0].id)]}

    builder = b.graph.StateGraph(State)
    builder.add_node("reply", reply)
    builder.add_node("drop_first", drop_first)
    builder.add_edge(b.graph.START, "reply")
    builder.add_edge("reply", "drop_first")
    return builder.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())


def _ids_stable(graph) -> bool:
    first = [m.id for m in graph.get_state(CONFIG).values["messages"]]
    again = [m.id for m in graph.get_state(CONFIG).values["messages"]]
    return all(first) and first == again


def test_message_likes_get_ids_and_a_remove_by_id_works():
    def scenario(b):
        graph = _graph(b)
        out = graph.invoke({"messages": ["hello", ("user", "there")], "log": []}, CONFIG)
        history = [
            [(m.type, m.content) for m in s.values.get("messages", [])]
            for s in graph.get_state_history(CONFIG)
        ]
        return [(m.type, m.content) for m in out["messages"]], history, _ids_stable(graph)

    contents, _, stable = assert_same(scenario)
    assert contents[0] == ("human", "there")  # "hello" removed by the id the loop gave it
    assert stable


def test_update_state_and_a_second_run_keep_ids():
    def scenario(b):
        graph = _graph(b)
        graph.invoke({"messages": [HumanMessage("one")], "log": []}, CONFIG)
        graph.update_state(CONFIG, {"messages": [{"role": "assistant", "content": "edited"}]})
        graph.invoke({"messages": "two", "log": []}, CONFIG)
        values = graph.get_state(CONFIG).values
        return [(m.type, m.content) for m in values["messages"]], values["log"], _ids_stable(graph)

    _, _, stable = assert_same(scenario)
    assert stable


def test_remove_all_and_overwrite_in_the_reducer():
    def scenario(b):
        reducer = b.mod("graph.message")._messages_delta_reducer
        remove_all = RemoveMessage(id=b.mod("graph.message").REMOVE_ALL_MESSAGES)
        state = [HumanMessage("a", id="1"), AIMessage("b", id="2")]
        batches = [
            reducer(state, [[AIMessage("B", id="2")], HumanMessage("c", id="3")]),
            reducer(state, [[RemoveMessage(id="1")], [RemoveMessage(id="missing")]]),
            reducer(state, [["x"], [remove_all, ("ai", "fresh")]]),
            reducer([{"type": "human", "content": "raw"}], [{"role": "user", "content": "d"}]),
        ]
        # batching-invariant: one call or two give the same
        writes = [[HumanMessage("p", id="p")], [RemoveMessage(id="1")], [AIMessage("q", id="p")]]
        once = reducer(state, writes)
        twice = reducer(reducer(state, writes[:1]), writes[1:])
        return [[(m.type, m.content, m.id) for m in r] for r in batches], once == twice

    _, invariant = assert_same(scenario)
    assert invariant


def test_another_reducer_gets_ids_on_message_objects_only():
    def scenario(b):
        def keep_all(state, writes):
            return [*state, *(m for w in writes for m in (w if isinstance(w, list) else [w]))]

        graph = _graph(b, reducer=keep_all)
        graph.invoke({"messages": [HumanMessage("hi")], "log": []}, CONFIG)
        values = graph.get_state(CONFIG).values
        # message objects got ids; the tuple and the dict in a list stay as they were written
        # (a tuple is compared by its items: langgraph's serializer reads it back as a list)
        kinds = [type(m).__name__.replace("tuple", "list") for m in values["messages"]]
        return kinds, [bool(getattr(m, "id", None)) for m in values["messages"]]

    assert_same(scenario)


def test_an_overwrite_makes_the_next_checkpoint_store_the_channel():
    def scenario(b):
        overwrite = b.types.Overwrite
        graph = _graph(b)
        graph.invoke({"messages": [HumanMessage("one", id="1")], "log": []}, CONFIG)
        graph.update_state(CONFIG, {"messages": overwrite([HumanMessage("reset", id="r")])})
        graph.invoke({"messages": [HumanMessage("two", id="2")], "log": []}, CONFIG)
        graph.invoke({"messages": overwrite([HumanMessage("three", id="3")]), "log": []}, CONFIG)
        saver = graph.checkpointer
        stored = [
            (t.metadata["step"], t.metadata["source"], "messages" in t.checkpoint["channel_values"])
            for t in saver.list(CONFIG)
        ]
        values = [(m.content, m.id) for m in graph.get_state(CONFIG).values["messages"]]
        return stored, values

    stored, values = assert_same(scenario)
    assert any(row[1] == "update" and row[2] for row in stored)
    # the input's Overwrite: the checkpoint after its step stores the channel
    assert (9, "loop", True) in stored
    assert ("three", "3") not in values and ("reply 1", None) not in values
