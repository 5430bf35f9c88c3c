"""Bundled example graphs, small enough to read in a trace: used by `superstep demo` and the tests.

Each example returns an uncompiled StateGraph builder, so the caller picks the checkpointer.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypedDict

from engine.graph import END, START, StateGraph
from engine.types import Send


@dataclass(frozen=True)
class Example:
    """A named example graph with the input a demo run starts from."""

    name: str
    description: str
    build: Callable[[], StateGraph]
    """Returns a fresh, uncompiled builder."""
    input: dict[str, Any]


# ------------------------------------------------------------------ essay: a two-node chain


class Essay(TypedDict):
    topic: str
    content: str | None
    score: float | None


def write_essay(essay: Essay) -> dict:
    return {"content": f"Essay about {essay['topic']}"}


def score_essay(essay: Essay) -> dict:
    return {"score": 10}


def build_essay() -> StateGraph:
    builder = StateGraph(Essay)
    builder.add_node(write_essay)
    builder.add_node(score_essay)
    builder.add_edge(START, "write_essay")
    builder.add_edge("write_essay", "score_essay")
    builder.add_edge("score_essay", END)
    return builder


# ------------------------------------------------------------------ fanout: Send map-reduce


class Jokes(TypedDict):
    subjects: list[str]
    jokes: Annotated[list[str], operator.add]
    """Written by several tasks in one superstep, so it needs a reducer."""
    best: str


class JokeTask(TypedDict):
    subject: str


def continue_to_jokes(state: Jokes) -> list[Send]:
    # one Send per subject: each becomes its own write_joke task next superstep
    return [Send("write_joke", {"subject": s}) for s in state["subjects"]]


def write_joke(task: JokeTask) -> dict:
    return {"jokes": [f"Joke about {task['subject']}"]}


def pick_best(state: Jokes) -> dict:
    return {"best": max(state["jokes"], key=len)}


def build_fanout() -> StateGraph:
    builder = StateGraph(Jokes)
    builder.add_node(write_joke)
    builder.add_node(pick_best)
    builder.add_conditional_edges(START, continue_to_jokes, ["write_joke"])
    builder.add_edge("write_joke", "pick_best")
    builder.add_edge("pick_best", END)
    return builder


# ------------------------------------------------------------------ router: conditional edge


class Route(TypedDict):
    total: int
    visited: Annotated[list[str], operator.add]


def a(state: Route) -> dict:
    return {"total": state["total"] + 1, "visited": ["a"]}


def route(state: Route) -> str:
    return "b" if state["total"] > 3 else "c"


def b(state: Route) -> dict:
    return {"total": state["total"] * 10, "visited": ["b"]}


def c(state: Route) -> dict:
    return {"total": state["total"] - 1, "visited": ["c"]}


def build_router() -> StateGraph:
    builder = StateGraph(Route)
    builder.add_node(a)
    builder.add_node(b)
    builder.add_node(c)
    builder.add_edge(START, "a")
    builder.add_conditional_edges("a", route, ["b", "c"])
    builder.add_edge("b", END)
    builder.add_edge("c", END)
    return builder


EXAMPLES: dict[str, Example] = {
    ex.name: ex
    for ex in (
        Example(
            "essay",
            "write_essay -> score_essay on Essay{topic, content, score}",
            build_essay,
            {"topic": "water"},
        ),
        Example(
            "fanout",
            "START sends one write_joke task per subject; jokes merge with operator.add; pick_best joins",
            build_fanout,
            {"subjects": ["cats", "dogs", "owls"]},
        ),
        Example(
            "router",
            "a -> route() -> b (total > 3) | c; total is last-value, visited an operator.add list",
            build_router,
            {"total": 4, "visited": []},
        ),
    )
}

__all__ = ["EXAMPLES", "Example"]
