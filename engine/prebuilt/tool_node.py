"""The tools node of an agent: runs the tool calls of the last AI message (or one call per Send).

Mirrors `langgraph.prebuilt.tool_node`: ToolNode, ToolRuntime, ToolCallRequest, InjectedState,
InjectedStore and the same error handling (by default only argument-validation errors become
error ToolMessages; other tool exceptions propagate; an unknown tool name is a model-visible error).
"""

from __future__ import annotations

import asyncio
import json
import warnings
from collections.abc import Awaitable, Callable, Sequence
from copy import copy, deepcopy
from dataclasses import dataclass, replace
from typing import (
    Any,
    Literal,
    TypeVar,
)

from langchain_core.messages import (
    AIMessage,
    RemoveMessage,
    ToolCall,
    ToolMessage,
    convert_to_messages,
)
from langchain_core.runnables import Runnable
from langchain_core.runnables.config import get_executor_for_config
from langchain_core.tools import BaseTool
from langchain_core.tools import tool as create_tool
from langchain_core.tools.base import (
    TOOL_MESSAGE_BLOCK_TYPES,
)
from pydantic import ValidationError
from typing_extensions import TypedDict

from engine._constants import CONF, CONFIG_KEY_READ, CONFIG_KEY_RUNTIME
from engine._internal._config import ensure_config
from engine.errors import GraphBubbleUp
from engine.graph.message import REMOVE_ALL_MESSAGES
from engine.prebuilt.tool_errors import (  # the templates: langgraph's module holds them too
    INVALID_TOOL_NAME_ERROR_TEMPLATE,
    TOOL_CALL_ERROR_TEMPLATE,
    TOOL_EXECUTION_ERROR_TEMPLATE,
    TOOL_INVOCATION_ERROR_TEMPLATE,
    ToolInvocationError,
    _default_handle_tool_errors,
    _filter_validation_errors,
    _handle_tool_error,
    _infer_handled_types,
)
from engine.prebuilt.tool_injection import (
    InjectedState,
    InjectedStore,
    ToolRuntime,
    _get_all_injected_args,
    _InjectedArgs,
    runtime_as,
)
from engine.pregel.callable import EngineRunnable
from engine.record.serving import replayed_tool
from engine.types import Command, Send

StateT = TypeVar("StateT")
ContextT = TypeVar("ContextT")
InputType = Literal["list", "dict", "tool_calls"]


@dataclass
class ToolCallRequest:
    """One tool call as seen by wrap_tool_call middleware."""

    tool_call: ToolCall
    tool: BaseTool | None
    state: Any
    runtime: ToolRuntime

    def __setattr__(self, name: str, value: Any) -> None:
        if hasattr(self, "__dataclass_fields__") and hasattr(self, name):
            warnings.warn(
                f"Setting attribute '{name}' on ToolCallRequest is deprecated. Use the override() "
                "method instead to create a new instance with modified values.",
                DeprecationWarning,
                stacklevel=2,
            )
        object.__setattr__(self, name, value)

    def override(self, **overrides: Any) -> ToolCallRequest:
        request = replace(self, **overrides)
        if "state" in overrides and isinstance(request.runtime, ToolRuntime):
            request = replace(request, runtime=replace(request.runtime, state=request.state))
        return request


ToolCallWrapper = Callable[
    [ToolCallRequest, Callable[[ToolCallRequest], ToolMessage | Command]], ToolMessage | Command
]
AsyncToolCallWrapper = Callable[
    [ToolCallRequest, Callable[[ToolCallRequest], Awaitable[ToolMessage | Command]]],
    Awaitable[ToolMessage | Command],
]


def msg_content_output(output: Any) -> str | list[dict]:
    """A tool's return value as ToolMessage content: strings and content blocks as is, else JSON."""
    if isinstance(output, str) or (
        isinstance(output, list)
        and all(isinstance(x, dict) and x.get("type") in TOOL_MESSAGE_BLOCK_TYPES for x in output)
    ):
        return output
    try:
        return json.dumps(output, ensure_ascii=False)
    except Exception:
        return str(output)


