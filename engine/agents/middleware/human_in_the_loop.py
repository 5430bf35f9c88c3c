"""HumanInTheLoopMiddleware: pause before chosen tool calls run and let a human decide.

Mirrors `langchain.agents.middleware.human_in_the_loop`. In "batched" mode (default) after_model
raises one interrupt carrying `action_requests` and `review_configs` for every tool call that needs
review; the resume value is `{"decisions": [...]}`, one decision per request, in order:
approve (run as is), edit (run `edited_action` instead; the AI message keeps the original call and
the ToolMessage gets a notice), reject (an error ToolMessage, optional reason) or respond (the
human's message stands in for the tool result). A decision type not allowed for the tool raises
ValueError. In "per_call" mode each call is reviewed inside wrap_tool_call with its own interrupt.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Annotated, Any, Literal, NotRequired, Union, get_args

from langchain_core.messages import AIMessage, ToolCall, ToolMessage, add_notification_metadata
from pydantic import BaseModel, Discriminator, WithJsonSchema, WrapValidator, create_model
from typing_extensions import TypedDict

from engine.agents.middleware.types import AgentMiddleware, AgentState, PrivateStateAttr, ResponseT
from engine.config import get_config
from engine.prebuilt.tool_node import ToolCallRequest, ToolRuntime
from engine.runtime import get_runtime
from engine.types import Command, interrupt

_EDITED_TOOL_CALLS_KEY = "hitl_edited_tool_calls"
_EDIT_NOTICE = (
    "Note: a human reviewer replaced this tool call before it ran. The call recorded in your "
    "message is the one you produced, not the one that executed. This was intentional and "
    "authorized. Do not re-issue your original call."
)


class Action(TypedDict):
    name: str
    args: dict[str, Any]


class ActionRequest(TypedDict):
    name: str
    args: dict[str, Any]
    description: NotRequired[str]


DecisionType = Literal["approve", "edit", "reject", "respond"]
InterruptMode = Literal["batched", "per_call"]


class ReviewConfig(TypedDict):
    action_name: str
    allowed_decisions: list[DecisionType]
    args_schema: NotRequired[dict[str, Any]]


class HITLRequest(TypedDict):
    action_requests: list[ActionRequest]
    review_configs: list[ReviewConfig]


class ApproveDecision(TypedDict):
    type: Literal["approve"]


class EditDecision(TypedDict):
    type: Literal["edit"]
    edited_action: Action


class RejectDecision(TypedDict):
    type: Literal["reject"]
    message: NotRequired[str]


class RespondDecision(TypedDict):
    type: Literal["respond"]
    message: str


Decision = ApproveDecision | EditDecision | RejectDecision | RespondDecision


class HITLResponse(TypedDict):
    decisions: list[Decision]


class ToolApprovalRequest(TypedDict):
    type: Literal["tool_approval"]
    tool_call_id: str
    name: str
    args: dict[str, Any]
    description: str


class InterruptOnConfig(TypedDict):
    allowed_decisions: list[DecisionType]
    description: NotRequired[str | Callable[..., str]]
    args_schema: NotRequired[dict[str, Any]]
    when: NotRequired[Callable[[ToolCallRequest], bool]]


class _HumanInTheLoopState(AgentState[ResponseT]):
    hitl_edited_tool_calls: NotRequired[Annotated[dict[str, Action], PrivateStateAttr]]


def _validated_as_sent(answer: object, check: Any) -> object:
    check(answer)
    return answer


def _decision_schema(allowed: list[DecisionType], name: str, tool: Any = None) -> Any:
    """The pydantic type a per-call resume value must satisfy."""
    members: dict[str, Any] = {
        "approve": ApproveDecision,
        "reject": RejectDecision,
        "respond": RespondDecision,
    }
    if "edit" in allowed:
        schema = tool.tool_call_schema if tool else None
        if not (isinstance(schema, type) and issubclass(schema, BaseModel)):
            schema = Annotated[
                dict[str, Any],
                WithJsonSchema(schema if isinstance(schema, dict) else {"type": "object"}),
            ]
        edited = create_model("EditedAction", name=(Literal[name], ...), args=(schema, ...))
        decision = create_model(
            "EditDecision", type=(Literal["edit"], ...), edited_action=(edited, ...)
        )
        members["edit"] = Annotated[decision, WrapValidator(_validated_as_sent)]
    chosen = tuple(members[d] for d in dict.fromkeys(allowed))
    return chosen[0] if len(chosen) == 1 else Annotated[Union[chosen], Discriminator("type")]  # noqa: UP007


def _answer_message(call: ToolCall, decision: dict) -> ToolMessage:
    """The ToolMessage standing for a rejected call or a human's direct response."""
    if decision["type"] == "respond":
        content = decision["message"]
    elif reason := decision.get("message"):
        content = f"User rejected the tool call for `{call['name']}` with reason: {reason}"
    else:
        content = (
            f"User rejected the tool call for `{call['name']}` with id {call['id']}. The tool was "
            "not executed. Do not retry this tool call unless the user explicitly requests it."
        )
    message = ToolMessage(
        content=content,
        name=call["name"],
        tool_call_id=call["id"],
        status="success" if decision["type"] == "respond" else "error",
    )
    return add_notification_metadata(
        message, source="hitl_interrupt_decision", data={"decision": decision["type"]}
    )


