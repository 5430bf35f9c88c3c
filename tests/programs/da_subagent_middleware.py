# Source: langchain-ai/deepagents, libs/deepagents/deepagents/middleware/subagents.py, the
#   SubAgentMiddleware docstring's example, as released in deepagents 0.7.32
#   (https://pypi.org/project/deepagents/0.7.32/).
# License: MIT, (c) LangChain, Inc.
# Adapted: both "openai:gpt-5.5" models replaced by scripted models (the main one calls the
#   task tool, then answers; the researcher searches, then answers); `my_backend` and
#   `search_tool`, left to the reader, are a StateBackend and a search returning fixed text.
from _offline import ScriptedChatModel, calls
from deepagents.backends import StateBackend
from deepagents.middleware import SubAgentMiddleware
from langchain.agents import create_agent

my_backend = StateBackend()


def search_tool(query: str) -> str:
    """Search the web."""
    return "LangGraph is a low-level orchestration framework."


agent = create_agent(
    ScriptedChatModel(
        responses=[
            calls(("task", {"description": "What is LangGraph?", "subagent_type": "researcher"})),
            "LangGraph is a low-level orchestration framework.",
        ]
    ),
    middleware=[
        SubAgentMiddleware(
            backend=my_backend,
            subagents=[
                {
                    "name": "researcher",
                    "description": "Research agent",
                    "system_prompt": "You are a researcher.",
                    "model": ScriptedChatModel(
                        responses=[
                            calls(("search_tool", {"query": "LangGraph"})),
                            "LangGraph is a low-level orchestration framework.",
                        ]
                    ),
                    "tools": [search_tool],
                }
            ],
        )
    ],
)
