"""The Superstep timeline dock (issue 30.2, 30.3), offscreen: a run drawn as supersteps with a bar
per task and its calls; scrubbing shows the channels, edge data and path after a step; a 10,000
step run opens and scrubs quickly; a re-run from a node inside a subgraph runs only what follows
it and its run diff shows the change."""

from __future__ import annotations

import json
import time

import pytest
from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent, QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from graphspec.templates import TEMPLATES_DIR
from studio.timeline.view import bar_tip, seconds_text
from tests.providers.conftest import memory_keyring, openai_server  # noqa: F401  (fixtures)
from tests.providers.test_cli_providers import agent_spec
from tests.studio.test_chat_panel import keyed, open_spec, send  # noqa: F401  (fixture)
from tests.studio.test_run_screenshot import save_grab
from tests.studio.test_run_steps import click, idle

pytestmark = pytest.mark.gui


def open_copy(qtbot, win, tmp_path, name: str, **changes):
    """A template saved to `tmp_path` (so its runs have a database beside it) and opened."""
    data = json.loads((TEMPLATES_DIR / f"{name}.json").read_text(encoding="utf-8"))
    data.update(changes)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert win.open_path(path)
    idle(qtbot, win)
    return win.runner


def run(qtbot, win, value, timeout=10000):
    win.runner.input_panel.set_value(value)
    click(qtbot, win, "runButton")
    qtbot.waitUntil(lambda: win.runner.state == "finished" and not win.runner.session.busy,
                    timeout=timeout)  # fmt: skip


def path_marks(win) -> dict[str, str]:
    """The path overlay's count badges on the canvas: element -> `×N`."""
    marks = {}
    for item in win.scene.items():
        name = item.data(0)
        if isinstance(name, str) and name.startswith("path:") and name.endswith(":count"):
            if hasattr(item, "text"):
                marks[name[len("path:") : -len(":count")]] = item.text()
    return marks


def channel_value(win, name: str) -> str:
    return win.runner.channels.row_text(name)[2]


def test_a_run_is_drawn_as_supersteps_and_scrubbing_shows_that_step(qtbot, window, tmp_path):
    win = window
    open_copy(qtbot, win, tmp_path, "counter_loop")
    run(qtbot, win, {"count": 0, "limit": 5})
    dock = win.timeline_dock
    assert win.dock("timelineDock") is not None
    timeline = dock.timeline
    # step 0 runs __start__, steps 1..5 the loop's node
    assert [(s.step, [b.name for b in s.tasks]) for s in timeline.steps] == [
        (0, ["__start__"]), *((n, ["increment"]) for n in range(1, 6))]  # fmt: skip
    assert all(s.checkpoint is not None and s.end >= s.start for s in timeline.steps)
    assert dock.panel.slider.maximum() == 5

    dock.panel.slider.setValue(3)  # scrub to step 3
    assert dock.panel.caption.text().startswith("Step 3 (4 of 6): ran increment")
    # the writes of step 3 went along the loop's edge too (its router chose to go on)
    assert path_marks(win) == {"__start__->increment": "×1", "increment": "×3",
                               "increment->increment": "×3"}  # fmt: skip
    qtbot.waitUntil(lambda: channel_value(win, "count").endswith("3"), timeout=5000)
    assert "count = 3" in win.runner.overlay.carried[("increment", "increment")]

    view = dock.view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Left)  # back one step with the keyboard
    assert dock.index == 2 and path_marks(win)["increment"] == "×2"
    qtbot.waitUntil(lambda: channel_value(win, "count").endswith("2"), timeout=5000)
    dock.panel.path_box.setChecked(False)
    assert path_marks(win) == {}

    click(qtbot, win, "newThreadButton")  # a thread with no run: no timeline, not the last one
    qtbot.waitUntil(lambda: dock.panel.caption.text().startswith("No run of thread"), timeout=5000)
    assert len(dock.timeline) == 0
    win.runner.choose_thread("main")
    qtbot.waitUntil(lambda: len(dock.timeline) == 6, timeout=5000)


def menu_action(qtbot, view, bar, name: str):
    """Right-click a task's bar in the timeline; the action `name` of its menu."""
    at = view.bar_center(bar)
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, at, view.viewport().mapToGlobal(at))
    QApplication.sendEvent(view.viewport(), event)
    menu = view.context_menu
    action = next(a for a in menu.actions() if a.objectName() == name)
    menu.close()
    return action


