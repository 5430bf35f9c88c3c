"""Replaying a recorded thread, whole or from one of its checkpoints, on a new thread.

The graph runs again (the code as it is now) with the recorded chat-model and tool outputs
served instead of new calls (`engine.record.session`), and the replay is recorded in turn, so
two runs can be compared and a replay replayed. `replay_thread` feeds the new thread the
recorded inputs in order (the first input, then each resume); `replay_from` copies a
checkpoint of the source thread into the new thread and carries on from it, serving only the
calls made after that checkpoint. `plan_thread`/`plan_from` make the same replays for a graph
with async nodes: `await plan.arun()`.
"""

from __future__ import annotations

from collections.abc import Iterator
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


def plan_thread(graph: Any, source_thread: str, thread_id: str, *, on_change: str = "fail",
                serve: tuple[str, ...] = KINDS, config: dict | None = None,
                store: RecordingStore | None = None) -> ReplayPlan:  # fmt: skip
    """The replay of `source_thread`'s recorded inputs on `thread_id`, serving its calls of the
    kinds in `serve` (see `ReplaySession` for `on_change`); `.run()` or `await .arun()` it."""
    store = store or RecordingStore.for_saver(graph.checkpointer)
    runs = store.runs(source_thread)
    if not runs:
        raise ValueError(f"thread {source_thread!r} has no recording")
    _require_new(graph.checkpointer, thread_id)
    session = ReplaySession(store.calls(source_thread), on_change, serve=serve)
    return ReplayPlan(graph, store, session, source_thread, thread_id, config,
                      [codec.loads(r.input) for r in runs])  # fmt: skip


def plan_from(graph: Any, source_thread: str, checkpoint_id: str, thread_id: str, *,
              on_change: str = "fail", serve: tuple[str, ...] = KINDS,
              config: dict | None = None, store: RecordingStore | None = None) -> ReplayPlan:  # fmt: skip
    """Copy checkpoint `checkpoint_id` of `source_thread` to `thread_id`; the replay then runs
    on from it, serving the calls recorded after it (and the later recorded inputs: resumes)."""
    store = store or RecordingStore.for_saver(graph.checkpointer)
    copy_checkpoint(graph.checkpointer, source_thread, checkpoint_id, thread_id)
    calls = [c for c in store.calls(source_thread) if (c.checkpoint_id or "") >= checkpoint_id]
    later = [r for r in store.runs(source_thread) if r.started > checkpoint_id]
    session = ReplaySession(calls, on_change, serve=serve)
    return ReplayPlan(graph, store, session, source_thread, thread_id, config,
                      [None, *(codec.loads(r.input) for r in later)])  # fmt: skip


def replay_thread(graph: Any, source_thread: str, thread_id: str, **options: Any) -> ReplayReport:
    """Replay a recorded thread on a new one (`plan_thread` names the options)."""
    return plan_thread(graph, source_thread, thread_id, **options).run()


def replay_from(graph: Any, source_thread: str, checkpoint_id: str, thread_id: str,
                **options: Any) -> ReplayReport:  # fmt: skip
    """Replay a recorded thread from one of its checkpoints (`plan_from` names the options)."""
    return plan_from(graph, source_thread, checkpoint_id, thread_id, **options).run()


@dataclass
class ReplayPlan:
    """The graph runs of one replay: each input on `thread_id`, with the session serving."""

    graph: Any
    store: RecordingStore
    session: ReplaySession
    source_thread: str
    thread_id: str
    config: dict | None
    inputs: list

    def _runs(self) -> Iterator[tuple[Any, dict]]:
        """Each input with its run config: the thread, the session, a recorder of the replay."""
        install_replay_cache()
        base = self.config or {}
        for value in self.inputs:
            run_config = {**base, CONF: {**base.get(CONF, {}), "thread_id": self.thread_id,
                                         CONFIG_KEY_REPLAY: self.session}}  # fmt: skip
            record(run_config, self.store, replay_of=self.source_thread).session = self.session
            yield value, run_config

    def run(self) -> ReplayReport:
        try:
            for value, run_config in self._runs():
                self.graph.invoke(value, run_config)
        except Exception as exc:  # noqa: BLE001 - the report carries it; the caller decides
            return self._report(exc)
        return self._report(None)

    async def arun(self) -> ReplayReport:
        """As `run`, through `ainvoke` (a graph with async nodes)."""
        try:
            for value, run_config in self._runs():
                await self.graph.ainvoke(value, run_config)
        except Exception as exc:  # noqa: BLE001 - the report carries it; the caller decides
            return self._report(exc)
        return self._report(None)

    def _report(self, error: BaseException | None) -> ReplayReport:
        return ReplayReport(self.source_thread, self.thread_id, list(self.session.decisions),
                            self.session.unused(), error)  # fmt: skip


def copy_checkpoint(saver: Any, source_thread: str, checkpoint_id: str, thread_id: str) -> None:
    """Store checkpoint `checkpoint_id` of `source_thread` as the first one of `thread_id`
    (values and versions; not its pending writes, so its next tasks run again)."""
    found = saver.get_tuple(
        {CONF: {"thread_id": source_thread, "checkpoint_ns": "", "checkpoint_id": checkpoint_id}}
    )
    if found is None:
        raise ValueError(f"thread {source_thread!r} has no checkpoint {checkpoint_id!r}")
    _require_new(saver, thread_id)
    checkpoint = found.checkpoint
    saver.put({CONF: {"thread_id": thread_id, "checkpoint_ns": ""}}, checkpoint,
              dict(found.metadata), dict(checkpoint["channel_versions"]))  # fmt: skip


def _require_new(saver: Any, thread_id: str) -> None:
    if saver.get_tuple({CONF: {"thread_id": thread_id, "checkpoint_ns": ""}}) is not None:
        raise ValueError(f"thread {thread_id!r} exists already: replay into a new thread")


def free_thread_id(saver: Any, stem: str) -> str:
    """`STEM-1`, `STEM-2`...: the first name no thread of `saver` has."""
    taken = set(saver.list_threads())
    return next(f"{stem}-{n}" for n in range(1, len(taken) + 2) if f"{stem}-{n}" not in taken)
