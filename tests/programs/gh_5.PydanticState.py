# Source: Sibananda-Dora/AgenticAI, 1.LangGraphBasics/5.PydanticState.py at commit
#   8c4342fb2d2dfbec86334d62b6eb546072bc1130 (https://github.com/Sibananda-Dora/AgenticAI/blob/8c4342fb2d2dfbec86334d62b6eb546072bc1130/1.LangGraphBasics/5.PydanticState.py),
#   a learner's pydantic state, in a file whose name is no module name.
# License: none stated in the repository.
# Adapted: `from multiprocessing.reduction import steal_handle` (unused; it exists on Windows
#   only) dropped; the demo call at the end (which fails pydantic's validation on purpose) and
#   its print left to the manifest, which makes both calls.
#THIS IS USING PYDANTIC
#Enforced.
from langgraph.graph import StateGraph,START,END
from pydantic import BaseModel

class PydanticState(BaseModel):
    name:str

def Output(state:PydanticState):
    return {"name":state.name+ " ! What's Up !!"}

graph=StateGraph(PydanticState)
graph.add_node("output",Output)
graph.add_edge(START,"output")
graph.add_edge("output",END)
builder=graph.compile()
# result=builder.invoke({"name": input("🐦 Who are u ??")})
