"""A program whose graph keeps thread-scoped state its callers never see (an agent's private
call counter, an entrypoint's `previous`) imports as a spec that IS its one node's graph
(`graph_is_node`), not a graph calling it as a node: a graph around it would drop that state
after each run, so the second run on a thread would go another way (issue 33). Before, such
programs were refused ("has no place in the spec") or opened only as drawings from code.

Each program is imported with the CLI and run on one thread twice, three ways (the original on
langgraph, the spec compiled on the engine, its langgraph export on langgraph).
"""

from __future__ import annotations

from typing import Any

from graphspec.compiler import compile_spec
from graphspec.export import to_langgraph
from graphspec.importer import load_module
from graphspec.model import AgentNode, GraphSpec
from graphspec.validator import validate
from tests.graphspec.test_import_reach import imported, program

LIMITED_AGENT = """
from langchain.agents import create_agent
from langchain.agents.middleware import ModelCallLimitMiddleware
from langgraph.checkpoint.memory import InMemorySaver
from langchain_core.messages import AIMessage
from _scripted import ScriptedModel

agent = create_agent(
    ScriptedModel(responses=[AIMessage(content=t) for t in ("one", "two", "three")]),
    tools=[],
    middleware=[ModelCallLimitMiddleware(thread_limit=2, exit_behavior="end")],
    checkpointer=InMemorySaver(),
)
"""

KEEPING_ENTRYPOINT = """
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.func import entrypoint

@entrypoint(checkpointer=InMemorySaver())
def running_total(number: int, *, previous: int | None = None) -> int:
    return (previous or 0) + number
"""


def _twice(graph: Any, inputs: list[Any]) -> list[Any]:
    config = {"configurable": {"thread_id": "t"}}
    outs = [graph.invoke(value, config) for value in inputs]
    return [[m.content for m in out["messages"]] if isinstance(out, dict) else out for out in outs]


def _three_ways(tmp_path, name: str, source: str, attr: str, inputs: list[Any]) -> GraphSpec:
    from langgraph.checkpoint.memory import InMemorySaver

    path = program(tmp_path, name, source)
    spec = imported(f"{path}:{attr}", tmp_path)
    expected = _twice(getattr(load_module(str(path)), attr), inputs)
    ours = _twice(compile_spec(spec, trusted=True, base_dir=tmp_path,
                               checkpointer=_engine_saver()), inputs)  # fmt: skip
    load_module(str(path))  # the export imports the program's objects from langgraph's run
    exported = tmp_path / f"exported_{name}.py"
    exported.write_text(to_langgraph(spec), encoding="utf-8")
    theirs = _twice(load_module(str(exported)).compile_graph(InMemorySaver()), inputs)
    assert ours == expected and theirs == expected, (expected, ours, theirs)
    return spec


def _engine_saver() -> Any:
    from engine.checkpoint.memory import InMemorySaver

    return InMemorySaver()


def test_an_agent_keeps_its_private_call_count_across_runs_of_a_thread(tmp_path):
    inputs = [{"messages": [{"role": "user", "content": f"hi {i}"}]} for i in range(3)]
    spec = _three_ways(tmp_path, "limited", LIMITED_AGENT, "agent", inputs)
    assert spec.graph_is_node and isinstance(spec.nodes[0], AgentNode)
    # the third run hits the thread limit the first two counted: no third reply
    assert _twice(compile_spec(spec, trusted=True, base_dir=tmp_path,
                               checkpointer=_engine_saver()), inputs)[-1][-1] != "three"  # fmt: skip


def test_an_entrypoint_keeps_its_previous_value_across_runs(tmp_path):
    spec = _three_ways(tmp_path, "totals", KEEPING_ENTRYPOINT, "running_total", [3, 4, 5])
    assert spec.graph_is_node
    graph = compile_spec(spec, trusted=True, base_dir=tmp_path, checkpointer=_engine_saver())
    assert _twice(graph, [3, 4, 5]) == [3, 7, 12]


def test_an_agent_without_private_state_stays_a_node_of_a_graph(tmp_path):
    path = program(tmp_path, "plain", """
from langchain.agents import create_agent
from langchain_core.messages import AIMessage
from _scripted import ScriptedModel

agent = create_agent(ScriptedModel(responses=[AIMessage(content="hello")]), tools=[])
""")  # fmt: skip
    assert not imported(f"{path}:agent", tmp_path).graph_is_node


def _findings(doc: dict) -> list[tuple[str, str, str]]:
    spec = GraphSpec.model_validate({"version": 2, **doc})
    return [(f.severity, f.code, f.path) for f in validate(spec) if f.code == "graph-is-node"]


AGENT = {"id": "a", "model": {"provider": "scripted"}}
ONE_AGENT = {
    "graph_is_node": True,
    "state": [{"name": "messages", "type": "messages", "reducer": "add_messages"}],
    "agents": [AGENT],
    "nodes": [{"id": "agent", "kind": "agent", "agent": "a"}],
    "entry": ["agent"],
    "finish": ["agent"],
}


def test_the_validator_names_what_a_graph_that_is_its_node_cannot_have():
    assert _findings(ONE_AGENT) == []
    two = {**ONE_AGENT, "nodes": [*ONE_AGENT["nodes"], {"id": "b", "kind": "function",
                                                        "code": "def b(s):\n    return {}\n",
                                                        "function": "b"}]}  # fmt: skip
    assert _findings(two) == [("error", "graph-is-node", "$.graph_is_node")]
    edged = {**ONE_AGENT, "entry": [], "edges": [{"id": "e", "sources": ["__start__"],
                                                  "target": "agent"}]}  # fmt: skip
    assert _findings(edged) == [("error", "graph-is-node", "$.graph_is_node")]
    paused = {**ONE_AGENT, "breakpoints": {"before": ["agent"]}}
    assert _findings(paused) == [("warning", "graph-is-node", "$.breakpoints.before")]


def test_a_task_of_the_agent_graph_is_drawn_in_its_one_node():
    spec = GraphSpec.model_validate({"version": 2, **ONE_AGENT})
    assert [spec.drawn_node(n) for n in ("model", "tools", "agent", "__start__")] == [
        "agent", "agent", "agent", None,
    ]  # fmt: skip
    plain = spec.model_copy(update={"graph_is_node": False})
    assert plain.drawn_node("model") is None
