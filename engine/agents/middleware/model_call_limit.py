"""ModelCallLimitMiddleware: stop (or fail) once the model was called N times per thread or run."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from langchain_core.messages import AIMessage

from engine.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    PrivateStateAttr,
    ResponseT,
    hook_config,
)
from engine.channels.untracked_value import UntrackedValue


class ModelCallLimitState(AgentState[ResponseT]):
    thread_model_call_count: NotRequired[Annotated[int, PrivateStateAttr]]
    run_model_call_count: NotRequired[Annotated[int, UntrackedValue, PrivateStateAttr]]


def _limit_message(
    thread_count: int, run_count: int, thread_limit: int | None, run_limit: int | None
) -> str:
    exceeded = []
    if thread_limit is not None and thread_count >= thread_limit:
        exceeded.append(f"thread limit ({thread_count}/{thread_limit})")
    if run_limit is not None and run_count >= run_limit:
        exceeded.append(f"run limit ({run_count}/{run_limit})")
    return f"Model call limits exceeded: {', '.join(exceeded)}"


class ModelCallLimitExceededError(Exception):
    def __init__(
        self, thread_count: int, run_count: int, thread_limit: int | None, run_limit: int | None
    ) -> None:
        self.thread_count = thread_count
        self.run_count = run_count
        self.thread_limit = thread_limit
        self.run_limit = run_limit
        super().__init__(_limit_message(thread_count, run_count, thread_limit, run_limit))


class ModelCallLimitMiddleware(AgentMiddleware):
    """Counts model calls per thread (checkpointed) and per run; over a limit: end with an AI note or raise."""

    state_schema = ModelCallLimitState

    def __init__(
        self,
        *,
        thread_limit: int | None = None,
        run_limit: int | None = None,
        exit_behavior: Literal["end", "error"] = "end",
    ) -> None:
        super().__init__()
        if thread_limit is None and run_limit is None:
            raise ValueError("At least one limit must be specified (thread_limit or run_limit)")
        if exit_behavior not in {"end", "error"}:
            raise ValueError(f"Invalid exit_behavior: {exit_behavior}. Must be 'end' or 'error'")
        self.thread_limit = thread_limit
        self.run_limit = run_limit
        self.exit_behavior = exit_behavior

    @hook_config(can_jump_to=["end"])
    def before_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        thread_count = state.get("thread_model_call_count", 0)
        run_count = state.get("run_model_call_count", 0)
        over_thread = self.thread_limit is not None and thread_count >= self.thread_limit
        over_run = self.run_limit is not None and run_count >= self.run_limit
        if not (over_thread or over_run):
            return None
        if self.exit_behavior == "error":
            raise ModelCallLimitExceededError(
                thread_count, run_count, self.thread_limit, self.run_limit
            )
        message = _limit_message(thread_count, run_count, self.thread_limit, self.run_limit)
        return {"jump_to": "end", "messages": [AIMessage(content=message)]}

    @hook_config(can_jump_to=["end"])
    async def abefore_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return self.before_model(state, runtime)

    def after_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return {
            "thread_model_call_count": state.get("thread_model_call_count", 0) + 1,
            "run_model_call_count": state.get("run_model_call_count", 0) + 1,
        }

    async def aafter_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return self.after_model(state, runtime)


__all__ = ["ModelCallLimitExceededError", "ModelCallLimitMiddleware"]
