# Follows: LangGraph how-to "How to create map-reduce branches for parallel execution": one
# Send per subject, then the best joke is picked (https://langchain-ai.github.io/langgraph/how-tos/map-reduce).
# The LLM calls are replaced by string templates.
import operator
from typing import Annotated

from langgraph.graph import END, START, StateGraph
from langgraph.types import Send
from typing_extensions import TypedDict


class OverallState(TypedDict):
    topic: str
    subjects: list
    jokes: Annotated[list, operator.add]
    best_selected_joke: str


class JokeState(TypedDict):
    subject: str


def generate_topics(state: OverallState):
    return {"subjects": [f"{state['topic']} {kind}" for kind in ("cats", "dogs", "fish")]}


def generate_joke(state: JokeState):
    return {"jokes": [f"a joke about {state['subject']}"]}


def continue_to_jokes(state: OverallState):
    return [Send("generate_joke", {"subject": s}) for s in state["subjects"]]


def best_joke(state: OverallState):
    return {"best_selected_joke": max(state["jokes"], key=len)}


builder = StateGraph(OverallState)
builder.add_node("generate_topics", generate_topics)
builder.add_node("generate_joke", generate_joke)
builder.add_node("best_joke", best_joke)
builder.add_edge(START, "generate_topics")
builder.add_conditional_edges("generate_topics", continue_to_jokes, ["generate_joke"])
builder.add_edge("generate_joke", "best_joke")
builder.add_edge("best_joke", END)
app = builder.compile()

INPUT = {"topic": "animals"}
