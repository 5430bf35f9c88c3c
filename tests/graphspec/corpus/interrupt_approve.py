# Follows: LangGraph docs, "Enable human intervention" — approve or reject with interrupt() and
# Command(resume=...) (https://langchain-ai.github.io/langgraph/how-tos/human_in_the_loop/add-human-in-the-loop).
from typing import Literal

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt
from typing_extensions import TypedDict


class State(TypedDict):
    llm_output: str
    decision: str


def generate_llm_output(state: State):
    return {"llm_output": "draft reply"}


def human_approval(state: State) -> Command[Literal["approved_path", "rejected_path"]]:
    decision = interrupt(
        {"question": "Do you approve the following output?", "llm_output": state["llm_output"]}
    )
    if decision == "approve":
        return Command(goto="approved_path", update={"decision": "approved"})
    return Command(goto="rejected_path", update={"decision": "rejected"})


def approved_path(state: State):
    return {"llm_output": state["llm_output"] + " (sent)"}


def rejected_path(state: State):
    return {"llm_output": ""}


builder = StateGraph(State)
builder.add_node("generate_llm_output", generate_llm_output)
builder.add_node("human_approval", human_approval)
builder.add_node("approved_path", approved_path)
builder.add_node("rejected_path", rejected_path)
builder.add_edge(START, "generate_llm_output")
builder.add_edge("generate_llm_output", "human_approval")
builder.add_edge("approved_path", END)
builder.add_edge("rejected_path", END)
graph = builder.compile(checkpointer=InMemorySaver())

INPUT = {"llm_output": ""}
RESUME = ["approve"]
