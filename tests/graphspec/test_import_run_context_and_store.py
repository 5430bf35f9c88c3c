"""A StateGraph's run context (`StateGraph(State, context_schema=Context)`) and a store the
program fills at module level (`store = InMemoryStore(); store.put(...)`) become spec fields
(`context_schema`, `store_path`, by import path), so the spec shows its callers the same run
context and store data as the program (`program_graphs.unlike`) and runs the same (issue 33).
Before, the context was dropped and the store's data lost (an empty in-memory store).

Each program is imported with the CLI and run three ways with the same result (the original on
langgraph, the spec compiled on the engine, its langgraph export on langgraph).
"""

from __future__ import annotations

from graphspec.compiler import compile_spec
from graphspec.importer import import_module_graph, load_module, spec_of
from graphspec.program_graphs import unlike
from graphspec.trust import code_sites
from tests.graphspec.test_import_reach import STATE_HEAD, program, three_ways

CONTEXT = """
from dataclasses import dataclass

from langgraph.runtime import Runtime


@dataclass
class Context:
    user: str


def greet(state, runtime: Runtime[Context]):
    return {"log": [f"hello {runtime.context.user}"]}


builder = StateGraph(S, context_schema=Context)
builder.add_node("greet", greet)
builder.add_edge(START, "greet")
graph = builder.compile()
"""


def test_a_graphs_run_context_is_kept(tmp_path):
    path = program(tmp_path, "with_context", CONTEXT, STATE_HEAD)
    module = load_module(str(path))
    spec = three_ways(path, lambda m: m.graph, {"log": []}, tmp_path, context=module.Context("ada"))
    assert spec.context_schema == "with_context:Context"
    assert any(site.path == "$.context_schema" for site in code_sites(spec))


STORE = """
from langgraph.config import get_store
from langgraph.store.memory import InMemoryStore

store = InMemoryStore()
store.put(("users",), "ada", {"name": "Ada"})


def greet(state):
    return {"log": [get_store().get(("users",), "ada").value["name"]]}


builder = StateGraph(S)
builder.add_node("greet", greet)
builder.add_edge(START, "greet")
graph = builder.compile(store=store)
"""


def test_a_store_holding_the_programs_data_is_the_programs_own(tmp_path):
    path = program(tmp_path, "with_store", STORE, STATE_HEAD)
    spec = three_ways(path, lambda m: m.graph, {"log": []}, tmp_path)
    assert (spec.store_path, spec.store) == ("with_store:store", None)
    assert any(site.path == "$.store_path" for site in code_sites(spec))


def test_on_the_engine_both_open_as_specs_the_program_does_not_differ_from(tmp_path):
    """What the studio checks before it opens a program as an editable spec."""
    for name, source in (("engine_context", CONTEXT), ("engine_store", STORE)):
        path = program(tmp_path, name, source, STATE_HEAD)
        module = load_module(str(path), on_engine=True)
        spec = spec_of(module, "graph", path.name)
        assert unlike(module.graph, compile_spec(spec, trusted=True)) is None, name


def test_an_empty_in_memory_store_stays_the_specs_own(tmp_path):
    source = STORE.replace('store.put(("users",), "ada", {"name": "Ada"})', "")
    spec = import_module_graph(str(program(tmp_path, "empty_store", source, STATE_HEAD)))
    assert (spec.store, spec.store_path) == ("memory", None)
