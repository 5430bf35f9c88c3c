"""Deep Agents' subagents, to-do list, human review and store backend on the engine and on
langgraph: the same messages, files, to-dos, interrupts and store items."""

from __future__ import annotations

import pytest
from langchain_core.messages import HumanMessage

from tests.engine.deepagents_helpers import ai, assert_same_deep, model

pytestmark = pytest.mark.differential


def _config(thread: str = "t") -> dict:
    return {"configurable": {"thread_id": thread}}


def test_task_tool_runs_a_subagent_and_returns_its_answer():
    def scenario():
        from deepagents import create_deep_agent
        from langgraph.checkpoint.memory import InMemorySaver

        researcher = {
            "name": "researcher",
            "description": "Finds facts and writes them down.",
            "system_prompt": "You research.",
            "model": model(
                ai(
                    "", ("write_file", {"file_path": "/facts.md", "content": "- sky: blue\n"}, "s1")
                ),
                ai("The sky is blue; noted in /facts.md."),
            ),
        }
        main = model(
            ai(
                "",
                (
                    "task",
                    {"description": "What colour is the sky?", "subagent_type": "researcher"},
                    "t1",
                ),
            ),
            ai("", ("read_file", {"file_path": "/facts.md"}, "r1")),
            ai("Blue."),
        )
        agent = create_deep_agent(model=main, subagents=[researcher], checkpointer=InMemorySaver())
        namespaces = []
        for ns, chunk in agent.stream(
            {"messages": [HumanMessage("sky?")]},
            _config(),
            stream_mode="updates",
            subgraphs=True,
        ):
            namespaces.append((tuple(n.split(":")[0] for n in ns), sorted(chunk)))
        state = agent.get_state(_config())
        return state.values, namespaces

    values, namespaces = assert_same_deep(scenario)
    assert values["messages"][2].content == "The sky is blue; noted in /facts.md."
    assert "/facts.md" in values["files"]
    assert (("tools",), ["model"]) in namespaces


def test_unknown_subagent_type_is_a_tool_error():
    def scenario():
        from deepagents import create_deep_agent

        main = model(
            ai("", ("task", {"description": "x", "subagent_type": "nobody"}, "t1")),
            ai("ok"),
        )
        return create_deep_agent(model=main).invoke({"messages": [HumanMessage("go")]})

    out = assert_same_deep(scenario)
    assert "nobody" in out["messages"][2].content


def test_write_todos_updates_the_list():
    # deepagents 0.7 offers write_todos when the caller adds langchain's to-do middleware
    def scenario():
        from deepagents import create_deep_agent
        from langchain.agents.middleware import TodoListMiddleware

        first = [
            {"content": "Read the brief", "status": "in_progress"},
            {"content": "Write the summary", "status": "pending"},
        ]
        second = [
            {"content": "Read the brief", "status": "completed"},
            {"content": "Write the summary", "status": "in_progress"},
        ]
        main = model(
            ai("", ("write_todos", {"todos": first}, "w1")),
            ai("", ("write_todos", {"todos": second}, "w2")),
            ai("working"),
        )
        agent = create_deep_agent(model=main, middleware=[TodoListMiddleware()])
        todos = [
            chunk[node]["todos"]
            for chunk in agent.stream({"messages": [HumanMessage("plan")]}, stream_mode="updates")
            for node in chunk
            if isinstance(chunk[node], dict) and "todos" in chunk[node]
        ]
        return todos

    todos = assert_same_deep(scenario)
    assert [t["status"] for t in todos[-1]] == ["completed", "in_progress"]


@pytest.mark.parametrize(
    "decision",
    [
        {"type": "approve"},
        {"type": "reject", "message": "not there"},
        {
            "type": "edit",
            "edited_action": {
                "name": "write_file",
                "args": {"file_path": "/ok.txt", "content": "edited"},
            },
        },
    ],
    ids=["approve", "reject", "edit"],
)
def test_interrupt_on_a_tool_and_resume(decision):
    def scenario():
        from deepagents import create_deep_agent
        from langgraph.checkpoint.memory import InMemorySaver
        from langgraph.types import Command

        main = model(
            ai("", ("write_file", {"file_path": "/x.txt", "content": "draft"}, "w1")),
            ai("finished"),
        )
        agent = create_deep_agent(
            model=main, interrupt_on={"write_file": True}, checkpointer=InMemorySaver()
        )
        first = agent.invoke({"messages": [HumanMessage("write")]}, _config())
        paused = agent.get_state(_config())
        second = agent.invoke(Command(resume={"decisions": [decision]}), _config())
        return first, paused.next, [i.value for i in paused.interrupts], second

    first, next_nodes, interrupts, second = assert_same_deep(scenario)
    assert "__interrupt__" in first
    assert interrupts[0]["action_requests"][0]["name"] == "write_file"
    assert second["messages"][-1].content == "finished"


