"""Spec -> elsewhere: a standalone langgraph module, Mermaid, and the JSON Schema of the state.

    export(spec, "langgraph" | "mermaid" | "json-schema", base_dir=None) -> str

The langgraph module needs only langgraph (and langchain for model, tools and agent nodes). It
keeps the spec's names: a node `greet` is a function `greet`, an expression router `route` a
function `route`, the state a `State` TypedDict. Expressions become plain Python over the state
dict (`graphspec.pysource.expression`); inline code is copied as written. The module defines
`build_graph()` (the builder), `compile_graph(checkpointer=None)` and `graph`.

Exporting runs no code from the spec, so an untrusted spec exports too; and a spec without code
exports a module that runs none: names the export makes from ids never hide a builtin or one of
the module's own names (they get a trailing `_`), and spec text is written as literals.
"""

from __future__ import annotations

import ast
import builtins
import json
import keyword
import os
import re
import symtable
import textwrap
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from engine.agents.middleware.types import HOOKS
from engine.constants import END, START
from graphspec.compiler import scripted_tool_calls
from graphspec.errors import SpecError
from graphspec.io import resolve_subgraph
from graphspec.model import (
    PREBUILT_MIDDLEWARE,
    AgentNode,
    CodeRef,
    CodeRouter,
    ConditionalEdge,
    CustomMiddleware,
    ExpressionRouter,
    FunctionNode,
    GraphSpec,
    InterruptNode,
    ModelNode,
    ModelSettings,
    SendRouter,
    SetStateNode,
    SubgraphNode,
    ToolsNode,
)
from graphspec.node_kinds import by_kind
from graphspec.pysource import comment, docstring_body, expression, keyword_args, literal
from graphspec.routes import conditional_routes
from graphspec.state_types import STATE_TYPES

REDUCER_NAMES = {"add": "operator.add", "add_messages": "add_messages", "merge": "merge_dicts"}
BASE_IMPORTS = [
    "import operator",
    "from typing import Annotated, Any, TypedDict",
    "",
    "from langgraph.config import get_stream_writer",
    "from langgraph.graph import END, START, StateGraph",
    "from langgraph.graph.message import add_messages",
    "from langgraph.managed import IsLastStep, RemainingSteps",
    "from langgraph.prebuilt import ToolRuntime",
    "from langgraph.types import CachePolicy, Command, RetryPolicy, Send, interrupt",
]
OPTIONAL_IMPORTS = [
    "from langchain_core.messages import AIMessage, SystemMessage",
    "from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel",
    "from langchain_core.tools import tool",
    "from langchain.chat_models import init_chat_model",
    "from langchain.agents import create_agent",
    "from langgraph.prebuilt import ToolNode",
    "from langchain.agents.middleware import "
    + ", ".join([*PREBUILT_MIDDLEWARE.values(), *HOOKS]),
]
"""Everything `_Module.need` may add: the names are reserved whether or not a spec needs them."""


SCRIPTED_MODEL_SOURCE = '''
class ScriptedModel(FakeMessagesListChatModel):
    """Replies with responses[n], n being the number of AI messages already in the conversation
    (cycling): a run resumed in another process picks up where it stopped. Binding tools changes
    nothing."""

    def bind_tools(self, tools, **kwargs):
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        self.i = sum(1 for m in messages if m.type == "ai") % len(self.responses)
        return super()._generate(messages, stop, run_manager, **kwargs)
'''
"""The offline chat model of `scripted` settings, written into the module: it runs on langchain
alone, where the compiler's ScriptedChatModel (engine.agents) is not available."""


def _import_origins(lines: list[str]) -> dict[str, str | None]:
    """name -> the module it is imported from (None for `import name`)."""
    out: dict[str, str | None] = {}
    for line in lines:
        if line.startswith("from "):
            module, _, names = line[5:].partition(" import ")
            out.update(dict.fromkeys(names.split(", "), module))
        elif line.startswith("import "):
            out[line[7:]] = None
    return out


IMPORTED = _import_origins(BASE_IMPORTS + OPTIONAL_IMPORTS)
RESERVED = {
    *IMPORTED, "merge_dicts", "build_graph", "compile_graph", "graph", "RECURSION_LIMIT", "json",
    "ScriptedModel", "builder", "compiled", "checkpointer", "messages",
}  # fmt: skip
"""The module's own names (imports, helpers, locals of its functions): no generated name takes one."""


