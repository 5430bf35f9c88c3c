"""ToolCallLimitMiddleware: cap tool calls (all, or one tool's) per thread and per run.

Calls over the limit are answered with an error ToolMessage instead of running ("continue"),
end the run with an AI note ("end"), or raise ToolCallLimitExceededError ("error").
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from langchain_core.messages import AIMessage, ToolCall, ToolMessage

from engine.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    PrivateStateAttr,
    ResponseT,
    hook_config,
)
from engine.channels.untracked_value import UntrackedValue

ExitBehavior = Literal["continue", "error", "end"]


class ToolCallLimitState(AgentState[ResponseT]):
    thread_tool_call_count: NotRequired[Annotated[dict[str, int], PrivateStateAttr]]
    run_tool_call_count: NotRequired[Annotated[dict[str, int], UntrackedValue, PrivateStateAttr]]


def _blocked_content(tool_name: str | None) -> str:
    if tool_name:
        return f"Tool call limit exceeded. Do not call '{tool_name}' again."
    return "Tool call limit exceeded. Do not make additional tool calls."


def _final_content(
    thread_count: int,
    run_count: int,
    thread_limit: int | None,
    run_limit: int | None,
    tool_name: str | None,
) -> str:
    exceeded = []
    if thread_limit is not None and thread_count > thread_limit:
        exceeded.append(f"thread limit exceeded ({thread_count}/{thread_limit} calls)")
    if run_limit is not None and run_count > run_limit:
        exceeded.append(f"run limit exceeded ({run_count}/{run_limit} calls)")
    subject = f"'{tool_name}' tool" if tool_name else "Tool"
    return f"{subject} call limit reached: {' and '.join(exceeded)}."


class ToolCallLimitExceededError(Exception):
    def __init__(
        self,
        thread_count: int,
        run_count: int,
        thread_limit: int | None,
        run_limit: int | None,
        tool_name: str | None = None,
    ) -> None:
        self.thread_count = thread_count
        self.run_count = run_count
        self.thread_limit = thread_limit
        self.run_limit = run_limit
        self.tool_name = tool_name
        super().__init__(
            _final_content(thread_count, run_count, thread_limit, run_limit, tool_name)
        )


class ToolCallLimitMiddleware(AgentMiddleware):
    """Counts tool calls after each model call and blocks those over the limit."""

    state_schema = ToolCallLimitState

    def __init__(
        self,
        *,
        tool_name: str | None = None,
        thread_limit: int | None = None,
        run_limit: int | None = None,
        exit_behavior: ExitBehavior = "continue",
    ) -> None:
        super().__init__()
        if thread_limit is None and run_limit is None:
            raise ValueError("At least one limit must be specified (thread_limit or run_limit)")
        behaviors = ("continue", "error", "end")
        if exit_behavior not in behaviors:
            raise ValueError(
                f"Invalid exit_behavior: {exit_behavior!r}. Must be one of {behaviors}"
            )
        if thread_limit is not None and run_limit is not None and run_limit > thread_limit:
            raise ValueError(
                f"run_limit ({run_limit}) cannot exceed thread_limit ({thread_limit}). The run limit "
                "should be less than or equal to the thread limit."
            )
        self.tool_name = tool_name
        self.thread_limit = thread_limit
        self.run_limit = run_limit
        self.exit_behavior = exit_behavior

    @property
    def name(self) -> str:
        return f"{type(self).__name__}[{self.tool_name}]" if self.tool_name else type(self).__name__

    def _over(self, thread_count: int, run_count: int) -> bool:
        return (self.thread_limit is not None and thread_count + 1 > self.thread_limit) or (
            self.run_limit is not None and run_count + 1 > self.run_limit
        )

    def _split(
        self, calls: list[ToolCall], thread_count: int, run_count: int
    ) -> tuple[list, list, int, int]:
        allowed, blocked = [], []
        for call in calls:
            if self.tool_name is not None and call["name"] != self.tool_name:
                continue
            if self._over(thread_count, run_count):
                blocked.append(call)
            else:
                allowed.append(call)
                thread_count += 1
                run_count += 1
        return allowed, blocked, thread_count, run_count

    @hook_config(can_jump_to=["end"])
    def after_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        last_ai = next(
            (m for m in reversed(state.get("messages", [])) if isinstance(m, AIMessage)), None
        )
        if not last_ai or not last_ai.tool_calls:
            return None
        key = self.tool_name or "__all__"
        thread_counts = dict(state.get("thread_tool_call_count", {}))
        run_counts = dict(state.get("run_tool_call_count", {}))
        before_thread = thread_counts.get(key, 0)
        allowed, blocked, thread_count, run_count = self._split(
            last_ai.tool_calls, before_thread, run_counts.get(key, 0)
        )
        thread_counts[key] = thread_count
        run_counts[key] = run_count + len(blocked)
        counts = {"thread_tool_call_count": thread_counts, "run_tool_call_count": run_counts}
        if not blocked:
            return counts if allowed else None
        would_be = thread_count + len(blocked)
        if self.exit_behavior == "error":
            raise ToolCallLimitExceededError(
                would_be, run_counts[key], self.thread_limit, self.run_limit, self.tool_name
            )
        messages: list = [
            ToolMessage(
                content=_blocked_content(self.tool_name),
                tool_call_id=c["id"],
                name=c.get("name"),
                status="error",
            )
            for c in blocked
        ]
        if self.exit_behavior == "continue":
            return {**counts, "messages": messages}
        blocked_ids = {c["id"] for c in blocked}
        messages.extend(
            ToolMessage(
                content="Execution stopped before this tool call could run because another tool call in the same batch exceeded the limit.",
                tool_call_id=c["id"],
                name=c.get("name"),
                status="error",
            )
            for c in last_ai.tool_calls
            if c["id"] not in blocked_ids
        )
        messages.append(
            AIMessage(
                content=_final_content(
                    would_be, run_counts[key], self.thread_limit, self.run_limit, self.tool_name
                )
            )
        )
        thread_counts[key] = before_thread
        return {**counts, "jump_to": "end", "messages": messages}

    @hook_config(can_jump_to=["end"])
    async def aafter_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return self.after_model(state, runtime)


__all__ = ["ToolCallLimitExceededError", "ToolCallLimitMiddleware"]
