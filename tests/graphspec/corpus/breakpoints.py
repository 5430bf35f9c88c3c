# Follows: LangGraph how-to "How to add breakpoints": compile with interrupt_before and a
# checkpointer, then continue with None
# (https://langchain-ai.github.io/langgraph/how-tos/human_in_the_loop/breakpoints).
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    input: str
    log: str


def step_1(state: State):
    return {"log": "1"}


def step_2(state: State):
    return {"log": state["log"] + "2"}


def step_3(state: State):
    return {"log": state["log"] + "3"}


builder = StateGraph(State)
builder.add_node("step_1", step_1)
builder.add_node("step_2", step_2)
builder.add_node("step_3", step_3)
builder.add_edge(START, "step_1")
builder.add_edge("step_1", "step_2")
builder.add_edge("step_2", "step_3")
builder.add_edge("step_3", END)
graph = builder.compile(checkpointer=InMemorySaver(), interrupt_before=["step_3"])

INPUT = {"input": "hello"}
CONTINUE = 1
