"""Engine graphs written in Python, for the tests that import or reference module functions."""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

from engine.graph import END, START, StateGraph


class Essay(TypedDict):
    topic: str
    content: str | None


def write_essay(essay: Essay) -> dict:
    return {"content": f"Essay about {essay['topic']}"}


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


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def build_router() -> StateGraph:
    """a -> route() -> b (total > 3) | c; total is last-value, visited an operator.add list."""
    builder = StateGraph(Route)
    builder.add_node(a)
    builder.add_node(b)
    builder.add_node(c)
    builder.add_edge(START, "a")
    builder.add_conditional_edges("a", route, ["b", "c"])
    builder.add_edge("b", END)
    builder.add_edge("c", END)
    return builder
