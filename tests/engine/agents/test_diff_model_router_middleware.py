"""Differential tests: ModelRouterMiddleware (langchain 1.5, beta) lets a decision model pick
one of several named models per run, from the latest human message; the pick (a ChoiceAnswer)
is kept in the state and every model call of the run goes to that model."""

import asyncio
import inspect
import runpy
import warnings

import pytest
from langchain_core._api import LangChainBetaWarning
from langchain_core.decisions import BaseDecisionModel, ChoiceAnswer, ClassifierResponse
from langchain_core.messages import AIMessage, HumanMessage
from pydantic import Field, ValidationError

from tests.engine.agents.helpers import ai, fake, same

pytestmark = pytest.mark.differential


class PickRoute(BaseDecisionModel):
    """Chooses a fixed route (or fails) and keeps what it was shown."""

    model: str = "router"
    route: str = "fast"
    shown: list = Field(default_factory=list)

    @property
    def _provider(self) -> str:
        return "test"

    def _classify(self, state, questions):
        question = questions["model_route"]
        self.shown.append((state.content, question.instructions, question.criteria))
        if self.route == "fail":
            raise RuntimeError("router down")
        probabilities = {name: float(name == self.route) for name in question.criteria}
        answer = ChoiceAnswer(
            type="choice", choice=self.route, probabilities=probabilities, confidence=1.0
        )
        return ClassifierResponse(model=self.model, answers={"model_route": answer})


def _router(b, classifier):
    mw = b.middleware
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LangChainBetaWarning)
        return mw.ModelRouterMiddleware(
            choices={
                "fast": mw.ModelChoice(
                    model=fake(ai("from fast"), ai("fast again")), criteria="easy"
                ),
                "deep": mw.ModelChoice(model=fake(ai("from deep")), criteria={"for": "hard tasks"}),
            },
            instructions="Pick the cheapest model that can do it.",
            classifier=classifier,
        )


@pytest.mark.parametrize("run_async", [False, True])
@pytest.mark.parametrize("route", ["fast", "deep"])
def test_runs_go_to_the_chosen_model(agent_backend, route, run_async):
    def scenario(b):
        classifier = PickRoute(route=route)
        agent = b.agents.create_agent(fake(ai("from default")), middleware=[_router(b, classifier)])
        inputs = {"messages": [HumanMessage("first"), AIMessage("noted"), HumanMessage("task")]}
        out = asyncio.run(agent.ainvoke(inputs)) if run_async else agent.invoke(inputs)
        answer = out["model_route"]
        return out["messages"][-1].content, answer.choice, answer.probabilities, classifier.shown

    final, choice, probabilities, shown = same(agent_backend, scenario)
    assert final == f"from {route}" and choice == route and probabilities[route] == 1.0
    assert shown == [
        (
            "task",
            "Pick the cheapest model that can do it.",
            {"fast": "easy", "deep": {"for": "hard tasks"}},
        )
    ]


def test_beta_warning_validation_and_failures(agent_backend):
    def scenario(b):
        out = []
        # a fresh copy of the module: the beta warning is given once per class
        fresh = runpy.run_path(inspect.getfile(b.middleware.ModelRouterMiddleware))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", LangChainBetaWarning)
            for _ in range(2):
                fresh["ModelRouterMiddleware"](
                    choices={"only": fresh["ModelChoice"](model=fake(ai("x")), criteria="all")},
                    instructions="Choose.",
                    classifier=PickRoute(route="only"),
                )
        out.append([str(w.message) for w in caught if w.category is LangChainBetaWarning])
        try:
            b.middleware.ModelRouterMiddleware(
                choices={}, instructions="Choose.", classifier=PickRoute()
            )
        except ValidationError as exc:
            out.append(exc.error_count())
        for inputs, route in (
            ({"messages": [AIMessage("no human")]}, "fast"),
            ({"messages": [HumanMessage("go")]}, "fail"),
        ):
            agent = b.agents.create_agent(
                fake(ai("x")), middleware=[_router(b, PickRoute(route=route))]
            )
            try:
                agent.invoke(inputs)
            except (ValueError, RuntimeError) as exc:
                out.append((type(exc).__name__, str(exc)))
        return out

    beta, invalid, no_human, failed = same(agent_backend, scenario)
    assert len(beta) == 1 and "ModelRouterMiddleware` is in beta" in beta[0] and invalid == 1
    assert no_human[0] == "ValueError" and failed == ("RuntimeError", "router down")