class ToolNode(EngineRunnable, Runnable):
    """Runs tool calls in parallel and returns ToolMessages (or the tools' Commands).

    A langchain Runnable, as langgraph's is: it composes (`pick | ToolNode(tools)`) and takes
    `with_config`; as a node it runs as the engine's own node callables do."""

    def __init__(
        self,
        tools: Sequence[BaseTool | Callable],
        *,
        name: str = "tools",
        tags: list[str] | None = None,
        handle_tool_errors: Any = _default_handle_tool_errors,
        messages_key: str = "messages",
        wrap_tool_call: ToolCallWrapper | None = None,
        awrap_tool_call: AsyncToolCallWrapper | None = None,
        state_keys: Sequence[str] | None = None,
    ) -> None:
        self.name = name
        self.tags = tags
        self._handle_tool_errors = handle_tool_errors
        self._messages_key = messages_key
        self._wrap_tool_call = wrap_tool_call
        self._awrap_tool_call = awrap_tool_call
        self._state_keys = list(state_keys) if state_keys is not None else None
        self._tools_by_name: dict[str, BaseTool] = {}
        self._injected_args: dict[str, _InjectedArgs] = {}
        for t in tools:
            t = t if isinstance(t, BaseTool) else create_tool(t)
            self._tools_by_name[t.name] = t
            self._injected_args[t.name] = _get_all_injected_args(t)

    @property
    def tools_by_name(self) -> dict[str, BaseTool]:
        return self._tools_by_name

    def __repr__(self) -> str:
        return f"ToolNode(tools={list(self._tools_by_name)})"

    # -------------------------------------------------------------- entry points
    # invoke/ainvoke hand the graph's runtime to _func/_afunc, the methods langgraph's ToolNode
    # runs: programs subclass ToolNode and override them (calling super()._func(...)).
    def invoke(self, input: Any, config: dict | None = None, **kwargs: Any) -> Any:
        config = ensure_config() if config is None else config  # a node's own call: its task's
        return self._func(input, config, self._graph_runtime(config))

    async def ainvoke(self, input: Any, config: dict | None = None, **kwargs: Any) -> Any:
        config = ensure_config() if config is None else config
        return await self._afunc(input, config, self._graph_runtime(config))

    def _graph_runtime(self, config: dict) -> Any:
        runtime = config.get(CONF, {}).get(CONFIG_KEY_RUNTIME)
        if runtime is None:  # as langgraph's: a ToolNode runs in a graph, its runtime injected
            raise ValueError(f"Missing required config key 'N/A' for '{self.name}'.")
        return runtime

    def _runtimes(
        self, input: Any, config: dict, runtime: Any
    ) -> tuple[list[ToolCall], InputType, list[ToolRuntime]]:
        calls, input_type = self._parse_input(input)
        state = self._extract_state(input, config)
        runtimes = [
            ToolRuntime(
                state=state,
                tool_call_id=call["id"],
                config=config,
                context=runtime.context,
                store=runtime.store,
                stream_writer=runtime.stream_writer,
                tools=list(self._tools_by_name.values()),
                execution_info=runtime.execution_info,
                server_info=runtime.server_info,
            )
            for call in calls
        ]
        return calls, input_type, runtimes

    def _func(self, input: Any, config: dict, runtime: Any) -> Any:
        calls, input_type, runtimes = self._runtimes(input, config, runtime)
        if len(calls) == 1:
            outputs = [self._run_one(calls[0], input_type, runtimes[0])]
        else:  # the run's executor: `max_concurrency` in the config bounds it, as in langgraph
            with get_executor_for_config(config) as executor:
                outputs = list(
                    executor.map(self._run_one, calls, [input_type] * len(calls), runtimes)
                )
        return self._combine_tool_outputs(outputs, input_type)

    async def _afunc(self, input: Any, config: dict, runtime: Any) -> Any:
        calls, input_type, runtimes = self._runtimes(input, config, runtime)
        outputs = await asyncio.gather(
            *(self._arun_one(c, input_type, r) for c, r in zip(calls, runtimes, strict=False))
        )
        return self._combine_tool_outputs(list(outputs), input_type)

    # -------------------------------------------------------------- running one call
    def _handled(self, e: Exception) -> bool:
        flag = self._handle_tool_errors
        if isinstance(flag, type) and issubclass(flag, Exception):
            types: tuple = (flag,)
        elif isinstance(flag, tuple):
            types = flag
        elif callable(flag) and not isinstance(flag, type):
            types = _infer_handled_types(flag)
        else:
            types = (Exception,)
        return bool(flag) and isinstance(e, types)

    def _error_message(self, e: Exception, call: ToolCall) -> ToolMessage:
        content = _handle_tool_error(e, flag=self._handle_tool_errors)
        return ToolMessage(
            content=content, name=call["name"], tool_call_id=call["id"], status="error"
        )

    def _prepare(self, request: ToolCallRequest) -> tuple[BaseTool | None, Any]:
        call = request.tool_call
        if request.tool is None:
            if invalid := self._validate_tool_call(call):
                return None, invalid
            raise TypeError(f"Tool {call['name']} is not registered with ToolNode")
        injected = self._inject_tool_args(call, request.runtime, request.tool)
        # a replay serves the recorded output through a stand-in with the tool's name and schema
        tool = replayed_tool(request.tool, call, request.runtime.config)
        return tool, {**injected, "type": "tool_call"}

    def _tool_failed(self, e: Exception, call: ToolCall) -> ToolMessage:
        """A tool raised: an error ToolMessage if handle_tool_errors covers it, else re-raise.

        Argument validation errors become ToolInvocationError (handled by default).
        """
        if isinstance(e, GraphBubbleUp):
            raise e
        if isinstance(e, ValidationError):
            filtered = _filter_validation_errors(e, self._injected_args.get(call["name"]))
            error = ToolInvocationError(call["name"], e, call["args"], filtered)
            error.__cause__ = e
            e = error
        if not self._handled(e):
            raise e
        return self._error_message(e, call)

    def _wrapper_failed(self, e: Exception, call: ToolCall) -> ToolMessage:
        """wrap_tool_call raised: handle_tool_errors decides (the default handler re-raises)."""
        if isinstance(e, GraphBubbleUp) or not self._handle_tool_errors:
            raise e
        return self._error_message(e, call)

    def _checked(self, response: Any, call: ToolCall, input_type: InputType) -> Any:
        try:
            return self._normalize_tool_response(response, call, input_type)
        except Exception as e:
            return self._tool_failed(e, call)

    def _execute_tool_sync(
        self, request: ToolCallRequest, input_type: InputType, config: dict
    ) -> Any:
        tool, call_args = self._prepare(request)
        if tool is None:
            return call_args
        try:
            response = tool.invoke(call_args, config)
        except Exception as e:
            return self._tool_failed(e, request.tool_call)
        return self._checked(response, request.tool_call, input_type)

    async def _execute_tool_async(
        self, request: ToolCallRequest, input_type: InputType, config: dict
    ) -> Any:
        tool, call_args = self._prepare(request)
        if tool is None:
            return call_args
        try:
            response = await tool.ainvoke(call_args, config)
        except Exception as e:
            return self._tool_failed(e, request.tool_call)
        return self._checked(response, request.tool_call, input_type)

    def _request(self, call: ToolCall, runtime: ToolRuntime) -> ToolCallRequest:
        return ToolCallRequest(
            tool_call=call,
            tool=self._tools_by_name.get(call["name"]),
            state=runtime.state,
            runtime=runtime,
        )

    def _run_one(self, call: ToolCall, input_type: InputType, runtime: ToolRuntime) -> Any:
        request = self._request(call, runtime)
        config = runtime.config
        if self._wrap_tool_call is None:
            return self._execute_tool_sync(request, input_type, config)
        try:
            return self._wrap_tool_call(
                request, lambda req: self._execute_tool_sync(req, input_type, config)
            )
        except Exception as e:
            return self._wrapper_failed(e, request.tool_call)

    async def _arun_one(self, call: ToolCall, input_type: InputType, runtime: ToolRuntime) -> Any:
        request = self._request(call, runtime)
        config = runtime.config
        if self._awrap_tool_call is None and self._wrap_tool_call is None:
            return await self._execute_tool_async(request, input_type, config)

        async def execute(req: ToolCallRequest) -> Any:
            return await self._execute_tool_async(req, input_type, config)

        try:
            if self._awrap_tool_call is not None:
                return await self._awrap_tool_call(request, execute)
            return self._wrap_tool_call(
                request, lambda req: self._execute_tool_sync(req, input_type, config)
            )
        except Exception as e:
            return self._wrapper_failed(e, request.tool_call)

    # -------------------------------------------------------------- input and output shapes
    def _parse_input(self, input: Any) -> tuple[list[ToolCall], InputType]:
        if isinstance(input, list):
            if isinstance(input[-1], dict) and input[-1].get("type") == "tool_call":
                return list(input), "tool_calls"
            input_type: InputType = "list"
            messages = input
        elif isinstance(input, dict) and input.get("__type") == "tool_call_with_context":
            return [input["tool_call"]], "tool_calls"
        elif isinstance(input, dict) and (messages := input.get(self._messages_key, [])):
            input_type = "dict"
        elif messages := getattr(input, self._messages_key, []):
            input_type = "dict"
        else:
            raise ValueError("No message found in input")
        ai = next((m for m in reversed(messages) if isinstance(m, AIMessage)), None)
        if ai is None:
            raise ValueError("No AIMessage found in input")
        return list(ai.tool_calls), input_type

    def _extract_state(self, input: Any, config: dict) -> Any:
        if isinstance(input, dict) and input.get("__type") == "tool_call_with_context":
            return input["state"]
        if (
            isinstance(input, list)
            and input
            and isinstance(input[-1], dict)
            and input[-1].get("type") == "tool_call"
        ):
            read = config.get(CONF, {}).get(CONFIG_KEY_READ)
            if read is None or self._state_keys is None:
                return {}
            return read(self._state_keys)
        return input

    def _validate_tool_call(self, call: ToolCall) -> ToolMessage | None:
        if call["name"] in self._tools_by_name:
            return None
        content = INVALID_TOOL_NAME_ERROR_TEMPLATE.format(
            requested_tool=call["name"], available_tools=", ".join(self._tools_by_name)
        )
        return ToolMessage(content, name=call["name"], tool_call_id=call["id"], status="error")

    def _inject_tool_args(
        self, call: ToolCall, runtime: ToolRuntime, tool: BaseTool | None = None
    ) -> ToolCall:
        injected = self._injected_args.get(call["name"])
        if not injected and tool is not None:
            injected = _get_all_injected_args(tool)
        if not injected:
            return call
        args: dict[str, Any] = {}
        if injected.state:
            args.update(self._state_args(injected, runtime.state, call))
        if injected.store:
            if runtime.store is None:
                raise ValueError(
                    "Cannot inject store into tools with InjectedStore annotations - please "
                    "compile your graph with a store."
                )
            args[injected.store] = runtime.store
        if injected.runtime:
            args[injected.runtime] = runtime_as(runtime, injected.runtime_type)
        out = copy(call)
        kept = {k: v for k, v in call["args"].items() if k not in injected.all_injected_keys}
        out["args"] = {**kept, **args}
        return out

    def _state_args(self, injected: _InjectedArgs, state: Any, call: ToolCall) -> dict[str, Any]:
        fields = list(injected.state.values())
        if isinstance(state, list):
            if (len(fields) == 1 and fields[0] == self._messages_key) or fields[0] is None:
                state = {self._messages_key: state}
            else:
                msg = f"Invalid input to ToolNode. Tool {call['name']} requires graph state dict as input."
                if any(fields):
                    msg += f" State should contain fields {', '.join(f for f in fields if f)}."
                raise ValueError(msg)
        out: dict[str, Any] = {}
        for arg, key in injected.state.items():
            if not key:
                out[arg] = state
            elif isinstance(state, dict):
                if key in state:
                    out[arg] = state[key]
                elif arg not in injected.optional_state_args:
                    raise KeyError(key)
            elif hasattr(state, key):
                out[arg] = getattr(state, key)
            elif arg not in injected.optional_state_args:
                raise AttributeError(key)
        return out

    def _normalize_tool_response(self, response: Any, call: ToolCall, input_type: InputType) -> Any:
        if isinstance(response, Command):
            return self._validate_tool_command(response, call, input_type)
        if isinstance(response, ToolMessage):
            response.content = msg_content_output(response.content)
            return response
        if isinstance(response, list):
            if all(isinstance(r, (Command, ToolMessage)) for r in response):
                return self._validate_tool_command_list(response, call, input_type)
            raise TypeError(
                f"Tool {call['name']} returned a list with invalid element types: expected all "
                "Command or ToolMessage"
            )
        raise TypeError(f"Tool {call['name']} returned unexpected type: {type(response)}")

    def _validate_tool_command_list(
        self, response: list, call: ToolCall, input_type: InputType
    ) -> list:
        expected = call["id"]
        count = 0
        for item in response:
            if isinstance(item, ToolMessage):
                count += item.tool_call_id == expected
            elif isinstance(item, Command) and isinstance(item.update, dict):
                count += sum(
                    isinstance(m, ToolMessage) and m.tool_call_id == expected
                    for m in item.update.get(self._messages_key, [])
                )
        if count != 1:
            raise ValueError(
                f"Tool {call['name']} returned a list with {count} messages bound to tool_call_id "
                f"{expected!r}; expected exactly one terminating ToolMessage."
            )
        out = []
        for item in response:
            if isinstance(item, Command):
                out.append(
                    self._validate_tool_command(item, call, input_type, require_terminator=False)
                )
            else:
                item.content = msg_content_output(item.content)
                out.append(item)
        return out

    def _validate_tool_command(
        self,
        command: Command,
        call: ToolCall,
        input_type: InputType,
        *,
        require_terminator: bool = True,
    ) -> Command:
        if isinstance(command.update, dict):
            if input_type not in ("dict", "tool_calls"):
                raise ValueError(
                    f"Tools can provide a dict in Command.update only when using dict with "
                    f"'{self._messages_key}' key as ToolNode input, got: {command.update} for tool "
                    f"'{call['name']}'"
                )
            updated = deepcopy(command)
            messages = (updated.update or {}).get(self._messages_key, [])
        elif isinstance(command.update, list):
            if input_type != "list":
                raise ValueError(
                    "Tools can provide a list of messages in Command.update only when using list "
                    f"of messages as ToolNode input, got: {command.update} for tool '{call['name']}'"
                )
            updated = deepcopy(command)
            messages = updated.update
        else:
            return command
        messages = convert_to_messages(messages)
        if messages == [RemoveMessage(id=REMOVE_ALL_MESSAGES)]:
            return updated
        matched = False
        for message in messages:
            if isinstance(message, ToolMessage) and message.tool_call_id == call["id"]:
                message.name = call["name"]
                matched = True
        if require_terminator and updated.graph is None and not matched:
            example = (
                '`Command(update={"messages": [ToolMessage("Success", tool_call_id=tool_call_id), ...]}, ...)`'
                if input_type == "dict"
                else '`Command(update=[ToolMessage("Success", tool_call_id=tool_call_id), ...], ...)`'
            )
            raise ValueError(
                f"Expected to have a matching ToolMessage in Command.update for tool "
                f"'{call['name']}', got: {messages}. Every tool call (LLM requesting to call a tool) "
                "in the message history MUST have a corresponding ToolMessage. You can fix it by "
                f"modifying the tool to return {example}."
            )
        return updated

    def _combine_tool_outputs(self, outputs: list, input_type: InputType) -> Any:
        flat: list = []
        for output in outputs:
            flat.extend(output if isinstance(output, list) else [output])
        if not any(isinstance(o, Command) for o in flat):
            return flat if input_type == "list" else {self._messages_key: flat}
        combined: list = []
        parent: Command | None = None
        for output in flat:
            if isinstance(output, Command):
                if (
                    output.graph is Command.PARENT
                    and isinstance(output.goto, list)
                    and all(isinstance(s, Send) for s in output.goto)
                ):
                    parent = (
                        replace(parent, goto=list(parent.goto) + output.goto)
                        if parent
                        else Command(graph=Command.PARENT, goto=output.goto)
                    )
                else:
                    combined.append(output)
            else:
                combined.append(
                    [output] if input_type == "list" else {self._messages_key: [output]}
                )
        if parent:
            combined.append(parent)
        return combined


