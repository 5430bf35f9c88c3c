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
from typing import Any, NamedTuple
from uuid import uuid4

from langchain_core.callbacks.manager import CallbackManager
from langchain_core.globals import get_debug
from langchain_core.runnables.config import (
    _set_config_context,
    get_async_callback_manager_for_config,
    get_callback_manager_for_config,
    set_config_context,
    var_child_runnable_config,
)
from langchain_core.tracers._streaming import _StreamingCallbackHandler
from langchain_core.utils.env import env_var_is_set

from engine._constants import CONF, START

CONFIG_KEY_GRAPH_RUN = "__superstep_graph_run"
"""The graph's run manager, in the configurable its tasks copy."""

logger = logging.getLogger(__name__)


# before anything configured callbacks, what could make langchain's configure add handlers
_TRACING_ENV = (
    "LANGCHAIN_TRACING",
    "LANGCHAIN_HANDLER",
    "LANGCHAIN_TRACING_V2",
    "LANGSMITH_TRACING",
    "LANGSMITH_TRACING_V2",
)
_CONFIGURED_BEFORE = ("langchain_core.runnables.base", "langsmith.run_helpers")


class UntracedRun(CallbackManager):
    """The callbacks of a task nobody listens to: no handler, but a parent run, as a langgraph
    node always runs inside its task's run. langchain's dispatch_custom_event needs that parent
    (it raises "Unable to dispatch an adhoc event without a parent run id" without one, and does
    nothing more without handlers). The id is made when first read, so a run that never asks
    costs no uuid."""

    @property
    def parent_run_id(self) -> Any:
        if self._parent_run_id is None:
            self._parent_run_id = uuid4()
        return self._parent_run_id

    @parent_run_id.setter
    def parent_run_id(self, value: Any) -> None:
        self._parent_run_id = value


UNTRACED = UntracedRun(handlers=[])
"""The callbacks of every task nobody listens to: one for all, since whoever starts a run from it
configures a copy, and without a handler its parent run id reaches nobody (a manager and a dict
per task were 3% of a superstep)."""


def untraced_config(config: dict) -> dict:
    """The config an untraced task's node gets: its own callbacks if it has some, else UNTRACED
    (set in place: a task's config is a dict made for it)."""
    if config.get("callbacks") is None:
        config["callbacks"] = UNTRACED
    return config


def _nobody_listens(config: dict) -> bool:
    """True when langchain's CallbackManager.configure would give no handler: no callbacks in the
    config, no debug, no tracer or configure hook active (langchain's own tests, once its
    module is loaded). Configuring costs a tenth of a small run, and the first one loads
    langsmith (a third of a second), so a run nobody listens to skips it."""
    callbacks = config.get("callbacks")
    if callbacks and not (type(callbacks) is UntracedRun and not callbacks.handlers):
        return False
    if get_debug():
        return False
    if "langchain_core.tracers.context" not in sys.modules:
        # nothing configured yet; with langchain's Runnables (or langsmith's tracing) loaded,
        # their own calls will: the first configure then happens here, at the top of the run,
        # as langgraph's (it loads langsmith's last modules, which deep in a node under pytest
        # on CPython 3.11.7 tripped "AST constructor recursion depth mismatch")
        return not any(os.environ.get(name) for name in _TRACING_ENV) and not any(
            name in sys.modules for name in _CONFIGURED_BEFORE
        )
    from langchain_core.tracers import context  # waits while another thread loads it

    if env_var_is_set("LANGCHAIN_TRACING") or env_var_is_set("LANGCHAIN_HANDLER"):
        return False  # configure raises that v1 tracing is gone
    if context._tracing_v2_is_enabled():
        return False
    return not any(
        var.get() is not None or (env and cls and env_var_is_set(env))
        for var, _inheritable, cls, env in context._configure_hooks
    )


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

    __slots__ = ("config", "manager", "output", "_token", "_tracing", "_record_output")

    def __init__(self, config: dict, manager: Any, record_output: Any = None) -> None:
        self.config = config
        self.manager = manager
        self.output: Any = None
        self._record_output = record_output

    def _started(self, config: dict, run_manager: Any, policy: Any) -> None:
        """The task's run began: what the node calls runs under it, as its sequence's step 1."""
        self.manager = run_manager
        self.config = _child_config(config, run_manager.get_child("seq:step:1"))
        self._record_output = getattr(policy, "process_outputs", None)

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
                _end(self.manager, self.output, self._record_output)
            else:
                self.manager.on_chain_error(exc)
        finally:
            self._leave()

    def _leave(self) -> None:
        var_child_runnable_config.reset(self._token)
        if self._tracing is not None:  # the tracing parent from before the node
            from langsmith.run_helpers import _set_tracing_context

            _set_tracing_context(self._tracing)

    def stream_output(self) -> None:
        """The node's output as its run's stream (astream_events' node-level on_chain_stream),
        through each stream handler's tap as langgraph's sequence taps its output iterator
        (under the async API, where langgraph streams a node)."""
        for handler in self.manager.handlers:
            if isinstance(handler, _StreamingCallbackHandler):
                for _ in handler.tap_output_iter(self.manager.run_id, iter((self.output,))):
                    pass


class AsyncNodeRun(NodeRun):
    """A NodeRun under the async API, entered with `async with`: its run starts and ends
    through LangChain's async callback manager, as langgraph's, so async handlers
    (astream_events') are awaited on the run's loop, with the loop turns that takes, not run
    to completion on a thread while the loop waits."""

    __slots__ = ("_start",)

    def __init__(self, config: dict, start: _TaskRun | None) -> None:
        super().__init__(config, None)
        self._start = start

    async def __aenter__(self) -> AsyncNodeRun:
        if (start := self._start) is not None:
            manager = get_async_callback_manager_for_config(start.config)
            process = getattr(start.policy, "process_inputs", None)
            run_manager = await _astart(manager, start.payload, process, **start.run)
            self._started(start.config, run_manager, start.policy)
            self.__enter__()
        return self

    async def __aexit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> None:
        if self.manager is None:
            return
        try:
            if exc is None:
                await _aend(self.manager, self.output, self._record_output)
            else:
                await self.manager.on_chain_error(exc)
        finally:
            self._leave()