def _taken(name: str) -> bool:
    """Names no generated name or copied code may bind: builtins, keywords, dunders, ours."""
    return (
        name in RESERVED
        or name in builtins.__dict__
        or keyword.iskeyword(name)
        or (name.startswith("__") and name.endswith("__"))
    )


def _pascal(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part) or "Sub"


class _Module:
    """Collects the parts of one exported module."""

    def __init__(self) -> None:
        self.imports: list[str] = list(BASE_IMPORTS)
        self.blocks: list[str] = []
        self.used: set[str] = set(RESERVED)

    def name(self, wanted: str) -> str:
        name = wanted.strip("_") or "fn" if wanted.startswith("__") else wanted
        while name in self.used or _taken(name):
            name = f"{name}_"
        self.used.add(name)
        return name

    def reserve_code_names(self, element_id: str, code: str) -> None:
        """Copied code keeps its names, so the names it binds at module level are taken first;
        it may not rebind a builtin or one of the module's names (except by the same import)."""
        try:
            table = symtable.symtable(textwrap.dedent(code).strip() + "\n", "<code>", "exec")
            tree = ast.parse(textwrap.dedent(code).strip())
        except (SyntaxError, ValueError):
            return  # the whole module's parse check reports it
        same_imports = {
            alias.asname or alias.name
            for node in tree.body
            if isinstance(node, (ast.Import, ast.ImportFrom))
            for alias in node.names
            if alias.asname in (None, alias.name)
            and IMPORTED.get(alias.name, "") == getattr(node, "module", None)
            and not getattr(node, "level", 0)
        }
        for symbol in table.get_symbols():
            name = symbol.get_name()
            if not (symbol.is_assigned() or symbol.is_imported() or not symbol.is_referenced()):
                continue
            if _taken(name) and name not in same_imports:
                raise SpecError(
                    f"code binds {name!r}, a builtin or a name the exported module needs; "
                    "rename it",
                    element_id=element_id,
                )
            self.used.add(name)

    def need(self, line: str) -> None:
        if line not in self.imports:
            self.imports.append(line)

    def code(self, ref: CodeRef | FunctionNode, title: str) -> str:
        """Copy inline code (or import by path); returns the function's name in the module."""
        if ref.import_path is not None:
            module, _, attr = ref.import_path.partition(":")
            head, _, _ = attr.partition(".")
            alias = self.name(head)
            self.need(f"from {module} import {head}" + (f" as {alias}" if alias != head else ""))
            return alias + attr[len(head) :]
        if _taken(ref.function or ""):
            raise SpecError(
                f"function {ref.function!r} would hide a builtin or a name of the exported "
                "module; rename it",
                element_id=title.split()[-1],  # titles end with the element's id
            )
        self.used.add(ref.function or "")
        self.blocks.append(f"{comment(title)}\n{textwrap.dedent(ref.code or '').strip()}\n")
        return ref.function or ""