ToolCallWithContext = TypedDict(  # a functional form: "__type" would be mangled in a class body
    "ToolCallWithContext",
    {"__type": Literal["tool_call_with_context"], "tool_call": ToolCall, "state": Any},
)
"""A Send payload for the tools node: one tool call and the state it was made in."""


def tools_condition(state: Any, messages_key: str = "messages") -> Literal["tools", "__end__"]:
    """Route to "tools" when the last message has tool calls, else to the end."""
    if isinstance(state, list):
        ai = state[-1]
    elif (isinstance(state, dict) and (messages := state.get(messages_key, []))) or (
        messages := getattr(state, messages_key, [])
    ):
        ai = messages[-1]
    else:
        raise ValueError(f"No messages found in input state to tool_edge: {state}")
    return "tools" if getattr(ai, "tool_calls", None) else "__end__"


__all__ = [
    "INVALID_TOOL_NAME_ERROR_TEMPLATE",
    "TOOL_CALL_ERROR_TEMPLATE",
    "TOOL_EXECUTION_ERROR_TEMPLATE",
    "TOOL_INVOCATION_ERROR_TEMPLATE",
    "InjectedState",
    "InjectedStore",
    "ToolCallRequest",
    "ToolCallWithContext",
    "ToolNode",
    "ToolRuntime",
    "tools_condition",
]
