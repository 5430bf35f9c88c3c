# Follows: LangGraph docs, "Use the graph API" — a node is any callable taking the state; here an
# object configured once and called per step (https://docs.langchain.com/oss/python/langgraph/use-graph-api).
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    text: str


class Prefixer:
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def __call__(self, state: State):
        return {"text": self.prefix + state["text"]}


shout = Prefixer(">> ")
whisper = Prefixer("(psst) ")

builder = StateGraph(State)
builder.add_node("shout", shout)
builder.add_node("whisper", whisper)
builder.add_edge(START, "shout")
builder.add_edge("shout", "whisper")
builder.add_edge("whisper", END)
graph = builder.compile()

INPUT = {"text": "hello"}