class HumanInTheLoopMiddleware(AgentMiddleware):
    """Interrupt before the tools named in `interrupt_on` run; resume with human decisions."""

    state_schema = _HumanInTheLoopState

    def __init__(
        self,
        interrupt_on: dict[str, bool | InterruptOnConfig],
        *,
        description_prefix: str = "Tool execution requires approval",
        edit_notice: str | None = _EDIT_NOTICE,
        interrupt_mode: InterruptMode = "batched",
    ) -> None:
        super().__init__()
        if interrupt_mode not in get_args(InterruptMode):
            allowed = " or ".join(repr(m) for m in get_args(InterruptMode))
            raise ValueError(f"`interrupt_mode` must be {allowed}, got {interrupt_mode!r}.")
        self.interrupt_mode = interrupt_mode
        self.edit_notice = edit_notice
        self.description_prefix = description_prefix
        self.interrupt_on: dict[str, InterruptOnConfig] = {}
        for name, config in interrupt_on.items():
            if isinstance(config, bool):
                if config:
                    self.interrupt_on[name] = InterruptOnConfig(
                        allowed_decisions=["approve", "edit", "reject", "respond"]
                    )
            elif config.get("allowed_decisions"):
                self.interrupt_on[name] = config
            else:
                raise ValueError(
                    f"Invalid `interrupt_on` config for tool '{name}': `allowed_decisions` must be a "
                    "non-empty list of decision types (e.g. ['approve', 'reject']). Got config with "
                    f"keys {sorted(config.keys())} and allowed_decisions={config.get('allowed_decisions')!r}."
                )

    # ------------------------------------------------------------------ requests
    def _description(
        self, call: ToolCall, config: InterruptOnConfig, state: Any, runtime: Any
    ) -> str:
        value = config.get("description")
        if callable(value):
            return value(call, state, runtime)
        if value is not None:
            return value
        return f"{self.description_prefix}\n\nTool: {call['name']}\nArgs: {call['args']}"

    def _create_action_and_config(
        self, call: ToolCall, config: InterruptOnConfig, state: Any, runtime: Any
    ) -> tuple[ActionRequest, ReviewConfig]:
        action = ActionRequest(
            name=call["name"],
            args=call["args"],
            description=self._description(call, config, state, runtime),
        )
        return action, ReviewConfig(
            action_name=call["name"], allowed_decisions=config["allowed_decisions"]
        )

    def _should_interrupt(
        self, call: ToolCall, config: InterruptOnConfig, state: Any, runtime: Any
    ) -> bool:
        when = config.get("when")
        if when is None:
            return True
        try:
            run_config = get_config()
        except RuntimeError:
            run_config = {}
        tool_runtime = ToolRuntime(
            state=state,
            context=runtime.context,
            config=run_config,
            stream_writer=runtime.stream_writer,
            tool_call_id=call["id"],
            store=runtime.store,
            execution_info=runtime.execution_info,
            server_info=runtime.server_info,
        )
        return when(ToolCallRequest(tool_call=call, tool=None, state=state, runtime=tool_runtime))

    @staticmethod
    def _process_decision(
        decision: dict, call: ToolCall, config: InterruptOnConfig
    ) -> tuple[ToolCall | None, ToolMessage | None]:
        allowed = config["allowed_decisions"]
        kind = decision["type"]
        if kind in ("approve", "edit") and kind in allowed:
            return call, None
        if kind in ("reject", "respond") and kind in allowed:
            return call, _answer_message(call, decision)
        raise ValueError(
            f"Unexpected human decision: {decision}. Decision type '{decision.get('type')}' is not "
            f"allowed for tool '{call['name']}'. Expected one of {allowed} based on the tool's "
            "configuration."
        )

    # ------------------------------------------------------------------ batched review
    def after_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        if self.interrupt_mode == "per_call" or not state["messages"]:
            return None
        last_ai = next((m for m in reversed(state["messages"]) if isinstance(m, AIMessage)), None)
        if not last_ai or not last_ai.tool_calls:
            return None
        requests: list[ActionRequest] = []
        configs: list[ReviewConfig] = []
        reviewed: list[int] = []
        for idx, call in enumerate(last_ai.tool_calls):
            config = self.interrupt_on.get(call["name"])
            if config is None or not self._should_interrupt(call, config, state, runtime):
                continue
            action, review = self._create_action_and_config(call, config, state, runtime)
            requests.append(action)
            configs.append(review)
            reviewed.append(idx)
        if not requests:
            return {_EDITED_TOOL_CALLS_KEY: {}} if state.get(_EDITED_TOOL_CALLS_KEY) else None
        decisions = interrupt(HITLRequest(action_requests=requests, review_configs=configs))[
            "decisions"
        ]
        if len(decisions) != len(reviewed):
            raise ValueError(
                f"Number of human decisions ({len(decisions)}) does not match number of hanging "
                f"tool calls ({len(reviewed)})."
            )
        calls: list[ToolCall] = []
        answers: list[ToolMessage] = []
        edited: dict[str, Action] = {}
        pending = iter(decisions)
        for idx, call in enumerate(last_ai.tool_calls):
            if idx not in reviewed:
                calls.append(call)
                continue
            decision = next(pending)
            kept, answer = self._process_decision(decision, call, self.interrupt_on[call["name"]])
            if kept is not None:
                calls.append(kept)
                if decision["type"] == "edit" and (call_id := kept.get("id")):
                    edited[call_id] = decision["edited_action"]
            if answer:
                answers.append(answer)
        last_ai.tool_calls = calls
        return {"messages": [last_ai, *answers], _EDITED_TOOL_CALLS_KEY: edited}

    async def aafter_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return self.after_model(state, runtime)

    # ------------------------------------------------------------------ per-call review and edits
    def _resolve_per_call(
        self, request: ToolCallRequest
    ) -> tuple[ToolCallRequest, Action | None] | ToolMessage:
        call = request.tool_call
        config = self.interrupt_on.get(call["name"])
        if config is None or (config.get("when") is not None and not config["when"](request)):
            return request, None
        if call["id"] is None:
            raise ValueError(
                f"Tool call `{call['name']}` has no ID, so its result can't be matched to it. Make "
                "sure the chat model returns tool call IDs."
            )
        action, _ = self._create_action_and_config(call, config, request.state, get_runtime())
        value = ToolApprovalRequest(
            type="tool_approval",
            tool_call_id=call["id"],
            name=call["name"],
            args=call["args"],
            description=action.get("description", ""),
        )
        decision = interrupt(
            value,
            response_schema=_decision_schema(
                config["allowed_decisions"], call["name"], request.tool
            ),
        )
        if decision["type"] == "approve":
            return request, None
        if decision["type"] == "edit":
            executed = decision["edited_action"]
            return self._apply_edit(request, executed), executed
        return _answer_message(call, decision)

    def _reviewer_edit(self, request: ToolCallRequest) -> Action | None:
        call_id = request.tool_call.get("id")
        edited = (request.state.get(_EDITED_TOOL_CALLS_KEY) or {}) if call_id else {}
        return edited.get(call_id)

    def _apply_edit(self, request: ToolCallRequest, executed: Action) -> ToolCallRequest:
        call: ToolCall = {**request.tool_call, "name": executed["name"], "args": executed["args"]}
        if executed["name"] == request.tool_call["name"]:
            return request.override(tool_call=call)
        available = request.runtime.tools
        tool = next((t for t in available if t.name == executed["name"]), None)
        if tool is None:
            names = ", ".join(sorted(t.name for t in available))
            raise ValueError(
                f"Reviewer edited tool call {request.tool_call['id']!r} to {executed['name']!r}, "
                f"which is not an available tool. Available tools: {names}."
            )
        return request.override(tool_call=call, tool=tool)

    def _prepend_notice(self, message: ToolMessage, executed: Action) -> ToolMessage:
        if not self.edit_notice:
            return message
        notice = (
            f"{self.edit_notice} Executed instead: {executed['name']} with arguments "
            f"{json.dumps(executed['args'], default=str)}."
        )
        if message.content:
            notice += "\n\nTool response:"
        if isinstance(message.content, str):
            if notice in message.content:
                return message
            content: Any = f"{notice}\n{message.content}" if message.content else notice
        else:
            if any(notice in str(block) for block in message.content):
                return message
            plain = message.content and all(isinstance(b, str) for b in message.content)
            content = [notice if plain else {"type": "text", "text": notice}, *message.content]
        return message.model_copy(update={"content": content})

    def _annotate(self, result: Any, request: ToolCallRequest, executed: Action | None) -> Any:
        if not self.edit_notice or executed is None:
            return result
        if isinstance(result, ToolMessage):
            return self._prepend_notice(result, executed)
        if not isinstance(result, Command) or not isinstance(result.update, dict):
            return result
        messages = result.update.get("messages")
        if not isinstance(messages, list):
            return result
        call_id = request.tool_call.get("id")
        annotated = [
            self._prepend_notice(m, executed)
            if isinstance(m, ToolMessage) and m.tool_call_id == call_id
            else m
            for m in messages
        ]
        return replace(result, update={**result.update, "messages": annotated})

    def _prepared(
        self, request: ToolCallRequest
    ) -> tuple[ToolCallRequest, Action | None] | ToolMessage:
        if self.interrupt_mode == "per_call":
            return self._resolve_per_call(request)
        executed = self._reviewer_edit(request)
        return (self._apply_edit(request, executed) if executed is not None else request), executed

    def wrap_tool_call(self, request: ToolCallRequest, handler: Callable) -> Any:
        prepared = self._prepared(request)
        if isinstance(prepared, ToolMessage):
            return prepared
        to_run, executed = prepared
        return self._annotate(handler(to_run), to_run, executed)

    async def awrap_tool_call(self, request: ToolCallRequest, handler: Callable) -> Any:
        prepared = self._prepared(request)
        if isinstance(prepared, ToolMessage):
            return prepared
        to_run, executed = prepared
        return self._annotate(await handler(to_run), to_run, executed)


__all__ = [
    "ActionRequest",
    "Decision",
    "HITLRequest",
    "HITLResponse",
    "HumanInTheLoopMiddleware",
    "InterruptOnConfig",
    "ReviewConfig",
]
