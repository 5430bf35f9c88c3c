# Follows: LangGraph tutorial "Workflows and agents" — routing: a router step classifies the
# request and a conditional edge sends it to a specialised node
# (https://langchain-ai.github.io/langgraph/tutorials/workflows).
from typing import Literal

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    input: str
    decision: str
    output: str


def llm_call_1(state: State):
    return {"output": f"story: {state['input']}"}


def llm_call_2(state: State):
    return {"output": f"joke: {state['input']}"}


def llm_call_3(state: State):
    return {"output": f"poem: {state['input']}"}


def llm_call_router(state: State):
    text = state["input"].lower()
    decision = "joke" if "joke" in text else "poem" if "poem" in text else "story"
    return {"decision": decision}


def route_decision(state: State) -> Literal["llm_call_1", "llm_call_2", "llm_call_3"]:
    return {"story": "llm_call_1", "joke": "llm_call_2", "poem": "llm_call_3"}[state["decision"]]


router_builder = StateGraph(State)
router_builder.add_node("llm_call_1", llm_call_1)
router_builder.add_node("llm_call_2", llm_call_2)
router_builder.add_node("llm_call_3", llm_call_3)
router_builder.add_node("llm_call_router", llm_call_router)
router_builder.add_edge(START, "llm_call_router")
router_builder.add_conditional_edges("llm_call_router", route_decision)
for name in ("llm_call_1", "llm_call_2", "llm_call_3"):
    router_builder.add_edge(name, END)
router_workflow = router_builder.compile()

INPUT = {"input": "Write me a joke about cats"}