class _GraphWriter:
    def __init__(self, module: _Module, spec: GraphSpec, prefix: str, base_dir: Any, depth: int):
        self.m = module
        self.spec = spec
        self.prefix = prefix
        self.base_dir = base_dir
        self.depth = depth

    def fn(self, wanted: str) -> str:
        return self.m.name(f"{self.prefix}{wanted}" if self.prefix else wanted)

    def write(self) -> str:
        """Writes everything this graph needs; returns the name of its build function."""
        spec = self.spec
        state = self.state_classes()
        children = {}
        for sub in spec.subgraphs:
            child, child_dir = _child(sub, self.base_dir, self.depth)
            writer = _GraphWriter(self.m, child, f"{sub.id}_", child_dir, self.depth + 1)
            children[sub.id] = writer.write()
        lines = [f"    builder = StateGraph({state})"]
        for node in spec.nodes:
            lines.append(f"    builder.add_node({self.add_node_args(node, children)})")
        for _, _, sources, target in spec.all_edges():
            start = _endpoint(sources[0]) if len(sources) == 1 else _list(sources)
            lines.append(f"    builder.add_edge({start}, {_endpoint(target)})")
        for edge in spec.conditional_edges:
            lines.append(f"    builder.add_conditional_edges({self.conditional_args(edge)})")
        build = self.fn("build_graph") if self.prefix else "build_graph"
        doc = (
            f'    """The {docstring_body(spec.name or "graph")} builder."""\n'
            if not self.prefix
            else ""
        )
        self.m.blocks.append(
            f"def {build}() -> StateGraph:\n{doc}" + "\n".join(lines) + "\n    return builder\n"
        )
        return build

    # -------------------------------------------------------------- state

    def state_classes(self) -> str:
        spec = self.spec
        annotations = {}
        for key in spec.state:
            source = STATE_TYPES[key.type].source
            if key.managed or key.reducer == "none":
                annotations[key.name] = source
            else:
                if key.reducer == "custom" and key.custom_reducer is not None:
                    reducer = self.m.code(key.custom_reducer, f"reducer of {key.name}")
                else:
                    reducer = REDUCER_NAMES.get(key.reducer, "operator.add")
                annotations[key.name] = f"Annotated[{source}, {reducer}]"
        if any(k.reducer == "merge" for k in spec.state) and _MERGE_HELPER not in self.m.blocks:
            self.m.blocks.insert(0, _MERGE_HELPER)
        pascal = _pascal(self.prefix.rstrip("_")) if self.prefix else ""
        state = self.m.name(f"{pascal}State")
        self.m.blocks.append(self._typed_dict(state, annotations, spec.description))
        plain = [k.name for k in spec.state if not k.managed]
        inputs = [k.name for k in spec.state if not k.managed and k.input]
        outputs = [k.name for k in spec.state if not k.managed and k.output]
        args = [state]
        for label, keys in (("Input", inputs), ("Output", outputs)):
            if keys != plain:
                name = self.m.name(f"{pascal}{label}")
                self.m.blocks.append(self._typed_dict(name, {k: annotations[k] for k in keys}, ""))
                args.append(f"{label.lower()}_schema={name}")
        return ", ".join(args)

    @staticmethod
    def _typed_dict(name: str, annotations: dict[str, str], doc: str) -> str:
        if any(k.startswith("__") for k in annotations):  # a class body would mangle `__key`
            fields = ", ".join(f"{k!r}: {v}" for k, v in annotations.items())
            return f"{name} = TypedDict({name!r}, {{{fields}}})\n"
        body = [f"    {k}: {v}" for k, v in annotations.items()] or ["    pass"]
        head = f'    """{docstring_body(doc)}"""\n\n' if doc else ""
        return f"class {name}(TypedDict):\n{head}" + "\n".join(body) + "\n"

    # -------------------------------------------------------------- nodes

    def add_node_args(self, node: Any, children: dict[str, str]) -> str:
        action = self.action(node, children)
        args = [repr(node.id), action]
        if node.retry is not None:
            args.append(f"retry_policy={_retry(node.retry)}")
        if node.cache is not None:
            args.append(f"cache_policy=CachePolicy(ttl={literal(node.cache.ttl)})")
        destinations = getattr(node, "destinations", None)
        if destinations:
            args.append(f"destinations={tuple(destinations)!r}")
        if node.defer:
            args.append("defer=True")
        return ", ".join(args)

    def action(self, node: Any, children: dict[str, str]) -> str:
        """The expression `add_node` gets for the node: a function's name or an object."""
        return _ACTIONS[node.kind](self, node, children)

    def node_def(self, node: Any) -> tuple[str, str]:
        """The name of the function a node becomes, and its docstring line. Every kind but
        function and subgraph takes the name first, even the kinds that do not use it (tools,
        agent): the names made after it depend on it, and exports stay as they were."""
        doc = f'    """{docstring_body(node.description)}"""\n' if node.description else ""
        return self.fn(node.id), doc

    def function_action(self, node: FunctionNode, children: dict[str, str]) -> str:
        return self.m.code(node, f"node {node.id}")

    def subgraph_action(self, node: SubgraphNode, children: dict[str, str]) -> str:
        if node.subgraph not in children:
            raise SpecError(f"unknown subgraph {node.subgraph!r}", element_id=node.id)
        return f"{children[node.subgraph]}().compile()"

    def set_state_action(self, node: SetStateNode, children: dict[str, str]) -> str:
        name, doc = self.node_def(node)
        update = _dict_source({k: expression(v) for k, v in node.values.items()})
        if node.goto is None:
            body = f"    return {update}"
        else:
            body = f"    return Command(update={update}, goto={expression(node.goto)})"
        self.m.blocks.append(f"def {name}(state: dict) -> Any:\n{doc}{body}\n")
        return name

    def interrupt_action(self, node: InterruptNode, children: dict[str, str]) -> str:
        name, doc = self.node_def(node)
        value = repr(node.prompt)
        if node.payload is not None:
            value = f"{{'prompt': {node.prompt!r}, 'payload': {expression(node.payload)}}}"
        body = f"    return {{{node.resume_key!r}: interrupt({value})}}"
        self.m.blocks.append(f"def {name}(state: dict) -> dict:\n{doc}{body}\n")
        return name

    def model_action(self, node: ModelNode, children: dict[str, str]) -> str:
        name, doc = self.node_def(node)
        model = self.model(node.model, node.id)
        self.m.need("from langchain_core.messages import SystemMessage")
        system = (
            f"    messages = [SystemMessage(content={node.system_prompt!r}), *messages]\n"
            if node.system_prompt
            else ""
        )
        self.m.blocks.append(
            f"def {name}(state: dict) -> dict:\n{doc}"
            f"    messages = list(state.get({node.messages_key!r}) or [])\n{system}"
            f"    return {{{node.messages_key!r}: [{model}.invoke(messages)]}}\n"
        )
        return name

    def tools_action(self, node: ToolsNode, children: dict[str, str]) -> str:
        self.node_def(node)
        self.m.need("from langgraph.prebuilt import ToolNode")
        tools = self.tools(node.tools, node.id)
        return f"ToolNode({tools}, messages_key={node.messages_key!r})"

    def agent_action(self, node: AgentNode, children: dict[str, str]) -> str:
        self.node_def(node)
        return self.agent(node)

    def model(self, settings: ModelSettings, owner: str) -> str:
        name = self.m.name(f"{self.prefix}{owner}_model")
        if settings.provider == "scripted":
            self.m.need(
                "from langchain_core.language_models.fake_chat_models import "
                "FakeMessagesListChatModel"
            )
            self.m.need("from langchain_core.messages import AIMessage")
            block = SCRIPTED_MODEL_SOURCE.strip() + "\n"
            if block not in self.m.blocks:
                self.m.blocks.insert(0, block)
            calls = scripted_tool_calls(settings)
            responses = [
                f"AIMessage(content={r.content!r}, tool_calls={literal(calls[i])})"
                for i, r in enumerate(settings.responses)
            ] or ["AIMessage(content='')"]
            value = f"ScriptedModel(responses=[{', '.join(responses)}])"
        else:
            self.m.need("from langchain.chat_models import init_chat_model")
            args = [repr(f"{settings.provider}:{settings.model}"), *keyword_args(settings.params)]
            value = f"init_chat_model({', '.join(args)})"
        self.m.blocks.append(f"{name} = {value}\n")
        return name

    def tools(self, refs: list[Any], owner: str) -> str:
        self.m.need("from langchain_core.tools import tool")
        names = []
        for ref in refs:
            fn = self.m.code(ref, f"tool {ref.name} of {owner}")
            direct = ", return_direct=True" if ref.return_direct else ""
            names.append(f"tool({ref.name!r}, description={ref.description or ref.name!r}{direct})({fn})")
        return f"[{', '.join(names)}]"

    def agent(self, node: AgentNode) -> str:
        agent = self.spec.agent(node.agent)
        if agent is None:
            raise SpecError(f"unknown agent {node.agent!r}", element_id=node.id)
        self.m.need("from langchain.agents import create_agent")
        middleware = []
        for mw in agent.middleware:
            if isinstance(mw, CustomMiddleware):
                for hook, ref in mw.hooks.items():
                    self.m.need(f"from langchain.agents.middleware import {hook}")
                    fn = self.m.code(ref, f"{hook} hook of middleware {mw.name}")
                    if mw.can_jump_to:
                        middleware.append(f"{hook}(can_jump_to={list(mw.can_jump_to)!r})({fn})")
                    else:
                        middleware.append(f"{hook}({fn})")
            else:
                cls = PREBUILT_MIDDLEWARE[mw.name]
                self.m.need(f"from langchain.agents.middleware import {cls}")
                middleware.append(f"{cls}({', '.join(keyword_args(mw.settings))})")
        name = self.m.name(f"{self.prefix}{node.id}_agent")
        model = self.model(agent.model, agent.id)
        tools = self.tools(agent.tools, agent.id)
        system = f", system_prompt={agent.system_prompt!r}" if agent.system_prompt else ""
        mws = f", middleware=[{', '.join(middleware)}]" if middleware else ""
        self.m.blocks.append(
            f"{name} = create_agent({model}, {tools}{system}{mws}, name={node.id!r})\n"
        )
        return name

    # -------------------------------------------------------------- routers

    def conditional_args(self, edge: ConditionalEdge) -> str:
        router = edge.router
        if isinstance(router, CodeRouter):
            fn = self.m.code(router, f"router {edge.id}")
        else:
            fn = self.fn(edge.id)
            if isinstance(router, ExpressionRouter):
                body = f"    return {expression(router.expression)}"
            else:
                assert isinstance(router, SendRouter)
                packet = _dict_source(
                    {k: expression(v, item=True) for k, v in router.input.items()}
                )
                body = (
                    f"    return [Send({router.target!r}, {packet}) "
                    f"for item in {expression(router.over)}]"
                )
            self.m.blocks.append(f"def {fn}(state: dict) -> Any:\n{body}\n")
        args = [_endpoint(edge.source), fn]
        if edge.path_map is not None:
            args.append(repr(edge.path_map))
        elif isinstance(router, SendRouter):
            args.append(repr([router.target]))
        return ", ".join(args)


