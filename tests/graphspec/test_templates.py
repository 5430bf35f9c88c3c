"""Every template loads, validates clean, runs with `superstep run`, and its exported LangGraph
code runs on real langgraph to the same final state as the engine."""

from __future__ import annotations

import json

import pytest
from langgraph.checkpoint.memory import InMemorySaver as LgSaver
from langgraph.types import Command as LgCommand

from engine.checkpoint.memory import InMemorySaver
from engine.types import Command
from graphspec.compiler import compile_spec, run_config
from graphspec.templates import list_templates
from graphspec.validator import validate
from studio.cli import main
from tests.graphspec.helpers import TEMPLATE_NAMES, load_exported, template

EXPECTED = {
    "hello_world", "essay_writer", "router", "map_reduce", "fanout_join", "counter_loop",
    "approval", "subgraph", "flaky_retry", "time_travel", "command_handoff", "react_agent",
    "agent_hitl", "agent_limits_pii", "agent_handoff", "deep_agent", "ticket_triage",
    *(f"lesson_{n:02d}_{topic}" for n, topic in enumerate((
        "channels", "versions", "why_fired", "branches", "barrier", "reducer", "conflict",
        "send", "command", "interrupt", "checkpoints", "subgraph"), 1)),
}  # fmt: skip
AGENT_TEMPLATES = {"react_agent", "agent_hitl", "agent_limits_pii", "agent_handoff", "deep_agent"}
FAILING = {"lesson_07_conflict"}
"""Lessons whose run fails on purpose (a LastValue conflict): test_the_conflict_lesson_fails_alike."""


def needs_agents(name):
    """Agent templates need the engine's agent layer (engine.agents)."""
    if name in AGENT_TEMPLATES:
        pytest.importorskip("engine.agents")


def normal(values):
    """State values with messages as (type, content, tool calls): message ids are random."""

    def message(m):
        if isinstance(m, dict):
            return (m.get("type"), m.get("content"), [c["name"] for c in m.get("tool_calls", [])])
        return (m.type, m.content, [c["name"] for c in getattr(m, "tool_calls", [])])

    return {k: [message(m) for m in v] if k == "messages" else v for k, v in values.items()}


def run_engine(spec, run_input):
    app = compile_spec(spec, trusted=True, checkpointer=InMemorySaver())
    config = run_config(spec, "t")
    app.invoke(run_input.value, config)
    for answer in run_input.resume:
        app.invoke(Command(resume=answer), config)
    return app.get_state(config)


def run_langgraph(module, spec, run_input):
    app = module.compile_graph(checkpointer=LgSaver())
    config = run_config(spec, "t")
    app.invoke(run_input.value, config)
    for answer in run_input.resume:
        app.invoke(LgCommand(resume=answer), config)
    return app.get_state(config)


def test_the_gallery_is_complete():
    assert set(TEMPLATE_NAMES) == EXPECTED
    assert all(t.description and t.title for t in list_templates())


@pytest.mark.parametrize("name", TEMPLATE_NAMES)
def test_template_loads_and_validates_clean(name):
    spec = template(name)
    assert validate(spec) == []
    assert spec.inputs, "each template has at least one saved input"


@pytest.mark.parametrize("name", TEMPLATE_NAMES)
def test_template_runs_with_superstep_run(name, capsys, tmp_path):
    needs_agents(name)
    if name in FAILING:
        pytest.skip("fails on purpose: test_the_conflict_lesson_fails_alike")
    spec = template(name)
    db = str(tmp_path / "runs.db")
    for i, run_input in enumerate(spec.inputs):
        base = ["run", name, "--trust", "--db", db, "--thread", f"t{i}"]
        assert main([*base, "--input", json.dumps(run_input.value)]) == 0
        for answer in run_input.resume:
            assert "resume with:" in capsys.readouterr().out
            assert main([*base, "--resume", json.dumps(answer)]) == 0
        out = capsys.readouterr().out
        final = json.loads(out.splitlines()[0])
        assert normal(final) == normal(run_engine(spec, run_input).values)
        assert "interrupted" not in out


