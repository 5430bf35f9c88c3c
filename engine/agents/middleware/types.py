"""Middleware types: AgentState, ModelRequest/ModelResponse, AgentMiddleware and hook decorators.

Mirrors `langchain.agents.middleware.types`. A middleware class overrides any of the node hooks
(before_agent, before_model, after_model, after_agent; each becomes a graph node named
`<middleware name>.<hook>`) and the wrap hooks (wrap_model_call, wrap_tool_call; composed around the
model call / tool execution, first middleware outermost, no node).
"""

from __future__ import annotations

import warnings
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from inspect import iscoroutinefunction
from typing import Annotated, Any, Generic, Literal, NotRequired, Required

from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, SystemMessage, ToolMessage
from typing_extensions import TypedDict, TypeVar

from engine.agents.hooks import HOOKS, NODE_HOOKS
from engine.channels.ephemeral_value import EphemeralValue
from engine.graph.message import add_messages
from engine.prebuilt.tool_node import ToolCallRequest, ToolCallWrapper
from engine.runtime import Runtime
from engine.types import Command, TracePolicy, omit_payload
from engine.typing import ContextT

JumpTo = Literal["tools", "model", "end"]
# defaults, so a subclass may name fewer parameters (`AgentMiddleware[State, Context]`)
ResponseT = TypeVar("ResponseT", default=Any)
CallableT = TypeVar("CallableT", bound=Callable[..., Any])


@dataclass(init=False)
class ModelRequest(Generic[ContextT]):
    """Everything the model call uses; change it with `override()` (it returns a new request)."""

    model: Any
    messages: list[AnyMessage]
    system_message: SystemMessage | None
    tool_choice: Any | None
    tools: list
    response_format: Any
    state: Any
    runtime: Any
    model_settings: dict[str, Any] = field(default_factory=dict)

    def __init__(
        self,
        *,
        model: Any,
        messages: list[AnyMessage],
        system_message: SystemMessage | None = None,
        system_prompt: str | None = None,
        tool_choice: Any | None = None,
        tools: list | None = None,
        response_format: Any = None,
        state: Any = None,
        runtime: Any = None,
        model_settings: dict[str, Any] | None = None,
    ) -> None:
        if system_prompt is not None and system_message is not None:
            raise ValueError("Cannot specify both system_prompt and system_message")
        if system_prompt is not None:
            system_message = SystemMessage(content=system_prompt)
        values = {
            "model": model,
            "messages": messages,
            "system_message": system_message,
            "tool_choice": tool_choice,
            "tools": tools if tools is not None else [],
            "response_format": response_format,
            "state": state if state is not None else {"messages": []},
            "runtime": runtime,
            "model_settings": model_settings if model_settings is not None else {},
        }
        for key, value in values.items():
            object.__setattr__(self, key, value)

    @property
    def system_prompt(self) -> str | None:
        return None if self.system_message is None else self.system_message.text

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "system_prompt":
            warnings.warn(
                "Direct attribute assignment to ModelRequest.system_prompt is deprecated. Use "
                "request.override(system_message=SystemMessage(...)) instead to create a new "
                "request with the modified system message.",
                DeprecationWarning,
                stacklevel=2,
            )
            object.__setattr__(
                self, "system_message", None if value is None else SystemMessage(content=value)
            )
            return
        warnings.warn(
            f"Direct attribute assignment to ModelRequest.{name} is deprecated. Use "
            f"request.override({name}=...) instead to create a new request with the modified "
            "attribute.",
            DeprecationWarning,
            stacklevel=2,
        )
        object.__setattr__(self, name, value)

    def override(self, **overrides: Any) -> ModelRequest[ContextT]:
        if "system_prompt" in overrides and "system_message" in overrides:
            raise ValueError("Cannot specify both system_prompt and system_message")
        if "system_prompt" in overrides:
            prompt = overrides.pop("system_prompt")
            overrides["system_message"] = None if prompt is None else SystemMessage(content=prompt)
        return replace(self, **overrides)


@dataclass
class ModelResponse(Generic[ResponseT]):
    """The model call's messages (usually one AIMessage) and the parsed structured output."""

    result: list[BaseMessage]
    structured_response: Any = None


@dataclass
class ExtendedModelResponse(Generic[ResponseT]):
    """A model response plus a Command applied as an extra state update after the model node."""

    model_response: ModelResponse
    command: Command | None = None


ModelCallResult = ModelResponse | AIMessage | ExtendedModelResponse


@dataclass
class OmitFromSchema:
    """Marks a state key as left out of the agent's input and/or output schema."""

    input: bool = True
    output: bool = True


OmitFromInput = OmitFromSchema(input=True, output=False)
OmitFromOutput = OmitFromSchema(input=False, output=True)
PrivateStateAttr = OmitFromSchema(input=True, output=True)