_ACTIONS: Mapping[str, Callable[[_GraphWriter, Any, dict[str, str]], str]] = by_kind(
    {
        "function": _GraphWriter.function_action,
        "set_state": _GraphWriter.set_state_action,
        "model": _GraphWriter.model_action,
        "tools": _GraphWriter.tools_action,
        "agent": _GraphWriter.agent_action,
        "interrupt": _GraphWriter.interrupt_action,
        "subgraph": _GraphWriter.subgraph_action,
    },
    "export",
)
"""Each node kind -> (writer, node, subgraph build functions) -> what `add_node` gets."""


_MERGE_HELPER = '''def merge_dicts(left: dict | None, right: dict | None) -> dict:
    """The `merge` reducer: a shallow dict merge, right wins."""
    return {**(left or {}), **(right or {})}
'''


def _endpoint(name: str) -> str:
    return {START: "START", END: "END"}.get(name, repr(name))


def _list(names: tuple[str, ...]) -> str:
    return "[" + ", ".join(repr(n) for n in names) + "]"


def _dict_source(items: dict[str, str]) -> str:
    return "{" + ", ".join(f"{k!r}: {v}" for k, v in items.items()) + "}"


def _retry(r: Any) -> str:
    defaults = type(r)()
    args = [
        f"{field}={literal(getattr(r, field))}"
        for field in (
            "initial_interval",
            "backoff_factor",
            "max_interval",
            "max_attempts",
            "jitter",
        )
        if getattr(r, field) != getattr(defaults, field)
    ]
    if r.retry_on:  # builtin exception classes only, as the compiler reads them
        names = [n for n in r.retry_on if _is_builtin_exception(n)]
        args.append(f"retry_on=({''.join(f'{n}, ' for n in names).rstrip()})")
    return f"RetryPolicy({', '.join(args)})"


