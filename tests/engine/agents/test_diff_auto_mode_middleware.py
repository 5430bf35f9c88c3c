"""Differential tests: AutoModeMiddleware (langchain 1.5, beta) asks a decision model whether a
guarded tool call is risky; at probability >= 0.5 the call is answered with an error ToolMessage
and the tool does not run."""

import asyncio

import pytest
from langchain_core.decisions import BaseDecisionModel, ClassifierResponse, NoulAnswer
from langchain_core.messages import HumanMessage
from langchain_core.tools import tool
from pydantic import Field, ValidationError

from tests.engine.agents.helpers import ai, dump, fake, same

pytestmark = pytest.mark.differential


class FixedRisk(BaseDecisionModel):
    """Answers every question with the same probability and keeps what it was asked."""

    model: str = "fixed"
    probability: float = 0.0
    asked: list = Field(default_factory=list)

    @property
    def _provider(self) -> str:
        return "test"

    def _classify(self, state, questions):
        self.asked.append((state, {k: (q.instructions, q.criteria) for k, q in questions.items()}))
        if self.probability < 0:
            raise RuntimeError("classifier down")
        return ClassifierResponse(
            model=self.model, answers={"is_risky": NoulAnswer(type="noul", noul=self.probability)}
        )


def _agent(b, risk, ran, guarded=None, history=()):
    @tool
    def wipe(path: str) -> str:
        """Remove the file at path."""
        ran.append(path)
        return "wiped"

    mw = b.middleware.AutoModeMiddleware(tools=guarded or [wipe], classifier=risk)
    model = fake(ai("", ("wipe", {"path": "/tmp/x"}, "w1")), ai("done"))
    agent = b.agents.create_agent(model, [wipe], middleware=[mw])
    return agent, {"messages": [*history, HumanMessage("clean up")]}


@pytest.mark.parametrize("run_async", [False, True])
@pytest.mark.parametrize("probability", [0.49, 0.5])
def test_blocks_at_threshold_and_reports_probability(agent_backend, probability, run_async):
    def scenario(b):
        ran, risk = [], FixedRisk(probability=probability)
        agent, inputs = _agent(b, risk, ran)
        out = asyncio.run(agent.ainvoke(inputs)) if run_async else agent.invoke(inputs)
        state, questions = risk.asked[0]
        return dump(out["messages"]), ran, state["tool_call"], state["tool_description"], questions

    messages, ran, call, description, questions = same(agent_backend, scenario)
    assert (messages[2][5], ran) == (
        ("success", ["/tmp/x"]) if probability < 0.5 else ("error", [])
    )
    assert call == {"id": "w1", "name": "wipe", "args": {"path": "/tmp/x"}}
    assert description == "Remove the file at path." and questions["is_risky"][1] is None


def test_unlisted_tools_context_window_and_failures(agent_backend):
    def scenario(b):
        out = []
        ran, risk = [], FixedRisk(probability=0.9)
        agent, inputs = _agent(b, risk, ran, guarded=["other"])
        out.append((dump(agent.invoke(inputs)["messages"])[2], ran, risk.asked))
        risk = FixedRisk(probability=0.9)
        agent, inputs = _agent(b, risk, [], history=[HumanMessage(f"m{i}") for i in range(40)])
        agent.invoke(inputs)
        seen = risk.asked[0][0]["messages"]
        out.append((len(seen), seen[0].content, seen[-1].type))
        ran = []
        agent, inputs = _agent(b, FixedRisk(probability=-1), ran)
        try:
            agent.invoke(inputs)
        except RuntimeError as exc:
            out.append((str(exc), ran))
        for bad in ([], "wipe"):
            try:
                b.middleware.AutoModeMiddleware(tools=bad, classifier=FixedRisk())
            except ValidationError as exc:
                out.append(exc.error_count())
        return out

    bypass, window, failure, *invalid = same(agent_backend, scenario)
    assert bypass[1:] == (["/tmp/x"], [])
    assert window == (30, "m12", "ai")
    assert failure == ("classifier down", []) and len(invalid) == 2
