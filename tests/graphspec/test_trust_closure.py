"""Trust covers a spec's closure: the spec and each subgraph file it pulls in, recursively."""

from __future__ import annotations

import json
from pathlib import Path

from graphspec.compiler import compile_spec
from graphspec.io import load_spec, read_spec, read_spec_bytes
from graphspec.trust import closure, digest


def code(fn: str, value: int) -> dict:
    return {"id": fn, "kind": "function", "code": f"def {fn}(state):\n    return {{'x': {value}}}\n",
            "function": fn}  # fmt: skip


def graph(nodes: list, subgraphs: list = (), sub_nodes: list = ()) -> dict:
    return {"version": 2, "state": [{"name": "x"}], "nodes": [*nodes, *sub_nodes], "subgraphs": list(subgraphs),
            "entry": [nodes[0]["id"]], "finish": [(sub_nodes or nodes)[-1]["id"]],
            "edges": [{"id": "e", "sources": [nodes[0]["id"]], "target": sub_nodes[0]["id"]}] if sub_nodes else []}  # fmt: skip


def family(tmp_path, grandchild_value: int = 3):
    """parent.json -> child.json -> deeper/grand.json, code at every level."""
    (tmp_path / "deeper").mkdir(exist_ok=True)
    (tmp_path / "deeper" / "grand.json").write_text(
        json.dumps(graph([code("g", grandchild_value)]))
    )
    sub = {"id": "s", "kind": "subgraph", "subgraph": "inner"}
    child = graph([code("c", 2)], [{"id": "inner", "file": "deeper/grand.json"}], [sub])
    (tmp_path / "child.json").write_text(json.dumps(child))
    parent = graph([code("p", 1)], [{"id": "inner", "file": "child.json"}], [sub])
    (tmp_path / "parent.json").write_text(json.dumps(parent))
    return tmp_path / "parent.json"


def test_the_closure_lists_code_in_every_file(tmp_path):
    path = family(tmp_path)
    found = closure(read_spec(path), tmp_path)
    assert not found.errors
    assert [(s.element_id, s.file) for s in found.sites] == [
        ("p", None), ("c", "child.json"), ("g", "deeper/grand.json")]  # fmt: skip
    assert set(found.files) == {
        str(tmp_path / "child.json"),
        str(tmp_path / "deeper" / "grand.json"),
    }


def test_changing_any_file_changes_the_digest(tmp_path):
    path = family(tmp_path)
    root = digest(read_spec_bytes(path))
    before = closure(read_spec(path), tmp_path).digest(root)
    family(tmp_path, grandchild_value=4)  # only the grandchild changes
    assert closure(read_spec(path), tmp_path).digest(root) != before


def test_a_spec_without_files_keeps_its_own_digest(tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(graph([code("p", 1)])))
    data = read_spec_bytes(path)
    assert closure(read_spec(path), tmp_path).digest(digest(data)) == digest(data)


def test_the_run_uses_the_bytes_that_were_hashed(tmp_path):
    """A file changed after the closure was read does not reach the run."""
    path = family(tmp_path)
    found = closure(read_spec(path), tmp_path)
    family(tmp_path, grandchild_value=99)
    graph_ = compile_spec(found.spec, trusted=True, base_dir=tmp_path)
    assert graph_.invoke({"x": 0}) == {"x": 3}


def test_a_file_including_itself_stops_with_an_error(tmp_path):
    sub = {"id": "s", "kind": "subgraph", "subgraph": "me"}
    (tmp_path / "loop.json").write_text(
        json.dumps(graph([code("p", 1)], [{"id": "me", "file": "loop.json"}], [sub]))
    )
    found = closure(read_spec(tmp_path / "loop.json"), tmp_path)
    assert found.errors and "loop.json" in found.errors[0]


def test_a_missing_file_is_an_error_not_a_crash(tmp_path):
    sub = {"id": "s", "kind": "subgraph", "subgraph": "gone"}
    spec_doc = graph([code("p", 1)], [{"id": "gone", "file": "nowhere.json"}], [sub])
    (tmp_path / "p.json").write_text(json.dumps(spec_doc))
    found = closure(read_spec(tmp_path / "p.json"), tmp_path)
    assert found.errors and "nowhere.json" in found.errors[0] and not found.files


