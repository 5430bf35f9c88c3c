"""The Tests dock takes neither trust nor a spec outside the project from a saved test's data
file (issue 26.4): Save as test writes no `trusted`, and a data file edited to point at a spec
elsewhere fails, naming it, without running that spec's code, even one the user trusted."""

from __future__ import annotations

import json

import pytest

from graphspec.templates import TEMPLATES_DIR
from graphspec.trust import digest
from studio import files
from tests.studio.replay.test_record_studio import press, results
from tests.studio.test_run_steps import click, idle

pytestmark = pytest.mark.gui


def test_a_tampered_data_file_picks_no_spec_outside_the_project(qtbot, window, tmp_path):
    project, other = tmp_path / "proj", tmp_path / "other"
    project.mkdir()
    other.mkdir()
    marker = tmp_path / "EVIL_RAN"
    evil = json.loads((TEMPLATES_DIR / "counter_loop.json").read_text())
    code = f"import pathlib\n\npathlib.Path({str(marker)!r}).touch()\n\n\n" \
           "def step(state):\n    return {'count': 1}\n"  # fmt: skip
    evil["nodes"][0] = {"id": "increment", "kind": "function", "code": code, "function": "step",
                        "writes": ["count"]}  # fmt: skip
    (other / "evil.json").write_text(json.dumps(evil))
    files.remember_trust(digest((other / "evil.json").read_bytes()))  # trusted, but elsewhere

    spec = project / "counter.json"
    spec.write_bytes((TEMPLATES_DIR / "counter_loop.json").read_bytes())
    assert window.open_path(spec)
    idle(qtbot, window)
    window.replay_dock.record_box.setChecked(True)
    click(qtbot, window, "runButton")
    idle(qtbot, window, timeout=20000)
    press(qtbot, window, "saveTest")
    panel = window.replay_dock.panel
    name = f"test_{window.runner.thread_id}"
    data_path = project / "tests" / f"{name}.recording.json"
    data = json.loads(data_path.read_text())
    assert "trusted" not in data and data["spec"] == "../counter.json"
    with qtbot.waitSignal(panel.finished, timeout=20000):
        press(qtbot, window, "runTests")
    assert results(panel) == [(name, "passed")]

    data_path.write_text(json.dumps({**data, "trusted": True, "spec": "../../other/evil.json"}))
    with qtbot.waitSignal(panel.finished, timeout=20000):
        press(qtbot, window, "runTests")
    assert not marker.exists()
    assert results(panel) == [(name, "FAILED")]
    assert f"resolves to {other / 'evil.json'}, outside the test's project {project}" in \
           panel.failure.toPlainText()  # fmt: skip
