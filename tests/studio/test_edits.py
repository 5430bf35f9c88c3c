"""Edits on the document: each is undoable, and undo all then redo all gives the same spec."""

from __future__ import annotations

import pytest

from graphspec.io import dumps_spec, read_spec
from graphspec.templates import TEMPLATES_DIR
from studio import edits
from studio.document import GraphDocument
from studio.editor import Editor

pytestmark = pytest.mark.gui


@pytest.fixture
def editor(qapp):
    doc = GraphDocument(read_spec(TEMPLATES_DIR / "router.json"))
    return Editor(doc)


def test_every_kind_of_edit_undoes_and_redoes(editor):
    doc = editor.document
    first = dumps_spec(doc.spec)
    agent = editor.add_node("agent", 100, 500)
    assert agent == "agent"
    for name in ("pii", "model_retry", "custom"):
        assert editor.add_middleware(agent, name)
    assert editor.push(edits.ReorderMiddlewareEdit, "agent", [2, 0, 1])
    assert editor.connect("c", agent)
    assert editor.connect("b", agent, join=True)
    assert editor.connect(agent, "__end__")
    assert editor.rename("b", "bee")
    assert editor.move({"bee": (500, 520), "a": (0, 0)})
    assert editor.set_node("a", label="Double it")
    assert editor.push(
        edits.SetStateKeysEdit,
        [*doc.spec.state, doc.spec.state[0].model_copy(update={"name": "extra"})],
    )
    assert editor.add_note(10, 10, "hello")
    assert editor.paste(editor.copy(["bee", "c"]))
    assert editor.delete(["c", "route"])
    editor.auto_layout()
    last = dumps_spec(doc.spec)
    assert last != first
    stack = editor.stack
    while stack.canUndo():
        stack.undo()
    assert dumps_spec(doc.spec) == first
    while stack.canRedo():
        stack.redo()
    assert dumps_spec(doc.spec) == last


def test_rename_follows_every_reference(editor):
    assert editor.rename("b", "bee")
    spec = editor.document.spec
    assert spec.conditional_edges[0].path_map == ["bee", "c"]
    assert "bee" in spec.finish
    assert not editor.rename("c", "a")  # taken
    assert not editor.rename("c", "not valid")


def test_removing_a_node_removes_its_edges(editor):
    assert editor.delete(["a"])
    spec = editor.document.spec
    assert spec.entry == [] and spec.conditional_edges == []
    editor.stack.undo()
    assert editor.document.spec.entry == ["a"]


def test_join_edge_and_bad_connections(editor):
    assert editor.connect("b", "c")
    assert editor.connect("a", "c", join=True)
    edge = next(e for e in editor.document.spec.edges if e.target == "c")
    assert edge.sources == ["b", "a"]
    messages = []
    editor.failed.connect(messages.append)
    assert not editor.connect("b", "c")
    assert not editor.connect("__end__", "a")
    assert len(messages) == 2


def test_typing_in_one_field_merges_into_one_edit(editor):
    for text in ("D", "Do", "Dou"):
        editor.set_node("a", label=text)
    assert editor.stack.count() == 1
    editor.stack.undo()
    assert editor.document.spec.node("a").label == ""