def test_the_cli_runs_no_code_from_a_subgraph_file_without_trust(tmp_path, capsys):
    from studio.cli import main

    marker = tmp_path / "ran.txt"
    work = {"id": "w", "kind": "function", "function": "w",
            "code": f"def w(state):\n    open({str(marker)!r}, 'w').close()\n    return {{}}\n"}  # fmt: skip
    (tmp_path / "child.json").write_text(json.dumps(graph([work])))
    sub = {"id": "s", "kind": "subgraph", "subgraph": "inner"}
    parent = {"version": 2, "state": [{"name": "x"}], "nodes": [sub], "entry": ["s"], "finish": ["s"],
              "subgraphs": [{"id": "inner", "file": "child.json"}]}  # fmt: skip
    (tmp_path / "parent.json").write_text(json.dumps(parent))
    assert main(["run", str(tmp_path / "parent.json")]) == 2
    assert "--trust" in capsys.readouterr().err and not marker.exists()
    assert main(["run", str(tmp_path / "parent.json"), "--trust"]) == 0 and marker.exists()


def program(tmp_path):
    """app.py and what it imports, found without running it: siblings, a package (its
    __init__ too), relative and function-local imports; not the standard library, not a file
    outside its folder."""
    (tmp_path / "prog").mkdir()
    (tmp_path / "prog" / "pkg").mkdir()
    (tmp_path / "outside.py").write_text("X = 1\n")
    files = {
        "app.py": "import os, sibling\nfrom pkg.mod import f\nfrom . import rel\n"
        "def later():\n    import lazy\n",
        "sibling.py": "from pkg import sub\n",
        "rel.py": "",
        "lazy.py": "",
        "pkg/__init__.py": "",
        "pkg/mod.py": "from .deeper import g\nfrom ... import outside\n",
        "pkg/deeper.py": "",
        "pkg/sub.py": "",
        "unused.py": "",
    }
    for name, text in files.items():
        (tmp_path / "prog" / name).write_text(text)
    return tmp_path / "prog"


def test_the_closure_hashes_the_program_and_its_local_imports(tmp_path):
    folder = program(tmp_path)
    spec = load_spec(json.dumps({"version": 2, "module_file": "prog/app.py"}).encode())
    found = closure(spec, tmp_path)
    hashed = sorted(str(Path(p).relative_to(folder)) for p in found.files)
    assert hashed == ["app.py", "lazy.py", "pkg/__init__.py", "pkg/deeper.py", "pkg/mod.py",
                      "pkg/sub.py", "rel.py", "sibling.py"]  # fmt: skip
    before = found.digest("root")
    (folder / "pkg" / "deeper.py").write_text("import os\n")
    assert closure(spec, tmp_path).digest("root") != before


def test_a_missing_program_is_hashed_as_missing(tmp_path):
    spec = load_spec(json.dumps({"version": 2, "module_file": "gone.py"}).encode())
    found = closure(spec, tmp_path)
    assert found.files == {str(tmp_path / "gone.py"): "missing"}
    (tmp_path / "gone.py").write_text("print('appeared')\n")
    assert closure(spec, tmp_path).files != found.files


def test_a_subgraph_file_program_runs_from_where_it_was_hashed(tmp_path):
    """An inlined subgraph file's module_file names the file beside it, as hashed."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "prog.py").write_text("")
    (tmp_path / "sub" / "child.json").write_text(
        json.dumps({"version": 2, "module_file": "prog.py", **graph([code("c", 1)])})
    )
    sub = {"id": "s", "kind": "subgraph", "subgraph": "inner"}
    parent = graph([code("p", 1)], [{"id": "inner", "file": "sub/child.json"}], [sub])
    found = closure(load_spec(json.dumps(parent).encode()), tmp_path)
    program_file = str((tmp_path / "sub" / "prog.py").resolve())
    assert program_file in found.files
    assert found.spec.subgraphs[0].graph.module_file == program_file
