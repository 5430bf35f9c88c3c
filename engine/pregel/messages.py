"""stream_mode="messages": a callback handler relaying chat-model tokens with task metadata."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessageChunk, BaseMessage
from langchain_core.tracers._streaming import _StreamingCallbackHandler

from engine.constants import TAG_NOSTREAM


class StreamMessagesHandler(BaseCallbackHandler, _StreamingCallbackHandler):
    """Emits (message chunk, metadata) for each token of a chat model run inside a node."""

    run_inline = True

    # being a streaming handler makes chat models stream tokens even when invoked
    def tap_output_iter(self, run_id, output):
        return output

    def tap_output_aiter(self, run_id, output):
        return output

    def __init__(self, emit: Any, ns: tuple[str, ...]) -> None:
        self.emit = emit
        self.ns = ns
        self.runs: dict[UUID, tuple[tuple[str, ...], dict]] = {}
        self.streamed: set[UUID] = set()

    def on_chat_model_start(self, serialized, messages, *, run_id, parent_run_id=None, tags=None, metadata=None, **kwargs):
        if metadata and "langgraph_node" in metadata and not (tags and TAG_NOSTREAM in tags):
            ns_str = metadata.get("langgraph_checkpoint_ns", "")
            parts = tuple(ns_str.split("|"))[:-1] if ns_str else ()
            self.runs[run_id] = (parts, {"tags": tags or [], **metadata})

    def on_llm_new_token(self, token, *, chunk=None, run_id, **kwargs):
        if run_id not in self.runs:
            return
        message = getattr(chunk, "message", None)
        if not isinstance(message, BaseMessage):
            message = AIMessageChunk(content=token)
        ns, meta = self.runs[run_id]
        self.streamed.add(run_id)
        self.emit(ns, "messages", (message, meta))

    def on_llm_end(self, response, *, run_id, **kwargs):
        entry = self.runs.pop(run_id, None)
        if entry is None or run_id in self.streamed:
            self.streamed.discard(run_id)
            return
        ns, meta = entry
        for generations in response.generations:
            for gen in generations:
                if isinstance(getattr(gen, "message", None), BaseMessage):
                    self.emit(ns, "messages", (gen.message, meta))

    def on_llm_error(self, error, *, run_id, **kwargs):
        self.runs.pop(run_id, None)
        self.streamed.discard(run_id)


def attach_messages_handler(config: dict, emit: Any, ns: tuple[str, ...]) -> None:
    handler = StreamMessagesHandler(emit, ns)
    callbacks = config.get("callbacks")
    if callbacks is None:
        config["callbacks"] = [handler]
    elif isinstance(callbacks, list):
        config["callbacks"] = [*callbacks, handler]
    else:
        callbacks.add_handler(handler, inherit=True)
