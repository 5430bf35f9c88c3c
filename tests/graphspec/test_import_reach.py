"""What `superstep import` reaches beyond a module-level builder (issue 33.3): graph factories
(`graph = make_graph()` and langgraph.json's `module:function`), entrypoints whose input is not
a TypedDict, a function a later `def` shadowed, long join ids, deep-agent subagents named by
variable, an agent's runtime context; and the clean SpecError for what still cannot become a spec.
The middleware, structured-output and ReAct-hook programs are in the corpus (middleware_custom,
structured_output, react_hooks), which runs them the same three ways.

Each program is imported with the CLI, then run three ways with the same result: the original on
langgraph, the spec compiled on the engine (the module loaded on the engine, as `superstep run`
does), and the spec exported to langgraph code run on langgraph.
"""

from __future__ import annotations

import shutil
import textwrap
import warnings
from pathlib import Path
from typing import Any

import pytest

from graphspec.compiler import compile_spec
from graphspec.errors import SpecError
from graphspec.export import to_langgraph
from graphspec.importer import import_module_graph, load_module
from graphspec.io import read_spec
from studio.cli import main
from tests.graphspec.test_corpus import CORPUS
from tests.oracle import normalize


def program(tmp_path: Path, name: str, source: str, head: str = "") -> Path:
    """A program module in tmp_path (`head`, then `source`), beside a copy of the corpus's
    scripted chat model."""
    shutil.copy(CORPUS / "_scripted.py", tmp_path / "_scripted.py")
    path = tmp_path / f"{name}.py"
    path.write_text(head + textwrap.dedent(source), encoding="utf-8")
    return path


def imported(target: str, tmp_path: Path) -> Any:
    """`superstep import TARGET -o spec.json --trust`, read back."""
    out = tmp_path / "imported.json"
    assert main(["import", target, "--trust", "-o", str(out)]) == 0
    return read_spec(out)


def three_ways(
    path: Path, graph_of: Any, value: Any, tmp_path: Path, norm: Any = normalize, **run: Any
) -> Any:
    """The original (graph_of(module) on langgraph), the imported spec compiled on the engine and
    its langgraph export, each invoked with `value` (and `run`'s keywords): the three results,
    `norm`alised, asserted equal; returns the spec."""
    target = f"{path}:{graph_of}" if isinstance(graph_of, str) else str(path)
    pick = (lambda m: _made(getattr(m, graph_of))) if isinstance(graph_of, str) else graph_of
    spec = imported(target, tmp_path)
    expected = norm(pick(load_module(str(path))).invoke(value, **run))
    # compiling loads the spec's module_file on the engine, as `superstep run` does
    ours = norm(compile_spec(spec, trusted=True, base_dir=tmp_path).invoke(value, **run))
    load_module(str(path))  # the export imports the program's functions from langgraph's run
    exported = tmp_path / f"exported_{path.stem}.py"
    exported.write_text(to_langgraph(spec), encoding="utf-8")
    theirs = norm(load_module(str(exported)).graph.invoke(value, **run))
    assert ours == expected and theirs == expected
    return spec


def _made(attr: Any) -> Any:
    """A graph, or what a factory function makes (called as langgraph's server calls it)."""
    if not callable(getattr(attr, "invoke", None)):
        return attr({"configurable": {}}) if attr.__code__.co_argcount else attr()
    return attr


STATE_HEAD = """
from typing import Annotated
import operator
from typing_extensions import TypedDict
from langgraph.graph import START, END, StateGraph

class S(TypedDict):
    log: Annotated[list, operator.add]
"""


# ------------------------------------------------------------------ factories


def test_a_graph_made_by_a_module_level_factory_imports(tmp_path):
    path = program(tmp_path, "factory_var", """
    def a(state):
        return {"log": ["a"]}

    def b(state):
        return {"log": ["b"]}

    def make_graph():
        builder = StateGraph(S)
        builder.add_node("a", a)
        builder.add_node("b", b)
        builder.add_edge(START, "a")
        builder.add_edge("a", "b")
        return builder.compile()

    graph = make_graph()
    """, STATE_HEAD)  # fmt: skip
    spec = three_ways(path, lambda m: m.graph, {"log": []}, tmp_path)
    assert [n.import_path for n in spec.nodes] == ["factory_var:a", "factory_var:b"]


