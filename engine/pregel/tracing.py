"""LangChain callback runs for a graph call, its tasks and its routers, as langgraph makes them:
the graph is a chain run (named by `run_name`, else the graph's name), each task a child chain run
named after its node and tagged `graph:step:N`, and what a node calls (models, tools, graphs)
runs under the task's run tagged `seq:step:1`, routers under `seq:step:2`. So handlers given in
the config (LangSmith's tracer among them) see the same tree as with langgraph.

Only done when some handler would listen: with no callbacks and no tracing env, runs stay free.
"""

from __future__ import annotations

import copy
import logging
import os
import sys
from typing import Any

from langchain_core.runnables.config import (
    _set_config_context,
    get_callback_manager_for_config,
    var_child_runnable_config,
)
from langchain_core.tracers._streaming import _StreamingCallbackHandler

from engine._constants import CONF, START

CONFIG_KEY_GRAPH_RUN = "__superstep_graph_run"
"""The graph's run manager, in the configurable its tasks copy."""

logger = logging.getLogger(__name__)


# what makes langchain's CallbackManager.configure add handlers of its own, besides the config's
_TRACING_ENV = (
    "LANGCHAIN_TRACING",
    "LANGCHAIN_HANDLER",
    "LANGCHAIN_TRACING_V2",
    "LANGSMITH_TRACING",
    "LANGSMITH_TRACING_V2",
)
# a tracing context or a configure hook lives in one of the first two; once langchain's
# Runnables are loaded, so is most of langsmith, and their own calls configure callbacks anyway:
# the graph then configures up front as langgraph does (langsmith's last modules load there)
_LISTENING_MODULES = (
    "langchain_core.tracers.context",
    "langsmith.run_helpers",
    "langchain_core.runnables.base",
)


def _nobody_listens(config: dict) -> bool:
    """True when configuring the callbacks could only give none: no callbacks in the config, no
    debug, no tracing env, and none of the modules above loaded. Configuring loads langsmith (a
    third of a second), so a plain run of plain functions skips it."""
    if config.get("callbacks") or any(name in sys.modules for name in _LISTENING_MODULES):
        return False
    from langchain_core.globals import get_debug

    return not get_debug() and not any(os.environ.get(name) for name in _TRACING_ENV)


def start_graph_run(graph: Any, input: Any, config: dict) -> Any:
    """The graph's chain run manager, or None when no handler listens."""
    config[CONF][CONFIG_KEY_GRAPH_RUN] = None  # never the enclosing graph's
    if _nobody_listens(config):
        return None
    manager = get_callback_manager_for_config(config)
    if not manager.handlers:
        return None
    if "ls_integration" not in manager.metadata:
        manager.add_metadata({"ls_integration": "langgraph"})
    run_manager = manager.on_chain_start(
        None, input, name=config.get("run_name", graph.get_name()), run_id=config.get("run_id")
    )
    config[CONF][CONFIG_KEY_GRAPH_RUN] = run_manager
    return run_manager


def end_graph_run(run_manager: Any, output: Any, error: BaseException | None) -> None:
    if run_manager is None:
        return
    if error is None:
        run_manager.on_chain_end(output)
    else:
        run_manager.on_chain_error(error)


def _child_config(config: dict, callbacks: Any) -> dict:
    # as langchain's patch_config: a child run neither reuses the parent's name nor its id
    child = {**config, "callbacks": callbacks}
    child.pop("run_name", None)
    child.pop("run_id", None)
    return child


class NodeRun:
    """One attempt of a task as a chain run, entered with `with`: `config` is what the node gets,
    `output` what it returned (for the run's end event). Without a manager (no handler listens)
    entering and leaving cost nothing, which is every step of an untraced run."""

    __slots__ = ("config", "manager", "output", "streamed", "_token", "_tracing", "_record_output")

    def __init__(self, config: dict, manager: Any, record_output: Any = None) -> None:
        self.config = config
        self.manager = manager
        self.output: Any = None
        # set by the async API: langgraph streams a node's output there (astream), so stream
        # handlers (astream_events, astream_log) see it as the run's one chunk
        self.streamed = False
        self._record_output = record_output

    def __enter__(self) -> NodeRun:
        if self.manager is not None:
            # the run's config is the current one while it runs, and (with LangSmith tracing)
            # its run the parent of what the node traces: get_current_run_tree() finds it
            self._token, self._tracing = _set_config_context(self.config)
        return self

    def __exit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> None:
        if self.manager is None:
            return
        try:  # the end event says how it ended
            if exc is None:
                if self.streamed:
                    _stream_output(self.manager, self.output)
                _end(self.manager, self.output, self._record_output)
            else:
                self.manager.on_chain_error(exc)
        finally:
            var_child_runnable_config.reset(self._token)
            if self._tracing is not None:  # the tracing parent from before the node
                from langsmith.run_helpers import _set_tracing_context

                _set_tracing_context(self._tracing)


