"""Files: save/close/reopen, recovery of a killed session, bad files, trust, export."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from graphspec.io import dumps_spec, load_spec, read_spec
from graphspec.templates import TEMPLATES_DIR
from tests.studio.conftest import settle

pytestmark = pytest.mark.gui


def open_window(qtbot):
    from studio.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    return win


def test_save_close_reopen_gives_the_same_spec(window, qtbot, tmp_path):
    win = window
    win.open_path(TEMPLATES_DIR / "fanout_join.json", bundled=True)
    win.editor.add_node("interrupt", 400, 600)
    win.editor.connect("combine", "interrupt")
    win.editor.add_note(0, 0, "remember")
    saved = dumps_spec(win.document.spec)
    path = tmp_path / "mine.json"
    assert win.save_as(path)
    assert win.editor.stack.isClean() and "*" not in win.windowTitle()
    win.close()
    again = open_window(qtbot)
    assert again.start_page.recent.item(0).data(Qt.ItemDataRole.UserRole) == str(path.resolve())
    assert not again.recovery_banner.isVisibleTo(again)  # saved work is not offered back
    assert again.open_path(path)
    assert dumps_spec(again.document.spec) == saved
    assert path.read_text(encoding="utf-8") == saved


def test_a_killed_sessions_work_is_offered_back(qtbot, home):
    # a session that died: an autosave file and no lock holder
    spec = read_spec(TEMPLATES_DIR / "router.json")
    spec = spec.model_copy(update={"name": "unsaved router"})
    folder = home / "autosave"
    folder.mkdir(parents=True)
    (folder / "deadbeef.json").write_text(
        json.dumps(
            {"original": None, "saved_at": 1_700_000_000, "pid": 999_999, "spec": dumps_spec(spec)}
        )
    )
    win = open_window(qtbot)
    assert win.recovery_banner.isVisibleTo(win)
    assert "unsaved router" in win.recovery_banner.label.text()
    qtbot.mouseClick(win.findChild(QPushButton, "recoverButton"), Qt.MouseButton.LeftButton)
    assert dumps_spec(win.document.spec) == dumps_spec(spec)
    assert not win.editor.stack.isClean()  # still unsaved, still autosaved
    assert not (folder / "deadbeef.json").exists()
    assert not win.recovery_banner.isVisibleTo(win)


def test_unsaved_work_survives_closing_and_is_offered_next_time(window, qtbot):
    window.new_graph()
    window.editor.add_node("model", 100, 100)
    qtbot.waitUntil(lambda: window.autosave.file.exists(), timeout=3000)
    window.close()
    win = open_window(qtbot)
    assert win.recovery_banner.isVisibleTo(win)
    assert win.recover()
    assert [n.id for n in win.document.spec.nodes] == ["model"]


@pytest.mark.parametrize(
    "content", [b"{not json", b'{"nodes": [{"id": "x"}]}', b"[]", b"\xff\xfe", b'{"version": 99}']
)
def test_a_bad_file_shows_errors_and_changes_nothing(window, tmp_path, content):
    win = window
    win.open_path(TEMPLATES_DIR / "router.json", bundled=True)
    before = dumps_spec(win.document.spec)
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    assert not win.open_path(bad)
    assert bad.read_bytes() == content
    assert dumps_spec(win.document.spec) == before
    assert win.load_errors
    assert win.load_error_box.isVisible()
    win.load_error_box.close()
    assert not win.open_path(tmp_path / "missing.json")


def test_code_from_elsewhere_asks_for_trust(window, tmp_path):
    path = tmp_path / "flaky.json"
    path.write_bytes((TEMPLATES_DIR / "flaky_retry.json").read_bytes())
    win = window
    assert win.open_path(path)
    assert win.trust_banner.isVisibleTo(win) and not win.document.trusted
    win.findChild(QPushButton, "trustButton").click()
    assert win.document.trusted and not win.trust_banner.isVisibleTo(win)
    assert win.open_path(path)  # the same bytes are trusted from now on
    assert win.document.trusted and not win.trust_banner.isVisibleTo(win)


def test_problems_mark_items_and_select_them(window, qtbot):
    win = window
    win.open_path(TEMPLATES_DIR / "router.json", bundled=True)
    settle(qtbot, win)
    assert win.problems.topLevelItemCount() == 0
    win.editor.add_node("set_state", 700, 100)  # unreachable: a finding on the new node
    settle(qtbot, win)
    rows = [win.problems.topLevelItem(i) for i in range(win.problems.topLevelItemCount())]
    row = next(r for r in rows if r.data(0, Qt.ItemDataRole.UserRole) == "set_state")
    assert win.scene.nodes["set_state"].mark is not None
    win.problems.itemClicked.emit(row, 0)
    assert win.scene.selected_ids() == ["set_state"]


def test_a_router_typo_is_one_problem_beside_the_others(window, qtbot, tmp_path):
    doc = json.loads((TEMPLATES_DIR / "router.json").read_text())
    doc["conditional_edges"][0]["router"] = {"kind": "expression", "expression": "x)"}
    doc["nodes"].append({"id": "stray", "kind": "set_state", "values": {"zz": "1"}})
    path = tmp_path / "typo.json"
    path.write_text(json.dumps(doc))
    win = window
    assert win.open_path(path)
    settle(qtbot, win)
    tips = [
        win.problems.topLevelItem(i).toolTip(2) for i in range(win.problems.topLevelItemCount())
    ]
    assert any(t.startswith("$.conditional_edges[0].router.expression: invalid") for t in tips)
    assert any(t.startswith("$.nodes[") and "'zz' is not a state key" in t for t in tips), tips
    assert not any("validator failed" in t for t in tips)
    assert not win.export("langgraph", tmp_path / "g.py")
    said = win.statusBar().currentMessage()
    assert said.startswith("Export failed: $.conditional_edges[0].router.expression (route): ")


def test_export_drawing_and_code(window, tmp_path):
    win = window
    win.open_path(TEMPLATES_DIR / "router.json", bundled=True)
    for fmt, name in (
        ("png", "g.png"),
        ("svg", "g.svg"),
        ("mermaid", "g.mmd"),
        ("langgraph", "g.py"),
    ):
        assert win.export(fmt, tmp_path / name), fmt
        assert (tmp_path / name).stat().st_size > 100
    assert (tmp_path / "g.png").read_bytes()[:4] == b"\x89PNG"
    assert "<svg" in (tmp_path / "g.svg").read_text()
    assert "-.->" in (tmp_path / "g.mmd").read_text()
    compile((tmp_path / "g.py").read_text(), "g.py", "exec")


def test_subgraph_opens_on_double_click(window):
    win = window
    win.open_path(TEMPLATES_DIR / "subgraph.json", bundled=True)
    win.scene.activated.emit("shout")
    inner = win.subgraph_windows[-1]
    assert inner.objectName() == "subgraphWindow"
    assert set(inner.centralWidget().scene().nodes) == {"upper", "exclaim"}


def test_superstep_studio_screenshot_and_quit(tmp_path, home):
    png = tmp_path / "shot.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    code = "import sys; from studio.cli import main; sys.exit(main(sys.argv[1:]))"
    result = subprocess.run(
        [sys.executable, "-c", code, "studio", "router", "--screenshot", str(png), "--quit"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).parents[2],
    )
    assert result.returncode == 0, result.stderr
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_edits_that_go_on_are_autosaved_while_they_go_on(window, qtbot):
    """An edit every 300 ms kept postponing the autosave (800 ms after the last edit) for as long
    as the user went on: a crash then lost all of it (issue 27.1)."""
    from PySide6.QtTest import QTest

    from tests.studio.helpers import center, click

    win = window
    assert win.open_path(TEMPLATES_DIR / "router.json", bundled=True)
    win.activateWindow()
    click(win.view, center(win.scene.nodes["a"]))
    for _ in range(6):  # 1.8 s of edits, never 800 ms apart
        QTest.keyClick(win.view, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
        qtbot.wait(300)
    assert win.autosave.file.exists()
    saved = json.loads(win.autosave.file.read_text(encoding="utf-8"))
    assert len(load_spec(saved["spec"]).nodes) > len(read_spec(TEMPLATES_DIR / "router.json").nodes)
