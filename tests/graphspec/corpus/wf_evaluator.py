# Follows: LangGraph tutorial "Workflows and agents" — evaluator-optimizer: a generator and an
# evaluator loop until the grade is good (https://langchain-ai.github.io/langgraph/tutorials/workflows).
from typing import Literal

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    joke: str
    topic: str
    feedback: str
    funny_or_not: str
    attempts: int


def llm_call_generator(state: State):
    attempt = state.get("attempts", 0) + 1
    extra = f" (taking into account: {state['feedback']})" if state.get("feedback") else ""
    return {"joke": f"joke {attempt} about {state['topic']}{extra}", "attempts": attempt}


def llm_call_evaluator(state: State):
    if state["attempts"] >= 3:
        return {"funny_or_not": "funny"}
    return {"funny_or_not": "not funny", "feedback": "make it punchier"}


def route_joke(state: State) -> Literal["Accepted", "Rejected + Feedback"]:
    return "Accepted" if state["funny_or_not"] == "funny" else "Rejected + Feedback"


optimizer_builder = StateGraph(State)
optimizer_builder.add_node("llm_call_generator", llm_call_generator)
optimizer_builder.add_node("llm_call_evaluator", llm_call_evaluator)
optimizer_builder.add_edge(START, "llm_call_generator")
optimizer_builder.add_edge("llm_call_generator", "llm_call_evaluator")
optimizer_builder.add_conditional_edges(
    "llm_call_evaluator",
    route_joke,
    {"Accepted": END, "Rejected + Feedback": "llm_call_generator"},
)
optimizer_workflow = optimizer_builder.compile()

INPUT = {"topic": "Cats"}
