"""The graph that wrote `data/schema_v1.sqlite` (and reads it back in test_old_database)."""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

from engine.graph import END, START, StateGraph
from engine.types import interrupt

PAD = 450  # items of ~460 bytes: 40 steps outgrow the delta budget once (a second full copy)


class Log(TypedDict):
    items: Annotated[list, operator.add]
    n: int


def item(n: int) -> str:
    return f"{n}:" + "x" * PAD


def build(saver, steps: int):
    """`step` appends an item until n == steps, then `ask` interrupts and appends the answer."""

    def step(state: Log) -> dict:
        return {"items": [item(state["n"])], "n": state["n"] + 1}

    def ask(state: Log) -> dict:
        return {"items": [f"answer:{interrupt('more?')}"]}

    builder = StateGraph(Log)
    builder.add_node("step", step)
    builder.add_node("ask", ask)
    builder.add_edge(START, "step")
    builder.add_conditional_edges("step", lambda s: "step" if s["n"] < steps else "ask")
    builder.add_edge("ask", END)
    return builder.compile(checkpointer=saver)
