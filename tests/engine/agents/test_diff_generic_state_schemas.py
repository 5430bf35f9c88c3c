"""Differential test: the prebuilt middleware's state schemas are generic in the structured
response type, like AgentState: `PlanningState[Answer]` subscripts, can be subclassed and used as
an agent's state_schema (langchain 1.5 declares them `AgentState[ResponseT]`)."""

import importlib
from typing import Any

import pytest
from pydantic import BaseModel

from tests.engine.agents.helpers import ai, fake, same

pytestmark = pytest.mark.differential

SCHEMAS = [
    ("todo", "PlanningState"),
    ("shell_tool", "ShellToolState"),
    ("model_call_limit", "ModelCallLimitState"),
    ("tool_call_limit", "ToolCallLimitState"),
    ("human_in_the_loop", "_HumanInTheLoopState"),
]


class Answer(BaseModel):
    text: str


def _schema(b, module: str, name: str):
    package = "langchain" if b.prefix == "langgraph" else "engine"
    return getattr(importlib.import_module(f"{package}.agents.middleware.{module}"), name)


@pytest.mark.parametrize(("module", "name"), SCHEMAS)
def test_state_schema_is_generic_in_response_type(agent_backend, module, name):
    def scenario(b):
        schema = _schema(b, module, name)
        state = schema[Any](messages=[])
        return len(schema.__parameters__), state, schema[Answer].__origin__ is schema

    count, state, origin = same(agent_backend, scenario)
    assert (count, state, origin) == (1, {"messages": []}, True)


def test_subscripted_planning_state_as_agent_state_schema(agent_backend):
    def scenario(b):
        class Planned(_schema(b, "todo", "PlanningState")[Answer]):
            topic: str

        agent = b.agents.create_agent(fake(ai("ok")), [], state_schema=Planned)
        out = agent.invoke({"messages": [{"role": "user", "content": "hi"}], "topic": "t"})
        return out["topic"], out["messages"][-1].content

    assert same(agent_backend, scenario) == ("t", "ok")
