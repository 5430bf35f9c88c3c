# Follows: LangGraph how-to "How to use Pydantic model as graph state": the state is a pydantic
# model with a default, validated on input (https://langchain-ai.github.io/langgraph/how-tos/state-model).
from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel


class OverallState(BaseModel):
    a: str
    mood: str = "calm"
    count: int = 0


def node(state: OverallState):
    return {"a": f"goodbye {state.a}", "count": state.count + 1}


builder = StateGraph(OverallState)
builder.add_node(node)
builder.add_edge(START, "node")
builder.add_edge("node", END)
graph = builder.compile()

INPUT = {"a": "hello"}
