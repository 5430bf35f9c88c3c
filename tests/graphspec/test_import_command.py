"""`superstep import MODULE.py[:NAME]`: asks before running the module, writes the spec, picks a
graph by name, and says which graphs there are when it cannot tell."""

from __future__ import annotations

import io
import json
import sys
import textwrap

import pytest

from graphspec.importer import import_module_graph
from graphspec.io import dumps_spec, read_spec
from studio.cli import main
from tests.graphspec.test_corpus import CORPUS, PROGRAMS


@pytest.mark.parametrize("stem", PROGRAMS)
def test_import_writes_each_corpus_program_as_a_spec(stem, tmp_path):
    out = tmp_path / f"{stem}.json"
    assert main(["import", str(CORPUS / f"{stem}.py"), "--trust", "-o", str(out)]) == 0
    written = read_spec(out)
    assert (out.parent / written.module_file).resolve() == (CORPUS / f"{stem}.py").resolve()
    written = written.model_copy(update={"module_file": None})
    assert dumps_spec(written) == dumps_spec(import_module_graph(str(CORPUS / f"{stem}.py")))


def test_import_asks_first_and_runs_nothing_without_a_yes(tmp_path, monkeypatch, capsys):
    marker = tmp_path / "ran.txt"
    path = tmp_path / "side_effect.py"
    path.write_text(f"open({str(marker)!r}, 'w').close()\n", encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # not a terminal: no one to ask
    assert main(["import", str(path)]) == 2
    assert "runs its Python code" in capsys.readouterr().err and not marker.exists()

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal("n\n"))
    assert main(["import", str(path)]) == 2
    assert "side_effect.py runs its Python code. Run it?" in capsys.readouterr().err
    assert not marker.exists()


def test_several_graphs_are_named_and_one_is_picked_with_a_colon(tmp_path, capsys):
    path = tmp_path / "pair.py"
    path.write_text(
        textwrap.dedent("""
        from typing_extensions import TypedDict
        from langgraph.graph import START, StateGraph
        class S(TypedDict):
            x: int
        def one(state):
            return {"x": 1}
        def build():
            b = StateGraph(S)
            b.add_node("one", one)
            b.add_edge(START, "one")
            return b.compile()
        drafts = build()
        reviews = build()
    """),
        encoding="utf-8",
    )
    assert main(["import", str(path), "--trust"]) == 2
    err = capsys.readouterr().err
    assert "several graphs (drafts, reviews)" in err and f"{path}:drafts" in err
    assert main(["import", f"{path}:reviews", "--trust"]) == 0
    assert '"import_path": "pair:one"' in capsys.readouterr().out


@pytest.mark.parametrize(
    "stem", ["command_goto", "func_simple", "pydantic_state", "wf_orchestrator", "map_reduce_send"]
)
def test_an_imported_spec_runs_from_the_command_line_on_its_module(stem, tmp_path, capsys):
    """`superstep run` loads the program the spec came from (on the engine) before compiling."""
    from tests.graphspec.test_corpus import original, run

    module, graph = original(stem)
    expected = run(module, graph, "langgraph")
    spec_file = tmp_path / "specs" / f"{stem}.json"
    spec_file.parent.mkdir()
    assert main(["import", str(CORPUS / f"{stem}.py"), "--trust", "-o", str(spec_file)]) == 0
    assert read_spec(spec_file).module_file.endswith(f"corpus/{stem}.py")
    capsys.readouterr()
    assert main(["run", str(spec_file), "--input", json.dumps(module.INPUT)]) == 2  # untrusted
    assert "module" in capsys.readouterr().err
    assert main(["run", str(spec_file), "--trust", "--input", json.dumps(module.INPUT)]) == 0
    printed = json.loads(capsys.readouterr().out.splitlines()[-1])  # the thread's whole state
    assert {k: printed[k] for k in expected} == expected