@pytest.mark.parametrize("takes_config", [False, True])
def test_module_colon_function_calls_the_factory_as_langgraph_server_does(tmp_path, takes_config):
    """langgraph.json's `module:function`: called with no arguments, or a RunnableConfig; an
    agent a factory returns is read from the create_agent call the factory returns."""
    signature = "config: RunnableConfig" if takes_config else ""
    path = program(tmp_path, f"factory_fn_{takes_config}", f"""
    from _scripted import ScriptedModel
    from langchain.agents import create_agent
    from langchain.agents.middleware import ModelCallLimitMiddleware
    from langchain_core.messages import AIMessage
    from langchain_core.runnables import RunnableConfig

    def ping(host: str) -> str:
        \"\"\"Ping a host.\"\"\"
        return f"{{host}} is up"

    model = ScriptedModel(responses=[
        AIMessage(content="", tool_calls=[{{"name": "ping", "args": {{"host": "db"}}, "id": "c"}}]),
        AIMessage(content="db is up."),
    ])

    def make_agent({signature}):
        return create_agent(model, [ping], system_prompt="Be brief.",
                            middleware=[ModelCallLimitMiddleware(run_limit=5)])
    """)  # fmt: skip
    value = {"messages": [{"role": "user", "content": "is db up?"}]}
    spec = three_ways(path, "make_agent", value, tmp_path)
    [agent] = spec.agents
    assert agent.system_prompt == "Be brief." and agent.middleware[0].name == "model_call_limit"


def test_a_react_agent_a_factory_makes_is_read_from_the_call_the_factory_returns(tmp_path):
    path = program(tmp_path, "factory_react", """
    import warnings

    from _scripted import ScriptedModel
    from langchain_core.messages import AIMessage
    from langgraph.prebuilt import create_react_agent

    def ping(host: str) -> str:
        \"\"\"Ping a host.\"\"\"
        return f"{host} is up"

    model = ScriptedModel(responses=[
        AIMessage(content="", tool_calls=[{"name": "ping", "args": {"host": "db"}, "id": "c"}]),
        AIMessage(content="db is up."),
    ])

    def make_agent():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            made = create_react_agent(model, [ping], prompt="Be brief.")
        return made

    agent = make_agent()
    """)  # fmt: skip
    value = {"messages": [{"role": "user", "content": "is db up?"}]}
    spec = three_ways(path, lambda m: m.agent, value, tmp_path)
    assert spec.agents[0].system_prompt == "Be brief."


def test_compiling_an_agent_kept_as_create_react_agent_warns_of_nothing(tmp_path):
    # a pre-model hook keeps create_react_agent as the spec's builder: compiling the spec is
    # not the user's use of the deprecated prebuilt, so langgraph 1.0's warning stays out
    for name in ("react_hooks.py", "_scripted.py"):
        shutil.copy(CORPUS / name, tmp_path / name)
    spec = imported(f"{tmp_path / 'react_hooks.py'}:agent", tmp_path)
    assert spec.agents[0].builder == "create_react_agent"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compile_spec(spec, trusted=True, base_dir=tmp_path)


def test_a_factory_that_needs_arguments_is_refused_by_name(tmp_path):
    path = program(tmp_path, "factory_args", """
    def make_graph(name, size):
        raise AssertionError("never called")
    """, STATE_HEAD)  # fmt: skip
    with pytest.raises(SpecError, match=r"make_graph takes 2 arguments"):
        import_module_graph(str(path), "make_graph")


# ------------------------------------------------------------------ entrypoints


ENTRYPOINTS = """
from langgraph.func import entrypoint, task
from pydantic import BaseModel

class Order(BaseModel):
    item: str
    qty: int = 1

@task
def shout(text: str) -> str:
    return text.upper()

@entrypoint()
def words(text: str) -> str:
    return shout(text).result() + "!"

@entrypoint()
def orders(order: Order) -> dict:
    order = Order.model_validate(order)
    return {"line": f"{order.qty} x {order.item}"}

@entrypoint()
def totals(values: list) -> int:
    return sum(values)

@entrypoint()
def bag(data: dict) -> dict:
    return {**data, "seen": True}
"""


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("words", "hi"),
        ("orders", {"item": "tea", "qty": 2}),
        ("totals", [1, 2, 3]),
        ("bag", {"a": 1}),
    ],  # fmt: skip
)
def test_an_entrypoint_taking_a_str_dict_model_or_list_imports(tmp_path, name, value):
    path = program(tmp_path, f"entry_{name}", ENTRYPOINTS)
    spec = three_ways(path, name, value, tmp_path)
    assert spec.state_class == "builtins:object" and not spec.state