def test_rerun_from_a_node_inside_a_subgraph_runs_only_what_follows(qtbot, window, tmp_path):
    win = window
    open_copy(qtbot, win, tmp_path, "subgraph")
    run(qtbot, win, {"text": " hi ", "steps": []})
    source = win.runner.thread_id
    dock = win.timeline_dock
    bars = {b.where: b for s in dock.timeline.steps for b in s.tasks}
    assert {"shout", "shout › upper", "shout › exclaim", "done"} <= set(bars)
    exclaim = bars["shout › exclaim"]

    # the subgraph's last node is changed, then the run re-run from it
    spec = win.document.spec
    inner = spec.subgraphs[0]
    nodes = [n.model_copy(update={"values": {"text": "text + '!!'"}}) if n.id == "exclaim" else n
             for n in inner.graph.nodes]  # fmt: skip
    graph = inner.graph.model_copy(update={"nodes": nodes})
    win.document.apply({"subgraphs": [inner.model_copy(update={"graph": graph})]})
    action = menu_action(qtbot, dock.view, exclaim, "rerunLiveAction")
    assert action.isEnabled() and action.text() == "Re-run from shout › exclaim: calls live"
    action.trigger()
    tests = win.replay_dock.panel
    qtbot.waitUntil(lambda: tests.caption.text().startswith("Re-ran"), timeout=20000)
    rerun = f"{source}-rerun-1"
    assert tests.caption.text().startswith(
        f"Re-ran shout › exclaim and what follows as thread {rerun} "
        "(ran shout, shout › exclaim, done)")  # fmt: skip
    assert dock.timeline.thread_id == rerun  # the re-run's own timeline: upper did not run
    assert [b.where for s in dock.timeline.steps for b in s.tasks] == [
        "shout", "shout › exclaim", "done"]  # fmt: skip
    diff = tests.diff.texts()
    assert "Step 2 | shout | shout" in diff  # the subgraph's step, with the change
    assert '  shout wrote .text | "HI!" | "HI!!"' in diff
    assert '  state .text | "HI!" | "HI!!"' in diff
    assert win.dock("testsDock").isVisible()
    qtbot.waitUntil(lambda: win.runner.thread_id == rerun, timeout=5000)


def shown(qtbot, win, name: str) -> float:
    """Seconds to bring a dock to the front and paint it."""
    dock = win.dock(name)
    start = time.perf_counter()
    dock.show()
    dock.raise_()
    dock.widget().repaint()
    win.timeline_dock.view.viewport().repaint()
    QApplication.processEvents()
    return time.perf_counter() - start


def test_the_timeline_of_a_10000_step_run_opens_and_scrubs_quickly(qtbot, window, tmp_path):
    win, steps = window, 10000
    open_copy(qtbot, win, tmp_path, "counter_loop", recursion_limit=steps + 10)
    win.dock("traceDock").raise_()  # the timeline behind its tab while the run goes
    run(qtbot, win, {"count": 0, "limit": steps}, timeout=300000)
    dock = win.timeline_dock
    assert len(dock.timeline) == steps + 1
    # bench/timeline.py measures the real figures; a loaded machine gets room here
    assert shown(qtbot, win, "timelineDock") < 1.0
    scrubs = []
    for index in (5000, 17, 9999, 2500, 7321):
        start = time.perf_counter()
        dock.panel.slider.setValue(index)
        dock.view.viewport().repaint()
        scrubs.append(time.perf_counter() - start)
    assert max(scrubs) < 0.5, scrubs
    dock.panel.slider.setValue(5000)
    assert dock.panel.caption.text().startswith("Step 5000 (5001 of 10001): ran increment")
    assert path_marks(win)["increment"] == "×5000"
    qtbot.waitUntil(lambda: channel_value(win, "count").endswith("5000"), timeout=10000)
    # zoomed in far enough, the bars themselves are drawn, and the one under the mouse found
    view = dock.view
    for _ in range(30):
        view.zoom(1.5)
    bar = dock.timeline.steps[5000].tasks[0]
    assert view.bar_at(view.bar_center(bar)) == (5000, bar)


