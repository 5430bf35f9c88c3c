"""Importing graphs from Python modules: exported specs come back with the same structure."""

from __future__ import annotations

import pytest

from graphspec.compiler import compile_spec
from graphspec.errors import SpecError
from graphspec.export import to_langgraph
from graphspec.importer import import_module_graph, load_module, spec_from_graph
from graphspec.io import dumps_spec, load_spec
from tests.graphspec.helpers import TEMPLATE_NAMES, graph, template
from tests.graphspec.test_templates import needs_agents, normal


def structure(spec):
    """What a drawing shows: keys and reducers, node ids, edges, router targets, subgraphs."""

    def targets(edge):
        if isinstance(edge.path_map, dict):
            return frozenset(edge.path_map.items())
        if edge.path_map is not None:
            return frozenset(edge.path_map)
        return frozenset({edge.router.target}) if edge.router.kind == "send" else None

    return {
        "state": [(k.name, k.type, k.reducer, k.input or k.managed, k.output or k.managed)
                  for k in spec.state],
        "nodes": {n.id: (n.kind == "subgraph", n.retry, n.defer) for n in spec.nodes},
        "edges": {(tuple(sorted(s)), t) for _, _, s, t in spec.all_edges()},
        "conditional": {(e.source, targets(e)) for e in spec.conditional_edges},
        "destinations": {n.id: sorted(getattr(n, "destinations", [])) for n in spec.nodes},
        "subgraphs": [structure(s.graph) for s in spec.subgraphs],
        "agents": {n.id: agent(spec.agent(n.agent)) for n in spec.nodes if n.kind == "agent"},
    }  # fmt: skip


def agent(spec):
    """An agent as it runs: model, prompt, tools by name, middleware in order (code by name)."""
    tools = [(t.name, t.description or t.name, t.import_path or t.function) for t in spec.tools]
    tools = [(name, text, ref.rpartition(":")[2]) for name, text, ref in tools]
    middleware = [m.model_dump(exclude={"hooks"}) for m in spec.middleware]
    return spec.model.model_dump(), spec.system_prompt, tools, middleware


@pytest.mark.parametrize("name", TEMPLATE_NAMES)
def test_export_then_import_gives_the_same_structure(name, tmp_path):
    needs_agents(name)
    spec = template(name)
    path = tmp_path / f"roundtrip_{name}.py"
    path.write_text(to_langgraph(spec), encoding="utf-8")
    imported = import_module_graph(str(path))
    assert structure(imported) == structure(spec)
    # the imported spec is a spec like any other: it saves byte-stably and runs
    assert dumps_spec(load_spec(dumps_spec(imported))) == dumps_spec(imported)
    # the exported module's functions (and the handoff tool) return langgraph's own Send/Command,
    # which the engine does not take; graphs without them run the same on the engine after the
    # round trip
    returns_langgraph_types = ("map_reduce", "command_handoff", "agent_handoff", "lesson_07_conflict",
                               "lesson_08_send", "lesson_09_command")  # fmt: skip
    if not spec.inputs[0].resume and name not in returns_langgraph_types:
        ours = compile_spec(spec, trusted=True).invoke(spec.inputs[0].value)
        again = compile_spec(imported, trusted=True).invoke(spec.inputs[0].value)
        assert normal(again) == normal(ours)


def test_import_an_engine_graph_by_module_name():
    from tests.graphspec.example_graphs import build_router

    spec = spec_from_graph(build_router().compile())
    assert [n.import_path for n in spec.nodes] == [
        "tests.graphspec.example_graphs:a",
        "tests.graphspec.example_graphs:b",
        "tests.graphspec.example_graphs:c",
    ]
    assert [(k.name, k.type, k.reducer) for k in spec.state] == [
        ("total", "int", "none"),
        ("visited", "list", "add"),
    ]
    [route] = spec.conditional_edges
    assert (route.id, route.router.import_path, route.path_map) == (
        "route",
        "tests.graphspec.example_graphs:route",
        ["b", "c"],
    )
    assert compile_spec(spec, trusted=True).invoke({"total": 4, "visited": []}) == {
        "total": 50,
        "visited": ["a", "b"],
    }


def test_nested_functions_cannot_be_referenced(tmp_path):
    path = tmp_path / "local_fn.py"
    path.write_text(
        "from typing import TypedDict\n"
        "from langgraph.graph import StateGraph, START\n"
        "class S(TypedDict):\n    x: int\n"
        "def make():\n"
        "    def inner(s):\n        return {}\n"
        "    b = StateGraph(S)\n    b.add_node('inner', inner)\n    b.add_edge(START, 'inner')\n"
        "    return b.compile()\n"
        "graph = make()\n"
    )
    with pytest.raises(SpecError, match="not a module-level function") as info:
        import_module_graph(str(path))
    assert info.value.element_id == "inner"


def test_import_errors_are_spec_errors(tmp_path):
    with pytest.raises(SpecError, match="no such file"):
        import_module_graph(str(tmp_path / "missing.py"))
    with pytest.raises(SpecError, match="cannot import"):
        import_module_graph("no_such_module_anywhere")
    with pytest.raises(SpecError, match="holds no graph"):
        import_module_graph("json")


