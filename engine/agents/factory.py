"""create_agent: a model node and a tools node in a loop, shaped by middleware.

Mirrors `langchain.agents.factory.create_agent`: same node names (`model`, `tools`,
`<Middleware>.<hook>`), same channels (messages, jump_to, structured_response), same conditional
edges and path maps, one Send per pending tool call, return_direct, and the same composition of
wrap_model_call / wrap_tool_call handlers (first middleware outermost).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    NotRequired,
    Required,
    get_args,
    get_origin,
    get_type_hints,
)

from langchain_core.messages import SystemMessage
from langchain_core.tools import BaseTool
from typing_extensions import TypedDict

from engine._internal._runnable import RunnableCallable
from engine.agents.chat_models import init_chat_model
from engine.agents.composition import (
    chain_async_model_call_handlers,
    chain_async_tool_call_wrappers,
    chain_model_call_handlers,
    chain_tool_call_wrappers,
)
from engine.agents.middleware.trace_policy import node_trace_policy
from engine.agents.middleware.types import (
    HOOKS,
    NODE_HOOKS,
    AgentMiddleware,
    AgentState,
    OmitFromSchema,
    overrides,
)
from engine.agents.model_node import ModelCall
from engine.agents.routing import (
    _can_jump_to,
    _last_ai_and_tool_messages,
    _make_tools_to_model_edge,
    wire_agent,
)
from engine.agents.structured_output import (
    AutoStrategy,
    OutputToolBinding,
    ProviderStrategy,
    ToolStrategy,
    supports_provider_strategy,
)
from engine.graph.state import StateGraph
from engine.prebuilt.tool_node import ToolNode

if TYPE_CHECKING:  # create_agent's annotations, langchain's own (a program may print them)
    from langchain_core.language_models import BaseChatModel

    from engine.agents.middleware.types import (
        InputAgentState,
        OutputAgentState,
        ResponseT,
        StateT_co,
    )
    from engine.agents.structured_output import ResponseFormat
    from engine.cache.base import BaseCache
    from engine.graph.state import CompiledStateGraph
    from engine.store.base import BaseStore
    from engine.stream._mux import TransformerFactory
    from engine.types import Checkpointer
    from engine.typing import ContextT


# --------------------------------------------------------------------------- hook introspection
def _own(m: AgentMiddleware, name: str) -> Callable | None:
    return (
        getattr(m, name) if getattr(type(m), name) is not getattr(AgentMiddleware, name) else None
    )


def _sync_missing(wrappers: list[AgentMiddleware], hook: str) -> bool:
    """Whether one of the wrappers defines only the async twin of `hook`: the sync call then
    raises, so the agent runs on the async API alone, which the studio and `superstep run` read
    from the node's `sync_unavailable` (`langgraph dev` always runs async)."""
    return any(_own(m, hook) is None for m in wrappers)


class _ModelNode(RunnableCallable):
    """The model node, saying whether its sync function can run (see _sync_missing)."""

    __slots__ = ("sync_unavailable",)


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
            if omit and any(
                isinstance(m, OmitFromSchema) and getattr(m, omit) for m in _metadata(type_)
            ):
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


