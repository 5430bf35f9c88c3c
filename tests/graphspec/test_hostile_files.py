"""Hostile spec files: NaN and Infinity, devices, FIFOs, folders and huge files, directly or as a
subgraph file. Each gives one clear line (file and JSON path) and exit code 2; nothing hangs."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time

import pytest
from pydantic import ValidationError

from graphspec import io as spec_io
from graphspec.errors import SpecValidationError
from graphspec.io import dumps_spec, load_spec, read_spec, read_spec_bytes
from graphspec.model import GraphSpec, Position, RetrySpec, View, Viewport
from tests.full_disk import tiny_disk

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def node(**extra) -> dict:
    return {"id": "a", "kind": "set_state", **extra}


@pytest.mark.parametrize(
    ("text", "path", "word"),
    [
        ('{"nodes": [' + json.dumps(node(position={"x": 0, "y": 0})).replace("0}", "NaN}") + "]}",
         "$.nodes[0].position.y", "NaN"),
        ('{"nodes": [{"id": "a", "kind": "set_state", "position": {"x": Infinity}}]}',
         "$.nodes[0].position.x", "infinite"),
        ('{"nodes": [{"id": "a", "kind": "set_state", "position": {"x": -Infinity}}]}',
         "$.nodes[0].position.x", "infinite"),
        ('{"nodes": [{"id": "a", "kind": "set_state", "position": {"x": 1e400}}]}',
         "$.nodes[0].position.x", "infinite"),
        ('{"view": {"viewport": {"zoom": NaN}}}', "$.view.viewport.zoom", "NaN"),
        ('{"view": {"notes": [{"id": "n", "position": {"y": -1e999}}]}}', "$.view.notes[0].position.y",
         "infinite"),
        ('{"nodes": [{"id": "a", "kind": "set_state", "retry": {"initial_interval": NaN}}]}',
         "$.nodes[0].retry.initial_interval", "NaN"),
        ('{"inputs": [{"name": "i", "value": {"deep": [1, {"v": NaN}]}}]}', '$.inputs[0].value.deep[1].v',
         "NaN"),
        ('{"subgraphs": [{"id": "s", "graph": {"nodes": [{"id": "b", "kind": "set_state", '
         '"position": {"x": NaN}}]}}]}', "$.subgraphs[0].graph.nodes[0].position.x", "NaN"),
        ('{"agents": [{"id": "g", "model": {"params": {"temperature": Infinity}}}]}',
         "$.agents[0].model.params.temperature", "infinite"),
    ],
)  # fmt: skip
def test_non_finite_numbers_are_refused_with_their_path(text, path, word):
    with pytest.raises(SpecValidationError) as info:
        load_spec(text)
    assert [(p.path, word in p.message) for p in info.value.problems] == [(path, True)]


@pytest.mark.parametrize(
    "make",
    [
        lambda: Position(x=math.nan),
        lambda: Position(y=math.inf),
        lambda: Viewport(x=-math.inf),
        lambda: RetrySpec(max_interval=math.nan),
        lambda: GraphSpec(inputs=[{"name": "i", "value": {"v": math.nan}}]),
    ],
)
def test_models_refuse_non_finite_numbers(make):
    """Edits build models in the studio (a drag, paste, the inspector): the same rule holds."""
    with pytest.raises(ValidationError, match="finite"):
        make()


def test_a_saved_spec_never_holds_nan():
    viewport = Viewport.model_construct(
        x=math.nan, y=0.0, zoom=1.0
    )  # skips validation, as a bug might
    spec = GraphSpec.model_construct(
        view=View.model_construct(viewport=viewport, groups=[], notes=[])
    )
    with pytest.raises(ValueError):
        dumps_spec(spec)


def test_the_cli_names_the_file_and_path(tmp_path, capsys):
    from studio.cli import main

    path = tmp_path / "nan.json"
    path.write_text('{"nodes": [{"id": "a", "kind": "set_state", "position": {"x": NaN, "y": 1}}]}')
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert (
        err.strip()
        == f"superstep validate: {path}: $.nodes[0].position.x: is NaN: numbers must be finite"
    )


# ------------------------------------------------------------------ what a spec file may be


def test_only_regular_files_are_read(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    for path in ("/dev/zero", fifo, link, tmp_path):
        started = time.monotonic()
        with pytest.raises(SpecValidationError, match="not a regular file"):
            read_spec_bytes(path)
        assert time.monotonic() - started < 2


def test_files_over_the_cap_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(spec_io, "MAX_SPEC_BYTES", 100)
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"name": "x" * 200}))
    with pytest.raises(SpecValidationError, match="larger than 100 bytes"):
        read_spec(path)
    path.write_text(json.dumps({"name": "x" * 50}))
    assert read_spec(path).name == "x" * 50


def _cli(*argv, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "studio.cli", *argv], cwd=cwd, capture_output=True,
                          text=True, timeout=30, env={**os.environ, "PYTHONPATH": ROOT})  # fmt: skip


def _parent_of(tmp_path, file: str):
    parent = {"version": 2, "nodes": [{"id": "s", "kind": "subgraph", "subgraph": "inner"}],
              "subgraphs": [{"id": "inner", "file": file}], "entry": ["s"], "finish": ["s"]}  # fmt: skip
    path = tmp_path / "parent.json"
    path.write_text(json.dumps(parent))
    return path


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_validate_run_and_export_refuse_a_fifo_or_device_promptly(tmp_path, kind):
    if kind == "fifo":
        os.mkfifo(tmp_path / "child.json")
    else:
        (tmp_path / "child.json").symlink_to("/dev/zero")
    parent = _parent_of(tmp_path, "child.json")
    for argv in (["validate", str(parent)], ["run", str(parent)], ["export", str(parent), "--to", "langgraph"],
                 ["validate", str(tmp_path / "child.json")]):  # fmt: skip
        started = time.monotonic()
        result = _cli(*argv, cwd=tmp_path)
        assert time.monotonic() - started < 20
        said = result.stdout + result.stderr
        assert result.returncode == 2, (argv, said)
        assert "child.json" in said and "not a regular file" in said and "Traceback" not in said, (
            argv
        )


def test_a_subgraph_file_path_to_dev_zero_is_refused(tmp_path):
    parent = _parent_of(tmp_path, "/dev/zero")
    result = _cli("validate", str(parent), cwd=tmp_path)
    assert result.returncode == 2 and "/dev/zero" in result.stdout + result.stderr
    assert "not a regular file" in result.stdout + result.stderr


# ------------------------------------------------------------------ export -o on a full disk


@pytest.fixture
def disk(tmp_path, monkeypatch):
    with tiny_disk(tmp_path / "disk", monkeypatch) as tiny:
        yield tiny


def test_export_to_a_full_disk_keeps_the_old_file(disk, capsys):
    from studio.cli import main

    target = disk.folder / "graph.py"
    target.write_text("old export\n")
    disk.fill()
    assert main(["export", "router", "--to", "langgraph", "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"superstep export: cannot write {target}: No space left on device")
    assert len(err.splitlines()) == 1
    assert target.read_text() == "old export\n" and disk.files() == [
        "graph.py"
    ]  # no temporary left


def test_export_to_a_full_disk_leaves_no_file(disk, capsys):
    from studio.cli import main

    disk.fill()
    assert main(["export", "router", "--to", "mermaid", "-o", str(disk.folder / "graph.mmd")]) == 2
    assert "No space left" in capsys.readouterr().err and disk.files() == []


def test_export_to_a_missing_folder_is_one_line(tmp_path, capsys):
    from studio.cli import main

    assert (
        main(["export", "router", "--to", "mermaid", "-o", str(tmp_path / "nowhere" / "g.mmd")])
        == 2
    )
    assert capsys.readouterr().err.startswith("superstep export: cannot write")
