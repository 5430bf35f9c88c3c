"""Differential test: reading back a class of the program's own from a checkpoint logs
langgraph's warning that its default allow-list will block such classes, once per class; its
own safe types (messages, datetimes, ...) read back silently. A program with a pydantic state
(guoxiii's email workflow, get_state_history after the run) printed it on langgraph only."""

from __future__ import annotations

import logging
from datetime import datetime

import pytest
from langchain_core.messages import HumanMessage
from pydantic import BaseModel, Field

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


class Ticket(BaseModel):
    title: str


class Board(BaseModel):
    tickets: list[Ticket] = Field(default_factory=list)
    notes: list = Field(default_factory=list)
    step: int = 0


def test_a_programs_class_read_from_a_checkpoint_is_warned_about_once():
    def scenario(b):
        StateGraph, START = b.graph.StateGraph, b.graph.START

        def add(state: Board) -> dict:
            return {"tickets": [Ticket(title="t1")], "notes": [HumanMessage("hi", id="h"),
                    datetime(2026, 1, 2)], "step": state.step + 1}  # fmt: skip

        graph = (
            StateGraph(Board)
            .add_node("add", add)
            .add_edge(START, "add")
            .compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        )
        records = []

        class Keep(logging.Handler):
            def emit(self, record):
                records.append(record.getMessage())

        handler = Keep(level=logging.WARNING)
        logging.getLogger().addHandler(handler)
        try:
            config = {"configurable": {"thread_id": "1"}}
            graph.invoke({"step": 0}, config)
            seen = {"invoke": list(records)}
            values = graph.get_state(config).values
            seen["get_state"] = list(records)
            list(graph.get_state_history(config))
            graph.get_state(config)
            seen["again"] = list(records)
        finally:
            logging.getLogger().removeHandler(handler)
        return seen, values["tickets"][0].title

    seen, title = assert_same(scenario)
    assert title == "t1" and seen["invoke"] == [] and len(seen["again"]) == 1
    assert (
        "Deserializing unregistered type" in seen["get_state"][0] and "Ticket" in seen["again"][0]
    )
