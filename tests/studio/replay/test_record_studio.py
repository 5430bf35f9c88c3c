"""Record and replay in the main window (pytest-qt, offscreen): a chat run of an agent on the
real langchain-openai client against the local server is recorded and noted in the trace;
Save as test and Run all pass with the server stopped; Replay thread shows the run diff; after
the tool's code is edited and the spec saved, the test fails with the diff."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from tests.providers.conftest import memory_keyring, openai_server  # noqa: F401  (fixtures)
from tests.providers.test_cli_providers import agent_spec
from tests.studio.test_chat_panel import keyed, open_spec, send  # noqa: F401  (fixture)
from tests.studio.test_run_screenshot import save_grab
from tests.studio.test_run_steps import idle

pytestmark = pytest.mark.gui


def press(qtbot, win, name):
    qtbot.mouseClick(win.findChild(QPushButton, name), Qt.MouseButton.LeftButton)


def replay(win, name="replayThread"):
    """Choose an item of the Tests dock's Replay menu."""
    win.replay_dock.replay_menu.actions_by_name[name].trigger()


def results(panel):
    return [(panel.list.topLevelItem(i).text(0), panel.list.topLevelItem(i).text(1))
            for i in range(panel.list.topLevelItemCount())]  # fmt: skip


def test_record_replay_and_saved_tests_in_the_window(qtbot, window, tmp_path, keyed):  # noqa: F811
    keyed.reply("Let me add them.", tool_calls=[("add", {"a": 2, "b": 3})])
    keyed.reply("2 + 3 = 5.")
    chat = open_spec(qtbot, window, tmp_path, agent_spec(keyed.base_url))
    send(qtbot, chat, "What is 2 + 3?")
    idle(qtbot, window, timeout=20000)
    dock = window.replay_dock
    thread = window.runner.thread_id
    calls = dock.store().calls(thread)
    assert [(c.kind, c.node) for c in calls] == [
        ("model", "assistant|model"), ("tool", "assistant|tools"), ("model", "assistant|model")]  # fmt: skip
    [run] = dock.store().runs(thread)
    assert {c.run_id for c in calls} == {run.run_id}  # the chat's message: one graph run
    trace = window.runner.trace.texts()
    assert "model call · assistant › model: step 1, call 1: recorded" in trace
    assert "tool call · assistant › tools: step 2, call 1: recorded" in trace

    tests_dock = window.dock("testsDock")
    tests_dock.show()
    tests_dock.raise_()
    press(qtbot, window, "saveTest")
    panel = dock.panel
    name = f"test_{thread}"
    assert results(panel) == [(name, "not run")]
    assert (tmp_path / "tests" / f"{name}.py").exists()
    keyed.stop()  # offline from here on

    with qtbot.waitSignal(panel.finished, timeout=20000):
        press(qtbot, window, "runTests")
    assert results(panel) == [(name, "passed")]

    replay(window)
    qtbot.waitUntil(lambda: panel.caption.text().startswith("replayed"), timeout=20000)
    assert panel.caption.text() == (f"replayed {thread!r} as '{thread}-replay-1': 3 call(s) from "
                                    "the recording, 0 live, 0 changed, 0 recorded call(s) unused")  # fmt: skip
    assert panel.diff.caption.text().endswith("the same in every step")
    qtbot.waitUntil(lambda: any(f"{thread}-replay-1" in window.runner.thread_selector.itemText(i)
                                for i in range(window.runner.thread_selector.count())))  # fmt: skip

    history = window.runner.history
    replay(window, "replayFrom")
    assert panel.caption.text() == "Pick a checkpoint in Checkpoints to replay from"
    step_0 = next(e for e in history.entries if e.step == 0)  # before the agent ran
    history.select(step_0.checkpoint_id)
    replay(window, "replayFrom")
    qtbot.waitUntil(lambda: panel.caption.text().startswith("replayed"), timeout=20000)
    assert f"as '{thread}-replay-2': 3 call(s) from the recording" in panel.caption.text()
    assert panel.diff.caption.text().endswith("the same in every step")

    # a behaviour-changing edit, saved (the user trusted the spec, so its new bytes too)
    spec = window.document.spec
    agent = spec.agents[0]
    tool = agent.tools[0].model_copy(update={"code": "def add(a: int, b: int) -> int:\n"
                                                     "    return a + b + 1\n"})  # fmt: skip
    window.document.apply({"agents": [agent.model_copy(update={"tools": [tool]})]})
    assert window.save()
    with qtbot.waitSignal(panel.finished, timeout=20000):
        press(qtbot, window, "runTests")
    assert results(panel) == [(name, "FAILED")]
    assert (
        "2nd model call of node 'assistant|model' has another input" in panel.failure.toPlainText()
    )
    assert '  state .messages[2].content | "5" | "6"' in panel.diff.texts()
    window.resize(1280, 720)
    qtbot.wait(50)
    for dock in window.docks:  # the right column's docks set the top's height: room below
        if window.dockWidgetArea(dock) == Qt.DockWidgetArea.RightDockWidgetArea:
            dock.hide()
    window.resize(1280, 720)
    window.resizeDocks([tests_dock, window.dock("traceDock")], [430, 430], Qt.Orientation.Vertical)
    qtbot.wait(100)
    assert tests_dock.minimumSizeHint().height() <= 140  # short enough for a 720 px window
    image = save_grab(window, "record_tests_dock.png", tmp_path)
    assert (image.width(), image.height()) == (window.width(), window.height())

    replay(window, "onChange_fail")  # the replay stops at the changed call
    replay(window, "toolsLive")  # the edited tool runs
    replay(window)
    qtbot.waitUntil(lambda: panel.caption.text().startswith("replayed"), timeout=20000)
    assert "1 changed" in panel.caption.text()
    assert "stopped: replay: the 2nd model call of node 'assistant|model'" in panel.caption.text()
    assert panel.diff.texts()[-1] == "Step 1 | assistant | assistant (did not finish)"


