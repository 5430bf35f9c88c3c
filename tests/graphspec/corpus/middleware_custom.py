# Follows: LangChain docs, "Custom middleware" — class-based middleware (an AgentMiddleware
# subclass with before_model / after_model hooks, built with settings) and decorator middleware
# (@before_model, @after_model, @dynamic_prompt, @wrap_model_call, @wrap_tool_call); instances
# held in module variables
# (https://docs.langchain.com/oss/python/langchain/middleware/custom).
from typing import Any

from _scripted import ScriptedModel
from langchain.agents import create_agent
from langchain.agents.middleware import (
    AgentMiddleware,
    AgentState,
    ModelCallLimitMiddleware,
    after_model,
    before_model,
    dynamic_prompt,
    wrap_model_call,
    wrap_tool_call,
)
from langchain_core.messages import AIMessage, HumanMessage


class CallCounter(AgentMiddleware):
    """Notes each model call in the conversation and stops after `limit` calls."""

    def __init__(self, limit: int = 5, note: str = "call") -> None:
        super().__init__()
        self.limit = limit
        self.note = note

    def before_model(self, state: AgentState, runtime: Any) -> dict[str, Any] | None:
        calls = sum(1 for m in state["messages"] if m.type == "ai")
        return {"messages": [HumanMessage(content=f"{self.note} {calls + 1}")]}

    def after_model(self, state: AgentState, runtime: Any) -> dict[str, Any] | None:
        if sum(1 for m in state["messages"] if m.type == "ai") >= self.limit:
            return {"messages": [AIMessage(content="limit reached")]}
        return None


class Shout(AgentMiddleware):
    """Upper-cases every tool result."""

    def wrap_tool_call(self, request: Any, handler: Any) -> Any:
        result = handler(request)
        result.content = str(result.content).upper()
        return result


@before_model
def log_size(state: AgentState, runtime: Any) -> dict[str, Any] | None:
    return {"messages": [HumanMessage(content=f"size {len(state['messages'])}")]}


@dynamic_prompt
def by_length(request: Any) -> str:
    return f"You have seen {len(request.messages)} messages."


@after_model
def count_words(state: AgentState, runtime: Any) -> dict[str, Any] | None:
    words = len(str(state["messages"][-1].content).split())
    return {"messages": [HumanMessage(content=f"{words} words")]}


@wrap_model_call
def retry_once(request: Any, handler: Any) -> Any:
    try:
        return handler(request)
    except ValueError:
        return handler(request)


@wrap_tool_call
def tag_tool(request: Any, handler: Any) -> Any:
    result = handler(request)
    result.content = f"[tool] {result.content}"
    return result


shout = Shout()
limit = ModelCallLimitMiddleware(run_limit=4)  # a prebuilt one, kept as the program made it


def lookup(term: str) -> str:
    """Look a term up."""
    return f"{term} means something"


model = ScriptedModel(
    responses=[
        AIMessage(content="", tool_calls=[{"name": "lookup", "args": {"term": "x"}, "id": "c1"}]),
        AIMessage(content="It means something."),
    ]
)
agent = create_agent(
    model,
    tools=[lookup],
    middleware=[
        CallCounter(limit=3, note="model call"),
        log_size,
        by_length,
        count_words,
        retry_once,
        shout,
        tag_tool,
        limit,
    ],
)

INPUT = {"messages": [{"role": "user", "content": "what is x?"}]}
