"""Attacks on the langgraph and Mermaid exports by specs that carry no code: whatever text a spec
holds, the exported module runs no code of its own making and means what the engine means."""

from __future__ import annotations

import ast
import math

import pytest

from graphspec import pysource
from graphspec.compiler import compile_spec
from graphspec.errors import SpecError
from graphspec.export import to_langgraph, to_mermaid
from tests.graphspec.helpers import graph, load_exported, setter

NASTY_KEYS = [
    "x=__import__('os').system('echo pwned'),y",
    "a\nimport os",
    "q'uote\"",
    "back\\slash",
    "nul\x00",
    "line\u2028sep",
    "__import__",
    "class",
    "ok",
]


def _calls(code: str, name: str) -> list[ast.Call]:
    tree = ast.parse(code)
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name
    ]


def _kwargs(call: ast.Call) -> dict:
    """The call's keyword arguments as values (a `**{...}` literal included)."""
    out = {}
    for k in call.keywords:
        value = ast.literal_eval(k.value)
        if k.arg is None:
            out.update(value)
        else:
            out[k.arg] = value
    return out


def _hostile(model, **fields):
    """A copy with `fields` set unvalidated: the loader may refuse such text; the export must
    not depend on that."""
    return model.model_copy(update=fields)


def _unchecked(source: str) -> ast.Expression:
    """An expression parsed without the sandbox's checks."""
    return ast.parse(source, mode="eval")


def _names_loaded(code: str) -> set[str]:
    return {
        n.id for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Name) and n.ctx is not None
    }


def test_model_params_keys_are_data_not_code():
    params = {k: i for i, k in enumerate(NASTY_KEYS)}
    spec = graph(
        state=[{"name": "messages", "type": "messages", "reducer": "add_messages"}],
        nodes=[{"id": "chat", "kind": "model", "model": {"provider": "openai"}}],
        entry=["chat"],
    )
    spec.nodes[0].model.params.update(params)  # unvalidated, in case the loader refuses keys
    code = to_langgraph(spec)
    [call] = _calls(code, "init_chat_model")
    assert _kwargs(call) == params
    assert "__import__" not in _names_loaded(code) and "os" not in _names_loaded(code)


def test_middleware_settings_keys_are_data_not_code():
    pytest.importorskip("engine.agents")
    settings = {k: i for i, k in enumerate(NASTY_KEYS)}
    spec = graph(
        state=[{"name": "messages", "type": "messages", "reducer": "add_messages"}],
        agents=[
            {
                "id": "helper",
                "middleware": [
                    {"kind": "prebuilt", "name": "model_call_limit", "settings": settings}
                ],
            }
        ],
        nodes=[{"id": "bot", "kind": "agent", "agent": "helper"}],
        entry=["bot"],
    )
    code = to_langgraph(spec)
    [call] = _calls(code, "ModelCallLimitMiddleware")
    assert _kwargs(call) == settings
    assert "__import__" not in _names_loaded(code)


def test_a_comprehension_variable_does_not_leak_into_the_rest_of_the_expression(tmp_path):
    expression = "[1 for eval in []] + sorted(xs, key=eval)"
    spec = graph(
        state=[{"name": "xs", "type": "list"}, {"name": "out", "type": "list"}],
        nodes=[setter("n", out=expression)],
        entry=["n"],
        finish=["n"],
    )
    code = to_langgraph(spec)
    assert "eval" not in _names_loaded(code)  # `eval` outside the comprehension is a state key
    module = load_exported(spec, tmp_path, "leak")
    # with the real eval as the key, "9" would sort before "10"
    assert module.n({"xs": ["9", "10"]}) == {"out": ["10", "9"]}
    assert module.n({"xs": ["9", "10"], "eval": len}) == {"out": ["9", "10"]}


def test_comprehension_variables_named_like_builtins_do_not_hide_them(tmp_path, monkeypatch):
    # the validator may refuse such names; the export must keep the sandbox's rules regardless
    monkeypatch.setattr(pysource.sandbox, "parse", _unchecked)
    spec = graph(
        state=[{"name": "xs", "type": "list"}, {"name": "out", "type": "list"}],
        nodes=[setter("n", out="[len(len) for len in xs] + [state for state in [len(xs)]]")],
        entry=["n"],
        finish=["n"],
    )
    assert load_exported(spec, tmp_path, "hide").n({"xs": ["ab", "c"]}) == {"out": [2, 1, 2]}


SHADOWS = [
    "len", "str", "sorted", "dict", "print", "eval", "Any", "StateGraph", "START_", "END_",
    "operator", "json", "Send", "Command", "interrupt", "build_graph", "compile_graph", "graph",
    "builder", "State", "TypedDict", "Annotated", "merge_dicts", "RECURSION_LIMIT", "ToolNode",
    "tool", "SystemMessage", "add_messages", "__builtins__", "__name__", "match", "type", "_",
]  # fmt: skip