class AgentState(TypedDict, Generic[ResponseT]):
    messages: Required[Annotated[list[AnyMessage], add_messages]]
    jump_to: NotRequired[Annotated[JumpTo | None, EphemeralValue, PrivateStateAttr]]
    structured_response: NotRequired[Annotated[Any, OmitFromInput]]


class InputAgentState(TypedDict):
    messages: Required[Annotated[list[AnyMessage | dict[str, Any]], add_messages]]


class OutputAgentState(TypedDict, Generic[ResponseT]):
    messages: Required[Annotated[list[AnyMessage], add_messages]]
    structured_response: NotRequired[Any]


StateT = TypeVar("StateT", bound=AgentState[Any], default=AgentState[Any])
StateT_co = TypeVar("StateT_co", bound=AgentState[Any], default=AgentState[Any], covariant=True)
StateT_contra = TypeVar("StateT_contra", bound=AgentState[Any], contravariant=True)


class _DefaultAgentState(AgentState):
    """AgentMiddleware default state."""


def _no_sync(hook: str) -> str:
    return (
        f"Synchronous implementation of {hook} is not available. You are likely encountering this "
        f"error because you defined only the async version (a{hook}) and invoked your agent in a "
        "synchronous context (e.g., using `stream()` or `invoke()`). To resolve this, either: (1) "
        f"subclass AgentMiddleware and implement the synchronous {hook} method, (2) use the "
        f"@{hook} decorator on a standalone sync function, or (3) invoke your agent asynchronously "
        "using `astream()` or `ainvoke()`."
    )


def _no_async(hook: str) -> str:
    return (
        f"Asynchronous implementation of a{hook} is not available. You are likely encountering "
        f"this error because you defined only the sync version ({hook}) and invoked your agent in "
        "an asynchronous context (e.g., using `astream()` or `ainvoke()`). To resolve this, "
        f"either: (1) subclass AgentMiddleware and implement the asynchronous a{hook} method, (2) "
        f"use the @{hook} decorator on a standalone async function, or (3) invoke your agent "
        "synchronously using `stream()` or `invoke()`."
    )


class AgentMiddleware(Generic[StateT, ContextT, ResponseT]):
    """Base class: override hooks to shape the agent loop."""

    state_schema: type = _DefaultAgentState
    tools: Sequence[Any]
    trace_policy: TracePolicy | None = None
    transformers: Sequence[Any] = ()

    @property
    def name(self) -> str:
        return self.__class__.__name__

    def before_agent(self, state: Any, runtime: Runtime) -> dict[str, Any] | None:
        """Runs once per invocation, before the loop."""

    async def abefore_agent(self, state: Any, runtime: Runtime) -> dict[str, Any] | None:
        """Async before_agent."""

    def before_model(self, state: Any, runtime: Runtime) -> dict[str, Any] | None:
        """Runs before each model call."""

    async def abefore_model(self, state: Any, runtime: Runtime) -> dict[str, Any] | None:
        """Async before_model."""

    def after_model(self, state: Any, runtime: Runtime) -> dict[str, Any] | None:
        """Runs after each model call."""

    async def aafter_model(self, state: Any, runtime: Runtime) -> dict[str, Any] | None:
        """Async after_model."""

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelCallResult:
        raise NotImplementedError(_no_sync("wrap_model_call"))

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelCallResult:
        raise NotImplementedError(_no_async("wrap_model_call"))

    def after_agent(self, state: Any, runtime: Runtime) -> dict[str, Any] | None:
        """Runs once per invocation, after the loop."""

    async def aafter_agent(self, state: Any, runtime: Runtime) -> dict[str, Any] | None:
        """Async after_agent."""

    def wrap_tool_call(
        self, request: ToolCallRequest, handler: Callable[[ToolCallRequest], ToolMessage | Command]
    ) -> ToolMessage | Command:
        raise NotImplementedError(_no_sync("wrap_tool_call"))

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command]],
    ) -> ToolMessage | Command:
        raise NotImplementedError(_no_async("wrap_tool_call"))


def overrides(cls: type, hook: str) -> bool:
    """True when the middleware class overrides `hook` or its async twin."""
    return any(
        getattr(cls, name) is not getattr(AgentMiddleware, name) for name in (hook, f"a{hook}")
    )


def overridden_hooks(cls: type) -> tuple[str, ...]:
    """The hooks a middleware class implements, in HOOKS order."""
    return tuple(h for h in HOOKS if overrides(cls, h))


def hook_config(*, can_jump_to: list[JumpTo] | None = None) -> Callable[[CallableT], CallableT]:
    """Declare where a node hook may jump (adds the conditional edges to those targets)."""

    def decorator(func: CallableT) -> CallableT:
        if can_jump_to is not None:
            func.__can_jump_to__ = can_jump_to  # type: ignore[attr-defined]
        return func

    return decorator


def _middleware_class(
    name: str, state_schema: Any, tools: Any, methods: dict[str, Any]
) -> AgentMiddleware:
    attrs = {"state_schema": state_schema or AgentState, "tools": tools or [], **methods}
    return type(name, (AgentMiddleware,), attrs)()


