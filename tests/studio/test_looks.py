"""What the canvas shows of an imported agent's middleware (no Qt: looks are data)."""

from __future__ import annotations

from graphspec.importer import import_module_graph
from studio.canvas.looks import node_look
from tests.graphspec.test_corpus import CORPUS


def test_imported_middleware_shows_the_hooks_the_program_defines():
    spec = import_module_graph(str(CORPUS / "middleware_custom.py"), on_engine=True)
    [node] = [n for n in spec.nodes if n.kind == "agent"]
    looks = {m.name: m.hooks for m in node_look(spec, node).middleware}
    assert looks["call_counter"] == ("before_model", "after_model")  # a class, built
    assert looks["shout"] == ("wrap_tool_call",)  # a class instance in a variable
    assert looks["log_size"] == ("before_model",)  # a decorator
