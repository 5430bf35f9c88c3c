# Source: kdjlyy/Agent, langgraph_demo/human_audit.py at commit a757b35a273c384f0b49f847031279a2b30b08b1
#   (https://github.com/kdjlyy/Agent/blob/a757b35a273c384f0b49f847031279a2b30b08b1/langgraph_demo/human_audit.py),
#   a learner's human review of tool calls (interrupt, resume with Command, Command goto).
# License: none stated in the repository.
# Adapted: the sys.path line and `from utils.env_util import *` (which brought ChatOpenAI and
#   the author's API key and base URL) dropped; ChatOpenAI(...) replaced by a scripted model (it
#   calls weather_search for 北京, the reviewer changes the city, then it answers); the unused
#   ChatAnthropic import and the IPython display of the graph's PNG dropped.
from _offline import ScriptedChatModel, calls
from typing_extensions import TypedDict, Literal
from langgraph.graph import StateGraph, START, END, MessagesState
from langgraph.checkpoint.memory import MemorySaver
from langgraph.types import Command, interrupt
from langchain_core.tools import tool
from langchain_core.messages import AIMessage


@tool
def weather_search(city: str) -> str:
    """Search for the weather"""
    print("-" * 80)
    print(f"正常查询天气: {city}")
    print("-" * 80)
    return "晴天!"

model = ScriptedChatModel(
    responses=[calls(("weather_search", {"city": "北京"})), "上海今天是晴天!"]
).bind_tools(
    [weather_search]
)

class State(MessagesState):
    """Simple state."""


def call_llm(state):
    return {"messages": [model.invoke(state["messages"])]}


def human_review_node(state) -> Command[Literal["call_llm", "run_tool"]]:
    last_message = state["messages"][-1]
    tool_call = last_message.tool_calls[-1]

    # 这是我们将通过 Command(resume=<human_review>)提供的值
    human_review = interrupt(
        {
            "question": "请检查结果是否正确",
            # Surface tool calls for review
            "tool_call": tool_call,
        }
    )

    review_action = human_review["action"]
    review_data = human_review.get("data")

    # if approved, call the tool
    if review_action == "continue":
        return Command(goto="run_tool")

    # update the AI message AND call tools
    elif review_action == "update":
        updated_message = {
            "role": "ai",
            "content": last_message.content,
            "tool_calls": [
                {
                    "id": tool_call["id"],
                    "name": tool_call["name"],
                    # This the update provided by the human
                    "args": review_data,
                }
            ],
            # This is important - this needs to be the same as the message you replacing!
            # Otherwise, it will show up as a separate message
            "id": last_message.id,
        }
        return Command(goto="run_tool", update={"messages": [updated_message]})

    # provide feedback to LLM
    elif review_action == "feedback":
        # NOTE: we're adding feedback message as a ToolMessage
        # to preserve the correct order in the message history
        # (AI messages with tool calls need to be followed by tool call messages)
        tool_message = {
            "role": "tool",
            # This is our natural language feedback
            "content": review_data,
            "name": tool_call["name"],
            "tool_call_id": tool_call["id"],
        }
        return Command(goto="call_llm", update={"messages": [tool_message]})


def run_tool(state):
    new_messages = []
    tools = {"weather_search": weather_search}
    tool_calls = state["messages"][-1].tool_calls
    for tool_call in tool_calls:
        tool = tools[tool_call["name"]]
        result = tool.invoke(tool_call["args"])
        new_messages.append(
            {
                "role": "tool",
                "name": tool_call["name"],
                "content": result,
                "tool_call_id": tool_call["id"],
            }
        )
    return {"messages": new_messages}


def route_after_llm(state) -> Literal[END, "human_review_node"]:
    if len(state["messages"][-1].tool_calls) == 0:
        return END
    else:
        return "human_review_node"


builder = StateGraph(State)
builder.add_node(call_llm)
builder.add_node(run_tool)
builder.add_node(human_review_node)
builder.add_edge(START, "call_llm")
builder.add_conditional_edges("call_llm", route_after_llm)
builder.add_edge("run_tool", "call_llm")

# Set up memory
memory = MemorySaver()

# Add
graph = builder.compile(checkpointer=memory)
