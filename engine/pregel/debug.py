"""The payloads of `stream_mode="debug"` (and of the "tasks" and "checkpoints" modes, which carry
the same dicts unwrapped), as langgraph.pregel.debug names them, plus its console colours."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any
from uuid import UUID

from engine._constants import (
    CONF,
    CONFIG_KEY_CHECKPOINT_ID,
    CONFIG_KEY_CHECKPOINT_MAP,
    CONFIG_KEY_CHECKPOINT_NS,
    ERROR,
    ERROR_SOURCE_NODE,
    INTERRUPT,
    NS_END,
    NS_SEP,
    NULL_TASK_ID,
    RESUME,
    RETURN,
)
from engine.checkpoint.base import EXCLUDED_METADATA_KEYS
from engine.constants import TAG_HIDDEN
from engine.pregel.io import interrupt_dict, read_channels, task_result_writes
from engine.types import PregelTask

# the namespace langgraph derives task ids from (a fixed, documented UUID)
TASK_NAMESPACE = UUID("6ba7b831-9dad-11d1-80b4-00c04fd430c8")

map_task_result_writes = task_result_writes


def is_multiple_channel_write(value: Any) -> bool:
    """Whether a result value already folds several writes to one channel."""
    return isinstance(value, dict) and isinstance(value.get("$writes"), list)


def _user_tags(tags: Sequence[str] | None) -> list[str] | None:
    kept = [t for t in tags or () if not t.startswith("seq:step")]
    return kept or None


def task_payload(task: Any) -> dict[str, Any]:
    """A task about to run: its id, name, input and triggers, plus the metadata a user would
    care about (framework keys dropped, user tags folded in), omitted when there is none."""
    payload = {"id": task.id, "name": task.name, "input": task.input, "triggers": task.triggers}
    config = task.config
    if config:
        meta = config.get("metadata")
        extra = {k: v for k, v in meta.items() if k not in EXCLUDED_METADATA_KEYS} if meta else {}
        if (tags := _user_tags(config.get("tags"))) is not None:
            extra["tags"] = tags
        if extra:
            payload["metadata"] = extra
    return payload


def map_debug_tasks(tasks: Iterable[Any]) -> Iterator[dict[str, Any]]:
    """The "task" payloads of the tasks given, hidden ones skipped."""
    for task in tasks:
        config = task.config
        if config is not None and TAG_HIDDEN in (config.get("tags") or ()):
            continue
        yield task_payload(task)


def task_result_payload(
    task: Any, writes: Sequence[tuple[str, Any]], stream_keys: str | Sequence[str]
) -> dict[str, Any]:
    """A finished task: its error, its writes to the stream keys (or return value), and the
    interrupts it raised."""
    keys = (stream_keys,) if isinstance(stream_keys, str) else stream_keys
    interrupts = []
    for channel, value in writes:
        if channel == INTERRUPT:
            many = value if isinstance(value, Sequence) else (value,)
            interrupts.extend(interrupt_dict(i) for i in many)
    return {
        "id": task.id,
        "name": task.name,
        "error": next((v for c, v in writes if c == ERROR), None),
        "result": task_result_writes([(c, v) for c, v in writes if c in keys or c == RETURN]),
        "interrupts": interrupts,
    }


def map_debug_task_results(
    task_tup: tuple[Any, Sequence[tuple[str, Any]]], stream_keys: str | Sequence[str]
) -> Iterator[dict[str, Any]]:
    """The "task_result" payload of one (task, writes) pair."""
    yield task_result_payload(task_tup[0], task_tup[1], stream_keys)


def rm_pregel_keys(config: dict | None) -> dict | None:
    """Only the configurable part of a config, without the run's private keys."""
    if config is None:
        return None
    conf = config.get(CONF, {})
    return {
        CONF: {k: v for k, v in conf.items() if not k.startswith(("__pregel_", "__superstep_"))}
    }


def with_checkpoint_map(config: dict | None, metadata: Mapping | None) -> dict | None:
    """A subgraph's config names its ancestors' checkpoints and its own, by namespace."""
    if config is None or not (parents := (metadata or {}).get("parents")):
        return config
    conf = config[CONF]
    own = {conf[CONFIG_KEY_CHECKPOINT_NS]: conf[CONFIG_KEY_CHECKPOINT_ID]}
    return {**config, CONF: {**conf, CONFIG_KEY_CHECKPOINT_MAP: {**parents, **own}}}