# ------------------------------------------------------------------ shadowed functions


def test_a_function_a_later_def_shadowed_is_kept_as_code_reading_its_module(tmp_path):
    path = program(tmp_path, "shadowed", """
    PREFIX = "step"

    def helper(n):
        return f"{PREFIX}-{n}"

    def step(state: S) -> dict:
        return {"log": [helper(1), PREFIX.upper()]}

    builder = StateGraph(S)
    builder.add_node("first", step)

    def step(state: S) -> dict:
        return {"log": [helper(2)]}

    builder.add_node("second", step)
    builder.add_edge(START, "first")
    builder.add_edge("first", "second")
    graph = builder.compile()
    """, STATE_HEAD)  # fmt: skip
    spec = three_ways(path, lambda m: m.graph, {"log": []}, tmp_path)
    first, second = spec.nodes
    assert first.import_path is None and first.function == "step"
    assert "from shadowed import PREFIX, S, helper" in first.code
    assert second.import_path == "shadowed:step"


def test_a_shadowed_function_that_calls_itself_is_refused_by_node(tmp_path):
    path = program(tmp_path, "shadowed_self", """
    def step(state, depth=0):
        return {"log": ["x"]} if depth else step(state, 1)

    builder = StateGraph(S)
    builder.add_node("first", step)

    def step(state):
        return {"log": ["y"]}

    builder.add_node("second", step)
    builder.add_edge(START, "first")
    graph = builder.compile()
    """, STATE_HEAD)  # fmt: skip
    with pytest.raises(SpecError, match="refers to its own name") as info:
        import_module_graph(str(path))
    assert info.value.element_id == "first"


# ------------------------------------------------------------------ ids


def test_a_three_way_join_of_long_names_gets_ids_that_fit_and_differ(tmp_path):
    names = ["a_long_name_for_a_node", "b_long_name_for_a_node", "c_long_name_for_a_node"]
    nodes = "".join(
        f"def {n}(state):\n    return {{'log': [{n!r}]}}\n\nbuilder.add_node({n!r}, {n})\n"
        f"builder.add_edge(START, {n!r})\n"
        for n in names
    )
    path = program(tmp_path, "long_join", STATE_HEAD + "\nbuilder = StateGraph(S)\n" + nodes + f"""
def d(state):
    return {{"log": ["d"]}}

def e(state):
    return {{"log": ["e"]}}

builder.add_node("d", d)
builder.add_node("e", e)
builder.add_edge({names!r}, "d")
builder.add_edge({names!r}, "e")
graph = builder.compile()
""")  # fmt: skip
    spec = three_ways(path, lambda m: m.graph, {"log": []}, tmp_path)
    ids = [e.id for e in spec.edges]
    assert len(ids) == 2 and len(set(ids)) == 2 and all(len(i) <= 64 for i in ids)
    # the same sources, so only the hash of the whole name (its target) tells them apart
    assert all(i.startswith("a_long_name_for_a_node_b_long_name_for_a_node_c_long") for i in ids)


# ------------------------------------------------------------------ agents


def test_an_agents_context_schema_and_runtime_context_reach_its_middleware(tmp_path):
    path = program(tmp_path, "context_agent", """
    from dataclasses import dataclass

    from _scripted import ScriptedModel
    from langchain.agents import create_agent
    from langchain.agents.middleware import dynamic_prompt
    from langchain_core.messages import AIMessage

    @dataclass
    class Caller:
        user_name: str

    @dynamic_prompt
    def greet_by_name(request):
        return f"The user is {request.runtime.context.user_name}."

    model = ScriptedModel(responses=[AIMessage(content="Hello.")])
    agent = create_agent(model, [], middleware=[greet_by_name], context_schema=Caller)
    """)  # fmt: skip
    value = {"messages": [{"role": "user", "content": "hi"}]}
    module = load_module(str(path))
    spec = three_ways(path, lambda m: m.agent, value, tmp_path, context=module.Caller("Ada"))
    assert spec.agents[0].context_schema == "context_agent:Caller"


