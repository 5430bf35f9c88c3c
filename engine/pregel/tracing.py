"""LangChain callback runs for a graph call, its tasks and its routers, as langgraph makes them:
the graph is a chain run (named by `run_name`, else the graph's name), each task a child chain run
named after its node and tagged `graph:step:N`, and what a node calls (models, tools, graphs)
runs under the task's run tagged `seq:step:1`, routers under `seq:step:2`. So handlers given in
the config (LangSmith's tracer among them) see the same tree as with langgraph.

Only done when some handler would listen: with no callbacks and no tracing env, runs stay free.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from langchain_core.runnables.config import (
    get_callback_manager_for_config,
    var_child_runnable_config,
)

from engine._constants import CONF, START

CONFIG_KEY_GRAPH_RUN = "__superstep_graph_run"
"""The graph's run manager, in the configurable its tasks copy."""


def start_graph_run(graph: Any, input: Any, config: dict) -> Any:
    """The graph's chain run manager, or None when no handler listens."""
    manager = get_callback_manager_for_config(config)
    config[CONF][CONFIG_KEY_GRAPH_RUN] = None  # never the enclosing graph's
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
    """One attempt of a task as a chain run: `config` is what the node gets, `output` what it
    returned (for the run's end event)."""

    __slots__ = ("config", "manager", "output")

    def __init__(self, config: dict, manager: Any) -> None:
        self.config = config
        self.manager = manager
        self.output: Any = None


@contextmanager
def node_run(task: Any) -> Iterator[NodeRun]:
    """A task's run for one attempt; the current config is the node's while it runs."""
    config = task.config
    graph_run = config[CONF].get(CONFIG_KEY_GRAPH_RUN)
    # langgraph applies the input without running a task for it
    if graph_run is None or task.name == START:
        yield NodeRun(config, None)
        return
    # as langgraph's task config: callbacks are the graph run's child, tagged with the step
    step = config["metadata"].get("langgraph_step")
    config = {**config, "callbacks": graph_run.get_child(f"graph:step:{step}")}
    manager = get_callback_manager_for_config(config)
    run_manager = manager.on_chain_start(
        None, task.input, name=config.get("run_name") or task.name, run_id=config.get("run_id")
    )
    run = NodeRun(_child_config(config, run_manager.get_child("seq:step:1")), run_manager)
    with _current(run):
        yield run


@contextmanager
def router_run(
    run: NodeRun | None, step: int, name: str, input: Any, config: dict
) -> Iterator[NodeRun]:
    """A conditional edge's router as langgraph traces it: a chain run under its node's run,
    tagged with its place in the node's sequence (the node is step 1, its writers follow)."""
    if run is None or run.manager is None:
        yield NodeRun(config, None)
        return
    manager = get_callback_manager_for_config(
        {**run.config, "callbacks": run.manager.get_child(f"seq:step:{step}")}
    )
    run_manager = manager.on_chain_start(None, input, name=name)
    call = NodeRun(
        _child_config({**config, **_trace_keys(run.config)}, run_manager.get_child()), run_manager
    )
    with _current(call):
        yield call


@contextmanager
def _current(run: NodeRun) -> Iterator[None]:
    """The run's config is the current one while it runs; its end event says how it ended."""
    token = var_child_runnable_config.set(run.config)
    try:
        yield
    except BaseException as exc:
        run.manager.on_chain_error(exc)
        raise
    else:
        run.manager.on_chain_end(run.output)
    finally:
        var_child_runnable_config.reset(token)


def _trace_keys(config: dict) -> dict:
    return {k: config[k] for k in ("tags", "metadata") if k in config}
