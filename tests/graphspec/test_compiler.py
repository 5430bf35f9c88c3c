"""Spec -> engine StateGraph: node kinds, routers, reducers, trust, errors naming the element."""

from __future__ import annotations

import json

import pytest

from engine.checkpoint.memory import InMemorySaver
from graphspec.compiler import compile_spec
from graphspec.errors import ExpressionError, SpecCompileError, UntrustedCodeError
from graphspec.trust import code_sites
from tests.graphspec.helpers import graph, setter, template

CODE = "def bump(state):\n    return {'n': state['n'] + 1}\n"


def test_untrusted_code_is_refused_naming_the_nodes():
    spec = template("flaky_retry")
    with pytest.raises(UntrustedCodeError) as info:
        compile_spec(spec)
    assert info.value.element_id == "call_service"
    assert "call_service" in str(info.value) and "--trust" in str(info.value)
    assert [s.path for s in code_sites(spec)] == ["$.nodes[0]"]
    result = compile_spec(spec, trusted=True).invoke({"request": "ping"})
    assert result == {"request": "ping", "attempts": 3, "reply": "pong to ping"}


def test_specs_without_code_need_no_trust():
    assert compile_spec(template("router")).invoke({"total": 10, "visited": []}) == {
        "total": 21,
        "visited": ["a", "b"],
    }


def test_function_nodes_inline_and_by_import_path():
    spec = graph(
        state=[{"name": "n", "type": "int"}, {"name": "topic"}, {"name": "content"}],
        nodes=[
            {"id": "bump", "kind": "function", "code": CODE, "function": "bump"},
            {
                "id": "write",
                "kind": "function",
                "import_path": "tests.graphspec.example_graphs:write_essay",
            },
        ],
        edges=[{"id": "e", "sources": ["bump"], "target": "write"}],
        entry=["bump"],
        finish=["write"],
    )
    out = compile_spec(spec, trusted=True).invoke({"n": 1, "topic": "tea"})
    assert out == {"n": 2, "topic": "tea", "content": "Essay about tea"}


def test_custom_and_merge_reducers_and_private_keys():
    spec = graph(
        state=[
            {"name": "tags", "type": "dict", "reducer": "merge"},
            {
                "name": "longest",
                "type": "str",
                "reducer": "custom",
                "custom_reducer": {
                    "code": "def longer(a, b):\n    return b if len(b or '') > len(a or '') else a\n",
                    "function": "longer",
                },
            },
            {"name": "scratch", "input": False, "output": False},
        ],
        nodes=[
            setter("x", tags="{'a': 1}", longest="'xyz'", scratch="1"),
            setter("y", tags="{'b': 2}", longest="'pq'"),
        ],
        entry=["x", "y"],
        finish=["x", "y"],
    )
    out = compile_spec(spec, trusted=True).invoke({"tags": {"z": 0}, "longest": "a"})
    assert out == {"tags": {"z": 0, "a": 1, "b": 2}, "longest": "xyz"}


def test_validation_errors_block_compilation_with_element_ids():
    spec = graph(
        state=[{"name": "n"}],
        nodes=[setter("a", n="1"), setter("b", n="n +")],
        edges=[{"id": "a_to_c", "sources": ["a"], "target": "c"}],
        entry=["a"],
    )
    with pytest.raises(SpecCompileError) as info:
        compile_spec(spec)
    found = {(f.element_id, f.path) for f in info.value.findings}
    assert ("a_to_c", "$.edges[0].target") in found
    assert ("b", "$.nodes[1].values.n") in found
    assert info.value.element_id in {"a_to_c", "b"}


def test_expression_failures_at_run_time_name_the_node():
    spec = graph(state=[{"name": "n"}], nodes=[setter("divide", n="n / 0")], entry=["divide"])
    with pytest.raises(ExpressionError) as info:
        compile_spec(spec).invoke({"n": 1})
    assert info.value.element_id == "divide"
    assert info.value.path == "$.nodes[0].values.n"
    assert "ZeroDivisionError" in str(info.value)