def _is_builtin_exception(name: str) -> bool:
    value = builtins.__dict__.get(name)
    return isinstance(value, type) and issubclass(value, Exception)


def _child(sub: Any, base_dir: Any, depth: int) -> tuple[GraphSpec, Any]:
    """A subgraph's spec and the folder its own subgraph files are relative to."""
    child_dir = base_dir
    if sub.file is not None and base_dir is not None:
        child_dir = os.path.dirname(os.path.join(base_dir, sub.file))
    return resolve_subgraph(sub, base_dir, depth), child_dir


def _inline_code(spec: GraphSpec, base_dir: Any, depth: int) -> Iterator[tuple[str, str]]:
    """(element id, source) of every inline code block in the spec and its subgraphs."""
    refs: list[tuple[str, Any]] = [(k.name, k.custom_reducer) for k in spec.state]
    for node in spec.nodes:
        refs += [(node.id, node if isinstance(node, FunctionNode) else None)]
        refs += [(node.id, t) for t in getattr(node, "tools", [])]
    refs += [(e.id, e.router if isinstance(e.router, CodeRouter) else None)
             for e in spec.conditional_edges]  # fmt: skip
    for agent in spec.agents:
        refs += [(agent.id, t) for t in agent.tools]
        refs += [(agent.id, ref) for mw in agent.middleware
                 if isinstance(mw, CustomMiddleware) for ref in mw.hooks.values()]  # fmt: skip
    yield from ((eid, ref.code) for eid, ref in refs if ref is not None and ref.code is not None)
    for sub in spec.subgraphs:
        child, child_dir = _child(sub, base_dir, depth)
        yield from _inline_code(child, child_dir, depth + 1)


