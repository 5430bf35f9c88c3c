# Follows: LangGraph tutorial "Workflows and agents" — orchestrator-worker: the plan's sections go
# to workers with Send, then a synthesizer joins them
# (https://langchain-ai.github.io/langgraph/tutorials/workflows).
import operator
from typing import Annotated

from langgraph.graph import END, START, StateGraph
from langgraph.types import Send
from typing_extensions import TypedDict


class State(TypedDict):
    topic: str
    sections: list
    completed_sections: Annotated[list, operator.add]
    final_report: str


class WorkerState(TypedDict):
    section: str
    completed_sections: Annotated[list, operator.add]


def orchestrator(state: State):
    return {
        "sections": [
            f"{state['topic']}: intro",
            f"{state['topic']}: body",
            f"{state['topic']}: outro",
        ]
    }


def llm_call(state: WorkerState):
    return {"completed_sections": [f"## {state['section']}"]}


def synthesizer(state: State):
    return {"final_report": "\n\n---\n\n".join(state["completed_sections"])}


def assign_workers(state: State):
    return [Send("llm_call", {"section": s}) for s in state["sections"]]


orchestrator_worker_builder = StateGraph(State)
orchestrator_worker_builder.add_node("orchestrator", orchestrator)
orchestrator_worker_builder.add_node("llm_call", llm_call)
orchestrator_worker_builder.add_node("synthesizer", synthesizer)
orchestrator_worker_builder.add_edge(START, "orchestrator")
orchestrator_worker_builder.add_conditional_edges("orchestrator", assign_workers, ["llm_call"])
orchestrator_worker_builder.add_edge("llm_call", "synthesizer")
orchestrator_worker_builder.add_edge("synthesizer", END)
orchestrator_worker = orchestrator_worker_builder.compile()

INPUT = {"topic": "LLM scaling laws"}