def _method(func: Callable, hook: str, jumps: list | None, node: bool) -> tuple[str, Callable]:
    """`func(a, b)` as a middleware method under the sync or async hook name: a node hook's
    `(self, state, runtime)` (its node injects arguments by name, as langchain's), a wrap
    hook's `(self, request, handler)`."""
    is_async = iscoroutinefunction(func)
    if node and is_async:

        async def method(_self: Any, state: Any, runtime: Any) -> Any:
            return await func(state, runtime)
    elif node:

        def method(_self: Any, state: Any, runtime: Any) -> Any:
            return func(state, runtime)
    elif is_async:

        async def method(_self: Any, request: Any, handler: Any) -> Any:
            return await func(request, handler)
    else:

        def method(_self: Any, request: Any, handler: Any) -> Any:
            return func(request, handler)

    if jumps:
        method.__can_jump_to__ = jumps  # type: ignore[attr-defined]
    return (f"a{hook}" if is_async else hook), method


def _hook_decorator(hook: str, default_name: str, *, jumps: bool) -> Callable[..., Any]:
    """A decorator turning a function into a middleware with that one hook.

    Node hooks take `(state, runtime)` and accept `can_jump_to`; wrap hooks take `(request, handler)`.
    """

    def hook_decorator(
        func: Callable | None = None,
        *,
        state_schema: type | None = None,
        tools: list | None = None,
        name: str | None = None,
        **options: Any,
    ) -> Any:
        if options and (not jumps or set(options) != {"can_jump_to"}):
            raise TypeError(f"{hook}() got unexpected keyword arguments {sorted(options)}")
        can_jump_to = options.get("can_jump_to")

        def decorator(func: Callable) -> AgentMiddleware:
            allowed = (
                can_jump_to if can_jump_to is not None else getattr(func, "__can_jump_to__", [])
            )
            attr, method = _method(func, hook, allowed if jumps else None, node=jumps)
            label = name or getattr(func, "__name__", default_name)
            return _middleware_class(label, state_schema, tools, {attr: method})

        return decorator(func) if func is not None else decorator

    hook_decorator.__name__ = hook
    hook_decorator.__doc__ = f"Decorator: a function as a middleware overriding {hook}."
    return hook_decorator


before_agent = _hook_decorator("before_agent", "BeforeAgentMiddleware", jumps=True)
before_model = _hook_decorator("before_model", "BeforeModelMiddleware", jumps=True)
after_model = _hook_decorator("after_model", "AfterModelMiddleware", jumps=True)
after_agent = _hook_decorator("after_agent", "AfterAgentMiddleware", jumps=True)


wrap_model_call = _hook_decorator("wrap_model_call", "WrapModelCallMiddleware", jumps=False)
wrap_tool_call = _hook_decorator("wrap_tool_call", "WrapToolCallMiddleware", jumps=False)


def _with_prompt(request: ModelRequest, prompt: str | SystemMessage) -> ModelRequest:
    message = prompt if isinstance(prompt, SystemMessage) else SystemMessage(content=prompt)
    return request.override(system_message=message)


def dynamic_prompt(func: Callable | None = None) -> Any:
    """Decorator: `func(request) -> str | SystemMessage` sets the system message of each model call."""

    def decorator(func: Callable) -> AgentMiddleware:
        label = getattr(func, "__name__", "DynamicPromptMiddleware")
        if iscoroutinefunction(func):

            async def awrapped(_self: Any, request: ModelRequest, handler: Any) -> Any:
                return await handler(_with_prompt(request, await func(request)))

            return _middleware_class(label, AgentState, [], {"awrap_model_call": awrapped})

        def wrapped(_self: Any, request: ModelRequest, handler: Any) -> Any:
            return handler(_with_prompt(request, func(request)))

        async def awrapped_sync(_self: Any, request: ModelRequest, handler: Any) -> Any:
            return await handler(_with_prompt(request, func(request)))

        return _middleware_class(
            label, AgentState, [], {"wrap_model_call": wrapped, "awrap_model_call": awrapped_sync}
        )

    return decorator(func) if func is not None else decorator


__all__ = [
    "HOOKS",
    "NODE_HOOKS",
    "AgentMiddleware",
    "AgentState",
    "ContextT",
    "ExtendedModelResponse",
    "InputAgentState",
    "JumpTo",
    "ModelCallResult",
    "ModelRequest",
    "ModelResponse",
    "OmitFromSchema",
    "OutputAgentState",
    "ResponseT",
    "StateT_co",
    "ToolCallRequest",
    "ToolCallWrapper",
    "TracePolicy",
    "after_agent",
    "after_model",
    "before_agent",
    "before_model",
    "dynamic_prompt",
    "hook_config",
    "omit_payload",
    "overridden_hooks",
    "overrides",
    "wrap_model_call",
    "wrap_tool_call",
]
