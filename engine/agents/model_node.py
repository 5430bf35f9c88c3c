"""The agent's model node: build the model request from the state, run it through the
wrap_model_call middleware, bind tools and the structured-output strategy, and turn the answer
into the node's commands."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, SystemMessage, ToolMessage
from langchain_core.tools import BaseTool

from engine.agents.composition import build_commands
from engine.agents.middleware.types import ModelRequest, ModelResponse
from engine.agents.structured_output import (
    AutoStrategy,
    OutputToolBinding,
    ProviderStrategy,
    ToolStrategy,
    handle_model_output,
    supports_provider_strategy,
)
from engine.prebuilt.tool_node import ToolNode
from engine.types import Command

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


@dataclass(frozen=True)
class ModelCall:
    """Everything the model node needs, fixed when the agent is built."""

    model: Any
    system_message: SystemMessage | None
    default_tools: list
    tool_node: ToolNode | None
    wraps_tool_calls: bool
    """A wrap_tool_call middleware may run tools the agent was not given."""
    response_format: Any
    tool_strategy: ToolStrategy | None
    """The ToolStrategy the response format starts as (its output tools are bound once)."""
    structured_output_tools: dict[str, OutputToolBinding]
    wrap_model_call: Callable | None
    awrap_model_call: Callable | None
    name: str | None

    def _bound_model(self, request: ModelRequest) -> tuple[Any, Any]:
        if not self.wraps_tool_calls:
            known = self.tool_node.tools_by_name if self.tool_node else {}
            unknown = [
                t.name for t in request.tools if isinstance(t, BaseTool) and t.name not in known
            ]
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
            elif fmt is self.response_format and self.tool_strategy is not None:
                fmt = self.tool_strategy
            else:
                fmt = ToolStrategy(schema=fmt.schema)
        final_tools = list(request.tools)
        if isinstance(fmt, ToolStrategy):
            wanted = {spec.name for spec in fmt.schema_specs}
            final_tools.extend(
                b.tool for n, b in self.structured_output_tools.items() if n in wanted
            )
        if isinstance(fmt, ProviderStrategy):
            kwargs = {**fmt.to_model_kwargs(), **request.model_settings}
            return request.model.bind_tools(final_tools, **kwargs), fmt
        if isinstance(fmt, ToolStrategy):
            for spec in fmt.schema_specs:
                if spec.name not in self.structured_output_tools:
                    raise ValueError(
                        f"ToolStrategy specifies tool '{spec.name}' which wasn't declared in the "
                        "original response format when creating the agent."
                    )
            choice = "any" if self.structured_output_tools else request.tool_choice
            return request.model.bind_tools(
                final_tools, tool_choice=choice, **request.model_settings
            ), fmt
        if final_tools:
            return (
                request.model.bind_tools(
                    final_tools, tool_choice=request.tool_choice, **request.model_settings
                ),
                None,
            )
        return request.model.bind(**request.model_settings), None

    @staticmethod
    def _model_input(request: ModelRequest) -> list:
        if request.system_message:
            return [request.system_message, *request.messages]
        return request.messages

    def _response(self, output: AIMessage, fmt: Any) -> ModelResponse:
        if self.name:
            output.name = self.name
        handled = handle_model_output(output, fmt, self.structured_output_tools)
        return ModelResponse(
            result=handled["messages"], structured_response=handled.get("structured_response")
        )

    def execute(self, request: ModelRequest) -> ModelResponse:
        bound, fmt = self._bound_model(request)
        return self._response(bound.invoke(self._model_input(request)), fmt)

    async def aexecute(self, request: ModelRequest) -> ModelResponse:
        bound, fmt = self._bound_model(request)
        return self._response(await bound.ainvoke(self._model_input(request)), fmt)

    def _request(self, state: dict[str, Any], runtime: Any) -> ModelRequest:
        messages = _patch_invalid_tool_calls(state["messages"])
        return ModelRequest(
            model=self.model,
            tools=self.default_tools,
            system_message=self.system_message,
            response_format=self.response_format,
            messages=messages,
            tool_choice=None,
            state=state,
            runtime=runtime,
        )

    def _commands(
        self,
        response: ModelResponse,
        commands: list[Command] | None,
        sent: list,
        state: dict[str, Any],
    ) -> list[Command]:
        # `sent` is the request's first message list, compared only now: besides the repairs
        # for invalid tool calls, messages a middleware appended to it in place (as langchain
        # allows) are written back to the state.
        return build_commands(
            response,
            commands,
            has_structured_output=self.response_format is not None,
            repaired_messages=sent if sent != state["messages"] else None,
        )

    def node(self, state: dict[str, Any], runtime: Any) -> list[Command]:
        request = self._request(state, runtime)
        sent = request.messages
        if self.wrap_model_call is None:
            return self._commands(self.execute(request), None, sent, state)
        result = self.wrap_model_call(request, self.execute)
        return self._commands(result.model_response, result.commands, sent, state)

    async def anode(self, state: dict[str, Any], runtime: Any) -> list[Command]:
        request = self._request(state, runtime)
        sent = request.messages
        if self.awrap_model_call is None:
            return self._commands(await self.aexecute(request), None, sent, state)
        result = await self.awrap_model_call(request, self.aexecute)
        return self._commands(result.model_response, result.commands, sent, state)