@pytest.mark.parametrize("name", TEMPLATE_NAMES)
def test_exported_code_matches_the_engine_on_langgraph(name, tmp_path):
    needs_agents(name)
    if name in FAILING:
        pytest.skip("fails on purpose: test_the_conflict_lesson_fails_alike")
    spec = template(name)
    for run_input in spec.inputs:
        module = load_exported(spec, tmp_path, name)  # fresh module state per run
        ours = run_engine(spec, run_input)
        theirs = run_langgraph(module, spec, run_input)
        assert normal(ours.values) == normal(theirs.values), run_input.name
        assert ours.next == theirs.next == ()


def test_the_conflict_lesson_fails_alike(capsys, tmp_path):
    """Two Send tasks write a LastValue key in one step: the CLI, the engine and the exported
    code on langgraph all stop with InvalidUpdateError at that key."""
    from langgraph.errors import InvalidUpdateError as LgInvalidUpdateError

    from engine.errors import InvalidUpdateError

    spec = template("lesson_07_conflict")
    run_input = spec.inputs[0]
    args = ["run", "lesson_07_conflict", "--trust", "--db", str(tmp_path / "runs.db")]
    assert main([*args, "--input", json.dumps(run_input.value)]) != 0
    assert "At key 'winner'" in capsys.readouterr().err
    with pytest.raises(InvalidUpdateError, match="At key 'winner'"):
        run_engine(spec, run_input)
    with pytest.raises(LgInvalidUpdateError, match="At key 'winner'"):
        run_langgraph(load_exported(spec, tmp_path, "lesson_07_conflict"), spec, run_input)


def test_expected_results():
    """A few end states spelled out, so a wrong template cannot pass by agreeing with itself."""
    results = {
        (name, i.name): run_engine(template(name), i).values
        for name in ("router", "counter_loop", "map_reduce", "command_handoff", "approval")
        for i in template(name).inputs
    }
    assert results[("router", "big")] == {"total": 21, "visited": ["a", "b"]}
    assert results[("router", "small")] == {"total": 0, "visited": ["a", "c"]}
    assert results[("counter_loop", "to five")] == {"count": 5, "limit": 5}
    assert results[("counter_loop", "cut short")]["count"] < 10
    assert results[("map_reduce", "animals")]["best"] == "Joke about cats"
    assert results[("command_handoff", "invoice")]["handled_by"] == "billing"
    assert results[("command_handoff", "bug")]["handled_by"] == "support"
    assert results[("approval", "approve")]["status"] == "published"
    assert results[("approval", "reject")]["status"] == "rejected"


def test_agent_handoff_reaches_billing():
    """triage's tool hands over with Command(graph=PARENT): billing answers, and the parent keeps
    the tool call and its ToolMessage (triage's other messages stay in its own graph)."""
    needs_agents("agent_handoff")
    spec = template("agent_handoff")
    final = run_engine(spec, spec.inputs[0]).values
    assert final["active_agent"] == "billing"
    assert [(m.type, m.name) for m in final["messages"]] == [
        ("human", None), ("ai", "triage"), ("tool", "transfer_to_billing"), ("ai", "billing"),
    ]  # fmt: skip


@pytest.mark.parametrize("backend", ["engine", "langgraph"])
def test_time_travel_fork(backend, tmp_path):
    spec = template("time_travel")
    if backend == "engine":
        app = compile_spec(spec, checkpointer=InMemorySaver())
    else:
        app = load_exported(spec, tmp_path, "time_travel").compile_graph(checkpointer=LgSaver())
    config = run_config(spec, "t")
    assert app.invoke({"value": 3, "log": []}, config)["value"] == 256
    history = list(app.get_state_history(config))
    after_double = next(s for s in history if s.next == ("add_ten",))
    assert after_double.values == {"value": 6, "log": ["double -> 6"]}
    # replay from there: the same steps, the same result
    assert app.invoke(None, after_double.config)["value"] == 256
    # fork: edit value at that checkpoint; add_ten and square run again on the new value
    fork = app.update_state(after_double.config, {"value": 1})
    final = app.invoke(None, fork)
    assert final == {"value": 121, "log": ["double -> 6", "add_ten -> 11", "square -> 121"]}
