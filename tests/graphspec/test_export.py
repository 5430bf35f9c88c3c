"""Exports: the langgraph module's shape and names, Mermaid, the state's JSON Schema."""

from __future__ import annotations

import json

from langgraph.checkpoint.memory import InMemorySaver as LgSaver

from graphspec.compiler import compile_spec
from graphspec.export import state_json_schema, to_langgraph, to_mermaid
from studio.cli import main
from tests.graphspec.helpers import graph, setter, template
from tests.graphspec.test_templates import load_exported


def test_langgraph_module_keeps_the_names():
    code = to_langgraph(template("router"))
    assert "class State(TypedDict):" in code
    assert "    visited: Annotated[list, operator.add]" in code
    assert "def a(state: dict) -> Any:\n    return {'total': state.get('total') * 2" in code
    assert (
        "def route(state: dict) -> Any:\n    return 'b' if state.get('total') > 5 else 'c'" in code
    )
    assert "builder.add_conditional_edges('a', route, ['b', 'c'])" in code
    assert "from langgraph.types import" not in code  # unused imports are left out
    assert "engine" not in code


def test_untrusted_code_exports_without_running(tmp_path):
    code = to_langgraph(template("flaky_retry"))
    assert "raise ConnectionError" in code
    assert "retry_policy=RetryPolicy(initial_interval=0.01, jitter=False)" in code


def test_names_that_clash_with_imports_are_renamed(tmp_path):
    spec = graph(
        state=[{"name": "x", "type": "int"}],
        nodes=[setter("interrupt", x="x + 1"), setter("graph", x="x * 3")],
        edges=[{"id": "e", "sources": ["interrupt"], "target": "graph"}],
        entry=["interrupt"],
        finish=["graph"],
    )
    module = load_exported(spec, tmp_path, "clash")
    assert module.compile_graph().invoke({"x": 1}) == {"x": 6}
    assert compile_spec(spec).invoke({"x": 1}) == {"x": 6}


def test_model_node_with_a_scripted_model_runs_the_same_on_both(tmp_path):
    spec = graph(
        name="chat",
        state=[{"name": "messages", "type": "messages", "reducer": "add_messages"}],
        nodes=[
            {
                "id": "chat",
                "kind": "model",
                "system_prompt": "Be brief.",
                "model": {"responses": [{"content": "Hi there"}]},
            }
        ],
        entry=["chat"],
        finish=["chat"],
    )
    ours = compile_spec(spec).invoke({"messages": [("user", "hello")]})
    module = load_exported(spec, tmp_path, "chat")
    theirs = module.compile_graph(checkpointer=LgSaver()).invoke(
        {"messages": [("user", "hello")]}, {"configurable": {"thread_id": "t"}}
    )
    assert [(m.type, m.content) for m in ours["messages"]] == [
        ("human", "hello"),
        ("ai", "Hi there"),
    ]
    assert [(m.type, m.content) for m in theirs["messages"]] == [
        (m.type, m.content) for m in ours["messages"]
    ]


def test_mermaid():
    text = to_mermaid(template("router"))
    assert text.startswith('---\ntitle: "Router"\n---\nflowchart TD\n')
    for line in ("__start__ --> a", 'a -.->|"b"| b', 'a -.->|"c"| c', "b --> __end__"):
        assert f"    {line}\n" in text
    approval = to_mermaid(template("approval"))
    assert '    ask{{"ask"}}' in approval
    handoff = to_mermaid(template("command_handoff"))
    assert "    triage -.->|goto| billing\n" in handoff
    assert '    __start__ -.->|"Send"| write_joke' in to_mermaid(template("map_reduce"))


def test_state_json_schema():
    schema = state_json_schema(template("map_reduce"))
    assert schema["properties"] == {
        "subjects": {"type": "array"},
        "jokes": {"type": "array", "x-reducer": "add"},
        "best": {"type": "string"},
    }
    assert "subject" not in schema["x-output-properties"]


def test_cli_export(capsys, tmp_path):
    assert main(["export", "hello_world", "--to", "mermaid"]) == 0
    assert capsys.readouterr().out == to_mermaid(template("hello_world"))
    out = tmp_path / "hello.py"
    assert main(["export", "hello_world", "--to", "langgraph", "-o", str(out)]) == 0
    assert out.read_text() == to_langgraph(template("hello_world"))
    assert main(["export", "hello_world", "--to", "json-schema"]) == 0
    assert json.loads(capsys.readouterr().out)["title"] == "Hello world input"
    assert main(["export", "hello_world", "--to", "yaml"]) == 2


def test_model_and_tools_nodes_loop_like_langgraph(tmp_path):
    """A hand-drawn ReAct loop: model -> (tool calls?) -> tools -> model."""
    import pytest

    pytest.importorskip("engine.prebuilt.tool_node")
    spec = graph(
        state=[{"name": "messages", "type": "messages", "reducer": "add_messages"}],
        nodes=[
            {
                "id": "model",
                "kind": "model",
                "model": {
                    "responses": [
                        {"tool_calls": [{"name": "shout", "args": {"text": "hi"}, "id": "c1"}]},
                        {"content": "done"},
                    ]
                },
            },
            {
                "id": "tools",
                "kind": "tools",
                "tools": [
                    {
                        "name": "shout",
                        "code": "def shout(text: str) -> str:\n    return text.upper()\n",
                        "function": "shout",
                    }
                ],
            },
        ],
        edges=[{"id": "back", "sources": ["tools"], "target": "model"}],
        conditional_edges=[
            {
                "id": "should_continue",
                "source": "model",
                "router": {
                    "kind": "expression",
                    "expression": "'tools' if messages[-1].tool_calls else END",
                },
            }
        ],
        entry=["model"],
    )
    ours = compile_spec(spec, trusted=True).invoke({"messages": [("user", "go")]})
    module = load_exported(spec, tmp_path, "react")
    theirs = module.compile_graph().invoke({"messages": [("user", "go")]})
    transcript = [(m.type, m.content) for m in ours["messages"]]
    assert transcript == [("human", "go"), ("ai", ""), ("tool", "HI"), ("ai", "done")]
    assert [(m.type, m.content) for m in theirs["messages"]] == transcript
