"""Differential tests: an interrupt raised in a functional-API call (a @task the entrypoint
calls) counts for the step as the caller's interrupt does. langgraph's runner gathers the
interrupts of every future of the step, calls included, so a caller re-raising its call's
interrupt carries it twice; a graph using the entrypoint as a node (tests/programs/gh_hil_func.py
exported as a spec's node) sees both, and a call interrupting while its caller goes on still
stops the step."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


def feedback_workflow(b, run_async: bool = False):
    """The corpus program's workflow: its middle task asks for feedback."""
    func, types = b.func, b.types

    if run_async:

        @func.task
        async def ask(text: str) -> str:
            return f"{text} {types.interrupt(f'Please provide feedback: {text}')}"

        @func.entrypoint(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        async def workflow(text: str) -> str:
            return await ask(f"{text} bar")

        return workflow

    @func.task
    def ask(text: str) -> str:
        return f"{text} {types.interrupt(f'Please provide feedback: {text}')}"

    @func.entrypoint(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
    def workflow(text: str) -> str:
        return ask(f"{text} bar").result()

    return workflow


def as_node(b, workflow):
    """A parent graph running the workflow as its one node, with a saver of its own."""
    builder = b.graph.StateGraph(object)
    builder.add_node("graph", workflow)
    builder.add_edge(b.graph.START, "graph")
    builder.add_edge("graph", b.graph.END)
    return builder.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())


def test_a_subgraph_node_sees_the_interrupt_of_its_call_and_of_its_caller():
    def scenario(b):
        graph = as_node(b, feedback_workflow(b))
        config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        first = graph.invoke("foo", config)
        waiting = graph.get_state(config)
        done = graph.invoke(b.types.Command(resume="baz"), config)
        return first, [t.interrupts for t in waiting.tasks], done

    assert_same(scenario)


def test_the_workflow_alone_shows_the_interrupt_once():
    def scenario(b):
        workflow = feedback_workflow(b)
        config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        first = list(workflow.stream("foo", config, stream_mode="updates"))
        return first, workflow.get_state(config).interrupts

    assert_same(scenario)


def test_an_async_subgraph_node_sees_both_interrupts_too():
    def scenario(b):
        graph = as_node(b, feedback_workflow(b, run_async=True))
        config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        first = asyncio.run(graph.ainvoke("foo", config))
        done = asyncio.run(graph.ainvoke(b.types.Command(resume="baz"), config))
        return first, done

    assert_same(scenario)


def test_a_call_interrupting_while_its_caller_goes_on_stops_the_step():
    def scenario(b):
        func, types = b.func, b.types

        @func.task
        def ask() -> str:
            return types.interrupt("go on?")

        @func.entrypoint(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        def workflow(text: str) -> str:
            ask()  # its future is never read
            return text

        config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        first = workflow.invoke("foo", config)
        return (
            first,
            workflow.get_state(config).next,
            workflow.invoke(types.Command(resume="yes"), config),
        )

    assert_same(scenario)
