"""create_agent: a model node and a tools node in a loop, shaped by middleware.

Mirrors `langchain.agents.factory.create_agent`: same node names (`model`, `tools`,
`<Middleware>.<hook>`), same channels (messages, jump_to, structured_response), same conditional
edges and path maps, one Send per pending tool call, return_direct, and the same composition of
wrap_model_call / wrap_tool_call handlers (first middleware outermost).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, NotRequired, Required, get_args, get_origin, get_type_hints

from langchain_core.messages import AIMessage, AnyMessage, RemoveMessage, SystemMessage, ToolMessage
from langchain_core.tools import BaseTool
from typing_extensions import TypedDict

from engine.agents.chat_models import init_chat_model
from engine.agents.middleware.types import (
    HOOKS,
    NODE_HOOKS,
    AgentMiddleware,
    AgentState,
    ExtendedModelResponse,
    ModelRequest,
    ModelResponse,
    OmitFromSchema,
    overrides,
)
from engine.agents.structured_output import (
    AutoStrategy,
    OutputToolBinding,
    ProviderStrategy,
    ToolStrategy,
    handle_model_output,
    supports_provider_strategy,
)
from engine.constants import CONF, CONFIG_KEY_RUNTIME, END, START
from engine.graph.message import REMOVE_ALL_MESSAGES
from engine.graph.state import StateGraph
from engine.prebuilt.tool_node import ToolNode
from engine.pregel.callable import EngineRunnable
from engine.types import Command, Send

DYNAMIC_TOOL_ERROR_TEMPLATE = """
Middleware added tools that the agent doesn't know how to execute.

Unknown tools: {unknown_tool_names}
Registered tools: {available_tool_names}

This happens when middleware modifies `request.tools` in `wrap_model_call` to include
tools that weren't passed to `create_agent()`.

How to fix this:

Option 1: Register tools at agent creation (recommended for most cases)
    Pass the tools to `create_agent(tools=[...])` or set them on `middleware.tools`.
    This makes tools available for every agent invocation.

Option 2: Handle dynamic tools in middleware (for tools created at runtime)
    Implement `wrap_tool_call` to execute tools that are added dynamically:

    class MyMiddleware(AgentMiddleware):
        def wrap_tool_call(self, request, handler):
            if request.tool_call["name"] == "dynamic_tool":
                # Execute the dynamic tool yourself or override with tool instance
                return handler(request.override(tool=my_dynamic_tool))
            return handler(request)
