"""Differential tests: langgraph.prebuilt's create_react_agent, ToolNode and tools_condition,
with a scripted fake chat model, on langgraph and on engine."""

from __future__ import annotations

import asyncio
import uuid
import warnings

import pytest
from langchain_core.messages import HumanMessage, SystemMessage, ToolMessage
from pydantic import BaseModel

from tests.engine.agents.helpers import (
    add,
    ai,
    dump,
    explode,
    fake,
    final_answer,
    graph_shape,
    shout,
)
from tests.oracle import assert_same

pytestmark = [pytest.mark.differential, pytest.mark.filterwarnings("ignore::DeprecationWarning")]


def question(text: str = "hi") -> dict:
    return {"messages": [HumanMessage(text, id="q")]}


def react(b, model, tools, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return b.prebuilt.create_react_agent(model, tools, **kwargs)


def test_tool_calls_run_and_the_model_answers():
    def scenario(b):
        model = fake(
            ai("", ("add", {"a": 1, "b": 2}, "c1"), ("shout", {"text": "x"}, "c2")), ai("3 and X")
        )
        agent = react(b, model, [add, shout], prompt="Be brief.", name="helper")
        result = agent.invoke(question())
        return dump(result["messages"]), graph_shape(agent), agent.name

    assert_same(scenario)


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_stream_updates_per_version(version):
    def scenario(b):
        model = fake(ai("", ("add", {"a": 2, "b": 2}, "c1")), ai("four"))
        agent = react(b, model, [add], version=version)
        return [
            (list(chunk), dump(next(iter(chunk.values()))["messages"]))
            for chunk in agent.stream(question())
        ]

    assert_same(scenario)


def test_a_return_direct_tool_ends_the_run_and_errors_become_tool_messages():
    def scenario(b):
        direct = react(
            b, fake(ai("", ("final_answer", {"answer": "42"}, "c1")), ai("unused")), [final_answer]
        )
        failing = react(b, fake(ai("", ("explode", {"x": 1}, "c1")), ai("sorry")), [explode])
        return dump(direct.invoke(question())["messages"]), dump(
            failing.invoke(question())["messages"]
        )

    assert_same(scenario)


def test_running_out_of_steps_answers_that_more_are_needed():
    def scenario(b):
        model = fake(*[ai("", ("add", {"a": i, "b": 1}, f"c{i}")) for i in range(6)])
        agent = react(b, model, [add])
        return dump(agent.invoke(question(), {"recursion_limit": 4})["messages"])

    assert_same(scenario)


def test_prompts_of_every_kind_reach_the_model():
    def scenario(b):
        seen = []

        class Recording(type(fake())):
            def _generate(self, messages, *args, **kwargs):
                seen.append([(m.type, m.content) for m in messages])
                return super()._generate(messages, *args, **kwargs)

        prompts = [
            None,
            "As text.",
            SystemMessage("As a system message."),
            lambda state: [SystemMessage("From a function.")] + state["messages"],
        ]
        for prompt in prompts:
            react(b, Recording(responses=[ai("ok")]), [add], prompt=prompt).invoke(question())
        return seen

    assert_same(scenario)


def test_hooks_and_structured_response():
    class Answer(BaseModel):
        value: int

    def scenario(b):
        calls = []

        def pre(state):
            calls.append("pre")
            return {"llm_input_messages": [SystemMessage("trimmed"), *state["messages"][-1:]]}

        def post(state):
            calls.append("post")
            return {}

        class Structured(type(fake())):
            def with_structured_output(self, schema, **kwargs):
                from langchain_core.runnables import RunnableLambda

                return RunnableLambda(lambda messages: schema(value=len(messages)))

        model = Structured(responses=[ai("", ("add", {"a": 1, "b": 1}, "c1")), ai("two")])
        agent = react(
            b, model, [add], pre_model_hook=pre, post_model_hook=post, response_format=Answer
        )
        result = agent.invoke(question())
        return dump(result["messages"]), result["structured_response"], calls, graph_shape(agent)

    assert_same(scenario)


def test_interrupt_before_tools_then_resume():
    def scenario(b):
        saver = b.mod("checkpoint.memory").InMemorySaver()
        model = fake(ai("", ("add", {"a": 5, "b": 5}, "c1")), ai("ten"))
        agent = react(b, model, [add], checkpointer=saver, interrupt_before=["tools"])
        config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        agent.invoke(question(), config)
        paused = agent.get_state(config).next
        return paused, dump(agent.invoke(None, config)["messages"])

    assert_same(scenario)


def test_async_agent_and_tools_condition():
    def scenario(b):
        model = fake(ai("", ("add", {"a": 1, "b": 1}, "c1")), ai("done"))
        agent = react(b, model, [add])
        result = asyncio.run(agent.ainvoke(question()))
        tools_condition = b.prebuilt.tools_condition
        routes = [
            tools_condition({"messages": [ai("", ("add", {}, "x"))]}),
            tools_condition([ai("no calls")]),
            tools_condition({"history": [ai("", ("add", {}, "x"))]}, messages_key="history"),
        ]
        try:
            tools_condition({"other": 1})
        except ValueError as exc:
            routes.append(str(exc))
        return dump(result["messages"]), routes

    assert_same(scenario)


def test_a_tool_node_used_directly_and_arguments_refused():
    def scenario(b):
        graph = b.graph.StateGraph(b.graph.MessagesState)
        graph.add_node("tools", b.prebuilt.ToolNode([add]))
        graph.add_edge(b.graph.START, "tools")
        out = graph.compile().invoke({"messages": [ai("", ("add", {"a": 3, "b": 4}, "c1"))]})
        errors = []
        for kwargs in ({"version": "v3"}, {"unknown_option": 1}):
            try:
                react(b, fake(ai("x")), [add], **kwargs)
            except (TypeError, ValueError) as exc:
                errors.append((type(exc).__name__, str(exc)))
        try:
            react(b, fake(ai("x")), [add], state_schema=dict).invoke(question())
        except Exception as exc:
            errors.append(type(exc).__name__)
        return dump(out["messages"][1:]), errors

    assert_same(scenario)


def test_a_history_with_an_unanswered_tool_call_is_refused():
    def scenario(b):
        agent = react(b, fake(ai("x")), [add])
        history = {"messages": [HumanMessage("q"), ai("", ("add", {"a": 1, "b": 1}, "dangling"))]}
        try:
            agent.invoke(history)
        except ValueError as exc:
            return str(exc).split("\n")[0][:60]
        return "accepted"

    assert_same(scenario)


def test_tool_messages_name_the_tool():
    def scenario(b):
        agent = react(b, fake(ai("", ("shout", {"text": "a"}, "c1")), ai("A")), [shout])
        messages = agent.invoke(question())["messages"]
        return [m.name for m in messages if isinstance(m, ToolMessage)]

    assert_same(scenario)


def test_a_tool_node_composes_as_a_runnable():
    from langchain_core.runnables import RunnableLambda

    def scenario(b):
        pick_messages = RunnableLambda(lambda state: state["messages"])
        tools = b.prebuilt.ToolNode([add]).with_config(tags=["tools"])
        graph = b.graph.StateGraph(b.graph.MessagesState)
        graph.add_node("tools", pick_messages | tools | (lambda ms: {"messages": ms}))
        graph.add_edge(b.graph.START, "tools")
        out = graph.compile().invoke({"messages": [ai("", ("add", {"a": 2, "b": 5}, "c1"))]})
        return dump(out["messages"][1:])

    assert_same(scenario)


def test_the_nodes_come_in_langgraph_order_with_every_hook():
    # the tools node sits right after the agent, before the hooks and the structured answer:
    # get_graph(), drawings and stream order follow it
    class Answer(BaseModel):
        value: int

    def scenario(b):
        agents = [
            react(b, fake(ai("ok")), [add], response_format=Answer),
            react(
                b, fake(ai("ok")), [add], pre_model_hook=lambda s: {}, post_model_hook=lambda s: {}
            ),
            react(b, fake(ai("ok")), [], pre_model_hook=lambda s: {}, response_format=Answer),
        ]
        return [(list(a.nodes), list(a.get_graph().nodes)) for a in agents]

    assert_same(scenario)
