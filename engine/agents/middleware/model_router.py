"""ModelRouterMiddleware (beta): a decision model picks, once per run, which of several named
models answers; every model call of the run then goes to that model.

The pick is made on the latest human message before the agent starts, and the whole
ChoiceAnswer (with its probabilities) is kept in the state under `model_route`. A classifier
failure ends the run rather than falling back to some other model.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, NotRequired

from langchain_core._api import beta
from langchain_core.decisions import BaseDecisionModel, Choice, ChoiceAnswer, Content, Question
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from pydantic import BaseModel, ConfigDict, Field, JsonValue

from engine.agents.chat_models import init_chat_model
from engine.agents.middleware.types import AgentMiddleware, AgentState, ModelRequest, ModelResponse
from engine.types import TracePolicy, omit_payload

ROUTE_QUESTION = "model_route"


@dataclass(frozen=True)
class ModelChoice:
    """One route: a chat model (or an init_chat_model string) and when it suits."""

    model: str | BaseChatModel
    criteria: JsonValue


class ModelRouterConfig(BaseModel):
    """The validated settings: at least one named choice."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    choices: dict[str, ModelChoice] = Field(min_length=1)
    instructions: Content


def _routing_questions(config: ModelRouterConfig) -> dict[str, Question]:
    """The question put to the classifier: a Choice among the routes, by their criteria."""
    criteria = {route: choice.criteria for route, choice in config.choices.items()}
    return {ROUTE_QUESTION: Choice(instructions=config.instructions, criteria=criteria)}


class ModelRouterState(AgentState):
    model_route: NotRequired[ChoiceAnswer]


def _latest_human(state: Mapping[str, Any]) -> HumanMessage:
    found = next((m for m in reversed(state["messages"]) if isinstance(m, HumanMessage)), None)
    if found is None:
        raise ValueError(
            "ModelRouterMiddleware requires a HumanMessage in the agent state to route on."
        )
    return found


@beta(obj_type="middleware")
class ModelRouterMiddleware(AgentMiddleware):
    """Route the run's model calls to the model a decision model chose for the latest task."""

    state_schema = ModelRouterState
    trace_policy = TracePolicy(process_inputs=omit_payload)

    def __init__(
        self,
        *,
        choices: Mapping[str, ModelChoice],
        instructions: Content,
        classifier: BaseDecisionModel,
    ) -> None:
        self.config = ModelRouterConfig.model_validate(
            {"choices": choices, "instructions": instructions}
        )
        # model strings are turned into models once, here, not on every call
        self.models = {
            route: init_chat_model(c.model) if isinstance(c.model, str) else c.model
            for route, c in self.config.choices.items()
        }
        self.classifier = classifier

    def _question(self, state: Mapping[str, Any]) -> dict[str, Any]:
        return {"state": _latest_human(state), "questions": _routing_questions(self.config)}

    def before_agent(self, state: Any, runtime: Any) -> dict[str, ChoiceAnswer]:
        return {
            "model_route": self.classifier.invoke(self._question(state)).choices[ROUTE_QUESTION]
        }

    async def abefore_agent(self, state: Any, runtime: Any) -> dict[str, ChoiceAnswer]:
        response = await self.classifier.ainvoke(self._question(state))
        return {"model_route": response.choices[ROUTE_QUESTION]}

    def _routed(self, request: ModelRequest) -> ModelRequest:
        return request.override(model=self.models[request.state["model_route"].choice])

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        return handler(self._routed(request))

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelResponse:
        return await handler(self._routed(request))


__all__ = ["ModelChoice", "ModelRouterMiddleware"]