""".strip()


# --------------------------------------------------------------------------- hook introspection
def _own(m: AgentMiddleware, name: str) -> Callable | None:
    return getattr(m, name) if getattr(type(m), name) is not getattr(AgentMiddleware, name) else None


def _can_jump_to(m: AgentMiddleware, hook: str) -> list[str]:
    for name in (hook, f"a{hook}"):
        method = getattr(type(m), name, None)
        if method is not getattr(AgentMiddleware, name, None) and hasattr(method, "__can_jump_to__"):
            return list(method.__can_jump_to__)
    return []


class _Node(EngineRunnable):
    """A graph node from a sync and/or async function `(state, runtime)`; either may be missing."""

    def __init__(self, name: str, func: Callable | None, afunc: Callable | None) -> None:
        self.name = name
        self.func = func
        self.afunc = afunc

    @staticmethod
    def _runtime(config: dict | None) -> Any:
        return (config or {}).get(CONF, {}).get(CONFIG_KEY_RUNTIME)

    def invoke(self, input: Any, config: dict | None = None, **kwargs: Any) -> Any:
        if self.func is None:
            raise TypeError(
                f'No synchronous function provided to "{self.name}".\nEither initialize with a '
                "synchronous function or invoke via the async API (ainvoke, astream, etc.)"
            )
        return self.func(input, self._runtime(config))

    async def ainvoke(self, input: Any, config: dict | None = None, **kwargs: Any) -> Any:
        if self.afunc is None:
            return self.func(input, self._runtime(config))
        return await self.afunc(input, self._runtime(config))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name})"


# --------------------------------------------------------------------------- wrap-hook composition
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


def _nest(handlers: Sequence[Callable], layer: Callable[[Callable, Callable | None], Callable]) -> Callable | None:
    """Fold handlers into one, the first outermost: layer(h0, layer(h1, ... layer(hn, None)))."""
    composed = None
    for h in reversed(handlers):
        composed = layer(h, composed)
    return composed


def _chain_model_call_handlers(handlers: Sequence[Callable]) -> Callable | None:
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


def _chain_async_model_call_handlers(handlers: Sequence[Callable]) -> Callable | None:
    """Async twin of _chain_model_call_handlers."""

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


def _chain_tool_call_wrappers(wrappers: Sequence[Callable]) -> Callable | None:
    """Nest tool-call wrappers, first outermost."""
    return _nest(wrappers, lambda outer, inner: outer if inner is None else functools.partial(_call_tool_layer, outer, inner))


def _call_tool_layer(outer: Callable, inner: Callable, request: Any, execute: Callable) -> Any:
    return outer(request, lambda req: inner(req, execute))


def _chain_async_tool_call_wrappers(wrappers: Sequence[Callable]) -> Callable | None:
    return _nest(wrappers, lambda outer, inner: outer if inner is None else functools.partial(_acall_tool_layer, outer, inner))


async def _acall_tool_layer(outer: Callable, inner: Callable, request: Any, execute: Callable) -> Any:
    async def call_inner(req: Any) -> Any:
        return await inner(req, execute)

    return await outer(request, call_inner)


def _build_commands(
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
            raise NotImplementedError("Command resume is not yet supported in wrap_model_call middleware.")
        if cmd.graph:
            raise NotImplementedError("Command graph is not yet supported in wrap_model_call middleware.")
    return [Command(update=state), *(middleware_commands or [])]


# --------------------------------------------------------------------------- schemas
@functools.lru_cache(maxsize=100)
def _hints(schema: type) -> dict[str, Any]:
    return get_type_hints(schema, include_extras=True)


def _metadata(type_: Any) -> list[Any]:
    if get_origin(type_) in (Required, NotRequired):
        type_ = get_args(type_)[0]
    return list(get_args(type_)[1:]) if get_origin(type_) is Annotated else []


def _resolve_schema(schemas: dict[type, dict[str, Any]], name: str, omit: str | None) -> type:
    fields: dict[str, Any] = {}
    for hints in schemas.values():
        for key, type_ in hints.items():
            if omit and any(isinstance(m, OmitFromSchema) and getattr(m, omit) for m in _metadata(type_)):
                continue
            fields[key] = type_
    return TypedDict(name, fields)  # type: ignore[operator]


def _resolve_schemas(schemas: list[type]) -> tuple[type, type, type]:
    """Merge state schemas in order (later wins); derive input/output schemas by OmitFromSchema."""
    ordered: dict[type, dict[str, Any]] = {}
    for schema in schemas:
        ordered.pop(schema, None)
        ordered[schema] = _hints(schema)
    return (
        _resolve_schema(ordered, "StateSchema", None),
        _resolve_schema(ordered, "InputSchema", "input"),
        _resolve_schema(ordered, "OutputSchema", "output"),
    )


# --------------------------------------------------------------------------- invalid tool calls
def _patch_invalid_tool_calls(messages: Sequence[AnyMessage]) -> list[AnyMessage]:
    """Answer each malformed (invalid) tool call with an error ToolMessage the model can see."""
    answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
    out: list[AnyMessage] = []
    for message in messages:
        out.append(message)
        if not isinstance(message, AIMessage):
            continue
        for call in message.invalid_tool_calls:
            call_id = call.get("id")
            if call_id is None or call_id in answered:
                continue
            name = call.get("name") or "unknown"
            out.append(
                ToolMessage(
                    content=f"Tool call {name} with id {call_id} could not be executed - arguments "
                    "were malformed or truncated.",
                    name=name,
                    tool_call_id=call_id,
                    status="error",
                )
            )
            answered.add(call_id)
    return out


# --------------------------------------------------------------------------- routing
def _resolve_jump(jump_to: Any, *, model_destination: str, end_destination: str) -> str | None:
    return {"model": model_destination, "end": end_destination, "tools": "tools"}.get(jump_to)


def _last_ai_and_tool_messages(messages: list) -> tuple[AIMessage | None, list[ToolMessage]]:
    for i in range(len(messages) - 1, -1, -1):
        if isinstance(messages[i], AIMessage):
            return messages[i], [m for m in messages[i + 1 :] if isinstance(m, ToolMessage)]
    return None, []


def _make_model_to_tools_edge(*, model_destination: str, structured_output_tools: dict, end_destination: str) -> Callable:
    def model_to_tools(state: dict[str, Any]) -> Any:
        if jump_to := state.get("jump_to"):
            return _resolve_jump(jump_to, model_destination=model_destination, end_destination=end_destination)
        ai, tool_messages = _last_ai_and_tool_messages(state["messages"])
        if ai is None or not ai.tool_calls:
            return end_destination
        answered = {m.tool_call_id for m in tool_messages}
        pending = [
            c for c in ai.tool_calls if c["id"] not in answered and c["name"] not in structured_output_tools
        ]
        if pending:
            return [Send("tools", [call]) for call in pending]
        if state.get("structured_response") is not None:
            return end_destination
        return model_destination

    return model_to_tools


def _make_model_to_model_edge(*, model_destination: str, end_destination: str) -> Callable:
    def model_to_model(state: dict[str, Any]) -> Any:
        if jump_to := state.get("jump_to"):
            return _resolve_jump(jump_to, model_destination=model_destination, end_destination=end_destination)
        if state.get("structured_response") is not None:
            return end_destination
        return model_destination

    return model_to_model


def _make_tools_to_model_edge(*, tool_node: ToolNode, model_destination: str, structured_output_tools: dict, end_destination: str) -> Callable:
    tools = tool_node.tools_by_name

    def tools_to_model(state: dict[str, Any]) -> Any:
        ai, tool_messages = _last_ai_and_tool_messages(state["messages"])
        if ai is None:
            return model_destination
        executed_by_id = {t.tool_call_id: t.name for t in tool_messages if t.name in tools}
        executed = [
            name for c in ai.tool_calls if (name := executed_by_id.get(c["id"] or "", c["name"])) in tools
        ]
        if executed and all(tools[name].return_direct for name in executed):
            return end_destination
        if any(t.name in structured_output_tools and t.status != "error" for t in tool_messages):
            return end_destination
        return model_destination

    return tools_to_model


def _add_middleware_edge(graph: StateGraph, *, name: str, default_destination: str, model_destination: str, end_destination: str, can_jump_to: list[str] | None) -> None:
    if not can_jump_to:
        graph.add_edge(name, default_destination)
        return

    def jump_edge(state: dict[str, Any]) -> str:
        return (
            _resolve_jump(state.get("jump_to"), model_destination=model_destination, end_destination=end_destination)
            or default_destination
        )

    destinations = [default_destination]
    if "end" in can_jump_to:
        destinations.append(end_destination)
    if "tools" in can_jump_to:
        destinations.append("tools")
    if "model" in can_jump_to and name != model_destination:
        destinations.append(model_destination)
    graph.add_conditional_edges(name, jump_edge, destinations)


# --------------------------------------------------------------------------- create_agent
def create_agent(  # noqa: C901 - one builder, kept in langchain's order for comparison
    model: Any,
    tools: Sequence[BaseTool | Callable | dict[str, Any]] | None = None,
    *,
    system_prompt: str | SystemMessage | None = None,
    middleware: Sequence[AgentMiddleware] = (),
    response_format: Any = None,
    state_schema: type | None = None,
    context_schema: type | None = None,
    checkpointer: Any = None,
    store: Any = None,
    interrupt_before: list[str] | None = None,
    interrupt_after: list[str] | None = None,
    debug: bool = False,
    name: str | None = None,
    cache: Any = None,
    transformers: Sequence[Any] | None = None,
) -> Any:
    """Build and compile an agent graph: model -> tools -> model ... until no tool calls remain."""
    if isinstance(model, str):
        model = init_chat_model(model)
    system_message = (
        system_prompt
        if isinstance(system_prompt, SystemMessage) or system_prompt is None
        else SystemMessage(content=system_prompt)
    )
    tools = list(tools or [])

    # structured output
    if response_format is None or isinstance(response_format, (ToolStrategy, ProviderStrategy, AutoStrategy)):
        initial_response_format = response_format
    else:
        initial_response_format = AutoStrategy(schema=response_format)
    tool_strategy_for_setup = (
        ToolStrategy(schema=initial_response_format.schema)
        if isinstance(initial_response_format, AutoStrategy)
        else initial_response_format
        if isinstance(initial_response_format, ToolStrategy)
        else None
    )
    structured_output_tools: dict[str, OutputToolBinding] = {}
    if tool_strategy_for_setup:
        for spec in tool_strategy_for_setup.schema_specs:
            binding = OutputToolBinding.from_schema_spec(spec)
            structured_output_tools[binding.tool.name] = binding
    middleware_tools = [t for m in middleware for t in getattr(m, "tools", [])]

    with_hook = {hook: [m for m in middleware if overrides(type(m), hook)] for hook in HOOKS}
    tool_wrappers = with_hook["wrap_tool_call"]
    wrap_tool_call_wrapper = _chain_tool_call_wrappers([m.wrap_tool_call for m in tool_wrappers])
    awrap_tool_call_wrapper = _chain_async_tool_call_wrappers([m.awrap_tool_call for m in tool_wrappers])

    built_in_tools = [t for t in tools if isinstance(t, dict)]
    available_tools = middleware_tools + [t for t in tools if not isinstance(t, dict)]

    if len({m.name for m in middleware}) != len(middleware):
        raise AssertionError("Please remove duplicate middleware instances.")

    model_wrappers = with_hook["wrap_model_call"]
    wrap_model_call_handler = _chain_model_call_handlers([m.wrap_model_call for m in model_wrappers])
    awrap_model_call_handler = _chain_async_model_call_handlers([m.awrap_model_call for m in model_wrappers])

    base_state = state_schema if state_schema is not None else AgentState
    resolved_state, input_schema, output_schema = _resolve_schemas(
        [*(m.state_schema for m in middleware), base_state]
    )
    state_keys = list(_hints(resolved_state))
    tool_node = (
        ToolNode(
            tools=available_tools,
            wrap_tool_call=wrap_tool_call_wrapper,
            awrap_tool_call=awrap_tool_call_wrapper,
            state_keys=state_keys,
        )
        if available_tools or wrap_tool_call_wrapper or awrap_tool_call_wrapper
        else None
    )
    default_tools = (list(tool_node.tools_by_name.values()) if tool_node else []) + built_in_tools

    graph = StateGraph(
        state_schema=resolved_state,
        input_schema=input_schema,
        output_schema=output_schema,
        context_schema=context_schema,
    )

    def _bound_model(request: ModelRequest) -> tuple[Any, Any]:
        if not (wrap_tool_call_wrapper or awrap_tool_call_wrapper):
            known = tool_node.tools_by_name if tool_node else {}
            unknown = [t.name for t in request.tools if isinstance(t, BaseTool) and t.name not in known]
            if unknown:
                raise ValueError(
                    DYNAMIC_TOOL_ERROR_TEMPLATE.format(
                        unknown_tool_names=unknown, available_tool_names=sorted(known)
                    )
                )
        fmt = request.response_format
        if fmt is not None and not isinstance(fmt, (AutoStrategy, ToolStrategy, ProviderStrategy)):
            fmt = AutoStrategy(schema=fmt)
        if isinstance(fmt, AutoStrategy):
            if supports_provider_strategy(request.model, tools=request.tools):
                fmt = ProviderStrategy(schema=fmt.schema)
            elif fmt is initial_response_format and tool_strategy_for_setup is not None:
                fmt = tool_strategy_for_setup
            else:
                fmt = ToolStrategy(schema=fmt.schema)
        final_tools = list(request.tools)
        if isinstance(fmt, ToolStrategy):
            wanted = {spec.name for spec in fmt.schema_specs}
            final_tools.extend(b.tool for n, b in structured_output_tools.items() if n in wanted)
        if isinstance(fmt, ProviderStrategy):
            kwargs = {**fmt.to_model_kwargs(), **request.model_settings}
            return request.model.bind_tools(final_tools, **kwargs), fmt
        if isinstance(fmt, ToolStrategy):
            for spec in fmt.schema_specs:
                if spec.name not in structured_output_tools:
                    raise ValueError(
                        f"ToolStrategy specifies tool '{spec.name}' which wasn't declared in the "
                        "original response format when creating the agent."
                    )
            choice = "any" if structured_output_tools else request.tool_choice
            return request.model.bind_tools(final_tools, tool_choice=choice, **request.model_settings), fmt
        if final_tools:
            return (
                request.model.bind_tools(final_tools, tool_choice=request.tool_choice, **request.model_settings),
                None,
            )
        return request.model.bind(**request.model_settings), None

    def _model_input(request: ModelRequest) -> list:
        if request.system_message:
            return [request.system_message, *request.messages]
        return request.messages

    def _response(output: AIMessage, fmt: Any) -> ModelResponse:
        if name:
            output.name = name
        handled = handle_model_output(output, fmt, structured_output_tools)
        return ModelResponse(result=handled["messages"], structured_response=handled.get("structured_response"))

    def _execute_model_sync(request: ModelRequest) -> ModelResponse:
        bound, fmt = _bound_model(request)
        return _response(bound.invoke(_model_input(request)), fmt)

    async def _execute_model_async(request: ModelRequest) -> ModelResponse:
        bound, fmt = _bound_model(request)
        return _response(await bound.ainvoke(_model_input(request)), fmt)

    def _request(state: dict[str, Any], runtime: Any) -> tuple[ModelRequest, list | None]:
        messages = _patch_invalid_tool_calls(state["messages"])
        request = ModelRequest(
            model=model,
            tools=default_tools,
            system_message=system_message,
            response_format=initial_response_format,
            messages=messages,
            tool_choice=None,
            state=state,
            runtime=runtime,
        )
        return request, (messages if messages != state["messages"] else None)

    def _commands(response: ModelResponse, commands: list[Command] | None, repaired: list | None) -> list[Command]:
        return _build_commands(
            response,
            commands,
            has_structured_output=initial_response_format is not None,
            repaired_messages=repaired,
        )

    def model_node(state: dict[str, Any], runtime: Any) -> list[Command]:
        request, repaired = _request(state, runtime)
        if wrap_model_call_handler is None:
            return _commands(_execute_model_sync(request), None, repaired)
        result = wrap_model_call_handler(request, _execute_model_sync)
        return _commands(result.model_response, result.commands, repaired)

    async def amodel_node(state: dict[str, Any], runtime: Any) -> list[Command]:
        request, repaired = _request(state, runtime)
        if awrap_model_call_handler is None:
            return _commands(await _execute_model_async(request), None, repaired)
        result = await awrap_model_call_handler(request, _execute_model_async)
        return _commands(result.model_response, result.commands, repaired)

    graph.add_node("model", _Node("model", model_node, amodel_node))
    if tool_node is not None:
        graph.add_node("tools", tool_node)
    for m in middleware:
        for hook in NODE_HOOKS:
            if overrides(type(m), hook):
                node_name = f"{m.name}.{hook}"
                node = _Node(node_name, _own(m, hook), _own(m, f"a{hook}"))
                graph.add_node(node_name, node, input_schema=resolved_state)

    before_agent, before_model = with_hook["before_agent"], with_hook["before_model"]
    after_model, after_agent = with_hook["after_model"], with_hook["after_agent"]
    if before_agent:
        entry_node = f"{before_agent[0].name}.before_agent"
    elif before_model:
        entry_node = f"{before_model[0].name}.before_model"
    else:
        entry_node = "model"
    loop_entry_node = f"{before_model[0].name}.before_model" if before_model else "model"
    loop_exit_node = f"{after_model[0].name}.after_model" if after_model else "model"
    exit_node = f"{after_agent[-1].name}.after_agent" if after_agent else END

    graph.add_edge(START, entry_node)
    if tool_node is not None:
        tools_to_model_destinations = [loop_entry_node]
        if any(t.return_direct for t in tool_node.tools_by_name.values()) or structured_output_tools:
            tools_to_model_destinations.append(exit_node)
        graph.add_conditional_edges(
            "tools",
            _make_tools_to_model_edge(
                tool_node=tool_node,
                model_destination=loop_entry_node,
                structured_output_tools=structured_output_tools,
                end_destination=exit_node,
            ),
            tools_to_model_destinations,
        )
        model_to_tools_destinations = ["tools", exit_node]
        if response_format or loop_exit_node != "model" or model_wrappers:
            model_to_tools_destinations.append(loop_entry_node)
        graph.add_conditional_edges(
            loop_exit_node,
            _make_model_to_tools_edge(
                model_destination=loop_entry_node,
                structured_output_tools=structured_output_tools,
                end_destination=exit_node,
            ),
            model_to_tools_destinations,
        )
    elif structured_output_tools:
        graph.add_conditional_edges(
            loop_exit_node,
            _make_model_to_model_edge(model_destination=loop_entry_node, end_destination=exit_node),
            [loop_entry_node, exit_node],
        )
    elif loop_exit_node == "model":
        graph.add_edge(loop_exit_node, exit_node)
    else:
        _add_middleware_edge(
            graph,
            name=loop_exit_node,
            default_destination=exit_node,
            model_destination=loop_entry_node,
            end_destination=exit_node,
            can_jump_to=_can_jump_to(after_model[0], "after_model"),
        )

    def chain(hook: str, ordered: list[AgentMiddleware], last_destination: str) -> None:
        """Edges between consecutive hook nodes in run order, then from the last to its exit."""
        for m1, m2 in itertools.pairwise(ordered):
            _add_middleware_edge(
                graph,
                name=f"{m1.name}.{hook}",
                default_destination=f"{m2.name}.{hook}",
                model_destination=loop_entry_node,
                end_destination=exit_node,
                can_jump_to=_can_jump_to(m1, hook),
            )
        if last_destination:
            _add_middleware_edge(
                graph,
                name=f"{ordered[-1].name}.{hook}",
                default_destination=last_destination,
                model_destination=loop_entry_node,
                end_destination=exit_node,
                can_jump_to=_can_jump_to(ordered[-1], hook),
            )

    if before_agent:
        chain("before_agent", before_agent, loop_entry_node)
    if before_model:
        chain("before_model", before_model, "model")
    if after_model:
        graph.add_edge("model", f"{after_model[-1].name}.after_model")
        chain("after_model", after_model[::-1], "")
    if after_agent:
        chain("after_agent", after_agent[::-1], END)

    config: dict[str, Any] = {
        "recursion_limit": 9_999,
        "metadata": {"ls_integration": "langchain_create_agent"},
    }
    if name:
        config["metadata"]["lc_agent_name"] = name
    compiled = graph.compile(
        checkpointer=checkpointer,
        store=store,
        interrupt_before=interrupt_before,
        interrupt_after=interrupt_after,
        debug=debug,
        name=name,
        cache=cache,
    )
    return compiled.with_config(config)


__all__ = ["create_agent"]
