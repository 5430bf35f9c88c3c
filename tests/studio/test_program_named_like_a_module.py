"""The studio opens a program named as a module of the standard library (`random.py`, `json.py`)
and steps it to langgraph's result, leaving that module the standard library's for the rest of
the session; reopening the file (as when it changes on disk) runs the program's own module again."""

from __future__ import annotations

import importlib
import sys

import pytest

from tests.cli.module_named_programs import INPUT, langgraph_result, write
from tests.studio.code_programs import open_program, step_to_end

pytestmark = pytest.mark.gui


@pytest.mark.parametrize("name", ["random.py", "json.py"])
def test_a_program_named_like_the_standard_library_opens_and_steps(qtbot, window, tmp_path, name):
    stdlib = importlib.import_module(name.removesuffix(".py"))
    program = write(tmp_path / "prog", name)
    expected = langgraph_result(program, tmp_path)
    open_program(qtbot, window, program)
    assert sys.modules[stdlib.__name__] is stdlib
    step_to_end(qtbot, window, INPUT)
    assert window.runner.view.values == expected
    loaded = {k: m for k, m in sys.modules.items() if getattr(m, "__file__", "") == str(program)}
    open_program(qtbot, window, program)  # again: the program's own module is run again
    assert {k: m for k, m in sys.modules.items()
            if getattr(m, "__file__", "") == str(program)}.keys() == loaded.keys()  # fmt: skip
    step_to_end(qtbot, window, INPUT)
    assert window.runner.view.values == expected
    assert sys.modules[stdlib.__name__] is stdlib
