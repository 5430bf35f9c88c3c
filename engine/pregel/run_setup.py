"""Setting up one call of a graph: its config (merged with the enclosing task's), stream modes
and output queue (shared with a parent that streams subgraphs), saver, runtime, stream handlers,
and the PregelLoop that will run it."""

from __future__ import annotations

import os
import threading
import warnings
from collections import deque
from dataclasses import dataclass, is_dataclass
from typing import Any

from langchain_core.runnables.config import var_child_runnable_config
from pydantic import BaseModel

from engine._constants import (
    CHECKPOINT_COORDINATE_KEYS,
    CONF,
    CONFIG_KEY_CHECKPOINT_ID,
    CONFIG_KEY_CHECKPOINT_NS,
    CONFIG_KEY_CHECKPOINTER,
    CONFIG_KEY_DURABILITY,
    CONFIG_KEY_OBSERVER,
    CONFIG_KEY_RUNTIME,
    CONFIG_KEY_SCRATCHPAD,
    CONFIG_KEY_STREAM,
    NS_SEP,
    PREVIOUS,
)
from engine.pregel import trace
from engine.pregel.loop import LoopOptions, PregelLoop
from engine.pregel.messages import CONFIG_KEY_MESSAGES, CONFIG_KEY_STREAM_MESSAGES_V2
from engine.pregel.protocol import StreamProtocol
from engine.pregel.root_runs import noticed
from engine.pregel.scratchpad import Scratchpad
from engine.pregel.state import own_namespace
from engine.pregel.tracing import start_graph_run
from engine.pregel.wake import LoopWake
from engine.runtime import DEFAULT_RUNTIME, RunControl, Runtime, ServerInfo

DEFAULT_RECURSION_LIMIT = int(os.getenv("LANGGRAPH_DEFAULT_RECURSION_LIMIT", "10007"))
"""langgraph's default: effectively unbounded loops stop only at this many supersteps."""

STEP_DONE = object()
"""Marker the run generator yields after each barrier (used by SuperstepStepper)."""


@dataclass
class Run:
    """One call's setup: the loop, its output queue and how to format chunks."""

    loop: PregelLoop
    queue: deque
    modes: list[str]
    single: bool
    subgraphs: bool
    version: str
    # v2 parts carry pydantic/dataclass states as the schema's type: (values, checkpoints)
    mappers: tuple[Any, Any] = (None, None)
    # the graph's LangChain callback run, when some handler listens (engine.pregel.tracing)
    run_manager: Any = None
    # set when output is emitted, if tasks stream while they run (TaskRunner.tick)
    wake: threading.Event | LoopWake | None = None
    # modes whose chunks are printed to the console (print_mode, debug)
    print_modes: frozenset[str] = frozenset()


