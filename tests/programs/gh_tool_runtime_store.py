# Source: JonasWZW/langchain_v1, chain_learn/tool_learn/tool_runtime_store.py at commit
#   ac49478a18f92726c88701a9b7958ee92b330ab0
#   (https://github.com/JonasWZW/langchain_v1/blob/ac49478a18f92726c88701a9b7958ee92b330ab0/chain_learn/tool_learn/tool_runtime_store.py),
#   a learner's long-term memory: tools reading and writing the agent's InMemoryStore through
#   ToolRuntime, one session saving a user and the next reading it back.
# License: none found (no license file among the repository's indexed files).
# Adapted: `from config import deepseek` (an init_chat_model with the author's base URL and API
#   key) replaced by a scripted model (it saves the user, answers, then looks the user up and
#   answers); the two demo invokes dropped (the manifest makes them).
"""
runtime: ToolRuntime 具备几乎全部所需

    state: StateT
    context: ContextT
    config: RunnableConfig
    stream_writer: StreamWriter
    tool_call_id: str | None
    store: BaseStore | None
"""
from typing import Any
from langgraph.store.memory import InMemoryStore
from langchain.agents import create_agent
from langchain.tools import tool, ToolRuntime

from _offline import ScriptedChatModel, calls

deepseek = ScriptedChatModel(
    responses=[
        calls(("save_user_info", {"user_id": "abc123",
                                  "user_info": {"name": "Foo", "age": 25, "email": "foo@langchain.dev"}})),
        "Saved user abc123.",
        calls(("get_user_info", {"user_id": "abc123"})),
        "Here is the user info for user with ID \"abc123\": Name: Foo, Age: 25, Email: foo@langchain.dev",
    ]
)


# Access memory
@tool
def get_user_info(user_id: str, runtime: ToolRuntime) -> str:
    """Look up user info."""
    store = runtime.store
    user_info = store.get(("users",), user_id)
    return str(user_info.value) if user_info else "Unknown user"


# Update memory
@tool
def save_user_info(user_id: str, user_info: dict[str, Any], runtime: ToolRuntime) -> str:
    """Save user info."""
    store = runtime.store
    store.put(("users",), user_id, user_info)
    return "Successfully saved user info."


store = InMemoryStore()
agent = create_agent(
    deepseek,
    tools=[get_user_info, save_user_info],
    store=store
)
