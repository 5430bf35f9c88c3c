"""A program that seeds Python's `random` and draws from it in its nodes takes the same branches
and values on the engine as on langgraph: checkpoint ids and channel versions draw from the
global generator exactly as langgraph's do (issue 31)."""

from __future__ import annotations

import operator
import random
import sqlite3
from typing import Annotated, Literal

import pytest
from typing_extensions import TypedDict

from tests.oracle import assert_same

pytestmark = pytest.mark.differential

SAVERS = ["none", "memory", "sqlite"]


class Trail(TypedDict):
    path: Annotated[list, operator.add]


def _saver(b, kind: str):
    if kind == "memory":
        return b.mod("checkpoint.memory").InMemorySaver()
    if kind == "sqlite":
        conn = sqlite3.connect(":memory:", check_same_thread=False)
        return b.mod("checkpoint.sqlite").SqliteSaver(conn)
    return None


@pytest.mark.parametrize("kind", SAVERS)
def test_command_routing_picks_the_same_branches(kind):
    """LangGraph's docs' Command example: node_a routes to b or c by random.choice."""

    def scenario(b):
        Command = b.types.Command

        def node_a(state: Trail) -> Command[Literal["node_b", "node_c"]]:
            value = random.choice(["a", "b"])
            goto = "node_b" if value == "a" else "node_c"
            return Command(update={"path": [value]}, goto=goto)

        def node_b(state: Trail) -> dict:
            return {"path": ["B", random.randint(0, 999)]}

        def node_c(state: Trail) -> dict:
            return {"path": ["C", random.random()]}

        builder = b.graph.StateGraph(Trail)
        builder.add_node(node_a)
        builder.add_node(node_b)
        builder.add_node(node_c)
        builder.add_edge(b.graph.START, "node_a")
        graph = builder.compile(checkpointer=_saver(b, kind))
        random.seed(42)
        return [
            graph.invoke({"path": []}, {"configurable": {"thread_id": f"t{i % 3}"}})["path"]
            for i in range(12)
        ]

    runs = assert_same(scenario)
    assert {run[-2] for run in runs} == {"B", "C"}  # both branches were taken


@pytest.mark.parametrize("kind", SAVERS)
def test_a_functional_agent_draws_the_same_values(kind):
    """A functional ReAct-like loop: each step's task draws whether to call a tool again."""

    def scenario(b):
        @b.func.task
        def think(step: int) -> tuple[int, bool]:
            return step, random.random() < 0.6

        @b.func.task
        def act(step: int) -> int:
            return random.randint(1, 6)

        @b.func.entrypoint(checkpointer=_saver(b, kind))
        def agent(rounds: int) -> list:
            trail = []
            for step in range(rounds):
                _, again = think(step).result()
                trail.append(act(step).result() if again else "stop")
                if not again:
                    break
            return trail

        random.seed(7)
        return [agent.invoke(8, {"configurable": {"thread_id": f"t{i}"}}) for i in range(6)]

    assert_same(scenario)


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_interrupts_and_state_updates_keep_the_stream_aligned(kind):
    """A run stopped by interrupt(), resumed, then updated: each move draws as langgraph's."""

    def scenario(b):
        Command, interrupt = b.types.Command, b.types.interrupt

        def ask(state: Trail) -> dict:
            return {"path": [interrupt("roll?"), random.random()]}

        def roll(state: Trail) -> dict:
            return {"path": [random.randint(1, 6)]}

        builder = b.graph.StateGraph(Trail)
        builder.add_node("ask", ask)
        builder.add_node("roll", roll)
        builder.add_edge(b.graph.START, "ask")
        builder.add_edge("ask", "roll")
        graph = builder.compile(checkpointer=_saver(b, kind))
        random.seed(3)
        out = []
        for i in range(3):
            config = {"configurable": {"thread_id": f"t{i}"}}
            graph.invoke({"path": []}, config)
            graph.update_state(config, {"path": [random.random()]})
            out.append(graph.invoke(Command(resume="yes"), config)["path"])
        return out

    assert_same(scenario)
