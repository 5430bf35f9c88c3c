"""What a thread's saved pending writes say about each task of the next step (its output, the
interrupts it raised, its error), and how a snapshot applies them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from engine._constants import ERROR, INPUT, INTERRUPT, NULL_TASK_ID, RESUME
from engine.checkpoint.base import copy_checkpoint
from engine.pregel.algo import WritesOnly, apply_writes
from engine.pregel.io import task_result_writes


class TaskStatus(NamedTuple):
    """What one task's recorded writes say: its output, the interrupts it raised, its error."""

    output: tuple = ()
    interrupts: tuple = ()
    error: Any = None


NOT_STARTED = TaskStatus()
CONTROL_WRITES = frozenset((ERROR, INTERRUPT, RESUME))


def apply_saved(checkpoint: dict, channels: dict, pending: Sequence, statuses: dict,
                 tasks: dict, live: bool) -> None:  # fmt: skip
    """Apply to a snapshot's channels the null task's saved writes and, live, the finished
    tasks' (on a copy of the checkpoint: the saved one is only read)."""
    null_writes = [(c, v) for tid, c, v in pending if tid == NULL_TASK_ID]
    finished: Sequence = ()
    if live:
        for tid, status in statuses.items():
            if tid in tasks:
                tasks[tid].writes.extend(status.output)
        finished = [t for t in tasks.values() if t.writes]
    if null_writes or finished:
        checkpoint = copy_checkpoint(checkpoint)
        keep_version = None if not checkpoint["channel_versions"] else (lambda cur, ch: cur)
        if null_writes:
            apply_writes(checkpoint, channels, [WritesOnly(INPUT, null_writes)], keep_version, {})
        if finished:
            apply_writes(checkpoint, channels, finished, keep_version, {})


def task_result(output: Sequence, keys: str | Sequence[str]) -> Any:
    """What a task's saved writes put in the stream channels, as its result in a snapshot."""
    if isinstance(keys, str):
        return task_result_writes([w for w in output if w[0] == keys]).get(keys)
    return task_result_writes([w for w in output if w[0] in keys])


def task_statuses(pending_writes: list) -> dict[str, TaskStatus]:
    output: dict[str, list] = {}
    interrupts: dict[str, list] = {}
    errors: dict[str, Any] = {}
    for tid, chan, value in pending_writes:
        if tid == NULL_TASK_ID:
            continue
        output.setdefault(tid, [])
        if chan == INTERRUPT:
            interrupts.setdefault(tid, []).extend(
                value if isinstance(value, (list, tuple)) else [value]
            )
        elif chan == ERROR:
            errors.setdefault(tid, value)
        elif chan not in CONTROL_WRITES:
            output[tid].append((chan, value))
    return {
        tid: TaskStatus(tuple(out), tuple(interrupts.get(tid, ())), errors.get(tid))
        for tid, out in output.items()
    }