@pytest.mark.parametrize("name", SHADOWS)
def test_ids_named_like_builtins_or_the_modules_own_names_change_nothing(name, tmp_path):
    """The name is a node, a Send router and a state key; the graph still uses len, str, sorted,
    Send, Command, operator.add, merge_dicts and the recursion limit."""
    key = (
        f"k{name}" if name.startswith("__") else name
    )  # the engine drops `__` keys (langgraph not)
    spec = graph(
        state=[
            {"name": key, "type": "int"},
            {"name": "items", "type": "list", "reducer": "add"},
            {"name": "meta", "type": "dict", "reducer": "merge"},
            {"name": "label", "type": "str"},
        ],
        nodes=[
            {"id": "fan", "kind": "set_state", "values": {"items": "[sorted(items)[0] + 1]"}},
            setter(
                name,
                label="str(len(items)) + '-' + str(sorted(items)[0])",
                meta="{'a': 1}",
                **{key: f"state[{key!r}] + 1"},
            ),
            {
                "id": "hop",
                "kind": "set_state",
                "values": {"meta": "{'b': len(label)}"},
                "goto": "END",
                "destinations": ["__end__"],
            },
        ],
        edges=[
            {"id": "e1", "sources": ["fan"], "target": name},
            {"id": "e2", "sources": [name], "target": "hop"},
        ],
        conditional_edges=[
            {
                "id": f"{name}_send",
                "source": "__start__",
                "router": {
                    "kind": "send",
                    "target": "fan",
                    "over": "[3, 1, 2]",
                    "input": {"items": "[item]"},
                },
            }
        ],
        recursion_limit=20,
    )
    run = {key: 7, "items": [5]}
    expected = compile_spec(spec).invoke(run)
    assert expected == {key: 8, "items": [5, 4, 2, 3], "meta": {"a": 1, "b": 3}, "label": "4-2"}
    module = load_exported(spec, tmp_path, f"shadow_{SHADOWS.index(name)}")
    assert module.compile_graph().invoke(run) == expected


def test_a_state_key_with_two_leading_underscores_keeps_its_name(tmp_path):
    spec = graph(
        state=[{"name": "__secret", "type": "int"}, {"name": "out", "type": "int"}],
        nodes=[setter("n", out="state['__secret'] + 1", __secret="2")],
        entry=["n"],
        finish=["n"],
    )
    # a class body would have renamed the field `_State__secret`
    module = load_exported(spec, tmp_path, "dunder")
    assert module.compile_graph().invoke({"__secret": 1}) == {"__secret": 2, "out": 2}


def test_retry_on_names_only_builtin_exceptions():
    spec = graph(
        state=[{"name": "x", "type": "int"}],
        nodes=[
            {**setter("n", x="1"), "retry": {"retry_on": ["eval", "ValueError", "print", "Nope"]}}
        ],
        entry=["n"],
        finish=["n"],
    )
    code = to_langgraph(spec)
    assert "retry_policy=RetryPolicy(retry_on=(ValueError,))" in code
    assert not {"eval", "print", "Nope"} & _names_loaded(code)


def test_nan_and_infinity_are_written_as_floats():
    spec = graph(
        state=[{"name": "messages", "type": "messages", "reducer": "add_messages"}],
        nodes=[{"id": "chat", "kind": "model", "model": {"provider": "openai", "params": {}}}],
        entry=["chat"],
    )
    # the loader refuses non-finite numbers; the export must not depend on that
    spec.nodes[0].model.params.update(t=math.nan, hi=math.inf, lo=[-math.inf])
    code = to_langgraph(spec)
    [call] = _calls(code, "init_chat_model")
    values = {k.arg: eval(ast.unparse(k.value), {}) for k in call.keywords}  # noqa: S307 (floats)
    assert math.isnan(values["t"]) and values["hi"] == math.inf and values["lo"] == [-math.inf]
    assert pysource.literal({"a": (math.nan,)}) == "{'a': (float('nan'),)}"


DOC_TEXTS = ['ends with a quote"', 'three """ quotes', "nul\x00byte", "back\\slash\\", "cr\rlf\n",
             "line\u2028sep\u2029", "tab\tbell\x07"]  # fmt: skip


