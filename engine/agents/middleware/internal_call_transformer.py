"""Model calls a middleware makes for itself (a tool selector's, a summary's, an emulated tool's)
and how they stay out of a v3 run's `run.messages`, as langchain's `internal_call_transformer`.

Such a call carries `internal_call_metadata()` in its config metadata; a middleware listing
`transformers = (InternalCallTransformer,)` has create_agent register the transformer, which
drops those calls' `messages` events before the built-in MessagesTransformer sees them.
"""

from __future__ import annotations

import secrets
from typing import Any, ClassVar

from langchain_core.messages import BaseMessage

from engine.stream._types import ProtocolEvent, StreamTransformer

INTERNAL_CALL_METADATA_KEY = "lc_internal_call"
# per process, so a caller's own metadata cannot pass for an internal call (and hide a real one)
_INTERNAL_CALL_TOKEN = secrets.token_hex(16)


def internal_call_metadata() -> dict[str, Any]:
    """What to merge into an internal call's `config["metadata"]`."""
    return {INTERNAL_CALL_METADATA_KEY: _INTERNAL_CALL_TOKEN}


def _is_internal(metadata: Any) -> bool:
    return bool(metadata) and metadata.get(INTERNAL_CALL_METADATA_KEY) == _INTERNAL_CALL_TOKEN


class InternalCallTransformer(StreamTransformer):
    """Keeps tagged internal model calls of its own scope out of `run.messages` and the raw
    event log; it adds no projection."""

    before_builtins: ClassVar[bool] = True
    required_stream_modes: ClassVar[tuple[str, ...]] = ("messages",)

    def __init__(self, scope: tuple[str, ...] = ()) -> None:
        super().__init__(scope)
        self._namespace = list(scope)

    def init(self) -> dict[str, Any]:
        return {}

    def process(self, event: ProtocolEvent) -> bool:
        if event["method"] != "messages" or event["params"]["namespace"] != self._namespace:
            return True
        params = event["params"]
        payload, metadata = params["data"]
        if not _is_internal(metadata):
            return True
        # The transformers after this one still see the event: a streamed call's start is
        # relabelled as a tool message, which MessagesTransformer skips to the call's end, and
        # a whole message is blanked out.
        if isinstance(payload, dict) and payload.get("event") == "message-start":
            payload["role"] = "tool"
        elif isinstance(payload, BaseMessage):
            params["data"] = (None, metadata)
        return False


__all__ = ["INTERNAL_CALL_METADATA_KEY", "InternalCallTransformer", "internal_call_metadata"]
