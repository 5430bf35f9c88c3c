"""A program built on deepagents, opened on the engine (as the studio opens a .py): deepagents
loads its engine-world copy, so the graph is the engine's and runs as on langgraph, while the
process's own langgraph and deepagents stay untouched."""

from __future__ import annotations

import sys
import textwrap

import pytest

from graphspec.engine_world import on_engine
from graphspec.importer import load_module
from tests.engine.deepagents_helpers import normalize_deep

PROGRAM = textwrap.dedent(
    """
    from deepagents import create_deep_agent
    from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
    from langchain_core.messages import AIMessage
    from langgraph.checkpoint.memory import InMemorySaver


    class Scripted(FakeMessagesListChatModel):
        def bind_tools(self, tools, **kwargs):
            return self


    def call(name, args, call_id):
        return AIMessage("", tool_calls=[{"name": name, "args": args, "id": call_id}])


    model = Scripted(responses=[
        call("write_file", {"file_path": "/plan.md", "content": "1. read"}, "w1"),
        call("read_file", {"file_path": "/plan.md"}, "r1"),
        AIMessage("planned"),
    ])
    agent = create_deep_agent(model=model, checkpointer=InMemorySaver())
    """
)


def _run(module) -> dict:
    config = {"configurable": {"thread_id": "t"}}
    return module.agent.invoke({"messages": [("user", "plan it")]}, config)


@pytest.fixture
def program(tmp_path):
    path = tmp_path / "deep_program.py"
    path.write_text(PROGRAM, encoding="utf-8")
    yield path
    sys.modules.pop("deep_program", None)


def test_a_deepagents_program_opens_and_runs_on_the_engine(program):
    before = {k: v for k, v in sys.modules.items() if k.startswith(("deepagents", "langgraph."))}
    on_engine_module = load_module(str(program), on_engine=True)
    assert type(on_engine_module.agent).__module__ == "engine.graph.compiled"
    assert type(on_engine_module.agent.channels["files"]).__module__ == "engine.channels.delta"
    engine_out = _run(on_engine_module)
    # the process's own modules are as they were
    after = {k: v for k, v in sys.modules.items() if k.startswith(("deepagents", "langgraph."))}
    assert after == before

    on_langgraph = load_module(str(program))
    assert type(on_langgraph.agent).__module__ == "langgraph.graph.state"
    assert normalize_deep(engine_out) == normalize_deep(_run(on_langgraph))
    assert engine_out["messages"][-1].content == "planned"
    assert "/plan.md" in engine_out["files"]


def test_nested_uses_share_one_world():
    with on_engine():
        import deepagents.graph as outer

        with on_engine():
            import deepagents.graph as inner
        assert inner is outer
        assert sys.modules["langgraph.channels.delta"].__name__ == "engine.channels.delta"
    assert sys.modules.get("deepagents.graph") is not outer
