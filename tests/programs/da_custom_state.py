# Source: langchain-ai/deepagents, libs/deepagents/deepagents/graph.py, the create_deep_agent
#   docstring's state_schema example, as released in deepagents 0.7.32
#   (https://pypi.org/project/deepagents/0.7.32/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the imports the fragment takes for granted added; `model=...` is a scripted model
#   (it answers).
from _offline import ScriptedChatModel
from deepagents import create_deep_agent
from deepagents.graph import DeepAgentState


class MyState(DeepAgentState):
    page_url: str
    file_urls: list[str]


agent = create_deep_agent(
    model=ScriptedChatModel(responses=["The page links two files."]), state_schema=MyState
)
