# Source: SuYxh/langchain-study-py, src/graph/18.graph-llm-Human-In-Loop.py at commit
#   6647ade6c7d6ac3be4f6c9a678a20e9f2817a807 (https://github.com/SuYxh/langchain-study-py),
#   a learner's approval before the model: interrupt, then Command(goto=...) to a node or END.
# License: none stated in the repository.
# Adapted: create_siliconflow_model("Qwen/Qwen3-8B") (the author's llm module, a hosted model)
#   replaced by a scripted model; the author's utils import (a printer) dropped; the demo
#   invoke and resume at the end left to the manifest.
import os
import datetime
from dotenv import load_dotenv
from _offline import ScriptedChatModel
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from langgraph.graph import StateGraph, MessagesState, START, END
from langgraph.checkpoint.memory import InMemorySaver
from operator import add
from langchain_core.messages import AnyMessage
from typing import Literal, TypedDict, Annotated
from langgraph.types import interrupt, Command
from langchain_core.messages import HumanMessage

# 创建模型实例
llm = ScriptedChatModel(responses=["湖南的省会是长沙。"])
# model = create_siliconflow_model("deepseek-ai/DeepSeek-R1-Distill-Qwen-7B")


class State(TypedDict):
    messages: Annotated[list[AnyMessage], add]

def human_approval(state: State) -> Command[Literal["call_llm", END]]:
    is_approved = interrupt(
        {
            "question": "是否同意调用大语言模型？"
        }
    )

    if is_approved:
        return Command(goto="call_llm")
    else:
        return Command(goto=END)

def call_llm(state:State):
    response = llm.invoke(state["messages"])
    return {"messages": [response]}

builder = StateGraph(State)

# Add the node to the graph in an appropriate location
# and connect it to the relevant nodes.
builder.add_node("human_approval", human_approval)
builder.add_node("call_llm",call_llm)

builder.add_edge(START,"human_approval")

checkpointer = InMemorySaver()

graph = builder.compile(checkpointer=checkpointer)
