# Source: nikhil-xyz/Agentic_AI_Deep_Research, app.py at commit
#   5eafb3946a5afeed002c29196bb1c3d11e07c3bd (https://github.com/nikhil-xyz/Agentic_AI_Deep_Research),
#   a Streamlit app's agent: a callable-object model node from a sibling module, ToolNode and
#   tools_condition.
# License: none stated in the repository.
# Adapted: ChatGroq(model='qwen-qwq-32b') replaced by a scripted model (it searches, then
#   answers); TavilySearchResults (a hosted search API) replaced by a local tool of the same
#   name and argument returning results of its shape; the Streamlit page (title, text input,
#   the Generate button that invokes the agent) left to the manifest, which asks the question.
# Dependencies
import os

from _offline import ScriptedChatModel, calls
from langchain_core.tools import tool
from dotenv import load_dotenv

from typing import Annotated
from typing_extensions import TypedDict
from langgraph.graph import StateGraph
from langgraph.graph.message import add_messages
from langchain_core.messages import AnyMessage, HumanMessage
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.graph import START, END
from utilities import State, LLMNode


# Load environment variables from .env file
# load_dotenv()
# os.environ["TAVILY_API_KEY"] = os.getenv("TAVILY_API_KEY")
# os.environ["GROQ_API_KEY"] = os.getenv("GROQ_API_KEY")


# Setting up the tool (Tavily) to use it during the data collection
@tool("tavily_search_results_json")
def tavily(query: str) -> list[dict]:
    """A search engine optimized for comprehensive, accurate, and trusted results."""
    return [
        {"url": "https://langchain-ai.github.io/langgraph/",
         "content": f"LangGraph is a library for building stateful agents ({query})."}
    ]

# Setting up the LLM (Groq)
llm = ScriptedChatModel(
    responses=[
        calls(("tavily_search_results_json", {"query": "what is LangGraph"})),
        "LangGraph is a library for building stateful, multi-step agents.",
    ]
)


# Binding the tools with LLM
tools = [tavily]
llm_with_tools = llm.bind_tools(tools)


graph_builder = StateGraph(State)


# Creating nodes for the graph
llm_node = LLMNode(llm_with_tools)
tool_node = ToolNode(tools)
graph_builder.add_node("llm", llm_node)
graph_builder.add_node("tools", tool_node)

# Adding edges between nodes
graph_builder.add_edge(START, "llm")
graph_builder.add_conditional_edges("llm", tools_condition)
graph_builder.add_edge("tools", "llm")

agent = graph_builder.compile()
