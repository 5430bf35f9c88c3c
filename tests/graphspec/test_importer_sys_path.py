"""Importing a graph from a .py file leaves sys.path exactly as it was (its folder must not
shadow modules imported later), also when the import fails."""

from __future__ import annotations

import importlib
import sys

import pytest

from graphspec.errors import SpecError
from graphspec.importer import import_module_graph

MODULE = """
import helper_beside_it  # a sibling import works while the module loads
from engine.graph import StateGraph, START, END
from typing import TypedDict

class S(TypedDict):
    x: int

def step(state):
    return {"x": helper_beside_it.VALUE}

builder = StateGraph(S)
builder.add_node("step", step)
builder.add_edge(START, "step")
builder.add_edge("step", END)
graph = builder.compile()
"""


def test_sys_path_is_restored_after_an_import(tmp_path):
    (tmp_path / "helper_beside_it.py").write_text("VALUE = 7\n")
    (tmp_path / "shadow_after_import.py").write_text("raise SystemExit('shadowed')\n")
    (tmp_path / "graph_with_sibling.py").write_text(MODULE)
    before = list(sys.path)
    spec = import_module_graph(str(tmp_path / "graph_with_sibling.py"))
    assert [n.id for n in spec.nodes] == ["step"]
    assert sys.path == before
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("shadow_after_import")


def test_sys_path_is_restored_when_the_import_fails(tmp_path):
    (tmp_path / "broken_graph_module.py").write_text("raise ValueError('nope')\n")
    before = list(sys.path)
    with pytest.raises(SpecError, match="nope"):
        import_module_graph(str(tmp_path / "broken_graph_module.py"))
    assert sys.path == before
