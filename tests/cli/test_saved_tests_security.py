"""Saved tests hold no attacker text as code (issue 26.1).

A thread id or a spec file name with `\"\"\"` in it once closed the generated test's docstring and
ran as Python when the test ran. Driven through `superstep run --record`, `save-test`, `test` and
a plain pytest run of the generated file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from graphspec.templates import TEMPLATES_DIR
from studio.cli import main

ROOT = Path(__file__).resolve().parents[2]
EVIL_THREAD = 'x"""+__import__("os").system("touch PWNED")+"""'
MARKER_CODE = (
    "import pathlib\n\npathlib.Path('EVIL_RAN').touch()\n\n\n"
    "def step(state):\n    pathlib.Path('EVIL_RAN').touch()\n    return {'count': 1}\n"
)


@pytest.fixture
def project(tmp_path, monkeypatch):
    """An empty project folder as the working directory; the studio's files kept apart."""
    folder = tmp_path / "proj"
    folder.mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.setenv("SUPERSTEP_STUDIO_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("SUPERSTEP_TRUST_SAVED_TESTS", raising=False)
    paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))  # the pytest subprocess finds us
    return folder


def _save(capfd, spec: Path, thread: str, *trust: str) -> Path:
    """Run `spec` recorded on `thread`, save it as a test in tests/; returns the data file."""
    db = str(spec.parent / "threads.db")
    assert main(["run", str(spec), "--db", db, "--thread", thread, "--record", *trust]) == 0
    assert main(["save-test", str(spec), "--thread", thread, "--db", db, *trust]) == 0
    out = capfd.readouterr().out
    test = Path(out.splitlines()[-1].removeprefix("wrote "))
    assert test.parent == Path("tests") and test.exists()
    [data] = test.parent.resolve().glob("*.recording.json")
    return data


def _counter(folder: Path, name: str = "counter.json") -> Path:
    spec = folder / name
    spec.write_bytes((TEMPLATES_DIR / "counter_loop.json").read_bytes())
    return spec


def _pytest(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                          capture_output=True, text=True, check=False)  # fmt: skip


def test_a_thread_id_with_triple_quotes_is_not_run(project, capfd):
    data = _save(capfd, _counter(project), EVIL_THREAD)  # a spec without code, no --trust
    test = data.with_name(data.name.removesuffix(".recording.json") + ".py")
    code = main(["test", "tests"])
    done = _pytest(str(test))  # plain pytest, as CI runs it
    assert not (project / "PWNED").exists() and not (project / "tests" / "PWNED").exists()
    assert code == 0 and "1 passed" in capfd.readouterr().out
    assert done.returncode == 0, done.stdout
    assert test.read_text().count('"""') == 2  # its own docstring, nothing from the thread
    assert json.loads(data.read_text())["thread"] == EVIL_THREAD  # the thread lives in the data


def test_a_spec_named_with_triple_quotes_is_not_run(project, capfd):
    data = _save(capfd, _counter(project, 'x"""+__import__("os").system("touch PWNED")+""".json'),
                 "main")  # fmt: skip
    test = data.with_name("test_main.py")
    code = main(["test", "tests"])
    assert not (project / "PWNED").exists()
    assert code == 0 and "1 passed" in capfd.readouterr().out
    assert test.read_text().count('"""') == 2 and "touch" not in test.read_text()


def test_the_generated_file_is_fixed_text_and_a_whitelisted_name(project, capfd):
    from studio.replay.saved_tests import TEST_SOURCE

    data = _save(capfd, _counter(project), "../../évil/..\\thread\n#")
    assert data.parent == project / "tests" and data.name == "test_vil_thread.recording.json"
    assert data.with_name("test_vil_thread.py").read_text() == TEST_SOURCE.format(
        name="vil_thread", data="test_vil_thread.recording.json"
    )
    assert main(["test", "tests"]) == 0