class _TaskRun(NamedTuple):
    """What a task's run starts with."""

    config: dict  # the task's, with callbacks its run's parent
    payload: Any  # the run's input
    policy: Any  # the node's TracePolicy, if any
    run: dict  # on_chain_start's name and run_id


def _task_run(task: Any) -> _TaskRun | None:
    """None when no handler listens."""
    config = task.config
    graph_run = config[CONF].get(CONFIG_KEY_GRAPH_RUN)
    # langgraph applies the input without running a task for it
    if graph_run is None or task.name == START:
        return None
    # as langgraph's task config: callbacks are the graph run's child, tagged with the step;
    # a functional-API call's run is a child of its caller's
    callbacks = getattr(task, "caller_callbacks", None)
    if callbacks is None:
        step = config["metadata"].get("langgraph_step")
        callbacks = graph_run.get_child(f"graph:step:{step}")
    config = {**config, "callbacks": callbacks}
    # a functional-API call is recorded with its arguments by name, as langgraph's task runs
    trace_inputs = getattr(getattr(task.proc, "bound", None), "trace_inputs", None)
    return _TaskRun(
        config,
        task.input if trace_inputs is None else trace_inputs(),
        getattr(task.proc, "trace_policy", None),
        # not the graph's `run_id`, which the task's config inherits: langgraph's task config
        # drops it (a run that is its own parent breaks astream_events)
        {"name": config.get("run_name") or task.name, "run_id": None},
    )


def node_run(task: Any) -> NodeRun:
    """A task's run for one attempt; the current config is the node's while it runs."""
    run = NodeRun(task.config, None)
    if (start := _task_run(task)) is not None:
        manager = get_callback_manager_for_config(start.config)
        process = getattr(start.policy, "process_inputs", None)
        run._started(
            start.config, _start(manager, start.payload, process, **start.run), start.policy
        )
    return run


def anode_run(task: Any) -> AsyncNodeRun:
    """node_run under the async API: its run starts when entered."""
    return AsyncNodeRun(task.config, _task_run(task))


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


async def _astart(manager: Any, payload: Any, process: Any, **run: Any) -> Any:
    recorded = _recorded(payload, process)
    if recorded is payload:
        return await manager.on_chain_start(None, payload, **run)
    real, tracers = _split(manager)
    run_manager = await real.on_chain_start(None, payload, **run)
    await tracers.on_chain_start(None, recorded, name=run["name"], run_id=run_manager.run_id)
    run_manager.handlers = manager.handlers
    return run_manager


def _end(run_manager: Any, output: Any, process: Any) -> None:
    recorded = _recorded(output, process)
    if recorded is output:
        run_manager.on_chain_end(output)
        return
    real, tracers = _split(run_manager)
    tracers.on_chain_end(recorded)
    real.on_chain_end(output)


async def _aend(run_manager: Any, output: Any, process: Any) -> None:
    recorded = _recorded(output, process)
    if recorded is output:
        await run_manager.on_chain_end(output)
        return
    real, tracers = _split(run_manager)
    await tracers.on_chain_end(recorded)
    await real.on_chain_end(output)


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


def _with_tags(config: dict, tags: Any) -> dict:
    """The config with a callable's own tags after its own (langchain's managers take none)."""
    return {**config, "tags": [*(config.get("tags") or []), *tags]} if tags else config


def _callable_run(name: str, tags: Any, input: Any, config: dict) -> Any:
    """The chain run of a node callable that langgraph traces (RunnableCallable(trace=True):
    create_react_agent's call_model, langgraph-supervisor's call_agent): under the config's
    callbacks, its tags added; None when no handler listens."""
    if _nobody_listens(config):
        return None
    manager = get_callback_manager_for_config(_with_tags(config, tags))
    if not manager.handlers:
        return None
    return manager.on_chain_start(
        None, input, name=config.get("run_name") or name, run_id=config.pop("run_id", None)
    )


def traced_call(name: str, tags: Any, input: Any, config: dict, call: Any) -> Any:
    """`call()` inside its own chain run, as langgraph's traced RunnableCallable runs its body:
    the function gets the config it was given (a model it calls with that config is the run's
    sibling), while get_config() and config-less calls inside see the run as their parent."""
    run_manager = _callable_run(name, tags, input, config)
    if run_manager is None:
        return call()
    try:
        with set_config_context(_child_config(config, run_manager.get_child())) as context:
            output = context.run(call)
    except BaseException as exc:
        run_manager.on_chain_error(exc)
        raise
    run_manager.on_chain_end(output)
    return output


async def atraced_call(name: str, tags: Any, input: Any, config: dict, call: Any) -> Any:
    """traced_call for an async body: `call()` gives the coroutine, run as a task inside the
    run's config context."""
    import asyncio

    if _nobody_listens(config):
        return await call()
    manager = get_async_callback_manager_for_config(_with_tags(config, tags))
    if not manager.handlers:
        return await call()
    run_manager = await manager.on_chain_start(
        None, input, name=config.get("run_name") or name, run_id=config.pop("run_id", None)
    )
    try:
        with set_config_context(_child_config(config, run_manager.get_child())) as context:
            output = await asyncio.create_task(call(), context=context)
    except BaseException as exc:
        await run_manager.on_chain_error(exc)
        raise
    await run_manager.on_chain_end(output)
    return output
