"""Recorded values as JSON, and back, without importing anything.

Messages become `message_to_dict` dicts (`{"type": "ai", "data": {...}}`) and come back through
langchain-core's fixed type table; a `Command` (a tool's answer) is `{"__command__": {...}}`;
plain JSON stays itself; anything else is kept as `{"__repr__": "..."}`, which decodes to that
text (a recording is data, never code). Mapping keys that name a secret are never written.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from langchain_core.messages import BaseMessage, message_to_dict, messages_from_dict

SECRET_KEY = re.compile(
    r"(^|[-_])(api[-_]?key|access[-_]?key|secret([-_]?key)?|private[-_]?key|client[-_]?secret"
    r"|password|passwd|authorization|(auth|access|bearer|refresh|session|id)[-_]?token)$",
    re.IGNORECASE,
)
"""Keys whose values are never recorded (provider keys, bearer tokens, headers)."""
MESSAGE_TYPES = {"human", "ai", "system", "tool", "function", "chat", "remove",
                 "HumanMessageChunk", "AIMessageChunk", "SystemMessageChunk", "ToolMessageChunk",
                 "FunctionMessageChunk", "ChatMessageChunk"}  # fmt: skip


def encode(value: Any) -> Any:
    """A JSON-safe copy of `value` (see the module docstring)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, BaseMessage):
        return message_to_dict(value)
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items() if not _secret(k)}
    if isinstance(value, list | tuple):
        return [encode(v) for v in value]
    from engine.types import Command

    if isinstance(value, Command):
        fields = {"update": value.update, "goto": value.goto, "resume": value.resume,
                  "graph": value.graph}  # fmt: skip
        return {"__command__": encode({k: v for k, v in fields.items() if v not in (None, ())})}
    return {"__repr__": repr(value)}


def decode(data: Any) -> Any:
    """The value `encode` wrote: messages and commands rebuilt, the rest plain JSON."""
    if isinstance(data, list):
        return [decode(v) for v in data]
    if not isinstance(data, dict):
        return data
    if _is_message(data):
        return messages_from_dict([data])[0]
    if set(data) == {"__command__"} and isinstance(data["__command__"], dict):
        from engine.types import Command

        fields = {k: decode(v) for k, v in data["__command__"].items()}
        known = {k: fields[k] for k in ("update", "goto", "resume", "graph") if k in fields}
        return Command(**known)
    if set(data) == {"__repr__"}:
        return data["__repr__"]
    return {k: decode(v) for k, v in data.items()}


def dumps(value: Any) -> str:
    return json.dumps(encode(value), sort_keys=True, ensure_ascii=False)


def loads(text: str) -> Any:
    return decode(json.loads(text))


def _secret(key: Any) -> bool:
    return isinstance(key, str) and SECRET_KEY.search(key) is not None


def _is_message(data: dict) -> bool:
    return (set(data) == {"type", "data"} and data["type"] in MESSAGE_TYPES
            and isinstance(data["data"], dict))  # fmt: skip


# ------------------------------------------------------------------ input hashes


def message_essence(message: Any) -> dict:
    """What a model reads of a message: its type, text, tool calls and tool-call id; not its id,
    metadata or token counts, which differ between runs with the same conversation."""
    if isinstance(message, BaseMessage):
        fields = message.model_dump()
        kind = message.type
    else:  # langchain's serialised form, as a chat model's cache is given it
        fields = message.get("kwargs", {})
        kind = fields.get("type") or message.get("id", ["?"])[-1]
    calls = [(c.get("name"), c.get("args")) for c in fields.get("tool_calls") or ()]
    essence = {"type": str(kind).removesuffix("Chunk").lower(), "content": fields.get("content")}
    for key, value in (("tool_calls", calls), ("tool_call_id", fields.get("tool_call_id")),
                       ("name", fields.get("name"))):  # fmt: skip
        if value:
            essence[key] = value
    return essence


def model_input(messages: list) -> dict:
    return {"messages": [message_essence(m) for m in messages]}


def tool_input(name: str, args: Any) -> dict:
    plain = {k: v for k, v in args.items() if _is_json(v)} if isinstance(args, dict) else args
    return {"tool": name, "args": encode(plain)}


def input_hash(essence: Any) -> str:
    text = json.dumps(encode(essence), sort_keys=True, ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _is_json(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True
