"""Where a replay answers calls: chat models through LangChain's LLM cache, tools through the
tool node.

A chat model looks its prompt up in the global LLM cache before calling its provider; during a
replay the cache installed here answers from the run's ReplaySession (found in the current
config) and otherwise passes the lookup on to whatever cache was set before. The tool node asks
`replayed_tool` for the tool to run: the real one, or a stand-in with the same name and schema
that returns the recorded output, so callbacks (and the replay's own recording) still see a
tool run.

Not served, so they call their provider: a chat model built with `cache=False` (it never looks
in a cache), a node calling `model.stream()` itself (LangChain's stream path skips the cache;
`invoke` under stream_mode="messages" streams and is served), and a tool a node calls itself
rather than through the tool node.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from langchain_core.caches import BaseCache
from langchain_core.globals import get_llm_cache, set_llm_cache
from langchain_core.messages import ToolMessage
from langchain_core.outputs import ChatGeneration
from langchain_core.runnables.config import var_child_runnable_config
from langchain_core.tools import BaseTool, StructuredTool

from engine.record import codec
from engine.record.recorder import call_site
from engine.record.session import session_of


class ReplayCache(BaseCache):
    """Answers chat-model lookups of a replaying run; other lookups go to `fallback`."""

    def __init__(self, fallback: BaseCache | None) -> None:
        self.fallback = fallback

    def lookup(self, prompt: str, llm_string: str) -> Any:
        config = var_child_runnable_config.get()
        session = session_of(config)
        if session is None:
            return self.fallback.lookup(prompt, llm_string) if self.fallback else None
        node, _, _ = call_site(config.get("metadata"))
        essence = codec.model_input(json.loads(prompt))
        _, output = session.answer("model", node, essence)
        return None if output is None else [ChatGeneration(message=output)]

    def update(self, prompt: str, llm_string: str, return_val: Any) -> None:
        if self.fallback is not None and session_of(var_child_runnable_config.get()) is None:
            self.fallback.update(prompt, llm_string, return_val)

    def clear(self, **kwargs: Any) -> None:
        if self.fallback is not None:
            self.fallback.clear(**kwargs)


_install_lock = threading.Lock()


def install_replay_cache() -> None:
    """Make the global LLM cache a ReplayCache (once; the cache set before stays its fallback)."""
    with _install_lock:
        current = get_llm_cache()
        if not isinstance(current, ReplayCache):
            set_llm_cache(ReplayCache(current))


def replayed_tool(tool: BaseTool | None, tool_call: dict, config: dict) -> Any:
    """The tool to run for `tool_call`: a stand-in serving the recorded output while replaying."""
    session = session_of(config)
    if session is None or tool is None:
        return tool
    node, _, _ = call_site(config.get("metadata"))
    _, output = session.answer("tool", node, codec.tool_input(tool.name, tool_call.get("args")))
    if output is None:
        return tool
    if isinstance(output, ToolMessage) and tool_call.get("id"):
        output = output.model_copy(update={"tool_call_id": tool_call["id"]})

    def serve(**_: Any) -> Any:
        return output

    return StructuredTool(name=tool.name, description=tool.description or tool.name,
                          args_schema=tool.args_schema, func=serve,
                          metadata={**(tool.metadata or {}), "replayed": True})  # fmt: skip
