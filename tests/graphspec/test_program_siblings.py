"""Programs opened one after another in one process each import their own sibling modules, not
an earlier program's module of the same name (graph.py, tools.py, state.py are everywhere)."""

from __future__ import annotations

import json
import sys

from graphspec.importer import load_module


def _program(folder, value: str):
    folder.mkdir()
    (folder / "helpers.py").write_text(f"VALUE = {value!r}\n", encoding="utf-8")
    (folder / "prog.py").write_text("from helpers import VALUE\n", encoding="utf-8")
    return folder / "prog.py"


def test_a_second_program_imports_its_own_sibling_not_the_firsts(tmp_path):
    first = load_module(str(_program(tmp_path / "a", "first")))
    second = load_module(str(_program(tmp_path / "b", "second")))
    assert (first.VALUE, second.VALUE) == ("first", "second")
    first_again = load_module(str(tmp_path / "a" / "prog.py"))
    assert first_again.VALUE == "first"


def test_installed_modules_are_never_forgotten_for_a_programs_file_of_their_name(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "json.py").write_text("SHADOW = True\n", encoding="utf-8")
    (folder / "prog.py").write_text("import json\nDUMPS = json.dumps\n", encoding="utf-8")
    load_module(str(folder / "prog.py"))
    assert sys.modules["json"] is json  # the standard library's, as before
