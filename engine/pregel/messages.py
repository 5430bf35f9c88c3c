"""stream_mode="messages": a callback handler relaying chat-model tokens with task metadata."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessageChunk, BaseMessage, ToolMessage
from langchain_core.tracers._streaming import _StreamingCallbackHandler

try:  # langchain-core >= 1.3: chat models stream content-block events to these handlers
    from langchain_core.tracers._streaming import _V2StreamingCallbackHandler
except ImportError:  # pragma: no cover - older langchain-core
    _V2StreamingCallbackHandler = object  # type: ignore[assignment,misc]

from engine._constants import CONF, NS_SEP, PUSH, TAG_NOSTREAM
from engine.pregel.callbacks import add_handler
from engine.types import Command

CONFIG_KEY_MESSAGES = "__pregel_messages_handler"
CONFIG_KEY_STREAM_MESSAGES_V2 = "__pregel_stream_messages_v2"
"""Set by stream_events(version="v3"): chat models stream protocol events, not tokens."""


class StreamMessagesHandler(BaseCallbackHandler, _StreamingCallbackHandler):
    """Emits (message, metadata) for chat-model tokens inside nodes, and for new messages a
    node returns: each message once, never one the node received as input."""

    run_inline = True

    # being a streaming handler makes chat models stream tokens even when invoked
    def tap_output_iter(self, run_id, output):
        return output

    def tap_output_aiter(self, run_id, output):
        return output

    def __init__(self, emit: Any, ns: tuple[str, ...], subgraphs: bool = True) -> None:
        self.emit = emit
        self.ns = ns
        # as langgraph: without subgraphs, a subgraph's models and nodes are not tracked, so
        # the message a subgraph node returns is relayed whole at this level, once
        self.subgraphs = subgraphs
        self.runs: dict[UUID, tuple[tuple[str, ...], dict]] = {}
        self.seen: set[str] = set()

    def _tracks(self, ns: tuple[str, ...]) -> bool:
        return self.subgraphs or not ns or ns == self.ns

    def _emit(
        self, ns: tuple[str, ...], meta: dict, message: BaseMessage, dedupe: bool = False
    ) -> None:
        if dedupe and message.id in self.seen:
            return
        if message.id is None:
            message.id = str(uuid4())
        self.seen.add(message.id)
        self.emit(ns, "messages", (message, meta))

    # -- chat models (callbacks)
    def on_chat_model_start(
        self,
        serialized,
        messages,
        *,
        run_id,
        parent_run_id=None,
        tags=None,
        metadata=None,
        **kwargs,
    ):
        if metadata and "langgraph_node" in metadata and not (tags and TAG_NOSTREAM in tags):
            # as langgraph: the user's tags, without the seq:step:N bookkeeping ones, if any,
            # set on the run's metadata itself (handlers called later see them too)
            ns = _namespace(metadata)
            if not self._tracks(ns):
                return
            if user_tags := [t for t in tags or () if not t.startswith("seq:step")]:
                metadata["tags"] = user_tags
            self.runs[run_id] = (ns, metadata)

    def on_llm_new_token(self, token, *, chunk=None, run_id, **kwargs):
        if run_id not in self.runs:
            return
        message = getattr(chunk, "message", None)
        if not isinstance(message, BaseMessage):
            message = AIMessageChunk(content=token)
        self._emit(*self.runs[run_id], message)

    def on_llm_end(self, response, *, run_id, **kwargs):
        entry = self.runs.pop(run_id, None)
        if entry is not None and response.generations and response.generations[0]:
            message = getattr(response.generations[0][0], "message", None)
            if isinstance(message, BaseMessage):
                self._emit(*entry, message, dedupe=True)

    def on_llm_error(self, error, *, run_id, **kwargs):
        self.runs.pop(run_id, None)

    # -- nodes (called by the task runner: our nodes are not callback-traced runnables)
    def node_started(self, task: Any) -> None:
        if not self._tracks(_namespace(task.config.get("metadata", {}))):
            return
        # a functional-API call's input is its arguments by name, as langgraph's call run has
        trace_inputs = getattr(getattr(task.proc, "bound", None), "trace_inputs", None)
        for message in _messages_in(task.input if trace_inputs is None else trace_inputs()):
            if message.id is not None:
                self.seen.add(message.id)

    def node_finished(self, task: Any, output: Any) -> None:
        # a subgraph node's output is relayed too, each message once (ids already seen, from
        # its own nodes when subgraphs are tracked, are skipped)
        if task.hidden:
            return
        meta = _with_integration(task.config.get("metadata", {}))
        ns = _namespace(meta)
        if not self._tracks(ns):
            return
        updates = output if isinstance(output, (list, tuple)) else [output]
        for update in updates:
            value = update.update if isinstance(update, Command) else update
            for message in _messages_in(value):
                if self._relays(message):
                    self._emit(ns, meta, message, dedupe=True)

    def _relays(self, message: BaseMessage) -> bool:
        return True


class StreamMessagesHandlerV2(StreamMessagesHandler, _V2StreamingCallbackHandler):
    """The v3 variant: chat models send content-block protocol events (`on_stream_event`),
    relayed as `(event, metadata + run_id)`; tokens and returned ToolMessages are not relayed."""

    def __init__(self, emit: Any, ns: tuple[str, ...], subgraphs: bool = True) -> None:
        super().__init__(emit, ns, subgraphs)
        self._streamed_run_ids: set[UUID] = set()

    def on_llm_new_token(self, token, *, chunk=None, run_id, **kwargs):
        # a node calling model.stream() still fires this; v3 streams must not mix in chunks
        return None

    def on_stream_event(self, event, *, run_id, parent_run_id=None, tags=None, **kwargs):
        entry = self.runs.get(run_id)
        if entry is None:
            return
        ns, meta = entry
        if event.get("event") == "message-start":
            self._streamed_run_ids.add(run_id)
            # the node returning this message later must not replay it
            if message_id := event.get("message_id"):
                self.seen.add(message_id)
        self.emit(ns, "messages", (event, {**meta, "run_id": str(run_id)}))

    def on_llm_end(self, response, *, run_id, **kwargs):
        if run_id not in self._streamed_run_ids:
            return super().on_llm_end(response, run_id=run_id, **kwargs)
        self._streamed_run_ids.discard(run_id)
        self.runs.pop(run_id, None)
        generations = response.generations
        message = (
            getattr(generations[0][0], "message", None) if generations and generations[0] else None
        )
        if isinstance(message, BaseMessage):
            if message.id is None:
                message.id = str(uuid4())
            self.seen.add(message.id)

    def on_llm_error(self, error, *, run_id, **kwargs):
        self._streamed_run_ids.discard(run_id)
        super().on_llm_error(error, run_id=run_id, **kwargs)

    def _relays(self, message: BaseMessage) -> bool:
        return not isinstance(message, ToolMessage)


def graph_namespace(metadata: dict[str, Any]) -> tuple[str, ...]:
    """The namespace of the graph a task runs in: its own segment dropped, and one more per
    enclosing functional-API call (a call nests its segment under its caller's)."""
    ns = tuple(metadata["langgraph_checkpoint_ns"].split(NS_SEP))
    path, drop = metadata.get("langgraph_path", ()), 1
    while len(path) == 4 and path[0] == PUSH and path[-1] is True:
        drop, path = drop + 1, path[1]
    return ns[:-drop]


def _with_integration(metadata: dict) -> dict:
    """A node's metadata as langgraph's callbacks see it: `ls_integration` (which the run's
    callback manager adds to the run's own metadata) sits after the run's keys and before those
    the task added (langgraph_step, ...), unless the run's metadata names one already."""
    if "ls_integration" in metadata:
        return dict(metadata)
    keys = list(metadata)
    at = next((i for i, key in enumerate(keys) if key.startswith("langgraph_")), len(keys))
    return {**{k: metadata[k] for k in keys[:at]}, "ls_integration": "langgraph",
            **{k: metadata[k] for k in keys[at:]}}  # fmt: skip


def _namespace(metadata: dict) -> tuple[str, ...]:
    return graph_namespace(metadata) if metadata.get("langgraph_checkpoint_ns") else ()


def _messages_in(value: Any) -> list[BaseMessage]:
    """Messages in a node's input or output: the value itself, a list, or a state's fields."""
    if isinstance(value, BaseMessage):
        return [value]
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, BaseMessage)]
    if isinstance(value, dict):
        fields = value.values()
    elif hasattr(value, "__dict__") and not isinstance(value, type):
        fields = vars(value).values()
    else:
        return []
    found: list[BaseMessage] = []
    for field in fields:
        if isinstance(field, BaseMessage):
            found.append(field)
        elif isinstance(field, (list, tuple)):
            found.extend(v for v in field if isinstance(v, BaseMessage))
    return found


def attach_messages_handler(
    config: dict,
    emit: Any,
    ns: tuple[str, ...],
    v2: bool = False,
    strip_v2: bool = False,
    subgraphs: bool = True,
) -> StreamMessagesHandler:
    """Add this run's handler to the config's callbacks. `strip_v2`: a v1 messages stream
    inside a v3 run drops the inherited v2 handler, else chat models would send it events
    instead of tokens."""
    handler = (StreamMessagesHandlerV2 if v2 else StreamMessagesHandler)(emit, ns, subgraphs)
    if strip_v2 and config.get("callbacks") is not None:
        config["callbacks"] = _without_v2_handlers(config["callbacks"])
    add_handler(config, handler)
    config[CONF][CONFIG_KEY_MESSAGES] = handler
    return handler


def _without_v2_handlers(callbacks: Any) -> Any:
    def keep(handlers: list) -> list:
        return [h for h in handlers if not isinstance(h, StreamMessagesHandlerV2)]

    if isinstance(callbacks, list):
        return keep(callbacks)
    # a copy: the manager belongs to the enclosing run, which keeps its v2 handler
    manager = callbacks.copy()
    manager.handlers = keep(manager.handlers)
    manager.inheritable_handlers = keep(manager.inheritable_handlers)
    return manager
