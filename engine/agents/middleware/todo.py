"""TodoListMiddleware: a `write_todos` tool and a `todos` state key for planning multi-step work.

Mirrors `langchain.agents.middleware.todo` (same tool name, schema, state key, tool result and the
parallel-call guard); the prompt and tool description are our own wording.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, NotRequired

from langchain_core.messages import AIMessage, SystemMessage, ToolMessage
from langchain_core.tools import InjectedToolCallId, StructuredTool, tool
from pydantic import BaseModel
from typing_extensions import TypedDict

from engine.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    ModelRequest,
    OmitFromInput,
    ResponseT,
)
from engine.prebuilt.tool_node import ToolRuntime
from engine.types import Command


class Todo(TypedDict):
    content: str
    status: Literal["pending", "in_progress", "completed"]


class PlanningState(AgentState[ResponseT]):
    todos: Annotated[NotRequired[list[Todo]], OmitFromInput]


class WriteTodosInput(BaseModel):
    todos: list[Todo]


WRITE_TODOS_TOOL_DESCRIPTION = """Create or replace the to-do list for the current task.

Use it for work of three or more distinct steps, when the user gives several tasks, or when the plan
may change as results come in; skip it for simple or conversational requests.

Each item has `content` and a `status`: pending, in_progress or completed. Mark an item in_progress
before you start it and completed as soon as it is fully done (not if blocked or partial); keep at
least one item in_progress until everything is completed; remove items that no longer matter.

The list tracks work, it is not the answer: give the user's result in a message after your last
`write_todos` call."""

WRITE_TODOS_SYSTEM_PROMPT = """## `write_todos`

You can plan complex, multi-step objectives with the `write_todos` tool. Keep the list current:
mark each step completed as soon as it is done, and revise the list when you learn something new.
Do not use it for simple requests, and never call it more than once in parallel.

When all work is done, answer in the message after your last `write_todos` call, starting with the
content the user asked for."""

_PARALLEL_ERROR = (
    "Error: The `write_todos` tool should never be called multiple times in parallel. Please call "
    "it only once per model invocation to update the todo list."
)


def _update(todos: list[Todo], tool_call_id: str | None) -> Command:
    return Command(
        update={
            "todos": todos,
            "messages": [ToolMessage(f"Updated todo list to {todos}", tool_call_id=tool_call_id)],
        }
    )


@tool(description=WRITE_TODOS_TOOL_DESCRIPTION)
def write_todos(todos: list[Todo], tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
    """The stand-alone `write_todos` tool (TodoListMiddleware builds its own, with the
    description it is given)."""
    return _update(todos, tool_call_id)


def _write_todos(runtime: ToolRuntime, todos: list[Todo]) -> Command:
    return _update(todos, runtime.tool_call_id)


async def _awrite_todos(runtime: ToolRuntime, todos: list[Todo]) -> Command:
    return _update(todos, runtime.tool_call_id)


class TodoListMiddleware(AgentMiddleware):
    """Adds `write_todos`, appends planning guidance to the system prompt, rejects parallel calls."""

    state_schema = PlanningState

    def __init__(
        self,
        *,
        system_prompt: str = WRITE_TODOS_SYSTEM_PROMPT,
        tool_description: str = WRITE_TODOS_TOOL_DESCRIPTION,
    ) -> None:
        super().__init__()
        self.system_prompt = system_prompt
        self.tool_description = tool_description
        self.tools = [
            StructuredTool.from_function(
                name="write_todos",
                description=tool_description,
                func=_write_todos,
                coroutine=_awrite_todos,
                args_schema=WriteTodosInput,
                infer_schema=False,
            )
        ]

    def _with_prompt(self, request: ModelRequest) -> ModelRequest:
        if request.system_message is not None:
            blocks = [
                *request.system_message.content_blocks,
                {"type": "text", "text": f"\n\n{self.system_prompt}"},
            ]
        else:
            blocks = [{"type": "text", "text": self.system_prompt}]
        return request.override(system_message=SystemMessage(content=blocks))

    def wrap_model_call(self, request: ModelRequest, handler: Callable) -> Any:
        return handler(self._with_prompt(request))

    async def awrap_model_call(self, request: ModelRequest, handler: Callable) -> Any:
        return await handler(self._with_prompt(request))

    def after_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        last_ai = next((m for m in reversed(state["messages"]) if isinstance(m, AIMessage)), None)
        calls = [c for c in (last_ai.tool_calls if last_ai else []) if c["name"] == "write_todos"]
        if len(calls) > 1:
            return {
                "messages": [
                    ToolMessage(content=_PARALLEL_ERROR, tool_call_id=c["id"], status="error")
                    for c in calls
                ]
            }
        return None

    async def aafter_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return self.after_model(state, runtime)


__all__ = ["PlanningState", "Todo", "TodoListMiddleware", "write_todos"]
