"""How a running loop keeps its thread: pending writes as tasks finish, a checkpoint after each
barrier (now, or in the background with durability "async"), and once at exit with "exit"."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Sequence
from concurrent import futures
from typing import Any

from engine._constants import (
    CONF,
    CONFIG_KEY_CHECKPOINT_ID,
    CONFIG_KEY_CHECKPOINT_MAP,
    CONFIG_KEY_CHECKPOINT_NS,
    MISSING,
    NS_END,
    NULL_TASK_ID,
    TASKS,
)
from engine.channels.untracked_value import UntrackedValue
from engine.checkpoint.base import (
    WRITES_IDX_MAP,
    copy_checkpoint,
    create_checkpoint,
    empty_checkpoint,
    get_checkpoint_metadata,
)
from engine.checkpoint.ids import uuid6
from engine.pregel import trace
from engine.pregel.deltas import (
    bump_snapshots,
    count_step,
    counters_of,
    set_counters,
    settle,
    snapshot_plan,
)
from engine.pregel.loop_output import public_config
from engine.pregel.saves import background_saves
from engine.pregel.task_ids import path_text
from engine.types import Send


class LoopCheckpoints:
    """PregelLoop's saving side; the loop's state (checkpoint, saver, durability...) is its own."""

    # guards _pending_saves, which tasks on helper threads add to (see _save); the loop's own
    _saves_lock: threading.Lock
    # [pending list, its length, the task ids with writes in it], kept by _record_writes
    _pending_index: list | None = None
    # channel -> its place in the loop's channels (the order of a checkpoint's values)
    _channel_places: dict[str, int] | None = None
    # whether the saver keeps the checkpoints it is given as they are (put_unshared)
    _hands_over = False
    # whether the saver's put_writes takes a task_path (told once per loop)
    _writes_path = False

    def _record_writes(
        self, task_id: str, writes: Sequence[tuple[str, Any]], path: tuple = ()
    ) -> None:
        """Keep a task's writes pending for the barrier and save them; a rerun replaces the old.

        The null task (input commands) accumulates plain writes across runs, but its special
        writes (a resume answer) are replaced: the latest answer wins, as the saver's slot does.
        """
        # only special writes (an interrupt, a resume...): the last one per channel counts
        if (
            writes
            and writes[0][0] in WRITES_IDX_MAP
            and all(c in WRITES_IDX_MAP for c, _ in writes)
        ):
            writes = list({c: (c, v) for c, v in writes}.values())
        pending = self.checkpoint_pending_writes
        task_ids = self._pending_task_ids(pending)
        if task_id == NULL_TASK_ID:
            pending[:] = [w for w in pending if w[0] != task_id or w[1] not in WRITES_IDX_MAP]
            writes = sorted(writes, key=lambda w: w[0] in WRITES_IDX_MAP)
            to_save = [w[1:] for w in pending if w[0] == task_id] + list(writes)
        else:
            if task_id in task_ids:  # scanning every step's list for every task is quadratic
                pending[:] = [w for w in pending if w[0] != task_id]
            to_save = writes
        pending += [(task_id, c, v) for c, v in writes]
        task_ids.add(task_id)
        self._pending_index[1] = len(pending)
        if self.checkpointer is None:
            return
        if self.durability == "exit":
            # pending writes are saved once, when the run ends: those of the tasks that wrote
            self._written_ids.add(task_id)
        elif self.checkpoint_config[CONF].get(CONFIG_KEY_CHECKPOINT_ID):
            self._save_writes(self.checkpoint_config, self._kept(to_save), task_id, _text(path))

    def _save_writes(self, config: dict, writes: list, task_id: str, path: str) -> None:
        """put_writes, with the task path's text when the saver takes it: savers order a
        checkpoint's writes by it (the null task's and an unknown task's is empty)."""
        if self._writes_path:
            self._save("put_writes", config, writes, task_id, path)
        else:
            self._save("put_writes", config, writes, task_id)

    def _pending_task_ids(self, pending: list) -> set[str]:
        """The ids of the tasks with writes in `pending` (maybe more, never fewer): rebuilt when
        the loop replaced the list, or its length shows someone else changed it."""
        index = self._pending_index
        if index is None or index[0] is not pending or index[1] != len(pending):
            # (a step's list starts empty: no comprehension to run then)
            ids = {w[0] for w in pending} if pending else set()
            index = self._pending_index = [pending, len(pending), ids]
        return index[2]

    # the names of the graph's UntrackedValue channels, found on the first save
    _untracked: frozenset[str] | None = None

    def _untracked_names(self) -> frozenset[str]:
        if self._untracked is None:
            self._untracked = frozenset(
                name for name, ch in self.channels.items() if isinstance(ch, UntrackedValue)
            )
        return self._untracked

    def _kept(self, writes: Sequence[tuple[str, Any]]) -> list[tuple[str, Any]]:
        """The writes a checkpoint keeps: as langgraph, none to an UntrackedValue channel, nor
        such a key in the state a Send carries (it may hold what cannot be serialized)."""
        untracked = self._untracked
        if untracked is None:
            untracked = self._untracked_names()
        if not untracked:
            return list(writes)
        return [
            (c, _without_keys(v, untracked) if c == TASKS else v)
            for c, v in writes
            if c not in untracked
        ]

    def _save(self, method: str, *args: Any) -> None:
        """Call the saver's `method` now, or (durability "async", a saver that waits on I/O) in
        the background, in order, overlapping the next superstep; `flush_saves` waits for it.
        An async run calls the async twin (`a` + method) in a task of AsyncSaves instead."""
        if self._async_saves is not None:
            self._async_saves.submit(method, *args)
        elif self._saves_in_background:
            saver = self.checkpointer
            # tasks running on helper threads save their writes at once: one at a time here,
            # or two could forget the same landed save and the second find the deque empty
            with self._saves_lock:
                pending = self._pending_saves
                pending.append(background_saves().submit(saver, getattr(saver, method), *args))
                # saves finish in order: forget the landed ones at the front (a failed one stays)
                while pending and pending[0].done() and pending[0].exception() is None:
                    pending.popleft()
        else:
            getattr(self.checkpointer, method)(*args)

    def flush_saves(self) -> None:
        """Wait for every background save, then re-raise the first one that failed: returning
        while later saves still run would let the caller close the connection under them."""
        with self._saves_lock:
            pending, self._pending_saves = self._pending_saves, deque()
        if pending:  # (wait() on nothing still builds its waiter and locks)
            futures.wait(pending)
        for future in pending:
            future.result()

    async def aflush_saves(self) -> None:
        """flush_saves for an async run."""
        if self._async_saves is not None:
            await self._async_saves.wait()

    def _put_checkpoint(self, source: str, exiting: bool = False) -> None:
        metadata = (
            self.checkpoint_metadata
            if exiting
            else {
                "source": source,
                "step": self.step,
                "parents": self.config[CONF].get(CONFIG_KEY_CHECKPOINT_MAP, {}),
            }
        )
        saving = self.checkpointer is not None and (exiting or self.durability != "exit")
        if saving:
            snapshot: set[str] = set()
            if self._delta_names:
                snapshot = self._delta_snapshots(source, exiting, metadata)
                if snapshot and (exiting or source != "fork"):
                    # a channel stored whole in a step that did not write it (the supersteps
                    # bound) gets a version of its own, or the put would not store it
                    self._bump_snapshots(snapshot)
                if exiting and self._exit_deltas is not None:
                    self._put_exit_deltas(snapshot)
            self.checkpoint = create_checkpoint(
                self.checkpoint,
                self.channels,
                self.step,
                id=self.checkpoint["id"] if exiting else None,
                updated_channels=self.updated_channels,
                channels_to_snapshot=snapshot,
                values=self._changed_values(),
            )
            # delta channels' values depend on more than their versions: always all of them
            self._values_known = not self._delta_names
            values = self.checkpoint["channel_values"]
            if TASKS in values and (untracked := self._untracked_names()):
                # the Sends waiting for the next step, as their pending writes are kept
                values[TASKS] = [_without_keys(send, untracked) for send in values[TASKS]]
        else:
            if self._exit_deltas is not None:
                # the steps not saved count towards the snapshots decided at exit
                set_counters(
                    metadata,
                    count_step(self._delta_names, self.checkpoint_metadata, self.updated_channels),
                )
            # durability "exit" keeps stepping, only the last checkpoint will be saved; without
            # a saver nobody keeps the old one: either way it is renewed in place, no copies.
            # Its id is drawn as langgraph's each step is (the global `random` moves alike).
            self.checkpoint["id"] = uuid6(clock_seq=self.step)
            self.checkpoint["updated_channels"] = None
        if saving:
            new_versions = self._changes.take(self.checkpoint["channel_versions"])
            self.prev_checkpoint_config = (
                self.checkpoint_config
                if self.checkpoint_config[CONF].get(CONFIG_KEY_CHECKPOINT_ID)
                else None
            )
            # a background put must not see the next step's in-place version bumps
            later = self._saves_in_background or (
                self._async_saves is not None and self._async_saves.defers("put")
            )
            checkpoint = copy_checkpoint(self.checkpoint) if later else self.checkpoint
            if later or not self._hands_over:
                self._save("put", self.checkpoint_config, checkpoint, metadata, new_versions)
            else:
                self.checkpointer.put_unshared(
                    self.checkpoint_config, checkpoint, self._stored(metadata), new_versions
                )
                # the saver keeps its versions as they are: the next steps change copies (and
                # replace, never change, a node's versions_seen)
                checkpoint["channel_versions"] = dict(checkpoint["channel_versions"])
                checkpoint["versions_seen"] = dict(checkpoint["versions_seen"])
            # (copies given their new keys: a third of the cost of {**d, k: v}, every step)
            conf = self.checkpoint_config[CONF].copy()
            conf[CONFIG_KEY_CHECKPOINT_NS] = self.config[CONF].get(CONFIG_KEY_CHECKPOINT_NS, "")
            conf[CONFIG_KEY_CHECKPOINT_ID] = self.checkpoint["id"]
            self.checkpoint_config = self.checkpoint_config.copy()
            self.checkpoint_config[CONF] = conf
        if exiting:
            return
        self.checkpoint_metadata = metadata
        self._checkpoint_to_emit = "checkpoints" in self._wanted
        if self.observer is not None:
            self._observe(
                trace.CheckpointSaved(
                    self.checkpoint_ns,
                    self.step,
                    source,
                    self.checkpoint["id"],
                    public_config(self.checkpoint_config) if saving else None,
                )
            )
        self.step += 1

    # get_checkpoint_metadata's part from the run's config: the same at every step of a run
    # (the config changes only in the ids, which metadata leaves out)
    _config_metadata: dict | None = None

    def _stored(self, metadata: dict) -> dict:
        """get_checkpoint_metadata(self.checkpoint_config, metadata), for the loop's own
        metadata (plain values: no NUL to strip), without going over the config every step."""
        extras = self._config_metadata
        if extras is None:
            extras = self._config_metadata = get_checkpoint_metadata(self.checkpoint_config, {})
        stored = dict(metadata)
        if extras:
            for key, value in extras.items():
                if key not in stored:
                    stored[key] = value
        return stored

    def _changed_values(self) -> dict[str, Any] | None:
        """The channels' values (create_checkpoint's), from the last checkpoint's and the
        channels given a version since: no pass over every channel per superstep. None (ask
        every channel) when the last ones are not known, or when the channels are so few that
        asking each costs less."""
        if not self._values_known:
            return None
        old = self.checkpoint["channel_values"]
        changed = self._changes.names
        channels, versions = self.channels, self.checkpoint["channel_versions"]
        if 2 * (len(old) + len(changed)) > len(channels):
            return None
        place = self._channel_places
        if place is None:  # the order create_checkpoint lists values in: the channels'
            place = self._channel_places = {name: i for i, name in enumerate(channels)}
        values = {}
        for name in sorted(old.keys() | changed, key=place.__getitem__):
            if name not in changed:
                values[name] = old[name]
            elif name in versions and (value := channels[name].checkpoint()) is not MISSING:
                values[name] = value
        return values

    def _bump_snapshots(self, snapshot: set[str]) -> None:
        versions = self.checkpoint["channel_versions"]
        # a channel not given a version since the last put holds the version the saver has
        stored = {
            n: versions[n] for n in snapshot if n in versions and n not in self._changes.names
        }
        for name, version in bump_snapshots(
            self.checkpoint, snapshot, stored, self.get_next_version
        ).items():
            self._changes.landed({name: None}, version)

    def _delta_snapshots(self, source: str, exiting: bool, metadata: dict) -> set[str]:
        """Which delta channels this checkpoint stores whole, and the counters it carries.

        A fork's parent holds another branch's writes: it stores every delta channel whole.
        At exit (durability "exit") the steps are counted already; a checkpoint addressed by
        id may have children that read the writes stored on it, so the channels this run
        wrote are stored whole instead.
        """
        forced = self._delta_forced
        if source == "fork" and not exiting:
            forced = set(self._delta_names)
        versions = self.checkpoint["channel_versions"]
        if exiting:
            if self._exit_deltas is not None and self._stored_id is not None and self._addressed:
                forced = forced | self._exit_deltas.channels()
            counters = counters_of(metadata)
            snapshot, counters = settle(
                self.channels, self._delta_names, counters, versions, forced
            )
        else:
            snapshot, counters = snapshot_plan(
                self.channels,
                self._delta_names,
                self.checkpoint_metadata,
                self.updated_channels,
                versions,
                forced,
            )
        set_counters(metadata, counters)
        self._delta_forced = set()
        return snapshot

    def _put_exit_deltas(self, whole: set[str]) -> None:
        """Store the run's delta writes of the channels not stored whole on the final
        checkpoint's parent: the checkpoint loaded, or on a new thread an empty step -2
        checkpoint (under the empty start's id, with no parent) made for them."""
        grouped = self._exit_deltas.grouped(whole)
        if not grouped:
            return
        config = self.checkpoint_config
        if self._stored_id is None:
            stub = empty_checkpoint()
            stub["id"] = self._start_id
            self._save("put", _with_id(config, None), stub, {"step": -2}, {})
            config = self.checkpoint_config = _with_id(config, self._start_id)
        for (task_id, path), writes in grouped.items():
            self._save_writes(config, writes, task_id, path)

    def _save_on_exit(self, error: BaseException | None) -> None:
        """Durability "exit": save the last checkpoint and its pending writes, once."""
        if self.checkpointer is None or self.durability != "exit" or self.status == "input":
            return
        if self.is_nested and error is None and any(NS_END in part for part in self.checkpoint_ns):
            return  # a subgraph that finished is saved through its parent's checkpoint
        # a resume that made no step ends on the checkpoint it loaded: stored already, with the
        # writes it loaded (stored again they would get new places and apply twice)
        unmoved = self.checkpoint["id"] == self._stored_id
        if not unmoved:
            self._put_checkpoint(self.checkpoint_metadata.get("source", "loop"), exiting=True)
        by_task: dict[str, list[tuple[str, Any]]] = {}
        for task_id, channel, value in self.checkpoint_pending_writes:
            if not unmoved or task_id in self._written_ids:
                by_task.setdefault(task_id, []).append((channel, value))
        for task_id, writes in by_task.items():
            task = self.tasks.get(task_id) or self.calls.get(task_id)
            path = _text(task.path) if task is not None else ""
            self._save_writes(self.checkpoint_config, self._kept(writes), task_id, path)


def _text(path: tuple) -> str:
    """A task path's text for a saver; the null task's (no path) is empty."""
    return path_text(path) if path else ""


def _with_id(config: dict, checkpoint_id: str | None) -> dict:
    return {**config, CONF: {**config[CONF], CONFIG_KEY_CHECKPOINT_ID: checkpoint_id}}


def _without_keys(packet: Any, keys: frozenset[str]) -> Any:
    """A Send whose state argument lacks `keys` (other packets as they are)."""
    if not isinstance(packet, Send) or not isinstance(packet.arg, dict):
        return packet
    arg = {k: v for k, v in packet.arg.items() if k not in keys}
    return Send(packet.node, arg, timeout=packet.timeout)