def test_store_backend_keeps_files_across_threads():
    def scenario():
        from deepagents import create_deep_agent
        from deepagents.backends import StoreBackend
        from langgraph.checkpoint.memory import InMemorySaver
        from langgraph.store.memory import InMemoryStore

        store = InMemoryStore()
        main = model(
            ai("", ("write_file", {"file_path": "/memo.md", "content": "remember me"}, "w1")),
            ai("saved"),
            ai("", ("read_file", {"file_path": "/memo.md"}, "r1")),
            ai("", ("ls", {"path": "/"}, "l1")),
            ai("found it"),
        )
        agent = create_deep_agent(
            model=main,
            backend=StoreBackend(namespace=lambda runtime: ("memories",)),
            store=store,
            checkpointer=InMemorySaver(),
        )
        one = agent.invoke({"messages": [HumanMessage("save")]}, _config("a"))
        two = agent.invoke({"messages": [HumanMessage("recall")]}, _config("b"))
        items = [(i.namespace, i.key, i.value) for i in store.search(("memories",))]
        return one, two, items

    one, two, items = assert_same_deep(scenario)
    assert "files" not in one or not one["files"]
    assert "remember me" in two["messages"][2].content
    assert [i[1] for i in items] == ["/memo.md"]


def _long_conversation() -> list:
    from langchain_core.messages import AIMessage

    text = "The quarterly report covers revenue, costs and hiring in detail. " * 100
    return [
        HumanMessage(text, id="h1"),
        AIMessage(text, id="a1"),
        HumanMessage(text, id="h2"),
        AIMessage("noted", id="a2"),
        HumanMessage("What changed?", id="h3"),
    ]


def test_summarization_triggers_past_the_models_context_fraction():
    def scenario():
        from deepagents import create_deep_agent
        from langgraph.checkpoint.memory import InMemorySaver

        main = model(
            ai("Summary: revenue, costs, hiring."),  # the summary call
            ai("Costs went down."),
            ai("(not reached)"),
            profile={"max_input_tokens": 8000},
        )
        agent = create_deep_agent(model=main, checkpointer=InMemorySaver())
        out = agent.invoke({"messages": _long_conversation()}, _config())
        state = agent.get_state(_config())
        return out, state.values.get("_summarization_event"), main.i

    out, event, calls = assert_same_deep(scenario)
    assert calls == 2  # the summary, then the answer
    # deepagents keeps the messages and records the summary beside them, the evicted
    # history offloaded to a file
    assert out["messages"][-1].content == "Costs went down."
    assert event is not None and "revenue" in str(event)
    assert any(p.startswith("/conversation_history/") for p in out["files"])


def test_async_run_with_files_subagent_and_review():
    """ainvoke takes deepagents' async paths (awrap_model_call, async tools and backends)."""

    def scenario():
        import asyncio

        from deepagents import create_deep_agent
        from langgraph.checkpoint.memory import InMemorySaver
        from langgraph.types import Command

        helper = {
            "name": "helper",
            "description": "Writes drafts.",
            "system_prompt": "You draft.",
            "model": model(
                ai("", ("write_file", {"file_path": "/draft.md", "content": "v1"}, "h1")),
                ai("drafted"),
            ),
        }
        main = model(
            ai("", ("task", {"description": "draft it", "subagent_type": "helper"}, "t1")),
            ai(
                "",
                (
                    "edit_file",
                    {"file_path": "/draft.md", "old_string": "v1", "new_string": "v2"},
                    "e1",
                ),
            ),
            ai("", ("ls", {"path": "/"}, "l1")),
            ai("done"),
        )
        agent = create_deep_agent(
            model=main,
            subagents=[helper],
            interrupt_on={"edit_file": True},
            checkpointer=InMemorySaver(),
        )

        async def run():
            first = await agent.ainvoke({"messages": [HumanMessage("go")]}, _config())
            second = await agent.ainvoke(
                Command(resume={"decisions": [{"type": "approve"}]}), _config()
            )
            return first, second

        return asyncio.run(run())

    first, second = assert_same_deep(scenario)
    assert "__interrupt__" in first
    assert second["files"]["/draft.md"]["content"] in ("v2", ["v2"])
    assert second["messages"][-1].content == "done"


def test_messages_stream_of_a_subagent_run():
    def scenario():
        from deepagents import create_deep_agent

        helper = {
            "name": "helper",
            "description": "Answers.",
            "system_prompt": "You answer.",
            "model": model(ai("forty-two")),
        }
        main = model(
            ai("", ("task", {"description": "answer", "subagent_type": "helper"}, "t1")),
            ai("It is forty-two."),
        )
        agent = create_deep_agent(model=main, subagents=[helper])
        return [
            (
                tuple(n.split(":")[0] for n in ns),
                type(message).__name__,
                message.content,
                meta.get("langgraph_node"),
                meta.get("langgraph_step"),
                meta.get("lc_agent_name"),
            )
            for ns, (message, meta) in agent.stream(
                {"messages": [HumanMessage("?")]}, stream_mode="messages", subgraphs=True
            )
        ]

    parts = assert_same_deep(scenario)
    assert (("tools",), "AIMessage", "forty-two", "model", 2, "helper") in parts
