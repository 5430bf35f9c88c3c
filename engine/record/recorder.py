"""Recorder: a LangChain callback handler that records a run's chat-model and tool calls.

Add it to a run's config callbacks (`record(config, store)`): the engine hands callbacks to every
node, so each chat model and tool a node calls reports its start and end here, with langgraph's
metadata (node, step, checkpoint namespace). The graph's own run (the one with no parent) is
recorded as the run's input. Keys never reach the store: only the messages and the tool's
arguments are kept as input (see `engine.record.codec`), never the model's settings or headers.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.load import dumps as lc_dumps
from langchain_core.runnables.config import var_child_runnable_config

from engine._constants import CONF, NS_END, NS_SEP
from engine.checkpoint.ids import uuid6
from engine.record import codec
from engine.record.store import RecordedCall, RecordedRun, RecordingStore

_OWN_RANDOM = random.Random()
"""The recorder's ids draw from a generator of its own: recording a run must not move the
global `random` a seeded program draws from."""


def node_path(checkpoint_ns: str) -> str:
    """`agent:1f0…|model:9a2…` -> `agent|model`: a node's place without the run's task ids."""
    return NS_SEP.join(part.split(NS_END)[0] for part in checkpoint_ns.split(NS_SEP) if part)


def call_site(metadata: dict | None) -> tuple[str, str | None, int | None]:
    """(node path, task id, step) of a call, from the metadata the engine gives callbacks."""
    metadata = metadata or {}
    ns = metadata.get("langgraph_checkpoint_ns") or ""
    node = node_path(ns) or metadata.get("langgraph_node") or "(outside a node)"
    task_id = ns.rsplit(NS_SEP, 1)[-1].partition(NS_END)[2] or None
    return node, task_id, metadata.get("langgraph_step")


def model_input(messages: list) -> dict:
    """A chat model's input as its cache sees it (ids cleared), so hashes agree with replay."""
    cleared = [m.model_copy(update={"id": None}) if getattr(m, "id", None) else m for m in messages]
    return codec.model_input(json.loads(lc_dumps(cleared)))


def _thread(metadata: Any) -> str:
    return str((metadata or {}).get("thread_id", ""))


def _root_checkpoint() -> str | None:
    """The thread checkpoint the running superstep started from (the top graph's)."""
    config = var_child_runnable_config.get() or {}
    conf = config.get(CONF) or {}
    mapping = conf.get("checkpoint_map") or {}
    if "" in mapping:
        return mapping[""]
    runtime = conf.get("__pregel_runtime")
    info = getattr(runtime, "execution_info", None)
    return getattr(info, "checkpoint_id", None)


