"""Saved tests hold no attacker text as code and take no trust from their data (issue 26.1, 26.4).

A thread id or a spec file name with `\"\"\"` in it once closed the generated test's docstring and
ran as Python when the test ran; a data file's `"trusted": true` and `"spec": "../…"` once ran
another spec's code. Driven through `superstep run --record`, `save-test`, `test` and a plain
pytest run of the generated file."""

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


def _tamper(data: Path, spec: str) -> None:
    doc = json.loads(data.read_text())
    doc.update(trusted=True, spec=spec)
    data.write_text(json.dumps(doc))


def _evil(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    doc = json.loads((TEMPLATES_DIR / "counter_loop.json").read_text())
    doc["nodes"][0] = {"id": "increment", "kind": "function", "code": MARKER_CODE,
                       "function": "step", "writes": ["count"]}  # fmt: skip
    (folder / "evil.json").write_text(json.dumps(doc))
    return folder / "evil.json"


def test_a_data_file_grants_no_trust(project, capfd):
    data = _save(capfd, _counter(project), "main")
    assert "trusted" not in json.loads(data.read_text())  # trust is never written
    _evil(project / "other")
    _tamper(data, "../other/evil.json")  # in the project, but code nobody trusted
    assert main(["test", "tests"]) == 1
    out = capfd.readouterr().out
    assert "evil.json carries Python code (increment)" in out
    assert "run `superstep test --trust`, or open the spec in Superstep Studio and trust it" in out
    done = _pytest(str(data.with_name("test_main.py")))
    assert done.returncode == 1 and "carries Python code (increment)" in done.stdout
    assert not (project / "EVIL_RAN").exists()


def test_a_data_file_cannot_pick_a_spec_outside_the_project(project, capfd):
    data = _save(capfd, _counter(project), "main")
    evil = _evil(project.parent / "other")
    _tamper(data, "../../other/evil.json")
    assert main(["test", "--trust", "tests"]) == 1  # not even with --trust
    out = capfd.readouterr().out
    assert f"its spec '../../other/evil.json' resolves to {evil}, outside the test's project " \
           f"{project}" in out  # fmt: skip
    (project / "tests" / "link.json").symlink_to(evil)  # a link inside points outside
    _tamper(data, "link.json")
    assert main(["test", "--trust", "tests"]) == 1
    assert f"its spec 'link.json' resolves to {evil}, outside" in capfd.readouterr().out
    assert not (project / "EVIL_RAN").exists()


def test_a_spec_with_code_runs_when_trusted(project, capfd):
    spec = _evil(project)
    data = _save(capfd, spec, "main", "--trust")
    (project / "EVIL_RAN").unlink()  # the recorded run made it
    assert main(["test", "tests"]) == 1  # no --trust, not trusted in the studio
    assert "carries Python code (increment)" in capfd.readouterr().out
    assert not (project / "EVIL_RAN").exists()
    assert main(["test", "--trust", "tests"]) == 0
    assert (project / "EVIL_RAN").exists()

    from graphspec.trust import digest
    from studio import files

    files.remember_trust(digest(spec.read_bytes()))  # as trusting it in the studio does
    done = _pytest(str(data.with_name("test_main.py")))
    assert done.returncode == 0, done.stdout


def test_save_test_refuses_a_spec_outside_the_project(project, capfd, tmp_path):
    spec = _counter(project)
    db = str(project / "threads.db")
    assert main(["run", str(spec), "--db", db, "--record"]) == 0
    elsewhere = tmp_path / "elsewhere" / "tests"
    assert main(["save-test", str(spec), "--thread", "main", "--db", db, "-o", str(elsewhere)]) == 2
    assert f"resolves to {spec}, outside the test's project {elsewhere.parent}" in \
           capfd.readouterr().err  # fmt: skip
    assert not elsewhere.exists()


def test_a_pytest_run_reads_the_studios_own_trust_record(tmp_path):
    """Without the app (a saved test in pytest), the studio's folder is the one the app uses."""
    env = {**os.environ, "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    for key in ("SUPERSTEP_STUDIO_HOME", "XDG_DATA_HOME"):
        env.pop(key, None)
    show = "from studio.paths import studio_home; print(studio_home())"
    as_app = ("from PySide6.QtCore import QCoreApplication as A; from studio import paths; "
              "app = A([]); app.setOrganizationName(paths.ORGANIZATION); "
              "app.setApplicationName(paths.APPLICATION); print(paths.studio_home())")  # fmt: skip
    found = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                            text=True, check=True).stdout for code in (show, as_app)]  # fmt: skip
    assert found[0] == found[1] and found[0].startswith(str(tmp_path))
