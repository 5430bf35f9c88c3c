"""Differential test: with a plain schema as response_format and no model profile, the model's
name decides between provider-native structured output and the tool strategy, by langchain's
list of model families (a family's variants may or may not qualify: gpt-5.2-pro does not)."""

from typing import Any

import pytest
from langchain_core.messages import AIMessage
from pydantic import BaseModel

from tests.engine.agents.helpers import FakeToolModel, same

pytestmark = pytest.mark.differential

NAMES = [
    "gpt-5.5", "openai:gpt-5.5-mini", "gpt-6-sol", "gpt-6-nova", "gpt-5.2", "gpt-5.2-2025-12-11",
    "gpt-5.2-pro", "gpt-5.2-codex", "gpt-5.4-nano", "gpt-5.4-pro", "gpt-5.3", "gpt-4o-mini",
    "claude-opus-4-8", "claude-opus-4-1", "claude-sonnet-4-6-20260101",
    "us.anthropic.claude-haiku-4-5-20251001-v1:0", "claude-mythos-5", "claude-sonnet-4-5-extra",
    "grok-4.1", "grok-build", "grok-3", "llama-3.3-70b",
]  # fmt: skip


class Answer(BaseModel):
    city: str


class NamedModel(FakeToolModel):
    """A fake chat model with a model name and no profile; keeps how it was bound."""

    model_name: str = ""
    bound: list = []

    def bind_tools(self, tools: Any, **kwargs: Any) -> "NamedModel":
        self.bound.append(sorted(getattr(t, "name", None) or t.get("title", "?") for t in tools))
        return self

    def _generate(self, *args: Any, **kwargs: Any) -> Any:
        # the tool strategy asks again when the answer has no tool call: stop it there
        self.bound.append("call")
        if self.bound.count("call") > 1:
            raise LookupError("asked twice")
        return super()._generate(*args, **kwargs)


def test_strategy_follows_model_family(agent_backend):
    def scenario(b):
        chosen = {}
        for name in NAMES:
            model = NamedModel(responses=[AIMessage('{"city": "Oslo"}')], model_name=name, bound=[])
            agent = b.agents.create_agent(model, [], response_format=Answer)
            try:
                out = agent.invoke({"messages": [{"role": "user", "content": "where?"}]})
                chosen[name] = ("native", out["structured_response"].city)
            except LookupError:  # the tool strategy found no tool call and asked again
                chosen[name] = ("tool", model.bound[0])
        return chosen

    chosen = same(agent_backend, scenario)
    assert chosen["gpt-6-sol"][0] == "native" and chosen["gpt-5.2-pro"][0] == "tool"