def prepare_run(
    graph: Any,
    input: Any,
    config: dict | None,
    *,
    context: Any,
    stream_mode: Any,
    output_keys: Any,
    interrupt_before: Any,
    interrupt_after: Any,
    subgraphs: bool,
    version: str,
    observer: trace.Observer | None = None,
    updates_for_interrupts_only: bool = False,
    durability: str | None = None,
    control: RunControl | None = None,
    eager: bool | None = None,
    asynchronous: bool = False,
    print_mode: Any = (),
    debug: bool | None = None,
) -> Run:
    # like langchain's ensure_config: a graph invoked inside a node runs within that task
    config = merge_configs(_ambient(graph.config, config), graph.config, config)
    _ids_to_metadata(config)
    config.setdefault("recursion_limit", DEFAULT_RECURSION_LIMIT)
    if config["recursion_limit"] < 1:
        raise ValueError("recursion_limit must be at least 1")
    configurable = config[CONF] = dict(config.get(CONF) or {})
    if CONFIG_KEY_SCRATCHPAD not in configurable and configurable.get(CONFIG_KEY_CHECKPOINT_NS):
        # the root called with a subgraph's checkpoint config (from get_state(subgraphs=True)):
        # it runs from its own checkpoint in the config's checkpoint_map, its subgraph from theirs
        configurable[CONFIG_KEY_CHECKPOINT_NS] = ""
        configurable.pop(CONFIG_KEY_CHECKPOINT_ID, None)
    if graph.checkpointer is True:
        if CONFIG_KEY_CHECKPOINTER not in configurable:
            raise RuntimeError("checkpointer=True cannot be used for root graphs.")
        ns = configurable.get(CONFIG_KEY_CHECKPOINT_NS, "")
        configurable[CONFIG_KEY_CHECKPOINT_NS] = own_namespace(ns)
    # a task running several graphs: each after the first gets a namespace of its own
    scratchpad = configurable.get(CONFIG_KEY_SCRATCHPAD)
    if isinstance(scratchpad, Scratchpad) and (count := next(scratchpad.subgraph_counter)):
        configurable[CONFIG_KEY_CHECKPOINT_NS] = (
            f"{configurable[CONFIG_KEY_CHECKPOINT_NS]}{NS_SEP}{count}"
        )
    if stream_mode is None:
        stream_mode = graph.stream_mode
    single = isinstance(stream_mode, str)
    modes = [stream_mode] if single else list(dict.fromkeys(stream_mode))
    # as langgraph: print_mode's chunks are printed, not returned; debug prints updates, values
    if debug or graph.debug:
        print_mode = ["updates", "values"]
    printed = frozenset([print_mode] if isinstance(print_mode, str) else print_mode)
    queue: deque = deque()
    # a subgraph streams into its parent's queue too, when the parent asked for subgraphs
    parent = (
        configurable.pop(CONFIG_KEY_STREAM, None) if CONFIG_KEY_STREAM in configurable else None
    )
    own_modes = set(modes) | printed
    if parent is None and not isinstance(scratchpad, Scratchpad):  # no task runs it: the root
        noticed(graph, configurable, input, context)
    if parent is not None:
        parent_modes = parent.modes

        def emit(ns: tuple, mode: str, payload: Any) -> None:
            if mode in own_modes:
                queue.append((ns, mode, payload))
            if mode in parent_modes:
                parent((ns, mode, payload))

        all_modes = own_modes | parent_modes
    else:

        def emit(ns: tuple, mode: str, payload: Any) -> None:
            queue.append((ns, mode, payload))

        all_modes = own_modes
    # as langgraph: messages and custom output, and subgraphs', reach the caller while the task
    # producing them runs (the caller wakes on each emit); otherwise between tasks
    wake = None
    if eager is None:
        # a workflow's @task calls finish while its entrypoint runs: their updates stream then
        eager = (
            subgraphs
            or "messages" in own_modes
            or "custom" in own_modes
            or PREVIOUS in graph.channels
        )
    if eager:
        wake, queued = (LoopWake() if asynchronous else threading.Event()), emit

        def emit(ns: tuple, mode: str, payload: Any) -> None:
            queued(ns, mode, payload)
            wake.set()

    # subgraphs always stream into this queue, under their own namespace; without
    # subgraphs=True, chunks.drain drops what is not this graph's own
    configurable[CONFIG_KEY_STREAM] = StreamProtocol(_chunks_to(emit), all_modes)
    # the trace's observer follows the run into the graphs its tasks run (subgraphs, agents)
    if observer is not None:
        configurable[CONFIG_KEY_OBSERVER] = observer
    else:
        observer = configurable.get(CONFIG_KEY_OBSERVER)
    # an explicit durability also applies to subgraphs; otherwise inherit the parent's
    if durability is not None:
        configurable[CONFIG_KEY_DURABILITY] = durability
    asked_durability = durability
    durability = configurable.get(CONFIG_KEY_DURABILITY, "async")
    saver = graph._saver(config)
    if saver is None and asked_durability is not None:
        # points inside the library, as langgraph's: shown once, not once per call site
        warnings.warn(
            "`durability` has no effect when no checkpointer is present.", UserWarning, stacklevel=1
        )
    if saver is not None:
        if "thread_id" not in configurable and "checkpoint_id" not in configurable:
            raise ValueError(
                "Checkpointer requires one or more of the following 'configurable' keys: "
                "thread_id, checkpoint_ns, checkpoint_id"
            )
        configurable[CONFIG_KEY_CHECKPOINTER] = saver
    ns_str = configurable.get(CONFIG_KEY_CHECKPOINT_NS, "")
    ns = tuple(ns_str.split(NS_SEP)) if ns_str else ()
    raw_runtime = configurable.get(CONFIG_KEY_RUNTIME)
    parent_runtime = _parent_runtime(raw_runtime)
    writer = (
        (lambda chunk: emit(ns, "custom", chunk))
        if "custom" in all_modes
        else parent_runtime.stream_writer
    )
    own = Runtime(
        context=_coerce_context(graph.context_schema, context),
        # as langgraph: within a run (a runtime in the config) the store is that run's
        store=getattr(raw_runtime, "store", None)
        if CONFIG_KEY_RUNTIME in configurable
        else graph.store,
        stream_writer=writer,
        server_info=ServerInfo.from_configurable(configurable),
        # a subgraph drains with its parent: one control per root run
        control=control or parent_runtime.control or RunControl(),
    )
    runtime = parent_runtime.merge(own)
    if "messages" in all_modes:
        from engine.pregel.messages import attach_messages_handler

        # a v3 run asks chat models for content-block events instead of tokens
        v2 = version == "v2" and bool(configurable.get(CONFIG_KEY_STREAM_MESSAGES_V2))
        strip_v2 = version != "v2" and "messages" in own_modes
        # a graph run by a node of a graph streaming messages keeps that run's handler (it
        # sees this graph's models through the callbacks), as langgraph; its own stream adds one
        inherited = CONFIG_KEY_MESSAGES in configurable and "messages" not in own_modes
        if not inherited:
            attach_messages_handler(config, emit, ns, v2=v2, strip_v2=strip_v2, subgraphs=subgraphs)
    if "tools" in own_modes:  # a nested run inherits its parent's handler with the callbacks
        from engine.pregel.tools_stream import attach_tools_handler

        attach_tools_handler(config, emit, subgraphs, ns)
    run_manager = start_graph_run(graph, input, config)
    options = LoopOptions(
        checkpointer=saver,
        emit=emit,
        stream_modes=all_modes,
        interrupt_before=interrupt_before
        if interrupt_before is not None
        else graph.interrupt_before_nodes,
        interrupt_after=interrupt_after
        if interrupt_after is not None
        else graph.interrupt_after_nodes,
        runtime=runtime,
        cache=graph.cache,
        observer=observer,
        updates_for_interrupts_only=updates_for_interrupts_only
        and "updates" not in printed
        and (parent is None or "updates" not in parent.modes),
        # nobody else sees the values chunks (printed, a parent's stream): only the last counts
        last_values_only=updates_for_interrupts_only
        and version == "v1"
        and "values" not in printed
        and (parent is None or "values" not in parent.modes),
        durability=durability,
        # stream shows every state key by default; invoke passes the output schema's keys
        output_keys=output_keys if output_keys is not None else graph.stream_channels_asis,
        asynchronous=asynchronous,
    )
    loop = PregelLoop(graph, input, config, options)
    mappers = v2_mappers(graph) if version == "v2" else (None, None)
    return Run(loop, queue, modes, single, subgraphs, version, mappers, run_manager, wake, printed)


