"""Spec -> a standalone langgraph module (`to_langgraph`).

The module needs only langgraph (and langchain for model, tools and agent nodes). It keeps the
spec's names: a node `greet` is a function `greet`, an expression router `route` a function
`route`, the state a `State` TypedDict. Expressions become plain Python over the state dict
(`graphspec.pysource.expression`); inline code is copied as written. The module defines
`build_graph()` (the builder), `compile_graph(checkpointer=None)` and `graph`. Which names the
module may use is `python_module`'s job.
"""

from __future__ import annotations

import ast
import builtins
import os
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from engine.constants import END, START
from graphspec.endpoints import models
from graphspec.errors import SpecError
from graphspec.export.compile_args import compile_parts
from graphspec.export.deep_agent_code import deep_agent_call
from graphspec.export.mcp_code import mcp_tools_source
from graphspec.export.python_module import (
    PREGEL_IMPORTS,
    PythonModule,
    file_imports,
    used_imports,
)
from graphspec.export.scripted_model import scripted_model
from graphspec.io import resolve_subgraph, subgraph_dir
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
from graphspec.program_names import file_modules
from graphspec.pysource import docstring_body, expression, keyword_args, literal
from graphspec.state_types import STATE_TYPES

REDUCER_NAMES = {"add": "operator.add", "add_messages": "add_messages", "merge": "merge_dicts"}


def _pascal(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part) or "Sub"