@pytest.mark.parametrize("text", DOC_TEXTS)
def test_names_and_descriptions_with_quotes_or_nul_export_verbatim(text):
    spec = graph(state=[{"name": "x", "type": "int"}], nodes=[setter("n", x="1")], entry=["n"])
    spec = _hostile(spec, name=text, description=text)
    spec.state[0] = _hostile(spec.state[0], description=text)
    spec.nodes[0] = _hostile(spec.nodes[0], description=text)
    tree = ast.parse(to_langgraph(spec))
    assert ast.get_docstring(tree, clean=False).startswith(f"{text}: {text}\n")
    classes = {n.name: n for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    assert ast.get_docstring(classes["State"], clean=False) == text
    assert ast.get_docstring(classes["n"], clean=False) == text
    assert ast.get_docstring(classes["build_graph"], clean=False) == f"The {text} builder."


def test_a_comment_stays_one_line():
    text = pysource.comment("node x\nimport os\r\u2028\x00\x85y")
    assert len(text.splitlines()) == 1 and text.startswith("# node x")


def test_copied_code_may_not_rebind_builtins_or_the_modules_names():
    def spec_with(code: str, function: str = "f"):
        node = {"id": "n", "kind": "function", "code": code, "function": function}
        return graph(state=[{"name": "x"}], nodes=[node], entry=["n"], finish=["n"])

    with pytest.raises(SpecError, match="StateGraph"):
        to_langgraph(spec_with("def StateGraph(s):\n    return {}\n", "StateGraph"))
    with pytest.raises(SpecError, match="'len'"):
        to_langgraph(spec_with("def len(x):\n    return 0\n\ndef f(s):\n    return {}\n"))
    with pytest.raises(SpecError, match="'len'"):
        to_langgraph(spec_with("def g(s):\n    return {}\n", "len"))
    # the same import the module makes is fine
    code = "from langgraph.types import Command\n\ndef f(s):\n    return Command(update={})\n"
    assert "def f(s):" in to_langgraph(spec_with(code))


def test_generated_names_avoid_the_names_copied_code_binds(tmp_path):
    code = "def helper(s):\n    return {'x': 2}\n\ndef f(s):\n    return helper(s)\n"
    spec = graph(
        state=[{"name": "x", "type": "int"}],
        nodes=[setter("helper", x="x + 1"), {"id": "n", "kind": "function", "code": code,
                                             "function": "f"}],
        edges=[{"id": "e", "sources": ["helper"], "target": "n"}],
        entry=["helper"],
        finish=["n"],
    )  # fmt: skip
    module = load_exported(spec, tmp_path, "helper")
    assert module.compile_graph().invoke({"x": 0}) == {"x": 2}
    assert "def helper_(state: dict)" in to_langgraph(spec)


SLIPPED = ["eval('1')", "x.__class__", "__import__('os')", "(lambda: 1)()", "[x for x.y in z]",
           "{**a}", "a @ b", "[*a]", "(y := 1)", "{x for x in a}", "x.format()", "f(x)",
           "[x async for x in a]", "a.b"]  # fmt: skip


@pytest.mark.parametrize("text", SLIPPED)
def test_the_translation_refuses_what_the_sandbox_refuses_on_its_own(text, monkeypatch):
    """Even if the sandbox's checks let something through, the export does not write it."""

    monkeypatch.setattr(pysource.sandbox, "parse", _unchecked)
    with pytest.raises(SpecError):
        pysource.expression(text)


def test_mermaid_labels_cannot_add_lines():
    attack = 'a\nB --> C\r\nclick a call alert()\u2028end\x00"]'
    spec = graph(
        state=[{"name": "x"}],
        nodes=[setter("n", x="1"), setter("end", x="2")],
        conditional_edges=[
            {
                "id": "r",
                "source": "n",
                "router": {"kind": "expression", "expression": "'yes'"},
                "path_map": {"yes": "end", "no": "weird target\n --> x"},
            }
        ],
        edges=[{"id": "e", "sources": ["end"], "target": "__end__"}],
        entry=["n"],
    )
    spec.nodes[0] = _hostile(spec.nodes[0], label=attack)
    path_map = {attack: "end", "no": "weird target\n --> x"}
    spec.conditional_edges[0] = _hostile(spec.conditional_edges[0], path_map=path_map)
    text = to_mermaid(spec)
    lines = text.splitlines()
    assert len(lines) == len(text.split("\n")) - 1  # no stray line breaks of any kind
    assert lines[:2] == ["flowchart TD", "    __start__([START])"]
    assert '    n["a<br>B --#gt; C<br>click a call alert()<br>end#0;#quot;]"]' in lines
    assert all(line.startswith("    ") for line in lines[1:])
    assert not any(line.split()[0] in ("B", "click", "end") for line in lines)
    assert '    end_["end"]' in lines and "    end_ --> __end__" in lines
    assert '    n -.->|"no"| weird_target______x_' in lines


BINDINGS = [
    ("def StateGraph(s):\n    return {}\n", "StateGraph", "StateGraph"),
    ("def len(x):\n    return 0\n\ndef f(s):\n    return {}\n", "f", "len"),
    ("import os as tool\n\ndef f(s):\n    return {}\n", "f", "tool"),
    (
        "from langgraph.types import Command\n\ndef f(s):\n    return Command(update={})\n",
        "f",
        None,
    ),
    ("def my_tool(s):\n    return {}\n", "my_tool", None),
]


@pytest.mark.parametrize(("code", "function", "bad"), BINDINGS)
def test_the_validator_warns_of_exactly_the_names_export_refuses(code, function, bad):
    """One rule (issue 27.3): a finding at the code before export, where export would refuse."""
    from graphspec.validator import validate

    node = {"id": "n", "kind": "function", "code": code, "function": function}
    spec = graph(state=[{"name": "x"}], nodes=[node], entry=["n"], finish=["n"])
    found = [(f.severity, f.element_id, f.path, f.message) for f in validate(spec)
             if f.code == "unexportable-name"]  # fmt: skip
    if bad is None:
        assert found == []
        to_langgraph(spec)
        return
    with pytest.raises(SpecError) as refused:
        to_langgraph(spec)
    assert found == [("warning", "n", "$.nodes[0].code", str(refused.value.args[0]))]
    assert repr(bad) in found[0][3]