def test_model_and_tool_calls_sit_in_their_tasks_and_a_rerun_calls_only_what_follows(
    qtbot,
    window,
    tmp_path,
    keyed,  # noqa: F811
):
    keyed.reply("Let me add them.", tool_calls=[("add", {"a": 2, "b": 3})])
    keyed.reply("2 + 3 = 5.")
    # the provider reports token counts when asked to (the studio streams the model's reply)
    chat = open_spec(qtbot, window, tmp_path, agent_spec(keyed.base_url, stream_usage=True))
    send(qtbot, chat, "What is 2 + 3?")
    idle(qtbot, window, timeout=20000)
    qtbot.waitUntil(lambda: window.runner.state == "finished", timeout=5000)
    dock = window.timeline_dock
    timeline = dock.timeline
    found = [(i, b) for i, s in enumerate(timeline.steps) for b in s.tasks]
    calls = [(b.where, c.kind) for _, b in found for c in b.calls]
    assert calls == [("assistant › model", "model"), ("assistant › tools", "tool"),
                     ("assistant › model", "model")]  # fmt: skip
    index, first = next((i, b) for i, b in found if b.where == "assistant › model")
    model_call = first.calls[0]
    assert first.start <= model_call.started <= model_call.ended <= first.end
    tip = bar_tip(index, first, timeline)
    assert f"model call 1: {seconds_text(model_call.latency)}, " in tip and " total tokens" in tip
    dock.window.dock("timelineDock").raise_()
    view = dock.view
    at = view.bar_center(first)
    QApplication.sendEvent(
        view.viewport(), QHelpEvent(QEvent.Type.ToolTip, at, view.mapToGlobal(at))
    )
    assert QToolTip.text() == tip

    # re-run from the second model call, live: the server is asked once, for that call only
    last = [b for _, b in found if b.where == "assistant › model"][-1]
    asked = len(keyed.requests)
    keyed.reply("2 + 3 makes 5.")
    menu_action(qtbot, view, last, "rerunLiveAction").trigger()
    tests = window.replay_dock.panel
    qtbot.waitUntil(lambda: tests.caption.text().startswith("Re-ran"), timeout=20000)
    assert len(keyed.requests) == asked + 1
    assert tests.caption.text().endswith("0 call(s) served from the recording, 1 made live")
    assert any("2 + 3 = 5." in line and "2 + 3 makes 5." in line for line in tests.diff.texts())
    [rerun] = [b for s in dock.timeline.steps for b in s.tasks if b.calls]
    assert (rerun.where, [c.served for c in rerun.calls]) == ("assistant › model", ["live"])
    keyed.stop()  # offline: the source run's calls, all from its recording
    window.runner.choose_thread("main")
    qtbot.waitUntil(lambda: dock.timeline.thread_id == "main", timeout=5000)
    menu_action(qtbot, view, first, "rerunRecordedAction").trigger()
    qtbot.waitUntil(lambda: "-rerun-2" in tests.caption.text(), timeout=20000)
    assert tests.caption.text().endswith("3 call(s) served from the recording, 0 made live")
    assert tests.diff.caption.text().endswith("the same in every step")


def test_rerun_from_a_task_with_edited_state(qtbot, window, tmp_path):
    """The edit is a fork of the checkpoint before the task (update_state, as the Checkpoints
    dock forks): the node that wrote it routes again, here on to the task."""
    win = window
    open_copy(qtbot, win, tmp_path, "subgraph")
    run(qtbot, win, {"text": " hi ", "steps": []})
    dock = win.timeline_dock
    shout = next(b for s in dock.timeline.steps for b in s.tasks if b.where == "shout")

    def edit() -> None:
        dialog = QApplication.activeModalWidget()
        dialog.setTextValue('{"text": "bye"}')
        dialog.accept()

    QTimer.singleShot(100, edit)
    menu_action(qtbot, dock.view, shout, "rerunEditedAction").trigger()
    tests = win.replay_dock.panel
    qtbot.waitUntil(lambda: tests.caption.text().startswith("Re-ran"), timeout=20000)
    assert (
        "(ran shout, shout › __start__, shout › upper, shout › exclaim, done)"
        in tests.caption.text()
    )
    assert '  .text | "HI!" | "BYE!"' in tests.diff.texts()