def to_langgraph(spec: GraphSpec, base_dir: str | os.PathLike[str] | None = None) -> str:
    module = _Module()
    for element_id, code in _inline_code(spec, base_dir, 0):
        module.reserve_code_names(element_id, code)
    _GraphWriter(module, spec, "", base_dir, 0).write()
    title = docstring_body(spec.name or "graph")
    head = f'"""{title}: {docstring_body(spec.description)}' if spec.description else f'"""{title}'

    limit = spec.recursion_limit
    tail = (
        "\n\ndef compile_graph(checkpointer: Any = None) -> Any:\n"
        f"    compiled = build_graph().compile(checkpointer=checkpointer{_breakpoints(spec)})\n"
        + (
            "    return compiled.with_config(recursion_limit=RECURSION_LIMIT)\n"
            if limit
            else "    return compiled\n"
        )
        + "\n\ngraph = compile_graph()\n"
    )
    body = "\n\n".join(module.blocks) + tail
    text = (
        head
        + "\n\nExported by Superstep Studio from a graph spec; runs on langgraph alone.\n"
        + '"""\n\n'
        + "\n".join(_used_imports(module.imports, body))
        + (f"\n\nRECURSION_LIMIT = {limit}" if limit else "")
        + "\n\n\n"
        + body
    )
    try:
        ast.parse(text)
    except SyntaxError as exc:  # copied code that does not parse
        raise SpecError(f"exported code does not parse: {exc.msg} (line {exc.lineno})") from None
    return text


def _used_imports(lines: list[str], body: str) -> list[str]:
    """The import lines with only the names the body uses (blank separators kept)."""
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", body))
    out = []
    for line in lines:
        if line.startswith("from ") and " as " not in line:
            head, _, names = line.partition(" import ")
            kept = [n for n in names.split(", ") if n in words]
            if kept:
                out.append(f"{head} import {', '.join(kept)}")
        elif line.startswith("import "):
            if line.split()[1] in words:
                out.append(line)
        else:
            out.append(line)
    while out and out[-1] == "":
        out.pop()
    return [line for i, line in enumerate(out) if line or (i and out[i - 1])]


def _breakpoints(spec: GraphSpec) -> str:
    out = ""
    if spec.breakpoints.before:
        out += f", interrupt_before={list(spec.breakpoints.before)!r}"
    if spec.breakpoints.after:
        out += f", interrupt_after={list(spec.breakpoints.after)!r}"
    return out


# ------------------------------------------------------------------ Mermaid


_SHAPES = by_kind(
    {
        "function": ("[", "]"),
        "set_state": ("[", "]"),
        "model": ("(", ")"),
        "tools": ("[/", "/]"),
        "agent": ("([", "])"),
        "interrupt": ("{{", "}}"),
        "subgraph": ("[[", "]]"),
    },
    "Mermaid export",
)
"""Each node kind's Mermaid shape (its opening and closing brackets)."""


