"""A run skips configuring langchain's callbacks only when configuring would give no handler
(engine.pregel.tracing._nobody_listens): checked against langchain's own configure in each way a
handler can come (the config, debug, the tracing env, tracing_v2_enabled, langsmith's
tracing_context, configure hooks such as collect_runs), and through a graph's run."""

from __future__ import annotations

import contextlib
import operator
from typing import Annotated, TypedDict

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.globals import set_debug
from langchain_core.runnables.config import get_callback_manager_for_config
from langchain_core.tracers.context import collect_runs, tracing_v2_enabled
from langsmith.run_helpers import tracing_context

from engine.graph import StateGraph
from engine.pregel.tracing import _nobody_listens

TRACING_ENV = ("LANGCHAIN_TRACING_V2", "LANGSMITH_TRACING", "LANGSMITH_TRACING_V2",
               "LANGCHAIN_TRACING", "LANGCHAIN_HANDLER")  # fmt: skip


@pytest.fixture(autouse=True)
def no_tracing_env(monkeypatch):
    for name in TRACING_ENV:
        monkeypatch.delenv(name, raising=False)
    # a tracer can be made offline; what it would send goes nowhere
    monkeypatch.setenv("LANGSMITH_API_KEY", "test-key")
    monkeypatch.setenv("LANGSMITH_ENDPOINT", "http://127.0.0.1:9")
    get_callback_manager_for_config({})  # langchain's tracing modules loaded, as in most programs


@contextlib.contextmanager
def debug():
    set_debug(True)
    try:
        yield
    finally:
        set_debug(False)


@contextlib.contextmanager
def env(name: str, value: str):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(name, value)
        yield


SITUATIONS = {
    "plain": (contextlib.nullcontext, {}),
    "callbacks in the config": (contextlib.nullcontext, {"callbacks": [BaseCallbackHandler()]}),
    "empty callbacks": (contextlib.nullcontext, {"callbacks": []}),
    "debug": (debug, {}),
    "LANGSMITH_TRACING=true": (lambda: env("LANGSMITH_TRACING", "true"), {}),
    "LANGCHAIN_TRACING_V2=true": (lambda: env("LANGCHAIN_TRACING_V2", "true"), {}),
    "LANGSMITH_TRACING=false": (lambda: env("LANGSMITH_TRACING", "false"), {}),
    "tracing_v2_enabled": (lambda: tracing_v2_enabled(project_name="p"), {}),
    "tracing_context enabled": (lambda: tracing_context(enabled=True), {}),
    "tracing_context disabled": (lambda: tracing_context(enabled=False), {}),
    "collect_runs": (collect_runs, {}),
}


@pytest.mark.parametrize("situation", SITUATIONS)
def test_the_skip_agrees_with_langchains_configure(situation):
    within, config = SITUATIONS[situation]
    with within():
        handlers = get_callback_manager_for_config(dict(config)).handlers
        assert _nobody_listens(dict(config)) is (not handlers), handlers


class State(TypedDict):
    n: Annotated[int, operator.add]


def graph():
    builder = StateGraph(State)
    builder.add_node("one", lambda s: {"n": 1})
    builder.set_entry_point("one")
    return builder.compile(name="counter")


def test_collect_runs_sees_the_graph_run_and_its_node():
    with collect_runs() as collected:
        assert graph().invoke({"n": 1}) == {"n": 2}
    [run] = collected.traced_runs
    assert run.name == "counter" and [child.name for child in run.child_runs] == ["one"]


def test_a_run_nobody_listens_to_configures_nothing(monkeypatch):
    import engine.pregel.tracing as tracing

    def configure(config):
        raise AssertionError("configured callbacks for a run nobody listens to")

    monkeypatch.setattr(tracing, "get_callback_manager_for_config", configure)
    assert graph().invoke({"n": 1}) == {"n": 2}
