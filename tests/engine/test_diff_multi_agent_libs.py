"""langgraph-supervisor and langgraph-swarm, unchanged, on the engine and on langgraph: the
quickstarts of their READMEs with scripted models give the same messages, update streams
(subgraphs included) and checkpoints (issue 31). On the engine they load their engine-world
copies (graphspec.engine_world), whose private langgraph imports resolve to engine._internal."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.messages import HumanMessage

from tests.engine.deepagents_helpers import ai, assert_same_deep, model

pytestmark = pytest.mark.differential


def _config(thread: str = "t") -> dict:
    return {"configurable": {"thread_id": thread}}


def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


def web_search(query: str) -> str:
    """Search the web for information."""
    return f"Meta has 67,317 employees ({query})."


def _history(app, config: dict) -> list[tuple]:
    """Per checkpoint, newest first: step, source, next nodes, the message count."""
    return [
        (s.metadata["step"], s.metadata["source"], s.next, len(s.values.get("messages", [])))
        for s in app.get_state_history(config)
    ]


def _supervisor():
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.prebuilt import create_react_agent
    from langgraph_supervisor import create_supervisor

    research = create_react_agent(
        model=model(ai("", ("web_search", {"query": "Meta"}, "w1")), ai("Meta: 67,317.")),
        tools=[web_search],
        name="research_expert",
        prompt="You research.",
    )
    math = create_react_agent(
        model=model(ai("", ("add", {"a": 67317, "b": 1}, "a1")), ai("67,318.")),
        tools=[add],
        name="math_expert",
        prompt="You add.",
    )
    boss = model(
        ai("", ("transfer_to_research_expert", {}, "h1")),
        ai("", ("transfer_to_math_expert", {}, "h2")),
        ai("Meta's headcount plus one is 67,318."),
    )
    workflow = create_supervisor([research, math], model=boss, prompt="You manage experts.")
    return workflow.compile(checkpointer=InMemorySaver())


QUESTION = {"messages": [HumanMessage("Meta's headcount plus one?", id="q")]}


def test_supervisor_quickstart_streams_and_checkpoints_the_same():
    def scenario():
        app = _supervisor()
        updates = [
            (tuple(part.split(":")[0] for part in ns), sorted(chunk))
            for ns, chunk in app.stream(QUESTION, _config(), stream_mode="updates", subgraphs=True)
        ]
        state = app.get_state(_config())
        return state.values, state.next, updates, _history(app, _config())

    values, _, updates, history = assert_same_deep(scenario)
    assert values["messages"][-1].content == "Meta's headcount plus one is 67,318."
    assert ((), ["research_expert"]) in updates and (("math_expert",), ["tools"]) in updates
    assert len(history) > 4


def test_supervisor_runs_its_agents_async():
    """Each agent node is the library's RunnableCallable(call_agent, acall_agent): ainvoke
    runs the async body."""

    def scenario():
        app = _supervisor()
        out = asyncio.run(app.ainvoke(QUESTION, _config("async")))
        return out, _history(app, _config("async"))

    out, _ = assert_same_deep(scenario)
    assert [m.name for m in out["messages"] if m.type == "ai"][-1] == "supervisor"


def test_swarm_quickstart_hands_off_and_remembers_the_active_agent():
    def scenario():
        from langchain.agents import create_agent
        from langgraph.checkpoint.memory import InMemorySaver
        from langgraph_swarm import create_handoff_tool, create_swarm

        alice = create_agent(
            model(ai("", ("transfer_to_bob", {}, "t1")), ai("", ("add", {"a": 5, "b": 7}, "a1")),
                  ai("5 + 7 is 12.")),
            [add, create_handoff_tool(agent_name="Bob")],
            system_prompt="You are Alice, an addition expert.",
            name="Alice",
        )  # fmt: skip
        bob = create_agent(
            model(ai("Ahoy, Bob here."), ai("", ("transfer_to_alice", {}, "t2"))),
            [create_handoff_tool(agent_name="Alice", description="Transfer to Alice")],
            system_prompt="You are Bob, you speak like a pirate.",
            name="Bob",
        )
        app = create_swarm([alice, bob], default_active_agent="Alice").compile(
            checkpointer=InMemorySaver()
        )
        turns = []
        for text in ("i'd like to speak to Bob", "what's 5 + 7?"):
            updates = [
                (tuple(part.split(":")[0] for part in ns), sorted(chunk))
                for ns, chunk in app.stream(
                    {"messages": [HumanMessage(text)]},
                    _config(),
                    stream_mode="updates",
                    subgraphs=True,
                )
            ]
            state = app.get_state(_config())
            turns.append((state.values, updates))
        return turns, _history(app, _config())

    turns, history = assert_same_deep(scenario)
    assert turns[0][0]["active_agent"] == "Bob" and turns[1][0]["active_agent"] == "Alice"
    assert turns[1][0]["messages"][-1].content == "5 + 7 is 12."
    assert history[0][:3] == (history[0][0], "loop", ())
