"""MessagesTransformer: `run.messages`, one ChatModelStream per chat-model call of this level.

Two payload shapes arrive in `messages` events as `(payload, metadata)`:
- a protocol event dict (`{"event": "message-start" | "content-block-*" | "message-finish"}`)
  from a chat model streaming under a v3 run, routed by `metadata["run_id"]`;
- a whole message a node returned, replayed as a finished stream.
Legacy AIMessageChunk tokens and ToolMessages are not projected.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from langchain_core.language_models._compat_bridge import message_to_events
from langchain_core.language_models.chat_model_stream import AsyncChatModelStream, ChatModelStream
from langchain_core.messages import AIMessageChunk, BaseMessage, ToolMessage

from engine.stream._types import ProtocolEvent, StreamTransformer
from engine.stream.stream_channel import StreamChannel


class MessagesTransformer(StreamTransformer):
    _native = True
    required_stream_modes = ("messages",)

    def __init__(self, scope: tuple[str, ...] = ()) -> None:
        super().__init__(scope)
        self._log: StreamChannel[ChatModelStream] = StreamChannel()
        self._by_run: dict[str, ChatModelStream] = {}
        # runs whose events are skipped until their message-finish (tool-role messages)
        self._ignored_runs: set[str] = set()
        self._pump_fn: Callable[[], bool] | None = None
        self._apump_fn: Callable[[], Awaitable[bool]] | None = None
        self._scope_list: list[str] = list(scope)

    def init(self) -> dict[str, Any]:
        return {"messages": self._log}

    def _bind_pump(self, fn: Callable[[], bool]) -> None:
        self._pump_fn = fn

    def _bind_apump(self, fn: Callable[[], Awaitable[bool]]) -> None:
        self._apump_fn = fn

    def _make_stream(
        self, *, namespace: list[str], node: str | None, message_id: str | None
    ) -> ChatModelStream:
        """A stream whose cursors drive the run's pump (async preferred; unbound: async, unpumped)."""
        if self._apump_fn is None and self._pump_fn is not None:
            stream = ChatModelStream(namespace=namespace, node=node, message_id=message_id)
            stream.set_request_more(self._pump_fn)
            return stream
        astream = AsyncChatModelStream(namespace=namespace, node=node, message_id=message_id)
        if self._apump_fn is not None:
            astream.set_arequest_more(self._apump_fn)
        return astream

    def process(self, event: ProtocolEvent) -> bool:
        if event["method"] != "messages":
            return True
        params = event["params"]
        if params["namespace"] != self._scope_list:
            return True
        payload, metadata = params["data"]
        node = metadata.get("langgraph_node")
        run_id = str(metadata.get("run_id", "")) if metadata else ""
        if isinstance(payload, dict) and "event" in payload:
            self._route_protocol_event(payload, run_id=run_id, node=node)
        elif isinstance(payload, BaseMessage) and not isinstance(
            payload, (AIMessageChunk, ToolMessage)
        ):
            self._route_whole_message(payload, node=node)
        return True

    def _route_protocol_event(
        self, event: dict[str, Any], *, run_id: str, node: str | None
    ) -> None:
        kind = event.get("event")
        if kind == "message-start":
            # tool results belong to state and tool projections, not to chat streams
            if event.get("role") == "tool":
                self._ignored_runs.add(run_id)
                return
            message_id = event.get("message_id")
            stream = self._make_stream(
                namespace=[],
                node=node,
                message_id=str(message_id) if message_id is not None else None,
            )
            self._by_run[run_id] = stream
            self._log.push(stream)
            stream.dispatch(event)
        elif run_id in self._ignored_runs:
            if kind == "message-finish":
                self._ignored_runs.discard(run_id)
        elif (stream := self._by_run.get(run_id)) is not None:
            stream.dispatch(event)
            if kind == "message-finish":
                del self._by_run[run_id]

    def _route_whole_message(self, message: BaseMessage, *, node: str | None) -> None:
        stream = self._make_stream(namespace=[], node=node, message_id=message.id)
        for part in message_to_events(message, message_id=message.id):
            stream.dispatch(part)
        self._log.push(stream)

    def finalize(self) -> None:
        self._by_run.clear()
        self._ignored_runs.clear()

    def fail(self, err: BaseException) -> None:
        for stream in list(self._by_run.values()):
            stream.fail(err)
        self._by_run.clear()
        self._ignored_runs.clear()
