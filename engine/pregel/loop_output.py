"""What a running loop tells the outside: stream parts (values, updates, tasks, checkpoints,
debug) and, for observers such as the studio, the structured trace of each superstep."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from engine._constants import (
    CONF,
    CONFIG_KEY_CHECKPOINT_ID,
    ERROR,
    INTERRUPT,
    MISSING,
)
from engine.channels.delta import DeltaChannel
from engine.pregel import trace
from engine.pregel.calls import is_call
from engine.pregel.debug import checkpoint_payload, task_result_payload
from engine.pregel.io import map_output_updates, read_channels


class LoopOutput:
    """PregelLoop's output side; the loop's state (channels, tasks, modes...) is its own."""

    def emit(self, mode: str, payload: Any) -> None:
        if self.emit_raw is None:
            return
        if mode == "values" and self.last_values_only:  # each one replaces the one before
            self.last_values = payload
            return
        if mode in self.stream_modes:
            self.emit_raw(self.checkpoint_ns, mode, payload)
        if mode in ("checkpoints", "tasks") and "debug" in self.stream_modes:
            kind = (
                "checkpoint"
                if mode == "checkpoints"
                else ("task_result" if "result" in payload or "error" in payload else "task")
            )
            step = (
                self.checkpoint_metadata.get("step", self.step)
                if mode == "checkpoints"
                else self.step
            )
            self.emit_raw(
                self.checkpoint_ns,
                "debug",
                {
                    "step": step,
                    "timestamp": datetime.now(UTC).isoformat(),
                    "type": kind,
                    "payload": payload,
                },
            )

    def _observe(self, event: Any) -> None:
        if self.observer is not None:
            self.observer(event)

    def _output_writes(
        self, task: Any, writes: Sequence[tuple[str, Any]], cached: bool = False
    ) -> None:
        if self.emit_raw is None:
            return
        modes = self.stream_modes
        if writes[0][0] == INTERRUPT:
            if is_call(task):
                return  # the caller, interrupted in turn, reports it
            found = tuple(v for c, vs in writes if c == INTERRUPT for v in vs)
            if "updates" in modes:
                self.emit("updates", {INTERRUPT: found})
            if "values" in modes:
                # the whole state with the interrupts, or the interrupts alone for a non-dict output
                current = read_channels(self.channels, self.output_keys)
                if isinstance(current, dict):
                    current[INTERRUPT] = found
                    self.emit("values", current)
                else:
                    self.emit("values", {INTERRUPT: found})
        elif writes[0][0] != ERROR and "updates" in modes and not self.updates_for_interrupts_only:
            if (chunk := map_output_updates(self.output_keys, task, writes)) is not None:
                if cached:
                    chunk["__metadata__"] = {"cached": True}
                self.emit("updates", chunk)
        if not cached and "tasks" in self._wanted and not task.hidden:
            self.emit("tasks", task_result_payload(task, writes, self.stream_keys))

    def _prepare_and_emit_checkpoint(self) -> None:
        self.tasks = self._plan()
        self._checkpoint_to_emit = False
        self._emit_checkpoint()

    def _emit_checkpoint(self) -> None:
        if self.checkpointer is None:
            return
        # the checkpoint just made, saved or not (durability "exit" saves only the last one)
        config = self.checkpoint_config
        config = {**config, CONF: {**config[CONF], CONFIG_KEY_CHECKPOINT_ID: self.checkpoint["id"]}}
        self.emit(
            "checkpoints",
            checkpoint_payload(
                config,
                self.channels,
                self.stream_keys,
                self.checkpoint_metadata,
                list(self.tasks.values()),
                self.checkpoint_pending_writes,
                self.prev_checkpoint_config,
                self.output_keys,
            ),
        )

    def _observe_plan(self) -> None:
        if self.observer is None:
            return
        versions = self.checkpoint["channel_versions"]
        planned = tuple(
            trace.PlannedTask(
                t.id,
                t.name,
                t.path,
                tuple(t.triggers),
                {c: versions[c] for c in t.triggers if c in versions},
                t.input,
            )
            for t in self.tasks.values()
        )
        self._observe(trace.StepPlanned(self.checkpoint_ns, self.step, planned))

    def _observe_barrier(self, old_versions: dict, old_values: dict) -> None:
        new_versions = self.checkpoint["channel_versions"]
        changes = tuple(
            trace.ChannelChange(
                name,
                old_versions.get(name),
                version,
                _visible(old_values.get(name, MISSING)),
                _visible(observed_value(self.channels[name])),
            )
            for name, version in new_versions.items()
            if old_versions.get(name) != version
        )
        self._observe(trace.BarrierApplied(self.checkpoint_ns, self.step, changes))


def _visible(value: Any) -> Any:
    return None if value is MISSING else value


def observed_value(channel: Any) -> Any:
    """What a barrier shows of a channel: its checkpoint value, but a DeltaChannel's value (its
    checkpoint holds none: the writes are stored instead); MISSING when empty."""
    if isinstance(channel, DeltaChannel):
        return channel.value
    return channel.checkpoint()


def public_config(config: dict | None) -> dict | None:
    if config is None:
        return None
    conf = config.get(CONF, {})
    return {
        CONF: {
            k: v
            for k, v in conf.items()
            if not k.startswith("__") and k in ("thread_id", "checkpoint_ns", "checkpoint_id")
        }
    }
