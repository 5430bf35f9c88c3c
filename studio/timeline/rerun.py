"""Re-run a finished run from one of its tasks, on a new thread, and compare the two (no Qt).

The new thread starts from copies of the checkpoints saved before the task: the root graph's
before the superstep that ran it and, for a task inside a subgraph, each inner graph's before
the step that ran the next level down. The root then resumes: its pending step runs again, and
the subgraph task picks its own graph up from the copied inner checkpoint, as a subgraph does
when its parent resumes after an interrupt inside it, so only what follows the task runs.

Model and tool calls are answered by a ReplaySession: `live` serves the calls the tasks run
again before it made (the other tasks of its step, begun before it) and calls the rest; `recorded`
serves every call recorded after the checkpoint, calling only those whose input changed. State
edits (`updates`) are applied to the copied root checkpoint first, as a fork; they are for a
root task only (a fork makes new task ids, so a subgraph would start its graph over).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine._constants import CONF
from engine.record import codec
from engine.record.replay import ReplayPlan, ReplayReport, copy_checkpoint
from engine.record.session import KINDS, ReplaySession
from engine.record.store import RecordingStore
from studio.i18n import translate
from studio.replay.run_diff import RunDiff, diff_threads

MODES = ("live", "recorded")
OBSERVER = "__superstep_observer"
"""The configurable key the engine hands its trace observer on under (run_setup)."""


@dataclass(frozen=True)
class RerunPoint:
    """The task a re-run starts at, and the checkpoints before it (root first)."""

    source_thread: str
    where: str
    """`shout › exclaim`: the task's node, for messages."""
    checkpoints: tuple[dict, ...]
    before: frozenset[str] = frozenset()
    """The source run's tasks that run again before it (their calls are served in `live`)."""


@dataclass
class RerunResult:
    thread_id: str
    report: ReplayReport
    diff: RunDiff
    events: list
    """The re-run's trace events (the timeline shows what ran)."""
    calls: list
    """The re-run's recorded calls (inside the timeline's bars)."""

    def summary(self) -> str:
        """How its calls were answered, from its own recording, and what stopped it."""
        served = sum(not c.served.endswith("live") for c in self.calls)
        text = (translate("timeline.rerun", "{served} call(s) served from the recording, {live} made live").format(
                    served=served, live=len(self.calls) - served)
                if self.calls else translate("timeline.rerun", "no model or tool calls"))  # fmt: skip
        error = self.report.error
        if error is None:
            return text
        return translate("timeline.rerun", "{text}; stopped: {kind}: {error}").format(
            text=text, kind=type(error).__name__, error=error)  # fmt: skip


def rerun(graph: Any, point: RerunPoint, thread_id: str, *, mode: str = "live",
          updates: dict | None = None, config: dict | None = None,
          store: RecordingStore | None = None) -> RerunResult:  # fmt: skip
    """Run `graph` again from `point` on the new thread `thread_id` (see the module docstring)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    saver = graph.checkpointer
    store = store or RecordingStore.for_saver(saver)
    root, *inner = point.checkpoints
    if updates and inner:
        raise ValueError(f"{point.where}: state edits are for a task of the root graph")
    root_id = root[CONF]["checkpoint_id"]
    copy_checkpoint(saver, point.source_thread, root_id, thread_id)
    for level in inner:
        _copy_inner(saver, level, thread_id)
    if updates:
        graph.update_state({CONF: {"thread_id": thread_id}}, updates)
    recorded = [c for c in store.calls(point.source_thread) if (c.checkpoint_id or "") >= root_id]
    if mode == "live":
        recorded = [c for c in recorded if c.task_id in point.before]
    # nothing to serve: no session decisions, each call simply live
    session = ReplaySession(recorded, "live", serve=KINDS if recorded else ())
    later = [r for r in store.runs(point.source_thread) if r.started > root_id]
    events: list = []
    base = config or {}
    run_config = {**base, CONF: {**base.get(CONF, {}), OBSERVER: events.append}}
    plan = ReplayPlan(graph, store, session, point.source_thread,
                      thread_id, run_config, [None, *(codec.loads(r.input) for r in later)])  # fmt: skip
    report = plan.run()
    diff = diff_threads(graph, point.source_thread, thread_id)
    return RerunResult(thread_id, report, diff, events, store.calls(thread_id))


def _copy_inner(saver: Any, config: dict, thread_id: str) -> None:
    """An inner graph's checkpoint, under its namespace on the new thread."""
    conf = config[CONF]
    found = saver.get_tuple(config)
    if found is None:
        raise ValueError(f"thread {conf['thread_id']!r} has no checkpoint "
                         f"{conf['checkpoint_id']!r} in {conf['checkpoint_ns']!r}")  # fmt: skip
    checkpoint = found.checkpoint
    saver.put({CONF: {"thread_id": thread_id, "checkpoint_ns": conf["checkpoint_ns"]}}, checkpoint,
              dict(found.metadata), dict(checkpoint["channel_versions"]))  # fmt: skip
