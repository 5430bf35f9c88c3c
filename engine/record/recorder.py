"""Recorder: a LangChain callback handler that records a run's chat-model and tool calls.

Add it to a run's config callbacks (`record(config, store)`): the engine hands callbacks to every
node, so each chat model and tool a node calls reports its start and end here, with langgraph's
metadata (node, step, checkpoint namespace). The graph's own run (the one with no parent) is
recorded as the run's input. Keys never reach the store: only the messages and the tool's
arguments are kept as input (see `engine.record.codec`), never the model's settings or headers.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.load import dumps as lc_dumps
from langchain_core.runnables.config import var_child_runnable_config

from engine._constants import CONF, NS_END, NS_SEP
from engine.record import codec
from engine.record.store import RecordedCall, RecordedRun, RecordingStore

CONFIG_KEY_RECORDER = "__superstep_recorder"
"""The run's Recorder, in the configurable (the replay session finds what it served by it)."""


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
    import json

    return codec.model_input(json.loads(lc_dumps(cleared)))


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
    """Records every chat-model and tool call of the runs it is attached to, on `thread_id`.

    `replay_of` marks the runs as replays of that thread; while replaying, `session` says how
    each call was answered.
    """

    run_inline = True  # in the calling thread: the current config names the superstep
    raise_error = True

    def __init__(self, store: RecordingStore, thread_id: str, *, saver: Any = None,
                 replay_of: str | None = None) -> None:  # fmt: skip
        self.store = store
        self.saver = saver
        self.thread_id = thread_id
        self.replay_of = replay_of
        self.session: Any = None  # the ReplaySession whose answers this recorder stores
        self._lock = threading.Lock()
        self._open: dict[Any, dict] = {}
        self._per_task: dict[Any, int] = defaultdict(int)
        self._run_id: str | None = None
        self._seq = store.next_seq("record_calls", thread_id)

    # -- the graph's run: its input
    def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: Any,
                       parent_run_id: Any = None, **kwargs: Any) -> None:  # fmt: skip
        if parent_run_id is not None:
            return
        self._run_id = str(run_id)
        self.store.add_run(RecordedRun(
            self.thread_id, self._run_id, self.store.next_seq("record_runs", self.thread_id),
            self._thread_head(), codec.dumps(inputs), self.replay_of))  # fmt: skip

    def _thread_head(self) -> str | None:
        if self.saver is None:
            return None
        head = self.saver.get_tuple({CONF: {"thread_id": self.thread_id, "checkpoint_ns": ""}})
        return head.checkpoint["id"] if head else None

    # -- calls
    def _start(self, run_id: Any, kind: str, metadata: Any, essence: dict) -> None:
        node, task_id, step = call_site(metadata)
        with self._lock:
            index = self._per_task[(task_id, node)]
            self._per_task[(task_id, node)] += 1
            seq, self._seq = self._seq, self._seq + 1
        self._open[run_id] = dict(seq=seq, kind=kind, node=node, task_id=task_id, step=step,
                                  call_index=index, checkpoint_id=_root_checkpoint(),
                                  input_hash=codec.input_hash(essence),
                                  input=codec.dumps(essence))  # fmt: skip

    def _end(self, run_id: Any, output: Any = None, error: BaseException | None = None) -> None:
        call = self._open.pop(run_id, None)
        if call is None:
            return
        self.store.add_call(RecordedCall(
            self.thread_id, call.pop("seq"), self._run_id or "", **call,
            output=None if error is not None else codec.dumps(output),
            error=None if error is None else f"{type(error).__name__}: {error}",
            served=self._served(call)))  # fmt: skip

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


def record(config: dict, store: RecordingStore, *, saver: Any = None,
           replay_of: str | None = None) -> Recorder:  # fmt: skip
    """Attach a Recorder for the config's thread to `config` (changed in place) and return it;
    `saver` (the graph's checkpointer) tells it where each run starts."""
    from engine.pregel.callbacks import add_handler

    thread_id = str(config.setdefault(CONF, {}).get("thread_id", ""))
    recorder = Recorder(store, thread_id, saver=saver, replay_of=replay_of)
    add_handler(config, recorder)
    config[CONF][CONFIG_KEY_RECORDER] = recorder
    return recorder
