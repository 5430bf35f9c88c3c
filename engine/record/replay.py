"""Replaying a recorded thread, whole or from one of its checkpoints, on a new thread.

The graph runs again (the code as it is now) with the recorded chat-model and tool outputs
served instead of new calls (`engine.record.session`), and the replay is recorded in turn, so
two runs can be compared and a replay replayed. `replay_thread` feeds the new thread the
recorded inputs in order (the first input, then each resume); `replay_from` copies a
checkpoint of the source thread into the new thread and carries on from it, serving only the
calls made after that checkpoint.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine._constants import CONF
from engine.record import codec
from engine.record.recorder import record
from engine.record.serving import install_replay_cache
from engine.record.session import CONFIG_KEY_REPLAY, KINDS, Decision, ReplaySession
from engine.record.store import RecordedCall, RecordingStore


@dataclass
class ReplayReport:
    """What a replay did: each call's decision, recorded calls nobody asked for, and the error
    that stopped it (a ReplayMismatch under the `fail` policy, or whatever a node raised)."""

    source_thread: str
    thread_id: str
    decisions: list[Decision] = field(default_factory=list)
    unused: list[RecordedCall] = field(default_factory=list)
    error: BaseException | None = None

    @property
    def changed(self) -> list[Decision]:
        """Calls whose input differed from the recording, or had none."""
        return [d for d in self.decisions if d.changed]

    def summary(self) -> str:
        served = sum(d.status in ("recorded", "changed:recorded") for d in self.decisions)
        live = sum(d.status.endswith("live") for d in self.decisions)
        text = (f"replayed {self.source_thread!r} as {self.thread_id!r}: {served} call(s) from "
                f"the recording, {live} live, {len(self.changed)} changed, "
                f"{len(self.unused)} recorded call(s) unused")  # fmt: skip
        return text if self.error is None else f"{text}; stopped: {self.error}"


def replay_thread(graph: Any, source_thread: str, thread_id: str, *, on_change: str = "fail",
                  serve: tuple[str, ...] = KINDS, config: dict | None = None,
                  store: RecordingStore | None = None) -> ReplayReport:  # fmt: skip
    """Run the recorded inputs of `source_thread` again on `thread_id`, serving its calls
    of the kinds in `serve` (see `ReplaySession` for `on_change`)."""
    store = store or RecordingStore.for_saver(graph.checkpointer)
    runs = store.runs(source_thread)
    if not runs:
        raise ValueError(f"thread {source_thread!r} has no recording")
    session = ReplaySession(store.calls(source_thread), on_change, serve=serve)
    return _run(graph, store, session, source_thread, thread_id, config,
                [codec.loads(r.input) for r in runs])  # fmt: skip


def replay_from(graph: Any, source_thread: str, checkpoint_id: str, thread_id: str, *,
                on_change: str = "fail", serve: tuple[str, ...] = KINDS,
                config: dict | None = None, store: RecordingStore | None = None) -> ReplayReport:  # fmt: skip
    """Copy checkpoint `checkpoint_id` of `source_thread` to `thread_id` and run on from it,
    serving the calls recorded after it (and the later recorded inputs: resumes)."""
    store = store or RecordingStore.for_saver(graph.checkpointer)
    copy_checkpoint(graph.checkpointer, source_thread, checkpoint_id, thread_id)
    calls = [c for c in store.calls(source_thread) if (c.checkpoint_id or "") >= checkpoint_id]
    later = [r for r in store.runs(source_thread) if r.started > checkpoint_id]
    session = ReplaySession(calls, on_change, serve=serve)
    return _run(graph, store, session, source_thread, thread_id, config,
                [None, *(codec.loads(r.input) for r in later)])  # fmt: skip


def copy_checkpoint(saver: Any, source_thread: str, checkpoint_id: str, thread_id: str) -> None:
    """Store checkpoint `checkpoint_id` of `source_thread` as the first one of `thread_id`
    (values and versions; not its pending writes, so its next tasks run again)."""
    found = saver.get_tuple(
        {CONF: {"thread_id": source_thread, "checkpoint_ns": "", "checkpoint_id": checkpoint_id}}
    )
    if found is None:
        raise ValueError(f"thread {source_thread!r} has no checkpoint {checkpoint_id!r}")
    if saver.get_tuple({CONF: {"thread_id": thread_id, "checkpoint_ns": ""}}) is not None:
        raise ValueError(f"thread {thread_id!r} exists already: replay into a new thread")
    checkpoint = found.checkpoint
    saver.put({CONF: {"thread_id": thread_id, "checkpoint_ns": ""}}, checkpoint,
              dict(found.metadata), dict(checkpoint["channel_versions"]))  # fmt: skip


def _run(graph: Any, store: RecordingStore, session: ReplaySession, source: str, thread_id: str,
         config: dict | None, inputs: list) -> ReplayReport:  # fmt: skip
    install_replay_cache()
    report = ReplayReport(source, thread_id)
    try:
        for value in inputs:
            run_config = {**(config or {}), CONF: {**(config or {}).get(CONF, {}),
                                                   "thread_id": thread_id}}  # fmt: skip
            run_config[CONF][CONFIG_KEY_REPLAY] = session
            recorder = record(run_config, store, replay_of=source)
            recorder.session = session
            graph.invoke(value, run_config)
    except Exception as exc:  # noqa: BLE001 - the report carries it; the caller decides
        report.error = exc
    report.decisions = list(session.decisions)
    report.unused = session.unused()
    return report