def test_a_langgraph_module_the_engine_lacks_is_named_as_the_program_wrote_it(tmp_path):
    # the file runs with its imports pointed at the engine: the failure says which of the
    # program's own imports has no engine counterpart, not only the engine's module name
    program = tmp_path / "uses_missing.py"
    program.write_text("from langgraph.no_such_part import Thing\n", encoding="utf-8")
    with pytest.raises(SpecError) as raised:
        import_module_graph(str(program), on_engine=True)
    assert str(raised.value) == (
        "cannot import " + str(program) + ": ModuleNotFoundError: No module named "
        "'engine.no_such_part' (the program imports langgraph.no_such_part, which the engine "
        "does not provide)"
    )
    agents = tmp_path / "uses_missing_agents.py"
    agents.write_text("import langchain.agents.no_such_part\n", encoding="utf-8")
    with pytest.raises(SpecError, match=r"imports langchain\.agents\.no_such_part, which"):
        import_module_graph(str(agents), on_engine=True)


def test_agent_middleware_comes_back_in_order_with_hooks_by_import_path(tmp_path):
    pytest.importorskip("langchain.agents")
    hook = "def guard(state, runtime):\n    return None\n"
    spec = graph(
        version=2,
        state=[{"name": "messages", "type": "messages", "reducer": "add_messages"}],
        nodes=[{"id": "bot", "kind": "agent", "agent": "helper"}],
        entry=["bot"],
        finish=["bot"],
        agents=[
            {
                "id": "helper",
                "model": {"responses": [{"content": "hi"}]},
                "system_prompt": "Be brief.",
                "middleware": [
                    {"kind": "prebuilt", "name": "model_retry", "settings": {"max_retries": 1}},
                    {
                        "kind": "custom",
                        "name": "guard",
                        "hooks": {"before_model": {"code": hook, "function": "guard"}},
                        "can_jump_to": ["end"],
                    },
                    {"kind": "prebuilt", "name": "model_call_limit", "settings": {"run_limit": 2}},
                ],
            }
        ],
    )
    path = tmp_path / "agent_mw.py"
    path.write_text(to_langgraph(spec), encoding="utf-8")
    imported = import_module_graph(str(path))
    assert structure(imported) == structure(spec)
    [helper] = imported.agents
    [retry, guard, limit] = helper.middleware
    assert (retry.name, retry.settings, limit.name, limit.settings) == (
        "model_retry",
        {"max_retries": 1},
        "model_call_limit",
        {"run_limit": 2},
    )
    assert (guard.name, guard.can_jump_to) == ("guard", ["end"])
    assert guard.hooks["before_model"].import_path == "agent_mw:guard"


def test_an_engine_agent_graph_imports_without_its_source():
    needs_agents("agent_limits_pii")
    spec = template("agent_limits_pii")
    # inline tool code has no import path to come back as: give the tool a module-level one
    [tool] = spec.agents[0].tools
    module_tool = tool.model_copy(
        update={"code": None, "function": None, "import_path": "tests.graphspec.example_graphs:add"}
    )
    agents = [spec.agents[0].model_copy(update={"tools": [module_tool]})]
    imported = spec_from_graph(compile_spec(spec.model_copy(update={"agents": agents}),
                                            trusted=True))  # fmt: skip
    [node] = imported.nodes
    assert node.kind == "agent"
    [agent] = imported.agents
    assert [t.name for t in agent.tools] == ["add"]
    assert [(m.name, m.settings) for m in agent.middleware] == [
        ("model_call_limit", {"run_limit": 3}),
        ("pii", {"pii_type": "email"}),
    ]


def test_a_program_using_langgraphs_sqlite_store_loads_on_the_engine(tmp_path):
    # `from langgraph.store.sqlite import SqliteStore` is pointed at engine.store.sqlite, and
    # the graph it compiles with the store runs on the engine
    program = tmp_path / "with_sqlite_store.py"
    program.write_text(
        "from typing import TypedDict\n"
        "from langgraph.config import get_store\n"
        "from langgraph.graph import START, StateGraph\n"
        "from langgraph.store.sqlite import SqliteStore\n"
        "from langgraph.store.sqlite.aio import AsyncSqliteStore\n\n"
        "class State(TypedDict):\n    text: str\n    count: int\n\n"
        "def remember(state: State):\n"
        "    store = get_store()\n"
        "    store.put(('notes',), state['text'], {'text': state['text']})\n"
        "    return {'count': len(store.search(('notes',)))}\n\n"
        "builder = StateGraph(State)\n"
        "builder.add_node('remember', remember)\n"
        "builder.add_edge(START, 'remember')\n",
        encoding="utf-8",
    )
    module = load_module(str(program), on_engine=True)
    assert module.SqliteStore.__module__ == "engine.store.sqlite.base"
    assert module.AsyncSqliteStore.__module__ == "engine.store.sqlite.aio"
    with module.SqliteStore.from_conn_string(str(tmp_path / "notes.sqlite")) as store:
        graph = module.builder.compile(store=store)
        assert graph.invoke({"text": "a", "count": 0}) == {"text": "a", "count": 1}
        assert graph.invoke({"text": "b", "count": 0}) == {"text": "b", "count": 2}
    assert import_module_graph(str(program), on_engine=True) is not None
