"""Issue 26.3: trust in a spec made from a Python program covers the program. `superstep import`
writes a spec naming the module in `module_file` and its nodes by import path; trusting it in
the studio records the program's file and the local modules it imports, so after any of them
changed, reopening (or running) the spec asks again."""

from __future__ import annotations

import pytest

from studio.cli import main
from tests.studio.test_run_steps import click, idle

pytestmark = pytest.mark.gui

APP = """\
from typing import TypedDict

from langgraph.graph import END, START, StateGraph

import prog26_helper
from prog26_pkg.steps import double


class State(TypedDict):
    x: int


def step(state: State) -> dict:
    return {"x": double(prog26_helper.bump(state["x"]))}


builder = StateGraph(State)
builder.add_node("step", step)
builder.add_edge(START, "step")
builder.add_edge("step", END)
graph = builder.compile()
"""


@pytest.fixture
def program(tmp_path):
    """prog26_app.py importing prog26_helper.py and prog26_pkg/steps.py, made into spec.json."""
    (tmp_path / "prog26_app.py").write_text(APP)
    (tmp_path / "prog26_helper.py").write_text("def bump(x):\n    return x + 1\n")
    (tmp_path / "prog26_pkg").mkdir()
    (tmp_path / "prog26_pkg" / "__init__.py").write_text("")
    (tmp_path / "prog26_pkg" / "steps.py").write_text("def double(x):\n    return 2 * x\n")
    spec = tmp_path / "spec.json"
    assert main(["import", str(tmp_path / "prog26_app.py"), "--trust", "-o", str(spec)]) == 0
    return tmp_path


def trust_it(qtbot, win, spec) -> None:
    assert win.open_path(spec)
    assert win.trust_banner.isVisible() and "module" in win.trust_banner.label.text()
    click(qtbot, win, "trustButton")
    assert win.open_path(spec)  # trusted: recorded with the program's files
    assert not win.trust_banner.isVisible() and win.document.trusted


def asks_and_runs_nothing(qtbot, win) -> None:
    assert win.trust_banner.isVisible() and not win.document.trusted
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    assert "trust it" in win.runner.status.text()


@pytest.mark.parametrize(
    ("changed", "text"),
    [
        ("prog26_app.py", APP.replace("2 * x", "3 * x") + "\nprint('new code')\n"),
        ("prog26_helper.py", "import os\n\ndef bump(x):\n    os.system('true')\n    return x\n"),
        ("prog26_pkg/steps.py", "def double(x):\n    return 4 * x\n"),
        ("prog26_pkg/__init__.py", "print('runs on import')\n"),
    ],
    ids=["module", "imported-module", "from-import", "package-init"],
)
def test_a_changed_program_asks_again_on_reopen(qtbot, window, program, changed, text):
    trust_it(qtbot, window, program / "spec.json")
    (program / changed).write_text(text)
    assert window.open_path(program / "spec.json")
    asks_and_runs_nothing(qtbot, window)


def test_a_program_changed_while_open_asks_again_at_run(qtbot, window, program):
    trust_it(qtbot, window, program / "spec.json")
    (program / "prog26_helper.py").write_text("def bump(x):\n    return x - 1\n")
    click(qtbot, window, "runButton")
    idle(qtbot, window)
    assert "trust it" in window.runner.status.text()
    assert window.trust_banner.isVisible() and "changed" in window.trust_banner.label.text()


def test_an_unrelated_file_beside_it_keeps_trust(qtbot, window, program):
    trust_it(qtbot, window, program / "spec.json")
    (program / "notes.py").write_text("print('not imported by the program')\n")
    assert window.open_path(program / "spec.json")
    assert not window.trust_banner.isVisible() and window.document.trusted