@pytest.mark.parametrize(
    ("written", "strategy", "reply"),
    [
        (
            "ToolStrategy(Answer)",
            "tool",
            'content="", tool_calls=[{"name": "Answer", "args": ARGS, "id": "c"}]',
        ),
        ("ProviderStrategy(Answer)", "provider", "content=json.dumps(ARGS)"),
        ("Answer", "auto", 'content="", tool_calls=[{"name": "Answer", "args": ARGS, "id": "c"}]'),
    ],
)
def test_each_response_format_form_of_create_agent_imports(tmp_path, written, strategy, reply):
    path = program(tmp_path, f"answer_{strategy}", f"""
    import json

    from _scripted import ScriptedModel
    from langchain.agents import create_agent
    from langchain.agents.structured_output import ProviderStrategy, ToolStrategy
    from langchain_core.messages import AIMessage
    from typing_extensions import TypedDict

    class Answer(TypedDict):
        verdict: str
        score: int

    ARGS = {{"verdict": "fine", "score": 7}}
    model = ScriptedModel(responses=[AIMessage({reply})])
    agent = create_agent(model, [], response_format={written})
    """)  # fmt: skip
    value = {"messages": [{"role": "user", "content": "rate it"}]}
    spec = three_ways(path, lambda m: m.agent, value, tmp_path)
    fmt = spec.agents[0].response_format
    assert (fmt.schema_class, fmt.strategy) == (f"answer_{strategy}:Answer", strategy)
    assert spec.key("structured_response") is not None


def test_deep_agent_subagents_named_by_variable_import(tmp_path):
    pytest.importorskip("deepagents")
    from tests.engine.deepagents_helpers import normalize_deep

    path = program(tmp_path, "deep_vars", """
    from _scripted import ScriptedModel
    from deepagents import create_deep_agent
    from langchain_core.messages import AIMessage
    from langchain_core.tools import tool

    def shout(text: str) -> str:
        return text.upper()

    delegate = {"description": "say hi", "subagent_type": "loud"}
    model = ScriptedModel(responses=[
        AIMessage(content="", tool_calls=[{"name": "task", "args": delegate, "id": "t1"}]),
        AIMessage(content="done"),
    ])
    helper_model = ScriptedModel(responses=[AIMessage(content="HI")])
    loud = {"name": "loud", "description": "Shouts.", "system_prompt": "Shout.",
            "tools": [tool("shout", description="Upper-case the text.")(shout)],
            "model": helper_model}
    quiet = {"name": "quiet", "description": "Whispers."}
    SUBAGENTS = [loud, quiet]
    agent = create_deep_agent(model=model, subagents=SUBAGENTS)
    """)  # fmt: skip
    value = {"messages": [{"role": "user", "content": "go"}]}
    spec = three_ways(path, lambda m: m.agent, value, tmp_path, norm=normalize_deep)
    subs = spec.agents[0].deep.subagents
    assert [s.name for s in subs] == ["loud", "quiet"]
    assert subs[0].tools[0].import_path == "deep_vars:shout" and subs[0].model.responses


def test_imported_middleware_and_agent_classes_are_code_the_user_trusts_first():
    from graphspec.errors import UntrustedCodeError

    for stem in ("middleware_custom", "structured_output", "react_hooks"):
        spec = import_module_graph(str(CORPUS / f"{stem}.py"))
        with pytest.raises(UntrustedCodeError) as info:
            compile_spec(spec, trusted=False)
        paths = {f.path for f in info.value.sites}
        agent = spec.agents[0]
        wanted = {f"$.agents[0].middleware[{j}].import_path" for j in range(len(agent.middleware))}
        wanted |= {f"$.agents[0].{k}" for k in ("state_schema", "context_schema",
                                                  "pre_model_hook", "post_model_hook")
                   if getattr(agent, k) is not None}  # fmt: skip
        if agent.response_format is not None:
            wanted.add("$.agents[0].response_format.schema_class")
        assert wanted and wanted <= paths, stem


def test_a_deep_agents_response_format_is_refused_not_dropped(tmp_path):
    pytest.importorskip("deepagents")
    path = program(tmp_path, "deep_answer", """
    from _scripted import ScriptedModel
    from deepagents import create_deep_agent
    from langchain_core.messages import AIMessage
    from pydantic import BaseModel

    class Answer(BaseModel):
        text: str

    model = ScriptedModel(responses=[AIMessage(content="done")])
    agent = create_deep_agent(model=model, response_format=Answer)
    """)  # fmt: skip
    with pytest.raises(SpecError, match="deep agent's response_format"):
        import_module_graph(str(path))


