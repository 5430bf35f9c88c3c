"""Every program of the corpus (tests/programs, real programs by other people) opened in the
studio as a developer opens their own (issue 33): File → Open on the file or its langgraph.json,
the canvas shows every node and edge of the compiled graph, Step walks it superstep by superstep
(answering its interrupts on the way) to the same final state as the program on real langgraph,
and a replay of its last superstep works."""

from __future__ import annotations

import json
from typing import Any

import pytest

from graphspec.graph_drawing import subagents
from tests.programs.test_programs import ENTRIES, HERE, comparable, forget_local_modules, home
from tests.programs.test_programs import run as run_program
from tests.studio.code_programs import open_program

pytestmark = pytest.mark.gui

OPENED = {n: e for n, e in ENTRIES.items() if "engine_diverges" not in e}
"""The programs the engine runs as langgraph does (the others are engine bugs, listed there)."""
UNSAVABLE = {
    "lg_task_add_one_async": (
        "its result is an asyncio future (the docstring's `return asyncio.gather(...)` is not "
        "awaited): no checkpointer that writes to disk can save it, langgraph's SqliteSaver included"
    ),
}
"""Programs whose state no checkpointer that writes to disk can hold (a strict xfail each)."""


def case(name: str) -> Any:
    reason = UNSAVABLE.get(name)
    return pytest.param(
        name, marks=[pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    )


def where(entry: dict) -> tuple[Any, str | None]:
    """What File → Open is given: the program's file and attribute, or its langgraph.json and
    graph id."""
    path = HERE / entry["file"]
    return path, entry.get("graph") if path.name == "langgraph.json" else entry["attr"]


def drive(qtbot, window, entry: dict, error: str | None, kept: bool) -> None:
    """The manifest's inputs then resumes, one Step at a time: on one new thread when the
    program keeps its threads (`kept`), else each input on a thread of its own, as each call of
    a graph without a checkpointer starts afresh; `error` is the exception the program raises
    on langgraph, which the run must fail with too."""
    runner = window.runner
    runner.new_thread()
    if "context" in entry:
        runner.input_panel.context_editor.setText(json.dumps(entry["context"]))
    resumes = list(entry.get("resume", []))
    for index, value in enumerate(entry["inputs"]):
        if index and not kept:
            runner.new_thread()
        runner.input_panel.editor.setPlainText(json.dumps(value))
        for _ in range(300):
            runner.step()
            assert runner.session.busy, runner.status.text()  # it started a superstep
            qtbot.waitUntil(lambda: not runner.session.busy, timeout=30000)
            failure = runner.last_failure
            if runner.state == "failed" and error and error in failure.message:
                return
            assert runner.state != "failed", failure and failure.traceback
            if runner.state == "interrupted" and resumes:
                runner.answer(None, resumes.pop(0))
                qtbot.waitUntil(lambda: not runner.session.busy, timeout=30000)
            if runner.state in ("finished", "interrupted") and not runner.paused:
                break


@pytest.mark.parametrize("name", [case(n) for n in sorted(OPENED)])
def test_a_program_opens_steps_and_replays_in_the_studio(qtbot, window, monkeypatch, name):
    entry = OPENED[name]
    monkeypatch.syspath_prepend(str(HERE))  # the programs' shared offline model
    monkeypatch.syspath_prepend(str(home(entry)))
    invoked = {k: v for k, v in entry.items() if k != "stream_mode"}  # the studio shows state
    outs = run_program(invoked, on_engine=False)
    error = next((o[0] for o in outs if _is_error(o)), None)
    forget_local_modules(home(entry))  # the program's own modules load again, on the engine
    path, attr = where(entry)
    open_program(qtbot, window, path, attr)

    graph = window.runner.target().compile()
    drawn = graph.get_graph()
    shown = set(window.scene.nodes)
    from_code = window.document.code is not None
    inner = subagents(graph) if from_code else {}
    # a spec that is one agent (graph_is_node) draws the agent's model, tools and hooks in it
    on_canvas = {n: window.document.spec.drawn_node(n) or n for n in drawn.nodes}
    on_canvas.update({"__start__": "__start__", "__end__": "__end__"})
    nodes = {on_canvas[n] for n in drawn.nodes} - {"__start__", "__end__"}
    assert nodes | {f"{n} (subagent)" for n in inner} == shown
    ends = [(look.sources, look.target) for look in (e.look for e in window.scene.edges.values())]
    for edge in drawn.edges:
        source, target = on_canvas[edge.source], on_canvas[edge.target]
        if source == target != edge.source:
            continue  # inside the agent the spec is
        if (
            not from_code
            and target == "__end__"
            and not any(source in sources for sources, _ in ends)
        ):
            continue  # a spec's dead end: the canvas marks it, the run ends there
        assert any(source in sources and target == end for sources, end in ends), (
            f"{edge.source} -> {edge.target} is not drawn"
        )

    expected, whole = final_state(outs)
    drive(qtbot, window, entry, error, kept=whole)
    view = window.runner.view
    if error is None:
        shown = comparable(_normalized(_state(view.values)))
        if not whole and isinstance(expected, dict):  # an output: the state keys it gives
            shown = {k: v for k, v in shown.items() if k in expected}
        if not whole and expected is None:  # a state with no keys outputs None; its thread: {}
            expected = {}
        assert shown == expected

    runner = window.runner
    # replay the last superstep from the checkpoint before it (a scripted model has no replies
    # left for the whole run again; its last one answers the last step's calls)
    before_last = view.history[1] if len(view.history) > 1 else view.history[0]
    runner.replay(before_last)
    qtbot.waitUntil(lambda: not runner.session.busy, timeout=30000)
    if error is None:
        assert runner.state != "failed", runner.last_failure and runner.last_failure.traceback


def _is_error(out: Any) -> bool:
    """An exception as `normalize` leaves it: (class name, message)."""
    return isinstance(out, tuple) and len(out) == 2 and str(out[0]).endswith(("Error", "Exception"))


def final_state(outs: list[Any]) -> tuple[Any, bool]:
    """The program's final state on real langgraph from its outputs (`run_program`), and
    whether it is the whole state: its thread's, or its last output when it keeps no thread."""
    last = outs[-1]
    if isinstance(last, dict) and set(last) == {"values", "next"}:
        return last["values"], True
    return last, False


def _state(values: dict) -> Any:
    return values["__root__"] if set(values) == {"__root__"} else values


def _normalized(value: Any) -> Any:
    from tests.oracle import normalize

    return normalize(value)
