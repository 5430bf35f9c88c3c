"""Messages in DeltaChannels: the batch reducer of a chat history (langgraph's experimental
`_messages_delta_reducer`) and the ids the loop gives messages before their writes are saved.

A DeltaChannel replays its saved writes on every read, and a batch reducer may assign no ids, so
a message saved without one would come back without one (or with a new one on each read) and
nothing could target it, a RemoveMessage say. The loop therefore stamps ids on the writes
themselves, before they are saved, kept pending or applied (`ensure_message_ids`).

Here rather than in engine.graph.message (which re-exports the reducer): the loop must recognise
it, and pregel does not import graph.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableSequence
from typing import Any
from uuid import uuid4

from langchain_core.messages import AnyMessage, BaseMessage, RemoveMessage, convert_to_messages

from engine.channels.binop import unwrap_overwrite
from engine.channels.delta import DeltaChannel
from engine.types import Overwrite

REMOVE_ALL_MESSAGES = "__remove_all__"

# a dict is a message when its role (OpenAI style) or type (LangChain's) says so
_MESSAGE_ROLES = frozenset({"user", "human", "assistant", "ai", "tool", "system", "function"})
_MESSAGE_TYPES = frozenset({"human", "ai", "tool", "system", "function", "remove"})


def _messages_delta_reducer(state: list[AnyMessage], writes: list[Any]) -> list[AnyMessage]:
    """**Experimental.** The batch reducer of a messages DeltaChannel, in one pass: replace by
    id, RemoveMessage removes, REMOVE_ALL_MESSAGES resets. Batching-invariant, as DeltaChannel
    needs: `r(r(s, xs), ys) == r(s, xs + ys)`. A write is a list of message-likes or one; dicts,
    strings and (role, content) tuples become messages. Unlike add_messages it assigns no ids,
    converts no chunks and lets a RemoveMessage of an unknown id pass."""
    flat: list[Any] = []
    for write in writes:
        if isinstance(write, list):
            flat.extend(write)
        else:
            flat.append(write)
    # the reducer's own output is typed already: only raw input pays for the conversion
    current = state if state and isinstance(state[0], BaseMessage) else convert_to_messages(state)
    incoming = convert_to_messages(flat)
    for i in range(len(incoming) - 1, -1, -1):
        m = incoming[i]
        if isinstance(m, RemoveMessage) and m.id == REMOVE_ALL_MESSAGES:
            current, incoming = [], incoming[i + 1 :]
            break
    at = {m.id: i for i, m in enumerate(current) if m.id is not None}
    result: list[Any] = list(current)
    for m in incoming:
        if m.id is None:
            result.append(m)
        elif isinstance(m, RemoveMessage):
            if m.id in at:
                result[at.pop(m.id)] = None
        elif m.id in at:
            result[at[m.id]] = m
        else:
            at[m.id] = len(result)
            result.append(m)
    return [m for m in result if m is not None]


def _is_message_dict(item: dict) -> bool:
    return item.get("role") in _MESSAGE_ROLES or item.get("type") in _MESSAGE_TYPES


def ensure_message_ids(channels: Mapping[str, Any], writes: MutableSequence[tuple]) -> None:
    """Give the messages written to DeltaChannels ids, replacing changed writes in `writes`
    (the caller's lists and dicts are never changed, only message objects' ids).

    With the messages delta reducer every message-like (alone, in a list or in an Overwrite)
    becomes a message with an id; other DeltaChannels may hold other data, so there only
    message objects get ids, plus message dicts outside an Overwrite. What cannot become a
    message is left alone to fail where it always did (a message dict in a list fails here)."""
    for i, (channel, value) in enumerate(writes):
        spec = channels.get(channel)
        if not isinstance(spec, DeltaChannel):
            continue
        if spec.reducer is _messages_delta_reducer:
            new = _with_message_ids(value)
        else:
            new = _with_base_message_ids(value)
        if new is not value:
            writes[i] = (channel, new)


def _with_message_ids(value: Any) -> Any:
    is_overwrite, inner = unwrap_overwrite(value)
    if not is_overwrite:
        if isinstance(value, list):
            return _map(value, _list_item_with_id)
        return _message_with_id(value)
    if isinstance(inner, list | tuple):
        items = _map(inner, _message_with_id)
        if items is not inner:
            return Overwrite(items)
    return value


def _with_base_message_ids(value: Any) -> Any:
    is_overwrite, inner = unwrap_overwrite(value)
    if is_overwrite:
        if isinstance(inner, list | tuple):
            for item in inner:
                _stamp(item)
        return value
    if isinstance(value, list):
        return _map(value, _base_list_item_with_id)
    if isinstance(value, dict) and _is_message_dict(value) and not value.get("id"):
        return {**value, "id": str(uuid4())}
    _stamp(value)
    return value


def _map(items: list | tuple, fn: Callable[[Any], Any]) -> list | tuple:
    mapped = [fn(item) for item in items]
    if all(new is old for new, old in zip(mapped, items, strict=True)):
        return items
    return mapped if isinstance(items, list) else tuple(mapped)


def _list_item_with_id(item: Any) -> Any:
    strict = isinstance(item, dict) and _is_message_dict(item)
    return _message_with_id(item, strict=strict)


def _base_list_item_with_id(item: Any) -> Any:
    if isinstance(item, dict) and _is_message_dict(item):
        return _message_with_id(item, strict=True)
    _stamp(item)
    return item


def _message_with_id(item: Any, *, strict: bool = False) -> Any:
    if isinstance(item, BaseMessage):
        _stamp(item)
        return item
    try:
        message = convert_to_messages([item])[0]
    except Exception:
        if strict:
            raise
        return item
    if not message.id:  # an empty id counts as missing
        message.id = str(uuid4())
    return message


def _stamp(item: Any) -> None:
    if isinstance(item, BaseMessage) and item.id is None:
        item.id = str(uuid4())


__all__ = ["REMOVE_ALL_MESSAGES", "_messages_delta_reducer", "ensure_message_ids"]
