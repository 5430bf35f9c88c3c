"""The checkpoint file beside a spec, as the studio opens it (SECURITY issue 10, items 1 and 9).

Opening a spec lists the threads of `<spec>.checkpoints.sqlite`: a crafted file must not run
anything then (ids only), and reading the crafted thread's history is one clear failure naming
the file, the thread and the checkpoint. A file that cannot be used says why, never "No
checkpointer set".
"""

from __future__ import annotations

import os
import shutil
import stat
import sys

import pytest

from studio.cli import main
from studio.run.runner import db_path_for
from tests.engine.checkpoint.test_tampered_db import crafted_values, newest_checkpoint, tamper
from tests.graphspec.helpers import TEMPLATES
from tests.studio.test_run_steps import click, idle

pytestmark = pytest.mark.gui


@pytest.fixture
def spec(tmp_path):
    path = tmp_path / "loop.json"
    shutil.copy(TEMPLATES / "counter_loop.json", path)
    return path


def _trap(tmp_path, monkeypatch, name: str):
    marker = tmp_path / f"{name}.marker"
    (tmp_path / f"{name}.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    monkeypatch.syspath_prepend(str(tmp_path))  # the spec's folder is on sys.path
    return marker


@pytest.mark.parametrize("attack", sorted(crafted_values("m")))
def test_opening_a_spec_beside_a_crafted_db_runs_nothing(
    attack, qtbot, window, spec, tmp_path, monkeypatch, capsys
):
    name = f"studio_trap_{abs(hash(attack)) % 10**8}"
    marker = _trap(tmp_path, monkeypatch, name)
    db = db_path_for(spec, "", tmp_path)
    assert main(["run", str(spec), "--db", str(db), "--thread", "t"]) == 0
    capsys.readouterr()
    tamper(db, "UPDATE blobs SET type = 'msgpack', value = ? WHERE channel = 'count'",
           crafted_values(name)[attack])  # fmt: skip
    checkpoint_id = newest_checkpoint(db)

    assert window.open_path(spec)
    idle(qtbot, window)
    runner = window.runner
    assert runner.threads == ["t"]  # listed without reading a checkpoint
    assert runner.last_failure is None
    assert not marker.exists() and name not in sys.modules

    runner.thread_selector.setCurrentText("t")
    runner.show_thread()  # reads the thread's history: the crafted value
    idle(qtbot, window)
    failure = runner.last_failure
    assert failure is not None
    for part in (str(db), "thread 't'", checkpoint_id, "channel 'count'"):
        assert part in failure.message, (part, failure.message)
    assert not marker.exists() and name not in sys.modules
    assert (
        not runner.continue_button.isEnabled()
    )  # nothing to continue from a thread it cannot read
    runner.carry_on()  # F-keys and menus reach the slot too: it runs nothing
    idle(qtbot, window)
    assert not marker.exists() and name not in sys.modules


def test_a_directory_where_the_db_goes_says_so(qtbot, window, spec, tmp_path):
    db = db_path_for(spec, "", tmp_path)
    db.mkdir()
    assert window.open_path(spec)
    idle(qtbot, window)
    click(qtbot, window, "runButton")
    idle(qtbot, window)
    status = window.runner.status.text()
    assert "is a directory" in status and str(db) in status, status
    assert "No checkpointer" not in status


def test_a_foreign_db_beside_the_spec_is_refused_and_left_alone(qtbot, window, spec, tmp_path):
    from tests.engine.checkpoint.test_tampered_db import _foreign, digest

    db = db_path_for(spec, "", tmp_path)
    _foreign(db)
    before = digest(db)
    assert window.open_path(spec)
    idle(qtbot, window)
    click(qtbot, window, "runButton")
    idle(qtbot, window)
    status = window.runner.status.text()
    assert "not created by this saver" in status and "No checkpointer" not in status, status
    assert digest(db) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores folder permissions")
def test_a_read_only_folder_is_named_when_running(qtbot, window, spec, tmp_path):
    os.chmod(tmp_path, stat.S_IRUSR | stat.S_IXUSR)
    try:
        assert window.open_path(spec)
        idle(qtbot, window)
        click(qtbot, window, "runButton")
        idle(qtbot, window)
    finally:
        os.chmod(tmp_path, stat.S_IRWXU)
    status = window.runner.status.text()
    assert f"the folder {tmp_path} is read-only" in status, status
