# Source: langchain-ai/langgraph-swarm-py, README.md, the "Customizing handoff tools" example
#   (a handoff tool returning Command(goto=agent, graph=Command.PARENT, update=...) with a task
#   description the model fills in), given to the quickstart's two agents, as released in
#   langgraph-swarm 0.1.0 (https://pypi.org/project/langgraph-swarm/0.1.0/, its sdist); the
#   langgraph_swarm package beside it is that release's, unchanged.
# License: MIT, (c) LangChain, Inc. (langgraph_swarm/LICENSE)
# Adapted: ChatOpenAI(model="gpt-4o") replaced by a scripted model shared by both agents, as
#   the README shares its model; the quickstart's create_handoff_tool calls replaced by the
#   README's create_custom_handoff_tool (names and descriptions as the quickstart's); the
#   quickstart's two demo turns and prints left to the manifest.
from typing import Annotated

from _offline import ScriptedChatModel, calls

from langchain.tools import tool, BaseTool, InjectedToolCallId
from langchain.messages import ToolMessage
from langgraph.types import Command
from langgraph.prebuilt import InjectedState

from langgraph.checkpoint.memory import InMemorySaver
from langchain.agents import create_agent
from langgraph_swarm import create_swarm

def create_custom_handoff_tool(*, agent_name: str, name: str | None, description: str | None) -> BaseTool:

    @tool(name, description=description)
    def handoff_to_agent(
        # you can add additional tool call arguments for the LLM to populate
        # for example, you can ask the LLM to populate a task description for the next agent
        task_description: Annotated[str, "Detailed description of what the next agent should do, including all of the relevant context."],
        # you can inject the state of the agent that is calling the tool
        state: Annotated[dict, InjectedState],
        tool_call_id: Annotated[str, InjectedToolCallId],
    ):
        tool_message = ToolMessage(
            content=f"Successfully transferred to {agent_name}",
            name=name,
            tool_call_id=tool_call_id,
        )
        # you can use a different messages state key here, if your agent uses a different schema
        # e.g., "alice_messages" instead of "messages"
        messages = state["messages"]
        return Command(
            goto=agent_name,
            graph=Command.PARENT,
            # NOTE: this is a state update that will be applied to the swarm multi-agent graph (i.e., the PARENT graph)
            update={
                "messages": messages + [tool_message],
                "active_agent": agent_name,
                # optionally pass the task description to the next agent
                "task_description": task_description,
            },
        )

    return handoff_to_agent

model = ScriptedChatModel(  # adapted: the scripted model, in call order
    responses=[
        calls(("transfer_to_bob", {"task_description": "The user wants to talk to Bob."})),
        "Ahoy, matey! Bob here.",
        calls(("transfer_to_alice", {"task_description": "Add 5 and 7 for the user."})),
        calls(("add", {"a": 5, "b": 7})),
        "5 + 7 is 12.",
    ]
)

def add(a: int, b: int) -> int:
    """Add two numbers"""
    return a + b

alice = create_agent(
    model,
    tools=[
        add,
        create_custom_handoff_tool(  # adapted: the README's custom tool for create_handoff_tool
            agent_name="Bob",
            name="transfer_to_bob",
            description="Transfer to Bob",
        ),
    ],
    system_prompt="You are Alice, an addition expert.",
    name="Alice",
)

bob = create_agent(
    model,
    tools=[
        create_custom_handoff_tool(  # adapted: the README's custom tool for create_handoff_tool
            agent_name="Alice",
            name="transfer_to_alice",
            description="Transfer to Alice, she can help with math",
        ),
    ],
    system_prompt="You are Bob, you speak like a pirate.",
    name="Bob",
)

checkpointer = InMemorySaver()
workflow = create_swarm(
    [alice, bob],
    default_active_agent="Alice"
)
app = workflow.compile(checkpointer=checkpointer)
