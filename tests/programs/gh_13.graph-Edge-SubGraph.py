# Source: SuYxh/langchain-study-py, src/graph/13.graph-Edge-SubGraph.py at commit
#   a685799fdf41b091ad3b575c882775563d9511d4 (https://github.com/SuYxh/langchain-study-py),
#   a learner's subgraph sharing its parent's state (and its note on the doubled input).
# License: none stated in the repository.
# Adapted: the demo print(graph.invoke(...)) left to the manifest.
# Subgraph与graph使用相同State
from operator import add
from typing import TypedDict, Annotated

from langgraph.constants import END
from langgraph.graph import StateGraph, MessagesState, START


class State(TypedDict):
    messages: Annotated[list[str], add]


# Subgraph
def sub_node_1(state: State) -> MessagesState:
    return {"messages": ["response from subgraph"]}


subgraph_builder = StateGraph(State)
subgraph_builder.add_node("sub_node_1", sub_node_1)
subgraph_builder.add_edge(START, "sub_node_1")
subgraph_builder.add_edge("sub_node_1", END)

subgraph = subgraph_builder.compile()

# Parent graph
builder = StateGraph(State)
builder.add_node("subgraph_node", subgraph)

builder.add_edge(START, "subgraph_node")
builder.add_edge("subgraph_node", END)

graph = builder.compile()

# 结果hello subgraph会出现两次。这是因为在subgraph_node中默认调用了一次subgraph.invoke(state)方法。主图里也调用了一次invoke。这就会往state中添加两次语句
# {'messages': ['hello subgraph', 'hello subgraph', 'response from subgraph']}
# 如何避免呢？
# 主图和子图不要使用同一个 state