def _statuses(pending_writes: Iterable[tuple[str, str, Any]]) -> dict[str, list]:
    # task id -> [output writes, interrupts, error]; the null task's writes are input
    out: dict[str, list] = {}
    for tid, channel, value in pending_writes:
        if tid == NULL_TASK_ID:
            continue
        status = out.setdefault(tid, [[], [], None])
        if channel == INTERRUPT:
            status[1].extend(value if isinstance(value, Sequence) else (value,))
        elif channel == ERROR:
            if status[2] is None:
                status[2] = value
        elif channel not in (RESUME, ERROR_SOURCE_NODE):
            status[0].append((channel, value))
    return out


_NOT_RUN = [[], [], None]


def tasks_w_writes(
    tasks: Iterable[Any],
    pending_writes: Sequence[tuple[str, str, Any]] | None,
    states: Mapping[str, Any] | None,
    output_keys: str | Sequence[str],
    *,
    live: bool = False,
) -> tuple[PregelTask, ...]:
    """PregelTasks of a step with what their recorded writes say: result (once finished),
    error, interrupts (live: only those still unanswered) and subgraph state."""
    statuses = _statuses(pending_writes or ())
    out = []
    for task in tasks:
        output, interrupts, error = statuses.get(task.id, _NOT_RUN)
        result = None
        if output:
            rtn = [v for c, v in output if c == RETURN]
            if rtn:
                result = rtn[0]
            elif isinstance(output_keys, str):
                mine = [(c, v) for c, v in output if c == output_keys]
                result = task_result_writes(mine).get(output_keys) if mine else None
            else:
                result = task_result_writes([(c, v) for c, v in output if c in output_keys])
        shown = () if live and output else tuple(interrupts)
        state = states.get(task.id) if states else None
        out.append(PregelTask(task.id, task.name, task.path, error, shown, state, result))
    return tuple(out)


def subgraph_task_states(config: dict, tasks: Iterable[Any]) -> dict[str, dict]:
    """For each task that runs a subgraph, the config that points at its checkpoints."""
    conf = config[CONF]
    parent_ns = conf.get(CONFIG_KEY_CHECKPOINT_NS, "")
    states = {}
    for task in tasks:
        if task.subgraphs:
            ns = f"{task.name}{NS_END}{task.id}"
            states[task.id] = {
                CONF: {
                    "thread_id": conf.get("thread_id"),
                    CONFIG_KEY_CHECKPOINT_NS: f"{parent_ns}{NS_SEP}{ns}" if parent_ns else ns,
                }
            }
    return states


def checkpoint_payload(
    config: dict,
    channels: Mapping[str, Any],
    stream_channels: str | Sequence[str],
    metadata: Mapping,
    tasks: Sequence[Any],
    pending_writes: Sequence[tuple[str, str, Any]],
    parent_config: dict | None,
    output_keys: str | Sequence[str],
) -> dict[str, Any]:
    """A new checkpoint: its config and parent's, values, metadata, next nodes and tasks."""
    states = subgraph_task_states(config, tasks)
    entries = []
    for t in tasks_w_writes(tasks, pending_writes, states, output_keys):
        if t.error:
            entries.append({"id": t.id, "name": t.name, "error": t.error, "state": t.state})
            continue
        entry: dict[str, Any] = {"id": t.id, "name": t.name}
        if t.result:
            entry["result"] = t.result
        entry["interrupts"] = tuple(interrupt_dict(i) for i in t.interrupts)
        entry["state"] = t.state
        entries.append(entry)
    return {
        "config": rm_pregel_keys(with_checkpoint_map(config, metadata)),
        "parent_config": rm_pregel_keys(with_checkpoint_map(parent_config, metadata)),
        "values": read_channels(channels, stream_channels),
        "metadata": metadata,
        "next": [t.name for t in tasks],
        "tasks": entries,
    }


def map_debug_checkpoint(
    config: dict,
    channels: Mapping[str, Any],
    stream_channels: str | Sequence[str],
    metadata: Mapping,
    tasks: Iterable[Any],
    pending_writes: Sequence[tuple[str, str, Any]],
    parent_config: dict | None,
    output_keys: str | Sequence[str],
) -> Iterator[dict[str, Any]]:
    """The "checkpoint" payload, as an iterator of one."""
    yield checkpoint_payload(
        config,
        channels,
        stream_channels,
        metadata,
        list(tasks),
        pending_writes,
        parent_config,
        output_keys,
    )


COLOR_MAPPING = {
    "black": "0;30",
    "red": "0;31",
    "green": "0;32",
    "yellow": "0;33",
    "blue": "0;34",
    "magenta": "0;35",
    "cyan": "0;36",
    "white": "0;37",
    "gray": "1;30",
}


def get_colored_text(text: str, color: str) -> str:
    """`text` in bold and the named terminal colour."""
    return f"\033[1;3{COLOR_MAPPING[color]}m{text}\033[0m"


def get_bolded_text(text: str) -> str:
    return f"\033[1m{text}\033[0m"
