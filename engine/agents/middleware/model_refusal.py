"""ModelRefusalMiddleware: an explicit refusal from the model becomes a ModelRefusalError.

Without it a refusal is just the agent's final answer. The check reads the standard content
blocks (langchain_core turns provider signals such as Anthropic's stop_reason "refusal" or
OpenAI's `refusal` field into a {"type": "refusal"} block); text that merely sounds like a
refusal is not one. Listed after ModelFallbackMiddleware, the fallback catches the error.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from langchain_core.exceptions import ModelRefusalError
from langchain_core.messages import BaseMessage

from engine.agents.middleware.types import AgentMiddleware, ModelRequest, ModelResponse
from engine.agents.structured_output import StructuredOutputValidationError
from engine.types import TracePolicy, omit_payload


def _refuse_if_refusal(message: BaseMessage) -> None:
    refusal = next((b for b in message.content_blocks if b["type"] == "refusal"), None)
    if refusal is not None:
        raise ModelRefusalError.from_refusal(refusal, raw_message=message)


def _checked(response: ModelResponse) -> ModelResponse:
    for message in response.result:
        _refuse_if_refusal(message)
    return response


class ModelRefusalMiddleware(AgentMiddleware):
    """Raise ModelRefusalError (not retryable) when a model response carries a refusal block.

    A refused structured response fails parsing first: the refusal is reported instead of the
    parse error. Streamed chunks may already be out when the refusal is seen."""

    trace_policy = TracePolicy(process_inputs=omit_payload)

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        try:
            response = handler(request)
        except StructuredOutputValidationError as exc:
            _refuse_if_refusal(exc.ai_message)
            raise
        return _checked(response)

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelResponse:
        try:
            response = await handler(request)
        except StructuredOutputValidationError as exc:
            _refuse_if_refusal(exc.ai_message)
            raise
        return _checked(response)
