# Follows: LangGraph docs, "Use the graph API" — state can be a TypedDict, a pydantic model or a
# dataclass (defaults included) (https://docs.langchain.com/oss/python/langgraph/use-graph-api).
from dataclasses import dataclass, field

from langgraph.graph import END, START, StateGraph


@dataclass
class State:
    topic: str
    notes: list = field(default_factory=list)
    done: bool = False


def research(state: State):
    return {"notes": [*state.notes, f"fact about {state.topic}"]}


def finish(state: State):
    return {"done": True}


builder = StateGraph(State)
builder.add_node(research)
builder.add_node(finish)
builder.add_edge(START, "research")
builder.add_edge("research", "finish")
builder.add_edge("finish", END)
graph = builder.compile()

INPUT = {"topic": "owls"}