STUDIO_SPEC = {
    "version": 2, "name": "Draft and review",
    "description": "Fetch notes (a flaky service, retried), then draft until three drafts are done.",
    "state": [{"name": "topic", "type": "str"}, {"name": "notes", "type": "list", "reducer": "add"},
              {"name": "drafts", "type": "int"}, {"name": "text", "type": "str"}],
    "nodes": [
        {"id": "fetch", "kind": "function", "function": "fetch", "writes": ["notes"],
         "position": {"x": 200.0, "y": 80.0},
         "retry": {"initial_interval": 0.01, "jitter": False},
         "code": "import time\n\ncalls = []\n\n\ndef fetch(state):\n    calls.append(1)\n"
                 "    time.sleep(0.03)\n    if len(calls) == 1:\n"
                 "        raise ConnectionError('the notes service is busy')\n"
                 "    return {'notes': [f\"facts about {state['topic']}\"]}\n"},
        {"id": "draft", "kind": "function", "function": "draft", "writes": ["drafts", "text"],
         "position": {"x": 200.0, "y": 220.0},
         "code": "import time\n\n\ndef draft(state):\n    time.sleep(0.05)\n"
                 "    n = (state.get('drafts') or 0) + 1\n"
                 "    return {'drafts': n, 'text': f\"draft {n} on {state['topic']}\"}\n"},
        {"id": "publish", "kind": "set_state", "values": {"text": "text + ' (published)'"},
         "position": {"x": 200.0, "y": 380.0}},
    ],
    "edges": [{"id": "fetch_to_draft", "sources": ["fetch"], "target": "draft"}],
    "conditional_edges": [{"id": "again", "source": "draft", "router": {
        "kind": "expression", "expression": "'draft' if drafts < 3 else 'publish'"},
        "path_map": ["draft", "publish"]}],
    "entry": ["fetch"], "finish": ["publish"],
    "inputs": [{"name": "owls", "value": {"topic": "owls", "notes": []}}],
}  # fmt: skip


def test_timeline_and_rerun_diff_screenshots(qtbot, window, tmp_path):
    """docs/timeline.png (a run scrubbed to its second draft, the path on the canvas) and
    docs/rerun-diff.png (the draft node changed, the run re-run from that draft: the diff in
    Tests, the re-run's timeline and path)."""
    win = window
    open_spec(qtbot, win, tmp_path, STUDIO_SPEC)  # trusted: the nodes are Python
    win.resize(1440, 900)
    run(qtbot, win, {"topic": "owls", "notes": []})
    dock = win.timeline_dock
    bars = [b for s in dock.timeline.steps for b in s.tasks]
    assert [b.name for b in bars] == ["__start__", "fetch", "draft", "draft", "draft", "publish"]
    assert bars[1].retries == 1
    timeline = win.dock("timelineDock")
    timeline.show()
    timeline.raise_()
    win.resizeDocks([timeline], [300], Qt.Orientation.Vertical)
    second = dock.timeline.index_of(bars[3].step)
    dock.scrub(second)
    assert path_marks(win) == {"__start__->fetch": "×1", "fetch": "×1", "fetch->draft": "×1",
                               "draft": "×2", "draft->draft": "×2"}  # fmt: skip
    qtbot.waitUntil(lambda: "draft 2 on owls" in channel_value(win, "text"), timeout=5000)
    win.view.fit()
    qtbot.wait(300)
    image = save_grab(win, "timeline.png", tmp_path)
    assert (image.width(), image.height()) == (win.width(), win.height())

    # the draft node now writes its drafts otherwise; the run re-run from the second draft
    nodes = [n.model_copy(update={"code": n.code.replace("draft {n} on", "draft {n} about")})
             if n.id == "draft" else n for n in win.document.spec.nodes]  # fmt: skip
    win.document.apply({"nodes": nodes})
    menu_action(qtbot, dock.view, bars[3], "rerunLiveAction").trigger()
    tests = win.replay_dock.panel
    qtbot.waitUntil(lambda: tests.caption.text().startswith("Re-ran"), timeout=20000)
    assert "(ran draft, publish)" in tests.caption.text()
    diff = tests.diff.texts()
    assert '  draft wrote .text | "draft 2 on owls" | "draft 2 about owls"' in diff
    assert path_marks(win) == {"draft": "×2", "draft->draft": "×1", "draft->publish": "×1",
                               "publish": "×1"}  # the re-run's own path  # fmt: skip
    assert tests.failure.toPlainText() == "no model or tool calls"
    win.dock("timelineDock").raise_()
    win.resizeDocks([win.dock("testsDock")], [400], Qt.Orientation.Vertical)
    qtbot.wait(300)
    save_grab(win, "rerun-diff.png", tmp_path)
