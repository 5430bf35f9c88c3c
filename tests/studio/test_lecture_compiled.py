"""The compiled runtime view: the graph compile() builds, toggled with the drawn one."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton

from tests.studio.test_run_steps import click, idle, open_template

pytestmark = pytest.mark.gui


def names(view) -> set[str]:
    return {i.data(0) for i in view.compiled.items() if i.data(0)}


def test_the_compiled_view_draws_nodes_channels_and_their_arrows(qtbot, window):
    win = window
    open_template(qtbot, win, "fanout_join")
    button = win.findChild(QToolButton, "compiledViewButton")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    view = win.compiled_view
    qtbot.waitUntil(view.isVisible, timeout=3000)
    seen = names(view)
    join = "join:search_web+search_docs+search_code:combine"
    for channel in ("query", "results", "summary", "__start__", "__pregel_tasks",
                    "branch:to:search_web", join):  # fmt: skip
        assert f"compiled:channel:{channel}" in seen, channel
    for node in ("__start__", "search_web", "search_docs", "search_code", "combine"):
        assert f"compiled:node:{node}" in seen, node
    assert "compiled:arrow:trigger:branch:to:search_web->search_web" in seen
    assert f"compiled:arrow:trigger:{join}->combine" in seen
    assert f"compiled:arrow:write:search_docs->{join}" in seen
    assert "compiled:arrow:write:__start__->branch:to:search_code" in seen
    kinds = {
        i.data(0): i.text()
        for i in view.compiled.items()
        if str(i.data(0)).startswith("compiled:kind:")
    }
    assert kinds["compiled:kind:results"] == "reducer: add"
    assert kinds["compiled:kind:query"] == "LastValue"
    assert kinds[f"compiled:kind:{join}"] == "NamedBarrierValue"
    assert kinds["compiled:kind:__pregel_tasks"] == "Topic"
    assert not any(s.startswith("compiled:arrow:wrote") for s in seen), "no run yet"
    assert "compiled:legend" in seen, "what each arrow means"

    click(qtbot, win, "runButton")  # it animates with the run: versions tick, writes appear
    idle(qtbot, win)
    seen = names(view)
    assert "compiled:arrow:wrote:search_web->results" in seen
    assert "compiled:arrow:wrote:combine->summary" in seen
    version = view.compiled.named("compiled:version:summary")[0].text()
    assert version.startswith("v") and version != "v —"

    assert not any(s.startswith("compiled:live-node:") for s in seen), "the run is over"

    win.actions_by_name["compiled_view"].trigger()  # back to the drawn graph
    assert not view.isVisible() and win.view.isVisible()


def test_a_step_glows_on_the_compiled_view(qtbot, window):
    open_template(qtbot, window, "fanout_join")
    window.actions_by_name["compiled_view"].trigger()
    click(qtbot, window, "stepButton")  # step 0: __start__
    idle(qtbot, window)
    click(qtbot, window, "stepButton")  # step 1: the three searches
    idle(qtbot, window)
    seen = names(window.compiled_view)
    for node in ("search_web", "search_docs", "search_code"):
        assert f"compiled:live-node:{node}" in seen, node
    assert "compiled:live-channel:results" in seen, "the barrier moved results"
    assert "compiled:live-node:combine" not in seen


def test_a_conditional_edge_is_a_declared_write_and_a_loop_writes_back_up(qtbot, window):
    open_template(qtbot, window, "counter_loop")
    window.actions_by_name["compiled_view"].trigger()
    seen = names(window.compiled_view)
    assert "compiled:arrow:declared:increment->branch:to:increment" in seen
    assert "compiled:arrow:trigger:__start__->__start__" in seen
    window.show_start()  # the start page hides it; the canvas page brings it back
    assert not window.compiled_view.isVisible()
    window.show_editor()
    assert window.compiled_view.isVisible()
