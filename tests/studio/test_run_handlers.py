"""Which LangChain handlers a studio run carries: LangChain makes every task a callback run once
a handler listens (about half a small superstep's cost), so a handler that only cares about model
calls (the chat panel's token relay) stays off a graph that cannot call a model."""

from __future__ import annotations

import pytest
from langchain_core.callbacks import BaseCallbackHandler

from graphspec.commands import load
from graphspec.templates import TEMPLATES_DIR
from studio.run.runner import RunTarget
from tests.studio.test_run_steps import run_template

pytestmark = pytest.mark.gui


class EveryRun(BaseCallbackHandler):
    """A handler for every run (as a recorder of runs would be)."""

    def __init__(self) -> None:
        self.graph_runs = 0

    def on_chain_start(self, serialized, inputs, *, run_id, parent_run_id=None, **kwargs):
        self.graph_runs += parent_run_id is None


def test_model_only_handlers_go_with_graphs_that_can_call_a_model(qtbot, window):
    session = window.runner.session
    qtbot.waitUntil(lambda: "chat_panel" in vars(window))  # made right after the first paint
    tokens = [h for h in session.callbacks if getattr(h, "models_only", False)]
    assert tokens, "the chat panel's token relay is a models-only handler"
    every = EveryRun()
    session.callbacks.append(every)
    loop, _ = load(str(TEMPLATES_DIR / "counter_loop.json"))
    agent, _ = load(str(TEMPLATES_DIR / "agent_hitl.json"))
    every_run = [h for h in session.callbacks if h not in tokens]  # every's, and any others'
    assert session._config_for(RunTarget(loop, None, True), "t")["callbacks"] == every_run
    assert session._config_for(RunTarget(agent, None, True), "t")["callbacks"] == session.callbacks
    run_template(qtbot, window, "counter_loop")  # the run still reaches every-run handlers
    assert window.runner.state == "finished" and every.graph_runs == 1
    session.callbacks.remove(every)
