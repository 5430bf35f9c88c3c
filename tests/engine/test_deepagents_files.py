"""Deep Agents' filesystem tools over the state backend, on the engine and on langgraph: the
same messages, files and history (tests/engine/deepagents_helpers.py)."""

from __future__ import annotations

import pytest
from langchain_core.messages import HumanMessage

from tests.engine.deepagents_helpers import ai, assert_same_deep, checkpoint_shapes, model

pytestmark = pytest.mark.differential

CONFIG = {"configurable": {"thread_id": "t"}}


def _edit(path: str, old: str, new: str, call_id: str) -> tuple:
    return ("edit_file", {"file_path": path, "old_string": old, "new_string": new}, call_id)


def _file_session() -> list:
    return [
        ai("", ("write_file", {"file_path": "/notes.txt", "content": "hello\nworld\n"}, "c1")),
        ai("", ("read_file", {"file_path": "/notes.txt"}, "c2")),
        ai("", _edit("/notes.txt", "world", "there", "c3")),
        ai(
            "",
            ("write_file", {"file_path": "/src/app.py", "content": "print('there')\n"}, "c4"),
            ("write_file", {"file_path": "/src/util.py", "content": "X = 1\n"}, "c5"),
        ),
        ai(
            "",
            ("ls", {"path": "/"}, "c6"),
            ("glob", {"pattern": "**/*.py"}, "c7"),
            ("grep", {"pattern": "there", "output_mode": "content"}, "c8"),
        ),
        ai("", ("read_file", {"file_path": "/missing.txt"}, "c9")),
        ai("", _edit("/notes.txt", "nope", "x", "c10")),  # not found: a tool error
        ai("done"),
    ]


def test_file_tools_on_state_backend():
    def scenario():
        from deepagents import create_deep_agent
        from langgraph.checkpoint.memory import InMemorySaver

        agent = create_deep_agent(model=model(*_file_session()), checkpointer=InMemorySaver())
        out = agent.invoke({"messages": [HumanMessage("organise my notes")]}, CONFIG)
        history = [
            (s.metadata["step"], s.next, sorted(s.values.get("files", {})))
            for s in agent.get_state_history(CONFIG)
        ]
        return out, history

    out, _ = assert_same_deep(scenario)
    assert sorted(out["files"]) == ["/notes.txt", "/src/app.py", "/src/util.py"]
    assert "there" in str(out["files"]["/notes.txt"]["content"])
    assert out["messages"][-1].content == "done"
    # DeltaChannel's reducer gives no ids: the loop stamps them on the writes, as langgraph's
    assert all(m.id for m in out["messages"])


def test_files_given_on_input_and_read_back():
    def scenario():
        from deepagents import create_deep_agent
        from deepagents.backends.utils import create_file_data

        agent = create_deep_agent(
            model=model(
                ai("", ("read_file", {"file_path": "/in.md", "offset": 1, "limit": 1}, "r1")),
                ai("", ("grep", {"pattern": "b", "path": "/"}, "r2")),
                ai("ok"),
            )
        )
        files = {"/in.md": create_file_data("a\nb\nc\n")}
        return agent.invoke({"messages": [HumanMessage("read")], "files": files})

    out = assert_same_deep(scenario)
    assert "b" in out["messages"][2].content


def test_stream_updates_and_checkpoints_of_a_file_session():
    def scenario():
        from deepagents import create_deep_agent
        from langgraph.checkpoint.memory import InMemorySaver

        saver = InMemorySaver()
        agent = create_deep_agent(model=model(*_file_session()), checkpointer=saver)
        parts = [
            (mode, sorted(chunk) if isinstance(chunk, dict) else chunk)
            for mode, chunk in agent.stream(
                {"messages": [HumanMessage("go")]}, CONFIG, stream_mode=["updates", "tasks"]
            )
            if mode == "updates" or chunk.get("name")
        ]
        return parts, checkpoint_shapes(saver, CONFIG)

    assert_same_deep(scenario)


def test_the_engine_world_builds_engine_graphs():
    """The comparison means something: on the engine, deepagents' graph and its delta channels
    are the engine's classes, and langgraph's own outside."""

    def scenario():
        from deepagents import create_deep_agent

        agent = create_deep_agent(model=model(ai("hi")))
        return type(agent).__module__, type(agent.channels["messages"]).__module__

    from tests.engine_imports import run_on_both

    on_langgraph, on_engine = run_on_both(scenario)
    assert on_langgraph == ("langgraph.graph.state", "langgraph.channels.delta")
    assert on_engine == ("engine.graph.compiled", "engine.channels.delta")