# ------------------------------------------------------------------ refusals


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("middleware=[Counter(*LIMITS)]", "positional arguments its class does not name"),
        ("middleware=[Counter(**SETTINGS)]", "takes \\*\\* arguments"),
        ("middleware=[Counter(limit=LIMITS[0])]", "is not a literal setting"),
        ("response_format=ToolStrategy(Answer, handle_errors=False)", "handle_errors"),
        ("response_format=ToolStrategy(Answer | Other)", "only a class"),
    ],
)
def test_what_still_cannot_become_a_spec_is_refused_naming_the_agent(tmp_path, body, says):
    path = program(tmp_path, "refused_agent", f"""
    from _scripted import ScriptedModel
    from langchain.agents import create_agent
    from langchain.agents.middleware import AgentMiddleware
    from langchain.agents.structured_output import ToolStrategy
    from langchain_core.messages import AIMessage
    from pydantic import BaseModel

    class Answer(BaseModel):
        text: str

    class Other(BaseModel):
        number: int

    class Counter(AgentMiddleware):
        def __init__(self, limit=1):
            super().__init__()
            self.limit = limit

    LIMITS = [2]
    SETTINGS = dict(limit=2)
    model = ScriptedModel(responses=[AIMessage(content="ok")])
    worker = create_agent(model, [], {body}, name="worker")
    """)  # fmt: skip
    with pytest.raises(SpecError, match=says) as info:
        import_module_graph(str(path))
    assert info.value.element_id == "worker"


def test_middleware_another_package_defines_is_refused_naming_its_home(tmp_path):
    """It would keep langchain's agent layer on the engine, where it does not run."""
    (tmp_path / "audit_lib.py").write_text(textwrap.dedent("""
        from langchain.agents.middleware import AgentMiddleware

        class Audit(AgentMiddleware):
            def before_model(self, state, runtime):
                return None
    """), encoding="utf-8")  # fmt: skip
    path = program(tmp_path, "foreign_mw", """
    from _scripted import ScriptedModel
    from audit_lib import Audit
    from langchain.agents import create_agent
    from langchain_core.messages import AIMessage

    model = ScriptedModel(responses=[AIMessage(content="ok")])
    agent = create_agent(model, [], middleware=[Audit()], name="auditor")
    """)  # fmt: skip
    with pytest.raises(SpecError, match="Audit is audit_lib.Audit, defined outside the program"):
        import_module_graph(str(path))


def test_a_react_hook_that_is_no_module_level_name_is_refused(tmp_path):
    path = program(tmp_path, "refused_react", """
    import warnings
    from _scripted import ScriptedModel
    from langchain_core.messages import AIMessage
    from langgraph.prebuilt import create_react_agent

    model = ScriptedModel(responses=[AIMessage(content="ok")])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        agent = create_react_agent(model, [], pre_model_hook=lambda state: {})
    """)  # fmt: skip
    with pytest.raises(SpecError, match="pre_model_hook .* is not a module-level name"):
        import_module_graph(str(path))


ONE_NODE = """
def a(state):
    return {"log": ["a"]}

builder = StateGraph(S)
builder.add_node("a", a)
builder.add_edge(START, "a")
graph = builder.compile()
"""


def test_an_unforeseen_failure_inside_the_importer_is_a_spec_error(tmp_path, monkeypatch):
    """The lead's fallback opens what the importer refuses: any failure must be a SpecError."""
    from graphspec import importer

    path = program(tmp_path, "plain", ONE_NODE, STATE_HEAD)

    def broken(*args: Any) -> Any:
        raise KeyError("surprise")

    monkeypatch.setattr(importer, "_compiled_with", broken)
    with pytest.raises(SpecError, match="cannot read the graph: KeyError"):
        import_module_graph(str(path))


def test_a_module_variable_whose_attributes_raise_is_no_graph_and_no_crash(tmp_path):
    lazy = """
class Lazy:
    def __getattr__(self, name):
        raise RuntimeError("not configured")

settings = Lazy()
"""
    path = program(tmp_path, "lazy_proxy", lazy + ONE_NODE, STATE_HEAD)
    assert [n.id for n in import_module_graph(str(path)).nodes] == ["a"]
