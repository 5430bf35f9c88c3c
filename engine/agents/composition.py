"""How wrap_model_call and wrap_tool_call middleware nest (the first middleware outermost), and
the state update a model call ends in (messages, structured_response, middleware commands)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, RemoveMessage

from engine.agents.middleware.types import ExtendedModelResponse, ModelRequest, ModelResponse
from engine.graph.message import REMOVE_ALL_MESSAGES
from engine.types import Command


@dataclass
class _Composed:
    """What the composed wrap_model_call stack returns: the response and every layer's command."""

    model_response: ModelResponse
    commands: list[Command] = field(default_factory=list)


def _as_model_response(result: Any) -> ModelResponse:
    if isinstance(result, AIMessage):
        return ModelResponse(result=[result], structured_response=None)
    if isinstance(result, ExtendedModelResponse):
        return result.model_response
    return result


def _split(result: Any) -> tuple[ModelResponse, list[Command]]:
    """A handler's result as (response, commands carried by it)."""
    if isinstance(result, _Composed):
        return result.model_response, list(result.commands)
    if isinstance(result, ExtendedModelResponse):
        return result.model_response, [result.command] if result.command is not None else []
    return _as_model_response(result), []


def _nest(
    handlers: Sequence[Callable], layer: Callable[[Callable, Callable | None], Callable]
) -> Callable | None:
    """Fold handlers into one, the first outermost: layer(h0, layer(h1, ... layer(hn, None)))."""
    composed = None
    for h in reversed(handlers):
        composed = layer(h, composed)
    return composed


def chain_model_call_handlers(handlers: Sequence[Callable]) -> Callable | None:
    """Nest handlers (first outermost); commands collect inner first, a retried inner call's are dropped."""

    def layer(outer: Callable, inner: Callable | None) -> Callable:
        def composed(request: ModelRequest, handler: Callable) -> _Composed:
            inner_commands: list[Command] = []

            def call_inner(req: ModelRequest) -> ModelResponse:
                inner_commands.clear()
                response, commands = _split(inner(req, handler)) if inner else (handler(req), [])
                inner_commands.extend(commands)
                return response

            response, own = _split(outer(request, call_inner))
            return _Composed(response, [*inner_commands, *own])

        return composed

    return _nest(handlers, layer)


def chain_async_model_call_handlers(handlers: Sequence[Callable]) -> Callable | None:
    """Async twin of chain_model_call_handlers."""

    def layer(outer: Callable, inner: Callable | None) -> Callable:
        async def composed(request: ModelRequest, handler: Callable) -> _Composed:
            inner_commands: list[Command] = []

            async def call_inner(req: ModelRequest) -> ModelResponse:
                inner_commands.clear()
                if inner is None:
                    return await handler(req)
                response, commands = _split(await inner(req, handler))
                inner_commands.extend(commands)
                return response

            response, own = _split(await outer(request, call_inner))
            return _Composed(response, [*inner_commands, *own])

        return composed

    return _nest(handlers, layer)


def chain_tool_call_wrappers(wrappers: Sequence[Callable]) -> Callable | None:
    """Nest tool-call wrappers, first outermost."""
    return _nest(
        wrappers,
        lambda outer, inner: (
            outer if inner is None else functools.partial(_call_tool_layer, outer, inner)
        ),
    )


def _call_tool_layer(outer: Callable, inner: Callable, request: Any, execute: Callable) -> Any:
    return outer(request, lambda req: inner(req, execute))


def chain_async_tool_call_wrappers(wrappers: Sequence[Callable]) -> Callable | None:
    return _nest(
        wrappers,
        lambda outer, inner: (
            outer if inner is None else functools.partial(_acall_tool_layer, outer, inner)
        ),
    )


async def _acall_tool_layer(
    outer: Callable, inner: Callable, request: Any, execute: Callable
) -> Any:
    async def call_inner(req: Any) -> Any:
        return await inner(req, execute)

    return await outer(request, call_inner)


def build_commands(
    response: ModelResponse,
    middleware_commands: list[Command] | None = None,
    *,
    has_structured_output: bool = False,
    repaired_messages: list | None = None,
) -> list[Command]:
    messages = list(response.result)
    if repaired_messages is not None:
        messages = [RemoveMessage(id=REMOVE_ALL_MESSAGES), *repaired_messages, *response.result]
    state: dict[str, Any] = {"messages": messages}
    if response.structured_response is not None:
        state["structured_response"] = response.structured_response
    elif has_structured_output:
        state["structured_response"] = None
    for cmd in middleware_commands or []:
        if cmd.goto:
            raise NotImplementedError(
                "Command goto is not yet supported in wrap_model_call middleware. Use the jump_to "
                "state field with before_model/after_model hooks instead."
            )
        if cmd.resume:
            raise NotImplementedError(
                "Command resume is not yet supported in wrap_model_call middleware."
            )
        if cmd.graph:
            raise NotImplementedError(
                "Command graph is not yet supported in wrap_model_call middleware."
            )
    return [Command(update=state), *(middleware_commands or [])]