class Recorder(BaseCallbackHandler):
    """Records every chat-model and tool call of the runs it is attached to, each on the thread
    its metadata names.

    `store` is a RecordingStore, or a function returning the one to write to now (the studio's
    changes with the database runs use). `replay_of` marks the runs as replays of that thread;
    while replaying, `session` says how each call was answered.
    """

    run_inline = True  # in the calling thread: the current config names the superstep
    raise_error = True  # a recording that cannot be written fails the run rather than lie

    def __init__(self, store: RecordingStore | Callable[[], RecordingStore], *,
                 replay_of: str | None = None) -> None:  # fmt: skip
        self._store_of = store if callable(store) else lambda: store
        self.replay_of = replay_of
        self.session: Any = None  # the ReplaySession whose answers this recorder stores
        self.listeners: list[Callable[[RecordedCall], None]] = []
        """Told of each call once it is stored (the studio's trace shows them)."""
        self._lock = threading.Lock()
        self._open: dict[Any, dict] = {}
        self._per_task: dict[Any, int] = defaultdict(int)
        self._runs: dict[str, str] = {}  # thread -> its current run's id
        self._seq: dict[tuple[str, str], int] = {}  # (database, thread) -> next call number

    @property
    def store(self) -> RecordingStore:
        return self._store_of()

    # -- the graph's run: its input
    def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: Any,
                       parent_run_id: Any = None, metadata: Any = None, **kwargs: Any) -> None:  # fmt: skip
        if parent_run_id is not None:
            return
        thread = _thread(metadata)
        self._runs[thread] = str(run_id)
        store = self.store
        store.add_run(RecordedRun(thread, str(run_id), store.next_seq("record_runs", thread),
                                  uuid6(rng=_OWN_RANDOM), codec.dumps(inputs), self.replay_of))  # fmt: skip

    def on_chain_end(self, outputs: Any, *, run_id: Any, parent_run_id: Any = None,
                     **kwargs: Any) -> None:  # fmt: skip
        if parent_run_id is None:
            self._run_ended(str(run_id))

    def on_chain_error(self, error: BaseException, *, run_id: Any, parent_run_id: Any = None,
                       **kwargs: Any) -> None:  # fmt: skip
        if parent_run_id is None:
            self._run_ended(str(run_id))

    def _run_ended(self, run_id: str) -> None:
        """A long-lived recorder (the studio's) keeps no counters of finished runs."""
        with self._lock:
            for thread in [t for t, r in self._runs.items() if r == run_id]:
                del self._runs[thread]
            if not self._runs:
                self._per_task.clear()

    # -- calls
    def _start(self, run_id: Any, kind: str, metadata: Any, essence: dict) -> None:
        node, task_id, step = call_site(metadata)
        thread, store = _thread(metadata), self.store
        with self._lock:
            index = self._per_task[(task_id, node)]
            self._per_task[(task_id, node)] += 1
            key = (store.path, thread)
            seq = self._seq.get(key)
            if seq is None:
                seq = store.next_seq("record_calls", thread)
            self._seq[key] = seq + 1
        self._open[run_id] = dict(thread_id=thread, seq=seq, run_id=self._runs.get(thread, ""),
                                  kind=kind, node=node, task_id=task_id, step=step,
                                  call_index=index, checkpoint_id=_root_checkpoint(),
                                  input_hash=codec.input_hash(essence),
                                  input=codec.dumps(essence), started=time.time())  # fmt: skip

    def _end(self, run_id: Any, output: Any = None, error: BaseException | None = None) -> None:
        call = self._open.pop(run_id, None)
        if call is None:
            return
        recorded = RecordedCall(
            **call, output=None if error is not None else codec.dumps(output),
            error=None if error is None else f"{type(error).__name__}: {error}",
            served=self._served(call), ended=time.time())  # fmt: skip
        self.store.add_call(recorded)
        for listener in self.listeners:
            listener(recorded)

    def _served(self, call: dict) -> str:
        if self.session is None:
            return "live"
        return self.session.claim(call["kind"], call["node"], call["input_hash"]) or "live"

    def on_chat_model_start(self, serialized: Any, messages: list, *, run_id: Any,
                            metadata: Any = None, **kwargs: Any) -> None:  # fmt: skip
        self._start(run_id, "model", metadata, model_input(messages[0] if messages else []))

    def on_llm_end(self, response: Any, *, run_id: Any, **kwargs: Any) -> None:
        generation = response.generations[0][0] if response.generations else None
        self._end(run_id, getattr(generation, "message", getattr(generation, "text", None)))

    def on_llm_error(self, error: BaseException, *, run_id: Any, **kwargs: Any) -> None:
        self._end(run_id, error=error)

    def on_tool_start(self, serialized: Any, input_str: str, *, run_id: Any, metadata: Any = None,
                      inputs: Any = None, **kwargs: Any) -> None:  # fmt: skip
        name = (serialized or {}).get("name") or kwargs.get("name") or "tool"
        args = inputs if inputs is not None else input_str
        self._start(run_id, "tool", metadata, codec.tool_input(name, args))

    def on_tool_end(self, output: Any, *, run_id: Any, **kwargs: Any) -> None:
        self._end(run_id, output)

    def on_tool_error(self, error: BaseException, *, run_id: Any, **kwargs: Any) -> None:
        self._end(run_id, error=error)


def record(config: dict, store: RecordingStore, *, replay_of: str | None = None) -> Recorder:
    """Attach a Recorder to `config` (changed in place) and return it."""
    from engine.pregel.callbacks import add_handler

    recorder = Recorder(store, replay_of=replay_of)
    add_handler(config, recorder)
    return recorder
