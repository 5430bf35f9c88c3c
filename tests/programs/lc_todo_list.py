# Source: langchain-ai/langchain, libs/langchain_v1/langchain/agents/middleware/todo.py, the
#   TodoListMiddleware docstring's example, as released in langchain 1.5.2
#   (https://pypi.org/project/langchain/1.5.2/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the model "openai:gpt-5.5" replaced by a scripted model (it writes two todos, then
#   answers); the example's demo call and print left to the manifest.
from _offline import ScriptedChatModel, calls
from langchain.agents.middleware import TodoListMiddleware
from langchain.agents import create_agent

model = ScriptedChatModel(
    responses=[
        calls(
            (
                "write_todos",
                {
                    "todos": [
                        {"content": "Read the codebase", "status": "in_progress"},
                        {"content": "Refactor the modules", "status": "pending"},
                    ]
                },
            )
        ),
        "I planned the refactor.",
    ]
)
agent = create_agent(model, middleware=[TodoListMiddleware()])