class _GraphWriter:
    def __init__(
        self,
        module: PythonModule,
        spec: GraphSpec,
        prefix: str,
        base_dir: Any,
        depth: int,
        path: str = "$",
    ):
        self.m = module
        self.spec = spec
        self.path = path
        """This graph's JSON path: `$`, or a subgraph's under it."""
        self.at = ("", path)
        """(id, JSON path) of the element being written, for errors that name it."""
        self.prefix = prefix
        self.base_dir = base_dir
        self.depth = depth
        module.files.update(file_modules(spec, base_dir))

    def expression(self, text: str, field: str, *, item: bool = False) -> str:
        """`text` as Python; one that does not parse (or cannot be written) names its place."""
        try:
            return expression(text, item=item, defaults=self.spec.state_defaults())
        except SpecError as exc:
            element_id, path = self.at
            raise type(exc)(str(exc), element_id=element_id, path=f"{path}.{field}") from None

    def fn(self, wanted: str) -> str:
        return self.m.name(f"{self.prefix}{wanted}" if self.prefix else wanted)

    def write(self) -> str:
        """Writes everything this graph needs; returns the name of its build function."""
        spec = self.spec
        state = self.state_classes()
        children = {}
        for j, sub in enumerate(spec.subgraphs):
            child, child_dir = _child(sub, self.base_dir, self.depth)
            where = f"{self.path}.subgraphs[{j}]" + (".graph" if sub.graph is not None else "")
            writer = _GraphWriter(self.m, child, f"{sub.id}_", child_dir, self.depth + 1, where)
            children[sub.id] = f"{writer.write()}().compile({', '.join(_breakpoints(child))})"
        lines = [f"    builder = StateGraph({state})"]
        for i, node in enumerate(spec.nodes):
            self.at = (node.id, f"{self.path}.nodes[{i}]")
            lines.append(f"    builder.add_node({self.add_node_args(node, children)})")
        for _, _, sources, target in spec.all_edges():
            start = _endpoint(sources[0]) if len(sources) == 1 else _list(sources)
            lines.append(f"    builder.add_edge({start}, {_endpoint(target)})")
        for i, edge in enumerate(spec.conditional_edges):
            self.at = (edge.id, f"{self.path}.conditional_edges[{i}]")
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
            reducer = self.reducer(key)
            annotations[key.name] = source if reducer is None else f"Annotated[{source}, {reducer}]"
        pascal = _pascal(self.prefix.rstrip("_")) if self.prefix else ""
        if spec.state_class is not None:  # the program's own class, imported as written
            state = self.m.code(CodeRef(import_path=spec.state_class), "state")
        else:
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
        if spec.context_schema is not None:
            context = self.m.code(CodeRef(import_path=spec.context_schema), "context")
            args.append(f"context_schema={context}")
        return ", ".join(args)

    def reducer(self, key: Any) -> str | None:
        """The key's reducer as source (None: it has none); its imports and helper go in."""
        if key.managed or key.reducer == "none":
            return None
        if key.reducer == "custom" and key.custom_reducer is not None:
            return self.m.code(key.custom_reducer, f"reducer of {key.name}")
        if key.reducer == "merge" and _MERGE_HELPER not in self.m.blocks:
            self.m.blocks.insert(0, _MERGE_HELPER)
        return REDUCER_NAMES.get(key.reducer, "operator.add")

    def pregel_args(self) -> list[str]:
        """A graph built by hand as `Pregel(...)`'s arguments: its nodes wired with NodeBuilder,
        its channels, its input and output channels."""
        for line in PREGEL_IMPORTS:
            self.m.need(line)
        nodes = []
        for i, node in enumerate(self.spec.nodes):
            self.at = (node.id, f"{self.path}.nodes[{i}]")
            wiring = node.channels
            fn = self.m.code(node, f"node {node.id}")
            if wiring.subscribe_only is not None:
                built = f"NodeBuilder().subscribe_only({wiring.subscribe_only!r})"
            else:
                built = f"NodeBuilder().subscribe_to({_names(wiring.subscribe_to)})"
            nodes.append(f"{node.id!r}: {built}.do({fn}).write_to({_names(wiring.write_to)})")
        channels = [f"{key.name!r}: {self.channel(key)}" for key in self.spec.state]
        inputs = [k.name for k in self.spec.state if k.input]
        outputs = [k.name for k in self.spec.state if k.output]
        return [f"nodes={{{', '.join(nodes)}}}", f"channels={{{', '.join(channels)}}}",
                f"input_channels={inputs!r}", f"output_channels={outputs!r}"]  # fmt: skip

    def channel(self, key: Any) -> str:
        typ = STATE_TYPES[key.type].source
        if key.channel == "ephemeral":
            return f"EphemeralValue({typ})"
        if key.channel is not None:
            accumulate = ", accumulate=True" if key.channel == "accumulating_topic" else ""
            return f"Topic({typ}{accumulate})"
        reducer = self.reducer(key)
        return (
            f"LastValue({typ})" if reducer is None else f"BinaryOperatorAggregate({typ}, {reducer})"
        )

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
        return children[node.subgraph]

    def set_state_action(self, node: SetStateNode, children: dict[str, str]) -> str:
        name, doc = self.node_def(node)
        update = _dict_source(
            {k: self.expression(v, f"values.{k}") for k, v in node.values.items()}
        )
        if node.goto is None:
            body = f"    return {update}"
        else:
            goto = self.expression(node.goto, "goto")
            body = f"    return Command(update={update}, goto={goto})"
        self.m.blocks.append(f"def {name}(state: dict) -> Any:\n{doc}{body}\n")
        return name

    def interrupt_action(self, node: InterruptNode, children: dict[str, str]) -> str:
        name, doc = self.node_def(node)
        value = repr(node.prompt)
        if node.payload is not None:
            payload = self.expression(node.payload, "payload")
            value = f"{{'prompt': {node.prompt!r}, 'payload': {payload}}}"
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
        handling = ""
        if node.handle_tool_errors is not None:
            handling = f", handle_tool_errors={node.handle_tool_errors!r}"
        return f"ToolNode({tools}, messages_key={node.messages_key!r}{handling})"

    def agent_action(self, node: AgentNode, children: dict[str, str]) -> str:
        self.node_def(node)
        return self.agent(node)

    def model(self, settings: ModelSettings, owner: str) -> str:
        name = self.m.name(f"{self.prefix}{owner}_model")
        if settings.factory is not None:
            value = f"{self.m.code(settings.factory, f'model of {owner}')}()"
        elif settings.provider == "scripted":
            value = scripted_model(self.m, settings)
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
            if ref.call is not None:  # the tool the call makes, as it is
                names.append(fn)
                continue
            direct = ", return_direct=True" if ref.return_direct else ""
            names.append(
                f"tool({ref.name!r}, description={ref.description or ref.name!r}{direct})({fn})"
            )
        return f"[{', '.join(names)}]"

    def agent(self, node: AgentNode) -> str:
        agent = self.spec.agent(node.agent)
        if agent is None:
            raise SpecError(f"unknown agent {node.agent!r}", element_id=node.id)
        if agent.deep is None:
            self.m.need("from langchain.agents import create_agent")
        middleware = []
        for mw in agent.middleware:
            if isinstance(mw, CustomMiddleware) and mw.call is not None:
                made = CodeRef(import_path=mw.import_path, call=mw.call)
                middleware.append(self.m.code(made, f"middleware {mw.name}"))
            elif isinstance(mw, CustomMiddleware) and mw.import_path is not None:
                name = self.m.code(CodeRef(import_path=mw.import_path), f"middleware {mw.name}")
                args = ", ".join(keyword_args(mw.settings))
                middleware.append(f"{name}({args})" if mw.build else name)
            elif isinstance(mw, CustomMiddleware):
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
        if agent.mcp_servers:  # after the agent's own, as the compiler puts them
            chosen = mcp_tools_source(self.m, agent, self.prefix)
            tools = f"{tools} + {chosen}" if agent.tools else chosen
        if agent.deep is not None:
            label = None if agent.unnamed else node.id
            helpers = (self.model, self.tools)
            call = deep_agent_call(self, agent, model, tools, middleware, label, helpers)
            self.m.blocks.append(f"{name} = {call}\n")
            return name
        extra = "".join(f", {k}={v}" for k, v in self.agent_extras(agent).items())
        label = "" if agent.unnamed else f", name={node.id!r}"
        if agent.builder == "create_react_agent":
            self.m.need("from langgraph.prebuilt import create_react_agent")
            prompt = f", prompt={agent.system_prompt!r}" if agent.system_prompt else ""
            self.m.blocks.append(
                f"{name} = create_react_agent({model}, {tools}{prompt}{extra}{label})\n"
            )
            return name
        system = f", system_prompt={agent.system_prompt!r}" if agent.system_prompt else ""
        mws = f", middleware=[{', '.join(middleware)}]" if middleware else ""
        self.m.blocks.append(
            f"{name} = create_agent({model}, {tools}{system}{mws}{extra}{label})\n"
        )
        return name

    def agent_extras(self, agent: Any) -> dict[str, str]:
        """The agent's response_format, state and context schemas and model hooks as source."""
        out = {}
        for field in ("state_schema", "context_schema"):
            if (value := getattr(agent, field)) is not None:
                out[field] = self.m.code(CodeRef(import_path=value), f"{field} of {agent.id}")
        for field in ("pre_model_hook", "post_model_hook"):
            if (ref := getattr(agent, field)) is not None:
                out[field] = self.m.code(ref, f"{field} of {agent.id}")
        if (fmt := agent.response_format) is not None:
            schema = self.m.code(CodeRef(import_path=fmt.schema_class),
                                 f"response_format of {agent.id}")  # fmt: skip
            if fmt.strategy != "auto":
                strategy = {"tool": "ToolStrategy", "provider": "ProviderStrategy"}[fmt.strategy]
                self.m.need(f"from langchain.agents.structured_output import {strategy}")
                schema = f"{strategy}({schema})"
            out["response_format"] = schema
        return out

    # -------------------------------------------------------------- routers

    def conditional_args(self, edge: ConditionalEdge) -> str:
        router = edge.router
        if isinstance(router, CodeRouter):
            fn = self.m.code(router, f"router {edge.id}")
        else:
            fn = self.fn(edge.id)
            if isinstance(router, ExpressionRouter):
                body = f"    return {self.expression(router.expression, 'router.expression')}"
            else:
                assert isinstance(router, SendRouter)
                packet = _dict_source(
                    {
                        k: self.expression(v, f"router.input.{k}", item=True)
                        for k, v in router.input.items()
                    }
                )
                body = (
                    f"    return [Send({router.target!r}, {packet}) "
                    f"for item in {self.expression(router.over, 'router.over')}]"
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


def _names(names: list[str]) -> str:
    return ", ".join(repr(n) for n in names)


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
    return resolve_subgraph(sub, base_dir, depth), subgraph_dir(sub, base_dir)


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
        refs += [(agent.id, agent.pre_model_hook), (agent.id, agent.post_model_hook)]
    refs += [(element, settings.factory) for element, _, settings in models(spec)]
    yield from ((eid, ref.code) for eid, ref in refs if ref is not None and ref.code is not None)
    for sub in spec.subgraphs:
        child, child_dir = _child(sub, base_dir, depth)
        yield from _inline_code(child, child_dir, depth + 1)


def to_langgraph(spec: GraphSpec, base_dir: str | os.PathLike[str] | None = None) -> str:
    module = PythonModule()
    for element_id, code in _inline_code(spec, base_dir, 0):
        module.reserve_code_names(element_id, code)
    writer = _GraphWriter(module, spec, "", base_dir, 0)
    if spec.graph_is_node:  # the node's agent or compiled graph is the graph
        graph_value = writer.action(spec.nodes[0], {})
    elif spec.pregel:
        pregel_args = writer.pregel_args()
    else:
        writer.write()
    title = docstring_body(spec.name or "graph")
    head = f'"""{title}: {docstring_body(spec.description)}' if spec.description else f'"""{title}'

    limit = spec.recursion_limit
    default_saver, runtime = compile_parts(spec, module)
    if spec.graph_is_node:  # compiled already: the run's parts go in place of its own
        parts = {"checkpointer": "checkpointer", **runtime}
        points = spec.breakpoints_on([n.id for n in spec.nodes if n.kind == "function"])
        parts.update({k: repr(v) for k, v in points.items() if v})
        compiled = f"{graph_value}.copy({{{', '.join(f'{k!r}: {v}' for k, v in parts.items())}}})"
    elif spec.pregel:
        points = spec.breakpoints_on([n.id for n in spec.nodes])
        keywords = [*pregel_args, "checkpointer=checkpointer"]
        keywords += [f"{k}={v}" for k, v in runtime.items()]
        keywords += [f"{k}={v!r}" for k, v in points.items() if v]
        compiled = f"Pregel(\n        {(',' + chr(10) + '        ').join(keywords)},\n    )"
    else:
        keywords = ["checkpointer=checkpointer", *(f"{k}={v}" for k, v in runtime.items())]
        compiled = f"build_graph().compile({', '.join(keywords + _breakpoints(spec))})"
    tail = (
        "\n\ndef compile_graph(checkpointer: Any = None) -> Any:\n"
        + default_saver
        + f"    compiled = {compiled}\n"
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
        + "\n".join(file_imports(used_imports(module.imports, body), module.files, body))
        + (f"\n\nRECURSION_LIMIT = {limit}" if limit else "")
        + "\n\n\n"
        + body
    )
    try:
        ast.parse(text)
    except SyntaxError as exc:  # copied code that does not parse
        raise SpecError(f"exported code does not parse: {exc.msg} (line {exc.lineno})") from None
    return text


def _breakpoints(spec: GraphSpec) -> list[str]:
    """compile()'s keywords for the graph's static breakpoints."""
    out = []
    if spec.breakpoints.before:
        out.append(f"interrupt_before={list(spec.breakpoints.before)!r}")
    if spec.breakpoints.after:
        out.append(f"interrupt_after={list(spec.breakpoints.after)!r}")
    return out


__all__ = ["to_langgraph"]
