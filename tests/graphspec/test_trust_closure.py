"""Trust covers a spec's closure: the spec and each subgraph file it pulls in, recursively."""

from __future__ import annotations

import json

from graphspec.compiler import compile_spec
from graphspec.io import read_spec, read_spec_bytes
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