# configurable ids that langgraph's ensure_config copies into the run's metadata, when set
_IDS_TO_METADATA = (
    "thread_id",
    "checkpoint_id",
    "checkpoint_ns",
    "task_id",
    "run_id",
    "assistant_id",
    "graph_id",
)


def _chunks_to(emit: Any) -> Any:
    """`emit(ns, mode, payload)` called with one (ns, mode, payload) chunk, as StreamProtocol's are."""

    def emit_chunk(chunk: tuple) -> None:
        emit(*chunk)

    return emit_chunk


def _ids_to_metadata(config: dict) -> None:
    # appended after the run's own metadata, never over it, as langgraph's ensure_config does:
    # the order shows in every messages-mode chunk's metadata (a subgraph's checkpoint_ns last)
    conf, metadata = config.get(CONF) or {}, config.get("metadata") or {}
    if found := {k: conf[k] for k in _IDS_TO_METADATA if conf.get(k) and k not in metadata}:
        config["metadata"] = {**metadata, **found}


def merge_configs(*configs: dict | None) -> dict:
    """Merge configs left to right; metadata, configurable and tags merge instead of replace."""
    out: dict[str, Any] = {}
    for config in configs:
        if not config:
            continue
        for key, value in config.items():
            if key in ("metadata", CONF) and value is not None:
                out[key] = {**(out.get(key) or {}), **value}
            elif key == "tags" and value:
                out[key] = list(dict.fromkeys([*(out.get(key) or []), *value]))
            elif key == "callbacks" and value is not None and out.get(key) is not None:
                from langchain_core.callbacks import BaseCallbackManager

                if isinstance(value, BaseCallbackManager) or isinstance(
                    out[key], BaseCallbackManager
                ):
                    out[key] = value
                else:
                    out[key] = list({id(h): h for h in [*out[key], *value]}.values())
            else:
                out[key] = value
    out.setdefault(CONF, {})
    return out