def _stream_output(run_manager: Any, output: Any) -> None:
    """The node's output as its run's stream (astream_events' node-level on_chain_stream),
    through each stream handler's tap as langgraph's sequence taps its output iterator."""
    for handler in run_manager.handlers:
        if isinstance(handler, _StreamingCallbackHandler):
            for _ in handler.tap_output_iter(run_manager.run_id, iter((output,))):
                pass


def node_run(task: Any) -> NodeRun:
    """A task's run for one attempt; the current config is the node's while it runs."""
    config = task.config
    graph_run = config[CONF].get(CONFIG_KEY_GRAPH_RUN)
    # langgraph applies the input without running a task for it
    if graph_run is None or task.name == START:
        return NodeRun(config, None)
    # as langgraph's task config: callbacks are the graph run's child, tagged with the step;
    # a functional-API call's run is a child of its caller's
    callbacks = getattr(task, "caller_callbacks", None)
    if callbacks is None:
        step = config["metadata"].get("langgraph_step")
        callbacks = graph_run.get_child(f"graph:step:{step}")
    config = {**config, "callbacks": callbacks}
    manager = get_callback_manager_for_config(config)
    policy = getattr(task.proc, "trace_policy", None)
    # a functional-API call is recorded with its arguments by name, as langgraph's task runs
    trace_inputs = getattr(getattr(task.proc, "bound", None), "trace_inputs", None)
    run_manager = _start(
        manager,
        task.input if trace_inputs is None else trace_inputs(),
        getattr(policy, "process_inputs", None),
        name=config.get("run_name") or task.name,
        # not the graph's `run_id`, which the task's config inherits: langgraph's task config
        # drops it (a run that is its own parent breaks astream_events)
        run_id=None,
    )
    child = _child_config(config, run_manager.get_child("seq:step:1"))
    return NodeRun(child, run_manager, getattr(policy, "process_outputs", None))


# ---------------------------------------------------------------- a node's TracePolicy
def _recorded(value: Any, process: Any) -> Any:
    """What tracers record of `value`; a processor that fails records the value itself."""
    if process is None:
        return value
    try:
        return process(value)
    except Exception:
        logger.exception("trace input/output processor raised; recording untransformed payload")
        return value


def _split(manager: Any) -> tuple[Any, Any]:
    """(the manager without tracers, the manager with only them): a TracePolicy shapes what
    tracers record; stream handlers (astream_log's, the messages stream) get the real values."""
    from langchain_core.tracers.base import BaseTracer  # loads langsmith: only when a policy asks

    real, tracers = copy.copy(manager), copy.copy(manager)
    tracers.handlers = [
        h
        for h in manager.handlers
        if isinstance(h, BaseTracer) and _StreamingCallbackHandler not in type(h).__mro__
    ]
    real.handlers = [h for h in manager.handlers if h not in tracers.handlers]
    return real, tracers


def _start(manager: Any, payload: Any, process: Any, **run: Any) -> Any:
    recorded = _recorded(payload, process)
    if recorded is payload:
        return manager.on_chain_start(None, payload, **run)
    real, tracers = _split(manager)
    run_manager = real.on_chain_start(None, payload, **run)
    tracers.on_chain_start(None, recorded, name=run["name"], run_id=run_manager.run_id)
    run_manager.handlers = manager.handlers  # the run's children and its end reach them all
    return run_manager


def _end(run_manager: Any, output: Any, process: Any) -> None:
    recorded = _recorded(output, process)
    if recorded is output:
        run_manager.on_chain_end(output)
        return
    real, tracers = _split(run_manager)
    tracers.on_chain_end(recorded)
    real.on_chain_end(output)


def router_run(
    run: NodeRun | None, step: int, name: str | None, input: Any, config: dict
) -> NodeRun:
    """A conditional edge's router as langgraph traces it: a chain run under its node's run,
    tagged with its place in the node's sequence (the node is step 1, its writers follow)."""
    if run is None or run.manager is None:
        return NodeRun(config, None)
    manager = get_callback_manager_for_config(
        {**run.config, "callbacks": run.manager.get_child(f"seq:step:{step}")}
    )
    run_manager = manager.on_chain_start(None, input, name=name)
    return NodeRun(
        _child_config({**config, **_trace_keys(run.config)}, run_manager.get_child()), run_manager
    )


def _trace_keys(config: dict) -> dict:
    return {k: config[k] for k in ("tags", "metadata") if k in config}
