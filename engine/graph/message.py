"""add_messages: the reducer of chat histories (append, replace by id, remove)."""

from __future__ import annotations

import functools
import uuid
import warnings
from typing import Annotated, Any, Literal, cast

from langchain_core.messages import (
    AnyMessage,
    BaseMessage,
    BaseMessageChunk,
    MessageLikeRepresentation,
    RemoveMessage,
    convert_to_messages,
    convert_to_openai_messages,
    message_chunk_to_message,
)
from typing_extensions import TypedDict

from engine._constants import CONF, CONFIG_KEY_SEND
from engine.graph.state import StateGraph
from engine.pregel.delta_messages import REMOVE_ALL_MESSAGES
from engine.pregel.delta_messages import _messages_delta_reducer as _messages_delta_reducer
from engine.warnings import LangGraphDeprecatedSinceV10

Messages = list[MessageLikeRepresentation] | MessageLikeRepresentation
"""What add_messages takes on either side: a message-like value or a list of them (programs
annotate their state with it: `Annotated[list[Messages], add_messages]`)."""


def _as_list(value: Any) -> list:
    # only a list holds several messages: a tuple is one message, ("human", "hi"), as in langgraph
    return value if isinstance(value, list) else [value]


def _normalise(messages: list) -> list[BaseMessage]:
    out = [
        message_chunk_to_message(cast(BaseMessageChunk, m)) for m in convert_to_messages(messages)
    ]
    for message in out:
        if message.id is None:
            message.id = str(uuid.uuid4())
    return out


def add_messages(
    left: Any = None, right: Any = None, *, format: Literal["langchain-openai"] | None = None
) -> Any:
    """Merge `right` into `left`: same id replaces, RemoveMessage(id) deletes, others append.

    Called with neither list (`add_messages(format="langchain-openai")`) it is the reducer with
    that format, as langgraph's: the merged messages are then rewritten in OpenAI's form (text,
    image_url blocks; tool results as ToolMessages).

    Raises:
        ValueError: when removing an id that is not in `left`, when only one of the two lists is
        given, or for a format other than "langchain-openai".
    """
    if left is not None and right is not None:
        return _merge(left, right, format=format)
    if left is not None or right is not None:
        given = "left" if left else "right"  # as langgraph words it (an empty left reads "right")
        raise ValueError(
            f"Must specify non-null arguments for both 'left' and 'right'. Only received: "
            f"'{given}'."
        )
    return functools.partial(_merge, format=format)


def _merge(left: Any, right: Any, *, format: str | None = None) -> list[AnyMessage]:
    left = _normalise(_as_list(left))
    right = _normalise(_as_list(right))
    remove_all_at = next(
        (
            i
            for i, m in enumerate(right)
            if isinstance(m, RemoveMessage) and m.id == REMOVE_ALL_MESSAGES
        ),
        None,
    )
    if remove_all_at is not None:
        return right[remove_all_at + 1 :]
    merged = list(left)
    index = {m.id: i for i, m in enumerate(merged)}
    removed: set[str] = set()
    for message in right:
        existing = index.get(message.id)
        if existing is not None:
            if isinstance(message, RemoveMessage):
                removed.add(message.id)
            else:
                removed.discard(message.id)
                merged[existing] = message
        else:
            if isinstance(message, RemoveMessage):
                raise ValueError(
                    f"Attempting to delete a message with an ID that doesn't exist ('{message.id}')"
                )
            index[message.id] = len(merged)
            merged.append(message)
    merged = [m for m in merged if m.id not in removed]
    if format == "langchain-openai":
        return convert_to_messages(convert_to_openai_messages(merged))
    if format:
        raise ValueError(f"Unrecognized {format=}. Expected one of 'langchain-openai', None.")
    return merged


class MessagesState(TypedDict):  # typing_extensions': pydantic takes it in a tool's schema
    messages: Annotated[list[AnyMessage], add_messages]


def push_message(message: Any, *, state_key: str | None = "messages") -> AnyMessage:
    """Send `message` (anything a message can be made from; it needs an id) to the run's
    `messages` stream now, from inside a node, and write it to the `state_key` channel unless
    that is None. Returns the message."""
    from engine.config import get_config
    from engine.pregel.messages import CONFIG_KEY_MESSAGES, _namespace

    config = get_config()
    message = convert_to_messages([message])[0]
    if message.id is None:
        raise ValueError("Message ID is required")
    handler = config[CONF].get(CONFIG_KEY_MESSAGES)
    metadata = config.get("metadata") or {}
    ns = _namespace(metadata)
    if handler is not None and handler._tracks(ns):
        handler._emit(ns, {"ls_integration": "langgraph", **metadata}, message)
    if state_key:
        config[CONF][CONFIG_KEY_SEND]([(state_key, message)])
    return message


__all__ = [
    "add_messages",
    "push_message",
    "MessagesState",
    "MessageGraph",
    "REMOVE_ALL_MESSAGES",
]


class MessageGraph(StateGraph):
    """Deprecated: a StateGraph whose whole state is one list of messages merged by add_messages."""

    def __init__(self) -> None:
        warnings.warn(
            "MessageGraph is deprecated in LangGraph v1.0.0, to be removed in v2.0.0. "
            "Please use StateGraph with a `messages` key instead.",
            category=LangGraphDeprecatedSinceV10,
            stacklevel=2,
        )
        super().__init__(Annotated[list[AnyMessage], add_messages])