def test_an_untrusted_edit_is_not_run_by_the_tests_dock(qtbot, window, tmp_path, keyed):  # noqa: F811
    keyed.reply("2 + 3 = 5.")
    chat = open_spec(qtbot, window, tmp_path, agent_spec(keyed.base_url))
    send(qtbot, chat, "What is 2 + 3?")
    idle(qtbot, window, timeout=20000)
    press(qtbot, window, "saveTest")
    path = tmp_path / "chat_agent.json"
    path.write_text(path.read_text().replace("return a + b", "return a + b + 1"))  # not trusted
    panel = window.replay_dock.panel
    with qtbot.waitSignal(panel.finished, timeout=20000):
        press(qtbot, window, "runTests")
    assert results(panel)[0][1] == "FAILED"
    assert "Python code" in panel.failure.toPlainText() or "trust" in panel.failure.toPlainText()


def test_runs_of_a_spec_without_models_are_not_recorded_unless_asked(qtbot, window, tmp_path):
    from graphspec.templates import TEMPLATES_DIR
    from tests.studio.test_run_steps import click

    spec = tmp_path / "counter_loop.json"
    spec.write_bytes((TEMPLATES_DIR / "counter_loop.json").read_bytes())
    assert window.open_path(spec)
    idle(qtbot, window)
    dock = window.replay_dock
    box = window.findChild(type(dock.record_box), "recordRuns")
    assert not box.isChecked() and dock.recorder not in window.runner.session.callbacks
    box.click()
    assert dock.recorder in window.runner.session.callbacks
    click(qtbot, window, "runButton")
    idle(qtbot, window, timeout=20000)
    [run] = dock.store().runs(window.runner.thread_id)
    assert run.replay_of is None and dock.store().calls(window.runner.thread_id) == []
