# Follows: LangGraph tutorial "Multi-agent supervisor": a supervisor node routes to workers until
# it says FINISH (https://langchain-ai.github.io/langgraph/tutorials/multi_agent/agent_supervisor).
# The supervisor's LLM choice is replaced by a fixed order.
from typing import Literal

from langchain_core.messages import HumanMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.types import Command

MEMBERS = ["researcher", "coder"]


class State(MessagesState):
    next: str


def supervisor(state: State) -> Command[Literal["researcher", "coder", "__end__"]]:
    done = {m.name for m in state["messages"] if getattr(m, "name", None)}
    pending = [m for m in MEMBERS if m not in done]
    goto = pending[0] if pending else END
    return Command(goto=goto, update={"next": goto if pending else "FINISH"})


def researcher(state: State) -> Command[Literal["supervisor"]]:
    return Command(
        update={"messages": [HumanMessage("found the paper", name="researcher")]}, goto="supervisor"
    )


def coder(state: State) -> Command[Literal["supervisor"]]:
    return Command(
        update={"messages": [HumanMessage("wrote the code", name="coder")]}, goto="supervisor"
    )


builder = StateGraph(State)
builder.add_edge(START, "supervisor")
builder.add_node("supervisor", supervisor)
builder.add_node("researcher", researcher)
builder.add_node("coder", coder)
graph = builder.compile()

INPUT = {"messages": [("user", "find and implement the algorithm")]}