def test_breakpoints_and_interrupt_resume():
    from engine.types import Command

    doc = template("approval").model_dump(mode="json", exclude_defaults=True)
    spec = graph(**{**doc, "breakpoints": {"before": ["publish"]}})
    app = compile_spec(spec, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    first = app.invoke({"topic": "owls"}, config)
    assert first["__interrupt__"][0].value == {
        "prompt": "Publish this draft?",
        "payload": "A post about owls",
    }
    app.invoke(Command(resume=True), config)
    assert app.get_state(config).next == ("publish",)
    assert app.invoke(None, config)["status"] == "published"


AGENT_DOC = {
    "state": [{"name": "messages", "type": "messages", "reducer": "add_messages"}],
    "agents": [
        {
            "id": "calculator",
            "system_prompt": "Use the add tool.",
            "model": {
                "responses": [
                    {"tool_calls": [{"name": "add", "args": {"a": 2, "b": 3}, "id": "c1"}]},
                    {"content": "2 + 3 = 5"},
                ]
            },
            "tools": [
                {
                    "name": "add",
                    "description": "Add two integers.",
                    "code": "def add(a: int, b: int) -> int:\n    return a + b\n",
                    "function": "add",
                }
            ],
            "middleware": [
                {"kind": "prebuilt", "name": "model_call_limit", "settings": {"run_limit": 5}}
            ],
        }
    ],
    "nodes": [{"id": "assistant", "kind": "agent", "agent": "calculator"}],
    "entry": ["assistant"],
    "finish": ["assistant"],
}


def _transcript(messages):
    return [
        (m.type, m.content, [c["name"] for c in getattr(m, "tool_calls", [])]) for m in messages
    ]


def test_agent_nodes_compile_to_create_agent(tmp_path):
    pytest.importorskip("engine.agents")
    from langgraph.checkpoint.memory import InMemorySaver as LgSaver

    from tests.graphspec.test_templates import load_exported

    spec = graph(**AGENT_DOC)
    with pytest.raises(UntrustedCodeError, match="assistant"):
        compile_spec(spec)
    ours = compile_spec(spec, trusted=True).invoke({"messages": [("user", "2 + 3?")]})
    assert _transcript(ours["messages"]) == [
        ("human", "2 + 3?", []),
        ("ai", "", ["add"]),
        ("tool", "5", []),
        ("ai", "2 + 3 = 5", []),
    ]
    module = load_exported(spec, tmp_path, "agent")
    theirs = module.compile_graph(checkpointer=LgSaver()).invoke(
        {"messages": [("user", "2 + 3?")]}, {"configurable": {"thread_id": "t"}}
    )
    assert _transcript(theirs["messages"]) == _transcript(ours["messages"])


def test_unknown_agent_is_a_validation_error():
    spec = graph(
        state=[{"name": "messages", "type": "messages", "reducer": "add_messages"}],
        nodes=[{"id": "assistant", "kind": "agent", "agent": "nobody"}],
        entry=["assistant"],
    )
    with pytest.raises(SpecCompileError) as info:
        compile_spec(spec)
    assert info.value.path == "$.nodes[0].agent"


def test_subgraph_by_file_reference(tmp_path, capsys):
    from studio.cli import main
    from tests.graphspec.helpers import write_spec

    (tmp_path / "parts").mkdir()
    write_spec(
        tmp_path / "parts",
        "shout.json",
        state=[{"name": "text"}],
        nodes=[setter("upper", text="text.upper()")],
        entry=["upper"],
    )
    path = write_spec(
        tmp_path,
        state=[{"name": "text"}],
        nodes=[{"id": "shout", "kind": "subgraph", "subgraph": "shouter"}],
        subgraphs=[{"id": "shouter", "file": "parts/shout.json"}],
        entry=["shout"],
    )
    assert main(["run", str(path), "--input", '{"text": "hey"}']) == 0
    assert capsys.readouterr().out == '{"text": "HEY"}\n'
    with pytest.raises(SpecCompileError, match="needs the spec's folder"):
        compile_spec(graph(**json.loads(path.read_text())))
