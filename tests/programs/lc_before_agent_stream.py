# Source: langchain-ai/langchain, libs/langchain_v1/langchain/agents/middleware/types.py, the
#   before_agent docstring's "Streaming custom events" example, as released in langchain 1.5.2
#   (https://pypi.org/project/langchain/1.5.2/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the model "openai:gpt-5.2" replaced by a scripted model (it answers); the
#   placeholder `tools=[...]` is `tools=[]`; the example's demo astream left to the manifest.
from _offline import ScriptedChatModel
from langchain.agents import create_agent
from langchain.agents.middleware import before_agent, AgentState
from langchain.messages import HumanMessage
from langgraph.runtime import Runtime


@before_agent
async def notify_start(state: AgentState, runtime: Runtime) -> None:
    '''Notify user that agent is starting.'''
    runtime.stream_writer(
        {
            "type": "status",
            "message": "Initializing agent session...",
        }
    )
    # Perform prerequisite tasks here
    runtime.stream_writer({"type": "status", "message": "Agent ready!"})


agent = create_agent(
    model=ScriptedChatModel(responses=["Hello there."]),
    tools=[],
    middleware=[notify_start],
)
