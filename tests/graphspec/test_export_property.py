"""Property: for random specs without code, the exported module run on real langgraph ends in the
state the engine ends in, and its source calls nothing outside an allow-list.

Specs draw ids and keys from names that clash with builtins and with the export's own names,
expressions from a small typed grammar (comprehensions with hostile variable names included),
and strings from quotes, backslashes, NUL, line breaks and line separators. A run either ends in
a state or fails (a type error, a parallel write, the recursion limit); both sides must agree.
"""

from __future__ import annotations

import ast
import itertools
import sys
import types
from datetime import timedelta

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from graphspec.compiler import compile_spec
from graphspec.errors import SpecError
from graphspec.export import IMPORTED, to_langgraph, to_mermaid
from graphspec.expressions import ALL_METHODS, FUNCTIONS, MESSAGE_ATTRIBUTES
from graphspec.io import spec_from_dict
from tests.graphspec.test_fuzz import FUZZ

PROPERTY = settings(
    FUZZ,
    max_examples=min(FUZZ.max_examples, 400),  # each example builds and runs two graphs
    deadline=timedelta(seconds=10),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

IDS = ["a", "b", "len", "str", "sorted", "eval", "print", "dict", "StateGraph", "operator",
       "json", "Send", "Command", "build_graph", "compile_graph", "graph", "builder", "State",
       "Any", "merge_dicts", "interrupt", "RECURSION_LIMIT", "__builtins__", "match", "_"]  # fmt: skip
KEYS = [i for i in IDS if not i.startswith("__")]  # the engine drops `__` keys (langgraph keeps)
VARS = ["v", "eval", "state", "item", "Send", "graph", "len", "END"]
TEXT = st.text(st.sampled_from("ab'\"\\\x00\n\r\u2028{}#|<>-é"), max_size=8)

ALLOWED_CALLS = {
    *FUNCTIONS, "StateGraph", "Send", "Command", "interrupt", "TypedDict", "RetryPolicy",
    "CachePolicy", "build_graph", "compile_graph", "float",
}  # fmt: skip
ALLOWED_METHODS = {*ALL_METHODS, "add_node", "add_edge", "add_conditional_edges", "compile",
                   "with_config"}  # fmt: skip
ALLOWED_ATTRIBUTES = {"add", *MESSAGE_ATTRIBUTES}
ALLOWED_BUILTINS = {*FUNCTIONS, "dict", "list", "int", "str", "float", "bool"}


def _read(key: str) -> str:
    """A state key by bare name where that reads the state (not a builtin or constant)."""
    return key if key not in FUNCTIONS and key not in VARS else f"state[{key!r}]"


@st.composite
def int_exprs(draw, keys: dict[str, str], depth: int = 0) -> str:
    ints = [k for k, t in keys.items() if t == "int"]
    lists = [k for k, t in keys.items() if t == "list"]
    leaves = [str(draw(st.integers(-3, 3)))] + [_read(k) for k in ints]
    if depth >= 2:
        return draw(st.sampled_from(leaves))
    sub = int_exprs(keys, depth + 1)
    var = draw(st.sampled_from(VARS))
    forms = [
        lambda: draw(st.sampled_from(leaves)),
        lambda: f"({draw(sub)} + {draw(sub)})",
        lambda: f"-{draw(sub)}",
        lambda: f"abs({draw(sub)})",
        lambda: f"max({draw(sub)}, {draw(sub)})",
        lambda: f"len({draw(list_exprs(keys, depth + 1))})",
        lambda: f"len({draw(str_exprs(keys, depth + 1))})",
        lambda: f"sum([{var} * 2 for {var} in {draw(list_exprs(keys, depth + 1))}])",
        lambda: f"({draw(sub)} if {draw(sub)} > {draw(sub)} else {draw(sub)})",
    ]
    if lists:
        forms.append(lambda: f"len({_read(draw(st.sampled_from(lists)))})")
    return draw(st.sampled_from(forms))()


@st.composite
def list_exprs(draw, keys: dict[str, str], depth: int = 0) -> str:
    sub = int_exprs(keys, depth + 1)
    var = draw(st.sampled_from(VARS))
    forms = [
        lambda: f"[{draw(sub)}, {draw(sub)}]",
        lambda: f"sorted({draw(list_exprs(keys, depth + 1))})" if depth < 2 else "[1]",
        lambda: f"[{var} + 1 for {var} in [{draw(sub)}, 2] if {var} > {draw(sub)}]",
        lambda: f"[1 for {var} in []] + [{draw(sub)}]",  # the leak shape of the issue
        lambda: f"[{draw(sub)}, 3, 4][1:]",
    ]
    return draw(st.sampled_from(forms))()


@st.composite
def str_exprs(draw, keys: dict[str, str], depth: int = 0) -> str:
    strs = [_read(k) for k, t in keys.items() if t == "str"]
    ints = [_read(k) for k, t in keys.items() if t == "int"]
    forms = [
        lambda: repr(draw(TEXT)),
        lambda: f"str({draw(int_exprs(keys, depth + 1))})",
        lambda: f"{repr(draw(TEXT))}.upper()",
        lambda: f'f"<{draw(st.sampled_from(ints or ["1"]))}>"',
    ]
    if strs:
        forms.append(lambda: draw(st.sampled_from(strs)))
    return draw(st.sampled_from(forms))()


@st.composite
def specs(draw) -> dict:
    names = draw(st.lists(st.sampled_from(KEYS), min_size=1, max_size=4, unique=True))
    types_ = {n: draw(st.sampled_from(["int", "list", "str", "dict"])) for n in names}
    state = []
    for name, t in types_.items():
        reducer = {"list": "add", "dict": "merge"}.get(t, "none") if draw(st.booleans()) else "none"
        state.append({"name": name, "type": t, "reducer": reducer})
    exprs = {"int": int_exprs(types_), "list": list_exprs(types_), "str": str_exprs(types_)}
    exprs["dict"] = exprs["int"].map(lambda e: f"{{'k': {e}}}")
    ids = draw(st.lists(st.sampled_from(IDS), min_size=1, max_size=4, unique=True))
    nodes = []
    for node_id in ids:
        written = draw(st.lists(st.sampled_from(names), min_size=1, max_size=2, unique=True))
        node = {"id": node_id, "kind": "set_state", "label": draw(TEXT)}
        node["values"] = {k: draw(exprs[types_[k]]) for k in written}
        nodes.append(node)
    edges, conditional = [], []
    for i, node_id in enumerate(ids[1:], 1):
        edges.append(
            {"id": f"e{i}", "sources": [ids[draw(st.integers(0, i - 1))]], "target": node_id}
        )
    for i, node_id in enumerate(ids):
        later = ids[i + 1 :] or ["__end__"]
        kind = draw(st.sampled_from(["none", "expression", "send"]))
        if kind == "expression":
            yes, no = draw(st.sampled_from(later)), draw(st.sampled_from([*later, "__end__"]))
            test = draw(exprs["int"])
            expression = f"{yes!r} if {test} > 0 else {'END' if no == '__end__' else repr(no)}"
            router = {"kind": "expression", "expression": expression}
            conditional.append({"id": f"r{i}", "source": node_id, "router": router,
                                "path_map": sorted({yes, no})})  # fmt: skip
        elif kind == "send" and i + 1 < len(ids) and any(t == "int" for t in types_.values()):
            key = next(k for k, t in types_.items() if t == "int")
            router = {"kind": "send", "target": ids[i + 1], "over": draw(exprs["list"]),
                      "input": {key: draw(st.sampled_from(["item", "item * 2", "len(str(item))"]))}}  # fmt: skip
            conditional.append({"id": f"s{i}", "source": node_id, "router": router})
    run = {n: {"int": 1, "list": [2], "str": "s", "dict": {}}[t] for n, t in types_.items()}
    return {
        "name": draw(TEXT),
        "description": draw(TEXT),
        "state": state,
        "nodes": nodes,
        "edges": edges,
        "conditional_edges": conditional,
        "entry": [ids[0]],
        "finish": [ids[-1]],
        "recursion_limit": 12,
        "inputs": [{"name": "run", "value": run}],
    }


_counter = itertools.count()


def _module(code: str) -> types.ModuleType:
    name = f"superstep_property_{next(_counter)}"
    module = types.ModuleType(name)
    sys.modules[name] = module
    try:
        # dont_inherit: this file's `from __future__ import annotations` must not apply
        exec(compile(code, f"<{name}>", "exec", dont_inherit=True), module.__dict__)  # noqa: S102 (the export under test)
    finally:
        del sys.modules[name]
    return module


def _outcome(app, run: dict) -> object:
    try:
        return app.invoke(run, {"recursion_limit": 12})
    except Exception:  # a failing run: which exception differs between the two runtimes
        return "failed"


def _check_allow_list(code: str) -> None:
    tree = ast.parse(code)
    defined = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    defined |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets}
    imported = {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom | ast.Import)
                for a in n.names}  # fmt: skip
    assert imported <= set(IMPORTED), imported - set(IMPORTED)
    local = {a.arg for n in ast.walk(tree) if isinstance(n, ast.arguments) for a in n.args}
    local |= {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                assert node.func.id in ALLOWED_CALLS | defined, ast.unparse(node)
            else:
                assert isinstance(node.func, ast.Attribute), ast.unparse(node)
                assert node.func.attr in ALLOWED_METHODS, ast.unparse(node)
        elif isinstance(node, ast.Attribute) and id(node) not in called:
            assert node.attr in ALLOWED_ATTRIBUTES, ast.unparse(node)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            assert node.id in ALLOWED_BUILTINS | defined | imported | local, node.id


@PROPERTY
@given(specs())
def test_the_export_ends_where_the_engine_ends_and_calls_only_allowed_names(doc):
    spec = spec_from_dict(doc)
    try:
        app = compile_spec(spec)
    except SpecError:  # the validator refuses it (a parallel write, a name it forbids, ...)
        assume(False)
    code = to_langgraph(spec)
    _check_allow_list(code)
    run = spec.inputs[0].value
    assert _outcome(_module(code).compile_graph(), run) == _outcome(app, run)
    mermaid = to_mermaid(spec)
    assert len(mermaid.splitlines()) == mermaid.count("\n")
