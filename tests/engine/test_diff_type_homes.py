"""The names issue 32.2 moved down to engine.types keep langgraph's paths and behaviour: the
executable task is defined there, `Checkpointer` is the union with the savers' base class,
`interrupt()` finds its task through the config, and a Command's state-object update is read
without the graph builder."""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import TypedDict

import pytest

from tests.engine.graphs import _one_node
from tests.oracle import run_both

pytestmark = pytest.mark.differential


def test_the_executable_task_is_defined_in_types(backend):
    task = backend.types.PregelExecutableTask
    assert task.__module__ == f"{backend.prefix}.types"
    if backend.prefix == "engine":  # the superstep maths makes them under its old name too
        assert backend.mod("pregel.algo").PregelExecutableTask is task


def test_checkpointer_is_the_union_with_the_savers_base(backend):
    saver = backend.mod("checkpoint.base").BaseCheckpointSaver
    assert set(typing.get_args(backend.types.Checkpointer)) == {type(None), bool, saver}
    assert backend.types.ensure_valid_checkpointer(True) is True
    with pytest.raises(TypeError, match="Invalid checkpointer provided"):
        backend.types.ensure_valid_checkpointer(object())


def test_interrupt_outside_a_graph_is_a_runtime_error(backend):
    with pytest.raises(RuntimeError):
        backend.types.interrupt("question")


def test_interrupt_inside_a_node_pauses_and_resumes(backend):
    class S(TypedDict):
        answer: str

    def ask(state: S) -> dict:
        return {"answer": backend.types.interrupt("name?")}

    app = _one_node(backend, S, ask, checkpointer=backend.mod("checkpoint.memory").InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    paused = app.invoke({"answer": ""}, config)
    assert [i.value for i in paused["__interrupt__"]] == ["name?"]
    assert app.invoke(backend.types.Command(resume="Ada"), config) == {"answer": "Ada"}


def _command_from_dataclass(backend):
    @dataclass
    class S:
        x: int = 0
        note: str | None = None
        tag: str = "t"

    def node(state: S):
        return backend.types.Command(update=S(x=state.x + 1, tag="u"), goto=backend.graph.END)

    return _one_node(backend, S, node).invoke(S(x=1, note="kept"))


def test_a_command_updates_from_a_dataclass():
    theirs, ours = run_both(_command_from_dataclass)
    assert ours == theirs
    assert ours["x"] == 2 and ours["tag"] == "u"