def v2_mappers(graph: Any) -> tuple[Any, Any]:
    """(output schema, state schema) constructors when they are pydantic models or dataclasses,
    as langgraph's compile records them for v2 streams."""
    builder = getattr(graph, "builder", None)
    if builder is None:
        return None, None
    return (
        _schema_mapper(graph.output_channels, getattr(builder, "output_schema", None)),
        _schema_mapper(graph.stream_channels, getattr(builder, "state_schema", None)),
    )


def _schema_mapper(keys: Any, schema: Any) -> Any:
    import dataclasses
    import inspect

    from pydantic import BaseModel

    if keys in ("__root__", ["__root__"]) or not inspect.isclass(schema):
        return None
    if issubclass(schema, BaseModel) or dataclasses.is_dataclass(schema):
        return lambda values: schema(**values)
    return None


def coerce_checkpoint_values(payload: Any, mapper: Any) -> None:
    """Values inside a checkpoints part, or a debug checkpoint part, as the state type; not the
    input checkpoint, whose channels are not all filled yet."""
    if not isinstance(payload, dict):
        return
    if payload.get("type") == "checkpoint" and isinstance(payload.get("payload"), dict):
        payload = payload["payload"]
    if isinstance(payload.get("values"), dict) and "__start__" not in payload.get("next", ()):
        payload["values"] = mapper(payload["values"])


def _parent_runtime(value: Any) -> Runtime:
    """The runtime a run inherits: its parent task's, or what a layer outside the run (a
    server's graph factory) left in the config, of which only the context is taken."""
    if value is None:
        return DEFAULT_RUNTIME
    if isinstance(value, Runtime):
        return value
    return Runtime(context=getattr(value, "context", None))


def _coerce_context(schema: Any, context: Any) -> Any:
    """A dict given as `context=` becomes the context schema's dataclass or pydantic model
    (a TypedDict schema keeps the dict); the schema's own errors reach the caller."""
    if isinstance(context, dict) and schema is not None and isinstance(schema, type):
        if is_dataclass(schema) or issubclass(schema, BaseModel):
            return schema(**context)
    return context


def _ambient(*explicit: dict | None) -> dict | None:
    """The config of the task running this call, if any. A call that names a checkpoint of
    its own (a thread id, a namespace, a checkpoint id or map) addresses its own history, so it
    does not run inside the task's: the task's configurable is left out, as langgraph does."""
    ambient = var_child_runnable_config.get()
    if not ambient or not ambient.get(CONF):
        return ambient
    for config in explicit:
        configurable = (config or {}).get(CONF) or {}
        if any(_given(configurable.get(k)) for k in CHECKPOINT_COORDINATE_KEYS):
            return {**ambient, CONF: {}}
    return ambient


def _given(value: Any) -> bool:
    """As langgraph reads a coordinate: given unless None or an empty container ("" is)."""
    return len(value) > 0 if isinstance(value, (list, tuple, dict)) else value is not None
