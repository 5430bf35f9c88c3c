"""Differential tests: LLMToolEmulator (langchain 1.5) on engine.agents and langchain.agents:
which calls a model answers instead of the tool, and what it is asked (issue 31)."""

import asyncio
import warnings

import pytest
from pydantic import Field

from tests.engine.agents.helpers import FakeToolModel, add, ai, dump, explode, same, shout

pytestmark = pytest.mark.differential

USER = {"messages": [{"role": "user", "content": "go"}]}
# one call a turn: parallel calls would ask the emulator in any order
CALLS = [
    ai("", ("explode", {"x": 1}, "c1")),
    ai("", ("add", {"a": 1, "b": 2}, "c2")),
    ai("", ("shout", {"text": "hi"}, "c3")),
]


class Emulator(FakeToolModel):
    asked: list = Field(default_factory=list)

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        self.asked.append([m.content for m in messages])
        return super()._generate(messages, stop, run_manager, **kwargs)


@pytest.mark.parametrize("tools", [None, ["explode", "shout"], "instances", []], ids=str)
@pytest.mark.parametrize("asynchronous", [False, True])
def test_emulated_calls(agent_backend, tools, asynchronous):
    def scenario(b):
        emulator = Emulator(
            responses=[ai("emulated one"), ai("emulated two"), ai("emulated three")]
        )
        chosen = [explode, shout] if tools == "instances" else tools
        mw = b.middleware.LLMToolEmulator(tools=chosen, model=emulator)
        agent = b.agents.create_agent(
            FakeToolModel(responses=[*CALLS, ai("done")]), [explode, add, shout], middleware=[mw]
        )
        try:
            out = asyncio.run(agent.ainvoke(USER)) if asynchronous else agent.invoke(USER)
        except RuntimeError as exc:  # explode ran for real
            return ("raised", str(exc)), emulator.asked
        return dump(out["messages"]), emulator.asked

    out, asked = same(agent_backend, scenario)
    if tools == []:
        assert out == ("raised", "boom 1") and asked == []
    else:
        assert asked[0][0].startswith(
            "You are emulating a tool call for testing purposes.\n\nTool: explode"
        )


def test_the_default_model_is_deprecated(agent_backend):
    def scenario(b):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                b.middleware.LLMToolEmulator(tools=["add"])
            except Exception as exc:  # no API key: the warning came first
                return [str(w.message) for w in caught if w.category is DeprecationWarning], type(
                    exc
                ).__name__
        return [str(w.message) for w in caught if w.category is DeprecationWarning], None

    messages, _ = same(agent_backend, scenario)
    assert (
        messages
        and "default model ('anthropic:claude-sonnet-4-5-20250929') is deprecated" in messages[0]
    )
