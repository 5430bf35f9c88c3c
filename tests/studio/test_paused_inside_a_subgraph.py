"""A run paused at a subgraph's own breakpoint says where it waits: the subgraph's node and the
node inside it ("shout › exclaim"), not the parent's node alone."""

from __future__ import annotations

import json

import pytest

from graphspec.templates import TEMPLATES_DIR
from tests.studio.test_run_steps import click, idle

pytestmark = pytest.mark.gui


def test_a_breakpoint_inside_a_subgraph_is_named_down_to_its_node(qtbot, window, tmp_path):
    doc = json.loads((TEMPLATES_DIR / "subgraph.json").read_text(encoding="utf-8"))
    doc["subgraphs"][0]["graph"]["breakpoints"] = {"before": ["exclaim"]}
    path = tmp_path / "shout_with_a_breakpoint.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert window.open_path(path)
    idle(qtbot, window)
    click(qtbot, window, "runButton")
    idle(qtbot, window)
    assert window.runner.state == "breakpoint", window.runner.last_failure
    assert window.runner.view.waiting == (("shout", "exclaim"),)
    assert "Paused before shout › exclaim" in window.runner.status.text()
