"""Values a library call made, kept as that call (issue 33, `graphspec.call_refs`): a node or
tool a factory returned (a closure), a `functools.partial` reducer; verified by making them
again, refused with the element's id when the call cannot be reproduced; code that needs trust;
exported as the call. Each program is imported with the CLI and run three ways with the same
result (the original on langgraph, the spec on the engine, its export on langgraph).
"""

from __future__ import annotations

import functools

import pytest

from graphspec.call_refs import call_ref, equivalent
from graphspec.compiler import compile_spec
from graphspec.errors import SpecError, UntrustedCodeError
from graphspec.export import to_langgraph
from graphspec.importer import import_module_graph, spec_of
from graphspec.model import CodeRef, call_text
from graphspec.trust import code_sites
from graphspec.validator import validate
from studio.cli import main
from tests.graphspec.test_import_reach import STATE_HEAD, program, three_ways
from tests.programs.test_programs import load, program_path
from tests.programs.test_programs_as_specs import PROGRAMS, as_spec

STEPS = '''
import operator
from typing import Annotated

from langgraph.graph import START, StateGraph
from typing_extensions import TypedDict


class S(TypedDict):
    log: Annotated[list, operator.add]


def make_step(label, times=1):
    """A node factory, as a library writes one: the node is a closure."""
    def step(state):
        return {"log": [label] * times}
    return step


def make_shouting_step(label):
    label = label + "!"  # what the closure keeps is not what it was called with
    said = set()  # and a value no code can be written with
    def step(state):
        said.add(label)
        return {"log": [label]}
    return step


def make_graph(label):
    """A graph factory: its nodes are closures inside the builder it returns."""
    said = set()  # a value no code can be written with
    def step(state):
        said.add(label)
        return {"log": [label, len(said)]}
    builder = StateGraph(S)
    builder.add_node("step", step)
    builder.add_edge(START, "step")
    return builder


def add_router(builder, *, default):
    """Adds its router to the builder and returns the builder, not the router."""
    def route(state):
        return state.get("next", default)
    builder.add_conditional_edges("a", route, ["b", "c"])
    return builder
'''


def library(tmp_path):
    (tmp_path / "steplib.py").write_text(STEPS, encoding="utf-8")


def test_nodes_a_factory_made_become_calls_that_make_them_again(tmp_path):
    library(tmp_path)
    path = program(tmp_path, "factory_nodes", """
    from steplib import make_step

    builder = StateGraph(S)
    builder.add_node("a", make_step("a"))
    builder.add_node("b", make_step("b", times=2))
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    graph = builder.compile()
    """, STATE_HEAD)  # fmt: skip
    spec = three_ways(path, lambda m: m.graph, {"log": []}, tmp_path)
    # an argument left at its default is left out
    assert [call_text(n) for n in spec.nodes] == [
        "steplib:make_step(label='a')",
        "steplib:make_step(label='b', times=2)",
    ]
    assert "builder.add_node('b', make_step(label='b', times=2))" in to_langgraph(spec)
    assert not [f for f in validate(spec) if f.severity == "error"]
    # the call runs code: an untrusted spec names it
    assert "call steplib:make_step(label='a')" in [s.message for s in code_sites(spec)]
    with pytest.raises(UntrustedCodeError):
        compile_spec(spec)


def test_a_partial_reducer_becomes_the_call_that_makes_it(tmp_path):
    path = program(tmp_path, "partial_reducer", """
    import functools
    from typing import Annotated
    from typing_extensions import TypedDict
    from langgraph.graph import START, StateGraph

    def capped(left, right, *, limit):
        return (left + right)[-limit:]

    class S(TypedDict):
        log: Annotated[list, functools.partial(capped, limit=2)]

    def a(state: S):
        return {"log": ["a", "b"]}

    graph = StateGraph(S).add_node("a", a).add_edge(START, "a").compile()
    """)  # fmt: skip
    spec = three_ways(path, lambda m: m.graph, {"log": ["x"]}, tmp_path)
    reducer = spec.state[0].custom_reducer
    assert call_text(reducer) == "functools:partial(partial_reducer:capped, limit=2)"
    # each call makes another partial, and langgraph wants a node's input schema (the
    # program's class, by the node's type hint) to hold the same one: the class is kept
    assert spec.state_class == "partial_reducer:S"


