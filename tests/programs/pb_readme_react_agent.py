# Source: langchain-ai/langgraph, libs/prebuilt/README.md, the create_react_agent example, as
#   released in langgraph-prebuilt 1.1.3 (https://pypi.org/project/langgraph-prebuilt/1.1.3/,
#   the package's description).
# License: MIT, (c) LangChain, Inc.
# Adapted: ChatAnthropic(model="claude-3-7-sonnet-latest") replaced by a scripted model (it
#   calls search, then answers); the example's demo call left to the manifest.
from _offline import ScriptedChatModel, calls
from langgraph.prebuilt import create_react_agent


# Define the tools for the agent to use
def search(query: str):
    """Call to surf the web."""
    # This is a placeholder, but don't tell the LLM that...
    if "sf" in query.lower() or "san francisco" in query.lower():
        return "It's 60 degrees and foggy."
    return "It's 90 degrees and sunny."


tools = [search]
model = ScriptedChatModel(
    responses=[calls(("search", {"query": "weather in sf"})), "It's 60 degrees and foggy in SF."]
)

app = create_react_agent(model, tools)
