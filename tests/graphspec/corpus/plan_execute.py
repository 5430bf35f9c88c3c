# Follows: LangGraph tutorial "Plan-and-Execute": a planner, an executor stepping through the
# plan, a replanner deciding to respond (https://langchain-ai.github.io/langgraph/tutorials/plan-and-execute/plan-and-execute).
import operator
from typing import Annotated

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class PlanExecute(TypedDict):
    input: str
    plan: list
    past_steps: Annotated[list, operator.add]
    response: str


def plan_step(state: PlanExecute):
    return {"plan": [f"look up {w}" for w in state["input"].split()[:3]]}


def execute_step(state: PlanExecute):
    task = state["plan"][0]
    return {"past_steps": [[task, f"done: {task}"]]}


def replan_step(state: PlanExecute):
    remaining = state["plan"][1:]
    if not remaining:
        return {"response": f"{len(state['past_steps'])} steps done", "plan": []}
    return {"plan": remaining}


def should_end(state: PlanExecute):
    return END if state.get("response") else "agent"


workflow = StateGraph(PlanExecute)
workflow.add_node("planner", plan_step)
workflow.add_node("agent", execute_step)
workflow.add_node("replan", replan_step)
workflow.add_edge(START, "planner")
workflow.add_edge("planner", "agent")
workflow.add_edge("agent", "replan")
workflow.add_conditional_edges("replan", should_end, ["agent", END])
app = workflow.compile()

INPUT = {"input": "hometown of the 2024 open winner"}
