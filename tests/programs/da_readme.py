# Source: langchain-ai/deepagents, libs/deepagents/README.md, the quickstart, as released in
#   deepagents 0.7.32 (https://pypi.org/project/deepagents/0.7.32/, the package's description).
# License: MIT, (c) LangChain, Inc.
# Adapted: the model "openai:gpt-6-astra" replaced by a scripted model (it writes a summary
#   file, then answers); the example's demo call left to the manifest.
from _offline import ScriptedChatModel, calls
from deepagents import create_deep_agent

agent = create_deep_agent(
    model=ScriptedChatModel(
        responses=[
            calls(("write_file", {"file_path": "/summary.md", "content": "LangGraph: graphs."})),
            "I wrote the summary to /summary.md.",
        ]
    ),
    system_prompt="You are a research assistant.",
)
