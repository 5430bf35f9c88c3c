"""Deep agents in the spec (AgentSpec.deep): the template runs offline on the engine and its
exported create_deep_agent code runs on langgraph to the same files and to-dos; the validator's
rules; the folder backend needs trust and stays inside its root; interrupt_on stops a run."""

from __future__ import annotations

import pytest
from langgraph.checkpoint.memory import InMemorySaver as LgSaver

from engine.checkpoint.memory import InMemorySaver
from engine.types import Command
from graphspec.compiler import compile_spec, run_config
from graphspec.errors import UntrustedCodeError
from graphspec.validator import validate
from tests.engine.deepagents_helpers import normalize_deep
from tests.graphspec.helpers import graph, load_exported, template

pytest.importorskip("deepagents")


def _files(app, saver, config) -> dict:
    """The deep agent's files: they live in its own state, under the agent node's namespace."""
    thread = config["configurable"]["thread_id"]
    for t in saver.list({"configurable": {"thread_id": thread}}):
        if t.config["configurable"]["checkpoint_ns"].startswith("writer:"):
            sub = {"configurable": {**t.config["configurable"]}}
            return app.get_state(sub).values.get("files", {})  # the newest first
    return {}


def test_the_template_writes_files_and_todos_as_its_export_on_langgraph(tmp_path):
    spec = template("deep_agent")
    run_input = spec.inputs[0]
    config = run_config(spec, "t")
    ours_saver, theirs_saver = InMemorySaver(), LgSaver()
    ours = compile_spec(spec, trusted=True, checkpointer=ours_saver)
    ours_out = ours.invoke(run_input.value, config)
    theirs = load_exported(spec, tmp_path, "deep_agent").compile_graph(checkpointer=theirs_saver)
    theirs_out = theirs.invoke(run_input.value, config)
    assert normalize_deep(ours_out) == normalize_deep(theirs_out)
    assert [t["status"] for t in ours_out["todos"]] == ["completed", "completed"]
    files = _files(ours, ours_saver, config)
    assert sorted(files) == ["/notes/moon.md", "/report.md"]
    assert normalize_deep(files) == normalize_deep(_files(theirs, theirs_saver, config))


def _deep_spec(deep: dict, **extra) -> object:
    return graph(
        state=[{"name": "messages", "type": "messages", "reducer": "add_messages"}],
        nodes=[{"id": "writer", "kind": "agent", "agent": "a"}],
        entry=["writer"],
        finish=["writer"],
        agents=[{"id": "a", "model": {"responses": extra.pop("responses", [])}, "deep": deep}],
        **extra,
    )


def _codes(spec, base_dir=None) -> set[tuple[str, str]]:
    return {(f.code, f.path) for f in validate(spec, base_dir=base_dir)}


def test_validator_rules(tmp_path):
    assert ("folder-without-root", "$.agents[0].deep.root") in _codes(
        _deep_spec({"backend": "folder"})
    )
    assert ("folder-missing", "$.agents[0].deep.root") in _codes(
        _deep_spec({"backend": "folder", "root": "nowhere"}), base_dir=tmp_path
    )
    assert ("store-backend-without-store", "$.agents[0].deep.backend") in _codes(
        _deep_spec({"backend": "store"})
    )
    assert _codes(_deep_spec({"backend": "store"}, store="memory")) == set()
    twice = {"name": "r", "description": "d"}
    assert ("duplicate-subagent", "$.agents[0].deep.subagents[1].name") in _codes(
        _deep_spec({"subagents": [twice, twice]})
    )
    assert ("unknown-tool", "$.agents[0].deep.interrupt_on.send_mail") in _codes(
        _deep_spec({"interrupt_on": {"send_mail": True, "write_file": True}})
    )
    assert ("root-unused", "$.agents[0].deep.root") in _codes(_deep_spec({"root": "x"}))


def _writes(*paths: str) -> list[dict]:
    calls = [
        {"name": "write_file", "args": {"file_path": p, "content": "hi"}, "id": f"w{i}"}
        for i, p in enumerate(paths)
    ]
    return [{"tool_calls": calls}, {"content": "written"}]


def test_the_folder_backend_needs_trust_and_stays_in_its_root(tmp_path):
    root = tmp_path / "workspace"
    root.mkdir()
    spec = _deep_spec(
        {"backend": "folder", "root": "workspace"},
        responses=_writes("/inside.txt", "/../escape.txt"),
    )
    with pytest.raises(UntrustedCodeError, match="folder workspace"):
        compile_spec(spec, base_dir=tmp_path)
    app = compile_spec(spec, trusted=True, base_dir=tmp_path)
    out = app.invoke({"messages": [("user", "write")]})
    assert (root / "inside.txt").read_text() == "hi"
    assert not (tmp_path / "escape.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["workspace"]
    refused = [m.content for m in out["messages"] if m.type == "tool"][1]
    assert "escape.txt" in refused


def test_interrupt_on_stops_before_the_tool_and_resumes():
    spec = _deep_spec(
        {"interrupt_on": {"write_file": True}}, responses=_writes("/draft.md"), checkpointer=None
    )
    app = compile_spec(spec, trusted=True, checkpointer=InMemorySaver())
    config = run_config(spec, "t")
    first = app.invoke({"messages": [("user", "write")]}, config)
    (pending,) = first["__interrupt__"]
    assert pending.value["action_requests"][0]["name"] == "write_file"
    done = app.invoke(Command(resume={"decisions": [{"type": "approve"}]}), config)
    assert done["messages"][-1].content == "written"


def test_exported_deep_agent_code_imports_back_to_the_same_settings(tmp_path):
    from graphspec.export import to_langgraph
    from graphspec.importer import import_module_graph

    shout = {
        "name": "shout",
        "description": "Upper-case the text.",
        "code": "def shout(text: str) -> str:\n    return text.upper()\n",
        "function": "shout",
    }
    deep = {
        "backend": "folder",
        "root": "workspace",
        "interrupt_on": {"write_file": True},
        "subagents": [
            {"name": "loud", "description": "Shouts.", "system_prompt": "Shout.",
             "tools": [shout], "model": {"responses": [{"content": "HI"}]}},
            {"name": "quiet", "description": "Whispers."},
        ],
    }  # fmt: skip
    spec = _deep_spec(deep, responses=[{"content": "done"}])
    path = tmp_path / "deep_roundtrip.py"
    path.write_text(to_langgraph(spec), encoding="utf-8")
    back = import_module_graph(str(path)).agents[0].deep
    original = spec.agents[0].deep
    assert back.model_dump(exclude={"subagents"}) == original.model_dump(exclude={"subagents"})
    assert [(s.name, s.description, s.system_prompt) for s in back.subagents] == [
        (s.name, s.description, s.system_prompt) for s in original.subagents
    ]
    loud = back.subagents[0]
    assert [t.name for t in loud.tools] == ["shout"] and loud.tools[0].import_path.endswith(
        ":shout"
    )
    assert loud.model == original.subagents[0].model and back.subagents[1].model is None