# --------------------------------------------------------------------------- create_agent
def create_agent(
    model: str | BaseChatModel,
    tools: Sequence[BaseTool | Callable[..., Any] | dict[str, Any]] | None = None,
    *,
    system_prompt: str | SystemMessage | None = None,
    middleware: Sequence[AgentMiddleware[StateT_co, ContextT]] = (),
    response_format: ResponseFormat[ResponseT] | type[ResponseT] | dict[str, Any] | None = None,
    state_schema: type[AgentState[ResponseT]] | None = None,
    context_schema: type[ContextT] | None = None,
    checkpointer: Checkpointer | None = None,
    store: BaseStore | None = None,
    interrupt_before: list[str] | None = None,
    interrupt_after: list[str] | None = None,
    debug: bool = False,
    name: str | None = None,
    cache: BaseCache[Any] | None = None,
    transformers: Sequence[TransformerFactory] | None = None,
) -> CompiledStateGraph[
    AgentState[ResponseT], ContextT, InputAgentState, OutputAgentState[ResponseT]
]:
    """Build and compile an agent graph: model -> tools -> model ... until no tool calls remain."""
    if isinstance(model, str):
        model = init_chat_model(model)
    system_message = (
        system_prompt
        if isinstance(system_prompt, SystemMessage) or system_prompt is None
        else SystemMessage(content=system_prompt)
    )
    tools = list(tools or [])
    initial_response_format, tool_strategy = _response_strategies(response_format)
    structured_output_tools: dict[str, OutputToolBinding] = {}
    if tool_strategy:
        for spec in tool_strategy.schema_specs:
            binding = OutputToolBinding.from_schema_spec(spec)
            structured_output_tools[binding.tool.name] = binding

    if len({m.name for m in middleware}) != len(middleware):
        raise AssertionError("Please remove duplicate middleware instances.")
    with_hook = {hook: [m for m in middleware if overrides(type(m), hook)] for hook in HOOKS}
    tool_wrappers, model_wrappers = with_hook["wrap_tool_call"], with_hook["wrap_model_call"]
    wrap_tool_call = chain_tool_call_wrappers([m.wrap_tool_call for m in tool_wrappers])
    awrap_tool_call = chain_async_tool_call_wrappers([m.awrap_tool_call for m in tool_wrappers])

    resolved_state, input_schema, output_schema = _resolve_schemas(
        [
            *(m.state_schema for m in middleware),
            state_schema if state_schema is not None else AgentState,
        ]
    )
    middleware_tools = [t for m in middleware for t in getattr(m, "tools", [])]
    available_tools = middleware_tools + [t for t in tools if not isinstance(t, dict)]
    tool_node = (
        ToolNode(
            tools=available_tools,
            wrap_tool_call=wrap_tool_call,
            awrap_tool_call=awrap_tool_call,
            state_keys=list(_hints(resolved_state)),
        )
        if available_tools or wrap_tool_call or awrap_tool_call
        else None
    )
    model_call = ModelCall(
        model=model,
        system_message=system_message,
        default_tools=(list(tool_node.tools_by_name.values()) if tool_node else [])
        + [t for t in tools if isinstance(t, dict)],
        tool_node=tool_node,
        wraps_tool_calls=bool(wrap_tool_call or awrap_tool_call),
        response_format=initial_response_format,
        tool_strategy=tool_strategy,
        structured_output_tools=structured_output_tools,
        wrap_model_call=chain_model_call_handlers([m.wrap_model_call for m in model_wrappers]),
        awrap_model_call=chain_async_model_call_handlers(
            [m.awrap_model_call for m in model_wrappers]
        ),
        name=name,
    )

    graph = StateGraph(
        state_schema=resolved_state,
        input_schema=input_schema,
        output_schema=output_schema,
        context_schema=context_schema,
    )
    model_node = _ModelNode(model_call.node, model_call.anode, trace=False)
    model_node.sync_unavailable = _sync_missing(model_wrappers, "wrap_model_call")
    graph.add_node("model", model_node)
    if tool_node is not None:
        tool_node.sync_unavailable = _sync_missing(tool_wrappers, "wrap_tool_call")
        graph.add_node("tools", tool_node)
    for m in middleware:
        for hook in NODE_HOOKS:
            if overrides(type(m), hook):
                node_name = f"{m.name}.{hook}"
                # as langchain: the hook gets the injectable arguments its signature names
                # (`runtime`, `config`, ...), so `before_model(self, state)` gets the state only
                node = RunnableCallable(_own(m, hook), _own(m, f"a{hook}"), trace=False)
                graph.add_node(
                    node_name,
                    node,
                    input_schema=resolved_state,
                    trace_policy=node_trace_policy(m.trace_policy),
                )
    wire_agent(
        graph,
        with_hook=with_hook,
        tool_node=tool_node,
        structured_output_tools=structured_output_tools,
        loops_back=bool(response_format) or bool(model_wrappers),
    )

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
        transformers=_distinct(
            [
                *(t for m in middleware for t in getattr(m, "transformers", ())),
                *(transformers or ()),
            ]
        ),
    )
    return compiled.with_config(config)


def _distinct(factories: list[Any]) -> list[Any]:
    """Stream transformer factories in order, each once: several middleware may declare the
    same shared one (InternalCallTransformer). By identity, as factories need not be hashable."""
    seen: set[int] = set()
    return [f for f in factories if id(f) not in seen and not seen.add(id(f))]


def _response_strategies(response_format: Any) -> tuple[Any, ToolStrategy | None]:
    """The response format as the model request starts with it, and the ToolStrategy whose output
    tools are registered up front (an AutoStrategy may still turn into a provider strategy)."""
    if response_format is None or isinstance(
        response_format, (ToolStrategy, ProviderStrategy, AutoStrategy)
    ):
        initial = response_format
    else:
        initial = AutoStrategy(schema=response_format)
    if isinstance(initial, AutoStrategy):
        return initial, ToolStrategy(schema=initial.schema)
    return initial, initial if isinstance(initial, ToolStrategy) else None


# langchain's private names for helpers the engine has under its own names; langchain's tests
# and some packages import them from langchain.agents.factory
_supports_provider_strategy = supports_provider_strategy
_chain_model_call_handlers = chain_model_call_handlers
_chain_async_model_call_handlers = chain_async_model_call_handlers
_get_can_jump_to = _can_jump_to
_fetch_last_ai_and_tool_messages = _last_ai_and_tool_messages
_make_tools_to_model_edge = _make_tools_to_model_edge

__all__ = ["create_agent"]