def test_a_closure_whose_factory_call_cannot_be_made_again_is_refused_naming_the_node(tmp_path):
    library(tmp_path)
    path = program(tmp_path, "refused_closure", """
    from steplib import make_shouting_step

    builder = StateGraph(S)
    builder.add_node("shout", make_shouting_step("a"))
    builder.add_edge(START, "shout")
    graph = builder.compile()
    """, STATE_HEAD)  # fmt: skip
    with pytest.raises(SpecError) as info:
        import_module_graph(str(path))
    assert info.value.element_id == "shout"
    message = str(info.value)
    assert "make_shouting_step.<locals>.step" in message
    assert "closure made by steplib:make_shouting_step" in message
    assert "make_shouting_step(label='a!'), called with what its closure keeps" in message
    assert "does not return the same object" in message
    out = tmp_path / "spec.json"
    assert main(["import", str(path), "--trust", "-o", str(out)]) == 2  # bad input, one line
    assert not out.exists()


def test_a_closure_of_json_values_its_factory_does_not_return_is_kept_as_code(tmp_path):
    library(tmp_path)
    path = program(tmp_path, "router_closure", """
    from steplib import add_router, make_step

    builder = StateGraph(S)
    builder.add_node("a", make_step("a"))
    builder.add_node("b", make_step("b"))
    builder.add_node("c", make_step("c"))
    builder.add_edge(START, "a")
    graph = add_router(builder, default="c").compile()
    """, STATE_HEAD)  # fmt: skip
    spec = three_ways(path, lambda m: m.graph, {"log": []}, tmp_path)
    router = spec.conditional_edges[0].router
    assert router.import_path is None and "    default = 'c'\n" in router.code


def test_a_node_a_graph_factory_made_is_that_node_of_the_graph_the_call_makes(tmp_path):
    library(tmp_path)
    path = program(tmp_path, "built_graph", """
    from steplib import make_graph

    builder = make_graph("a")
    graph = builder.compile()
    """)  # fmt: skip
    spec = three_ways(path, lambda m: m.graph, {"log": []}, tmp_path)
    [node] = spec.nodes
    assert (
        node.code.endswith("return built_graph.make_graph('a').nodes['step'].runnable\n")
        and call_text(node) == "<code>.step_node()"
    )


def test_call_refs_are_recovered_verified_and_refused():
    def scale(x, *, factor):
        return x * factor

    part = functools.partial(scale, factor=3)
    # the partial's function is local here: no import path reaches it, and the refusal says so
    with pytest.raises(SpecError, match=r"^node: functools.partial of .*scale: no import path"):
        call_ref(part, "node")
    with pytest.raises(
        SpecError, match=r"^node: int is no module-level object, partial or closure"
    ):
        call_ref(3, "node")
    # equivalence: the same code and closure values, not the same object
    assert equivalent(functools.partial(scale, factor=3), part)
    assert not equivalent(functools.partial(scale, factor=4), part)


def test_a_library_middleware_is_kept_as_the_call_the_program_wrote():
    """deepagents' SubAgentMiddleware docstring example: the middleware a package built on
    langgraph defines, given the program's backend, tools and a model it made inline, is the call
    as written (its task tool comes back with it); the call is code an untrusted spec names."""
    spec = as_spec(PROGRAMS["da_subagent_middleware"])
    [agent] = spec.agents
    assert agent.tools == []  # the task tool is the middleware's
    [middleware] = agent.middleware
    text = call_text(CodeRef(import_path=middleware.import_path, call=middleware.call))
    assert text.startswith(
        "deepagents.middleware.subagents:SubAgentMiddleware(backend=da_subagent_middleware:"
        "my_backend, subagents=[{'name': 'researcher', 'description': 'Research agent', "
        "'system_prompt': 'You are a researcher.', 'model': <code>.agent_subagents_model_"
    )
    assert text.endswith("(), 'tools': [da_subagent_middleware:search_tool]}])")
    assert f"call {text}" in [s.message for s in code_sites(spec)]


def test_a_compiled_subagent_is_kept_as_the_agent_call_the_program_wrote():
    """deepagents' CompiledSubAgent example: the subagent's runnable, a create_agent graph the
    program made inside the dict, is the call as written (the graph runtime's create_agent by
    the name it has on langgraph), exported as that call, and code an untrusted spec names."""
    entry = PROGRAMS["da_compiled_subagent"]
    module = load(entry, on_engine=True)
    path, name = program_path(entry)
    spec = spec_of(module, name, path.name)
    [sub] = spec.agents[0].deep.subagents
    text = call_text(sub.runnable)
    assert text.startswith("langchain.agents:create_agent(<code>.agent_arg0_")
    assert text.endswith("(), tools=[], response_format=da_compiled_subagent:Findings)")
    assert f"call {text}" in [s.message for s in code_sites(spec)]
    assert "'runnable': create_agent(agent_arg0_" in to_langgraph(spec)
