"""Map between the outside (input dicts, stream chunks) and channel writes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engine._constants import ERROR, INTERRUPT, NULL_TASK_ID, RESUME, RETURN, START, TASKS
from engine.channels.base import BaseChannel
from engine.types import Command, Send


def read_channels(channels: Mapping[str, BaseChannel], select: str | Sequence[str]) -> Any:
    if isinstance(select, str):
        return channels[select].get() if channels[select].is_available() else None
    values = {}
    for key in select:  # (a loop, not a dict comprehension's frame: the values of every step)
        if key in channels and (channel := channels[key]).is_available():
            values[key] = channel.get()
    return values


def map_input(input_channels: str | Sequence[str], chunk: Any) -> Iterator[tuple[str, Any]]:
    if chunk is None:
        return
    if isinstance(input_channels, str):
        yield (input_channels, chunk)
        return
    if not isinstance(chunk, dict):
        raise TypeError(f"Expected chunk to be a dict, got {type(chunk).__name__}")
    for key, value in chunk.items():
        if key in input_channels:
            yield (key, value)


def map_command(cmd: Command) -> Iterator[tuple[str, str, Any]]:
    """(task_id, channel, value) writes of a Command given as graph input."""
    if cmd.graph == Command.PARENT:
        raise ValueError("There is no parent graph")
    if cmd.goto:
        gotos = cmd.goto if isinstance(cmd.goto, (list, tuple)) else [cmd.goto]
        for goto in gotos:
            if isinstance(goto, Send):
                yield (NULL_TASK_ID, TASKS, goto)
            elif isinstance(goto, str):
                yield (NULL_TASK_ID, f"branch:to:{goto}", START)
            else:
                raise TypeError(f"In Command.goto, expected Send/str, got {type(goto).__name__}")
    if cmd.resume is not None:
        yield (NULL_TASK_ID, RESUME, cmd.resume)
    if cmd.update:
        for key, value in cmd._update_as_tuples():
            yield (NULL_TASK_ID, key, value)


def map_output_updates(
    output_channels: str | Sequence[str], task: Any, writes: Sequence[tuple[str, Any]]
) -> dict[str, Any] | None:
    """The `updates` chunk of one finished task: {node: what it wrote to output keys}."""
    if task.hidden or not writes or writes[0][0] in (ERROR, INTERRUPT):
        return None
    values: list[Any] = []
    rtn = next((v for c, v in writes if c == RETURN), _NONE)
    if rtn is not _NONE:
        values.append(rtn)
    elif isinstance(output_channels, str):
        values.extend(v for c, v in writes if c == output_channels)
    elif any(c in output_channels for c, _ in writes):
        counts = Counter(c for c, _ in writes if c in output_channels)
        if any(n > 1 for n in counts.values()):
            values.extend({c: v} for c, v in writes if c in output_channels)
        else:
            values.append({c: v for c, v in writes if c in output_channels})
    return {task.name: None if not values else values[0] if len(values) == 1 else values}


_NONE = object()


def task_result_writes(writes: Sequence[tuple[str, Any]]) -> dict[str, Any]:
    """Fold writes into {channel: value}; several writes to one channel become {'$writes': [...]}."""
    result: dict[str, Any] = {}
    for channel, value in writes:
        if channel in result:
            existing = result[channel]
            many = (
                existing["$writes"]
                if isinstance(existing, dict) and isinstance(existing.get("$writes"), list)
                else [existing]
            )
            many.append(value)
            result[channel] = {"$writes": many}
        else:
            result[channel] = value
    return result


def interrupt_dict(interrupt: Any) -> dict[str, Any]:
    return {
        "value": interrupt.value,
        "id": interrupt.id,
        "response_schema": interrupt.response_schema,
    }