_MERMAID_WORDS = {
    "end", "graph", "subgraph", "flowchart", "style", "classdef", "class", "click", "linkstyle",
    "direction", "call", "href", "default",
}  # fmt: skip
_MERMAID_ENTITIES = {"#": "#35;", '"': "#quot;", "<": "#lt;", ">": "#gt;", "|": "#124;"}


class _MermaidIds:
    """Each graph name -> a distinct Mermaid id: the name when it is a plain word, otherwise
    (edge targets may be any text) the name with other characters replaced, made unique."""

    def __init__(self, names: list[str]) -> None:
        self.ids: dict[str, str] = {}
        self.used: set[str] = set()
        for name in sorted(names, key=lambda n: not self._plain(n)):  # plain names keep theirs
            self(name)

    @staticmethod
    def _plain(name: str) -> bool:
        return bool(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name)) and (
            name.lower() not in _MERMAID_WORDS
        )

    def __call__(self, name: str) -> str:
        if name not in self.ids:
            wanted = name if self._plain(name) else re.sub(r"[^A-Za-z0-9_]", "_", name) + "_"
            if not wanted[0].isalpha() and wanted[0] != "_":
                wanted = f"n{wanted}"
            while wanted in self.used:
                wanted += "_"
            self.used.add(wanted)
            self.ids[name] = wanted
        return self.ids[name]


def _mermaid_text(text: str) -> str:
    """A label for inside `"..."`: one line (breaks become <br>), quotes and markup as entities."""

    def escape(line: str) -> str:
        return "".join(
            _MERMAID_ENTITIES.get(ch, ch) if ch.isprintable() else f"#{ord(ch)};" for ch in line
        )

    return "<br>".join(escape(line) for line in str(text).splitlines())


def to_mermaid(spec: GraphSpec) -> str:
    _mermaid_id = _MermaidIds([START, END, *(n.id for n in spec.nodes)])
    lines = []
    if spec.name:
        lines += ["---", f"title: {json.dumps(spec.name)}", "---"]
    lines += ["flowchart TD", "    __start__([START])"]
    for node in spec.nodes:
        left, right = _SHAPES[node.kind]
        label = _mermaid_text(node.label or node.id)
        lines.append(f'    {_mermaid_id(node.id)}{left}"{label}"{right}')
    lines.append("    __end__([END])")
    for _, _, sources, target in spec.all_edges():
        for source in sources:
            lines.append(f"    {_mermaid_id(source)} --> {_mermaid_id(target)}")
    for edge in spec.conditional_edges:
        src = _mermaid_id(edge.source)
        for label, target in conditional_routes(edge) or []:
            text = _mermaid_text(label)
            lines.append(f'    {src} -.->|"{text}"| {_mermaid_id(target)}')
    for node in spec.nodes:
        for dest in getattr(node, "destinations", []):
            lines.append(f"    {_mermaid_id(node.id)} -.->|goto| {_mermaid_id(dest)}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ JSON Schema of the state


def state_json_schema(spec: GraphSpec) -> dict[str, Any]:
    """The graph's input state as JSON Schema; reducers and output keys as `x-` extensions."""
    properties = {}
    for key in spec.state:
        if key.managed:
            continue
        prop = dict(STATE_TYPES[key.type].json_schema or {})
        if key.description:
            prop["description"] = key.description
        if key.reducer != "none":
            prop["x-reducer"] = key.reducer
        properties[key.name] = prop
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{spec.name or 'Graph'} input",
        "type": "object",
        "properties": {k: v for k, v in properties.items() if spec.key(k).input},
        "additionalProperties": False,
        "x-output-properties": {k: v for k, v in properties.items() if spec.key(k).output},
    }


def export(spec: GraphSpec, fmt: str, base_dir: str | os.PathLike[str] | None = None) -> str:
    if fmt == "langgraph":
        return to_langgraph(spec, base_dir)
    if fmt == "mermaid":
        return to_mermaid(spec)
    if fmt == "json-schema":
        return json.dumps(state_json_schema(spec), indent=2, ensure_ascii=False) + "\n"
    raise SpecError(f"unknown export format {fmt!r}")


__all__ = ["export", "to_langgraph", "to_mermaid", "state_json_schema"]
