"""A run killed at any instant resumes, from the command line and the studio (SECURITY issue 10,
item 8).

A child process runs `superstep run SPEC --db F` on a 30-step counter loop and SIGKILLs itself
at a chosen save, with everything queued before it committed (as if a background batch had
ended right there): just before checkpoint K is written (the window where a step's writes are
saved but the next checkpoint is not: the thread has no `next`, yet `invoke(None)` finishes it),
or just before a task's writes. The file is then resumed by `superstep run --continue` and, in a
copy, by the studio's Continue; both must reach the final state and step of an uninterrupted
run.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap

import pytest

from engine.checkpoint.sqlite import SqliteSaver
from studio.cli import main
from tests.graphspec.helpers import TEMPLATES
from tests.studio.test_run_steps import click, idle

pytestmark = [
    pytest.mark.gui,
    pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL"),
]

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INPUT = '{"count": 0, "limit": 30}'
CHILD = textwrap.dedent(
    """
    import os, signal, sys
    sys.path.insert(0, {root!r})
    from engine.checkpoint.sqlite import SqliteSaver
    from studio.cli import main

    method, at = sys.argv[1], int(sys.argv[2])
    original = getattr(SqliteSaver, method)
    calls = 0

    def killing(self, *args, **kwargs):
        global calls
        calls += 1
        if calls == at:
            if self.conn.in_transaction:
                self.conn.commit()  # a batch boundary right here: all queued before is saved
            os.kill(os.getpid(), signal.SIGKILL)
        return original(self, *args, **kwargs)

    setattr(SqliteSaver, method, killing)
    sys.exit(main(sys.argv[3:]))
    """
)


def loop_spec(folder):
    folder.mkdir(exist_ok=True)
    doc = json.loads((TEMPLATES / "counter_loop.json").read_text())
    doc["recursion_limit"] = 100
    path = folder / "loop.json"
    path.write_text(json.dumps(doc))
    return path


def final(db) -> tuple[dict, int]:
    with SqliteSaver.from_conn_string(str(db)) as saver:
        saved = saver.get_tuple({"configurable": {"thread_id": "t"}})
    values = {k: saved.checkpoint["channel_values"].get(k) for k in ("count", "limit")}
    return values, saved.metadata["step"]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("clean")
    spec = loop_spec(folder)
    db = folder / "loop.checkpoints.sqlite"
    assert main(["run", str(spec), "--db", str(db), "--thread", "t", "--input", INPUT]) == 0
    values, step = final(db)
    assert values == {"count": 30, "limit": 30}
    return values, step


@pytest.mark.parametrize(
    "method, at",
    [
        ("put", 2),  # the input checkpoint saved, step 0's not
        ("put", 3),  # step 0's writes saved, its checkpoint not
        ("put", 17),
        ("put", 32),  # the last step's writes saved, the final checkpoint not
        ("put_writes", 2),  # a task's writes not saved: it runs again
        ("put_writes", 9),
    ],
)
def test_killed_run_resumes_from_cli_and_studio(
    method, at, tmp_path, uninterrupted, qtbot, window, capsys
):
    spec = loop_spec(tmp_path / "cli")
    db = spec.with_name("loop.checkpoints.sqlite")
    argv = ["run", str(spec), "--db", str(db), "--thread", "t", "--input", INPUT]
    child = subprocess.run(
        [sys.executable, "-c", CHILD.format(root=ROOT), method, str(at), *argv],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert child.returncode == -signal.SIGKILL, child.stderr
    studio_spec = loop_spec(tmp_path / "studio")
    for part in db.parent.glob(db.name + "*"):  # the killed file and its WAL, for the studio
        shutil.copy(part, studio_spec.with_name(part.name))

    # the command line
    code = main(["run", str(spec), "--db", str(db), "--thread", "t", "--continue"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, ""), err
    assert json.loads(out.splitlines()[0]) == uninterrupted[0]
    assert final(db) == uninterrupted

    # the studio: open the spec, pick the thread, Continue
    assert window.open_path(studio_spec)
    idle(qtbot, window)
    runner = window.runner
    assert "t" in runner.threads
    runner.thread_selector.setCurrentText("t")
    runner.show_thread()
    idle(qtbot, window)
    assert runner.view.pending, runner.status.text()
    click(qtbot, window, "continueButton")
    idle(qtbot, window, timeout=30000)
    assert runner.last_failure is None, runner.last_failure
    assert "Nothing to continue" not in runner.status.text()
    assert not runner.view.pending
    assert {k: runner.view.values.get(k) for k in ("count", "limit")} == uninterrupted[0]
    assert final(studio_spec.with_name(db.name)) == uninterrupted
