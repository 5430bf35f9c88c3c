"""Spec -> engine StateGraph.

    build_graph(spec, trusted=..., base_dir=...)   an uncompiled engine StateGraph
    compile_spec(spec, trusted=..., checkpointer=...)  compiled, with the spec's breakpoints
    run_config(spec, thread_id)                    the config a run uses (recursion limit)

The validator runs first: any error finding raises SpecCompileError listing every one, each
with the element id and JSON path. Code runs only for a trusted spec (`graphspec.trust`).
"""

from __future__ import annotations

import builtins
import operator
import os
import re
import warnings
from collections.abc import Callable, Mapping
from typing import Annotated, Any, NamedTuple, TypedDict

from engine.graph import END, START, StateGraph
from engine.types import CachePolicy, Command, RetryPolicy, Send, default_retry_on, interrupt
from graphspec import expressions
from graphspec.errors import Finding, SpecCompileError, SpecError, UntrustedCodeError
from graphspec.io import resolve_subgraph, subgraph_dir
from graphspec.model import (
    PREBUILT_MIDDLEWARE,
    AgentNode,
    AgentSpec,
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
    StateKey,
    SubgraphNode,
    ToolsNode,
)
from graphspec.node_kinds import by_kind
from graphspec.state_limits import bounded_reducer
from graphspec.state_types import STATE_TYPES
from graphspec.trust import load_callable, load_ref, require_trust


def merge_dicts(left: dict | None, right: dict | None) -> dict:
    """The `merge` reducer: a shallow dict merge, right wins."""
    return {**(left or {}), **(right or {})}


# ------------------------------------------------------------------ state


BUILT_IN_REDUCERS: dict[str, Callable] = {"add": operator.add, "merge": merge_dicts}
"""And `add_messages`, engine.graph's: it loads langchain-core's messages (about 65 ms), so it
is imported when a spec's key uses it (`built_in_reducer`), not with the compiler."""


def built_in_reducer(name: str) -> Callable | None:
    """The function of a built-in reducer name (`add`, `add_messages`, `merge`), else None."""
    if name == "add_messages":
        from engine.graph import add_messages

        return add_messages
    return BUILT_IN_REDUCERS.get(name)


def _reducer(key: StateKey, index: int, trusted: bool) -> Callable | None:
    if (reducer := built_in_reducer(key.reducer)) is not None:
        # a code-free loop must not double a list every step into gigabytes (state_limits)
        return bounded_reducer(reducer, key.name, key.reducer, f"$.state[{index}].reducer")
    if key.reducer == "custom":
        ref = key.custom_reducer
        path = f"$.state[{index}].custom_reducer"
        if not trusted:
            raise UntrustedCodeError(
                [Finding(path, "custom reducer", key.name, code="python-code")]
            )
        if ref is None:
            raise SpecError(
                "a custom reducer needs `custom_reducer` code", element_id=key.name, path=path
            )
        return load_ref(ref, element_id=key.name, path=path)
    return None


def state_schemas(spec: GraphSpec, trusted: bool) -> tuple[type, type | None, type | None]:
    """(state, input, output) TypedDicts; input/output are None when they equal the state's keys."""
    fields: dict[str, Any] = {}
    for i, key in enumerate(spec.state):
        annotation = STATE_TYPES[key.type].annotation
        if key.managed:
            fields[key.name] = annotation
        elif (reducer := _reducer(key, i, trusted)) is not None:
            fields[key.name] = Annotated[annotation, reducer]
        else:
            fields[key.name] = annotation
    state = TypedDict("State", fields)  # type: ignore[misc]
    if spec.state_class is not None and trusted:  # the program's own class: defaults, validation
        state = load_callable(
            None, None, spec.state_class, element_id="state", path="$.state_class"
        )
    plain = [k.name for k in spec.state if not k.managed]
    inputs = [k.name for k in spec.state if not k.managed and k.input]
    outputs = [k.name for k in spec.state if not k.managed and k.output]
    input_schema = None if inputs == plain else TypedDict("Input", {k: fields[k] for k in inputs})  # type: ignore[misc]
    output_schema = (
        None if outputs == plain else TypedDict("Output", {k: fields[k] for k in outputs})
    )  # type: ignore[misc]
    return state, input_schema, output_schema


# ------------------------------------------------------------------ nodes


def _named(fn: Callable, name: str) -> Callable:
    fn.__name__ = fn.__qualname__ = name
    return fn


def _evaluate(expression: str, state: Any, element_id: str, path: str, **extra: Any) -> Any:
    try:
        return expressions.evaluate(expression, state, **extra)
    except expressions.ExpressionError as exc:
        kind = "edge" if path.startswith("$.conditional_edges") else "node"
        field = re.sub(r"^\$\.\w+\[\d+\]\.", "", path)
        raise type(exc)(f"{kind} {element_id!r}, field {field!r}: {exc}", element_id=element_id,
                        path=path) from None  # fmt: skip


def _set_state_action(node: SetStateNode, path: str, defaults: dict[str, Any]) -> Callable:
    def action(state: Any) -> Any:
        update = {
            key: _evaluate(expr, state, node.id, f"{path}.values.{key}", defaults=defaults)
            for key, expr in node.values.items()
        }
        if node.goto is None:
            return update
        goto = _evaluate(node.goto, state, node.id, f"{path}.goto", defaults=defaults)
        return Command(update=update, goto=goto)

    return _named(action, node.id)


def _interrupt_action(node: InterruptNode, path: str, defaults: dict[str, Any]) -> Callable:
    def action(state: Any) -> dict:
        value: Any = node.prompt
        if node.payload is not None:
            payload = _evaluate(node.payload, state, node.id, f"{path}.payload", defaults=defaults)
            value = {"prompt": node.prompt, "payload": payload}
        return {node.resume_key: interrupt(value)}

    return _named(action, node.id)


def scripted_tool_calls(settings: ModelSettings) -> list[list[dict[str, Any]]]:
    """Each response's tool calls as langchain dicts, with ids filled in when not given."""
    return [
        [
            {"name": c.name, "args": dict(c.args), "id": c.id or f"call_{i}_{j}"}
            for j, c in enumerate(r.tool_calls)
        ]
        for i, r in enumerate(settings.responses)
    ]


def chat_model(settings: ModelSettings, element_id: str = "model", path: str = "$") -> Any:
    """A langchain chat model: `scripted` replies offline from its responses, cycling; a
    `factory` makes the program's own."""
    if settings.factory is not None:
        ref = settings.factory
        make = load_ref(ref, element_id=element_id, path=f"{path}.factory")
        try:
            return make()
        except Exception as exc:  # whatever the program's model constructor raises
            raise SpecError(f"the model factory failed: {type(exc).__name__}: {exc}",
                            element_id=element_id, path=f"{path}.factory") from exc  # fmt: skip
    if settings.provider == "scripted":
        from langchain_core.messages import AIMessage

        from engine.agents.scripted import ScriptedChatModel

        calls = scripted_tool_calls(settings)
        responses = [
            AIMessage(content=r.content, tool_calls=calls[i])
            for i, r in enumerate(settings.responses)
        ] or [AIMessage(content="")]

        def reply(messages: list[Any]) -> Any:
            # by the conversation, not by a counter: a run resumed in another process picks up
            # where it stopped (the exported ScriptedModel does the same)
            return responses[sum(m.type == "ai" for m in messages) % len(responses)]

        # not streamed token by token, as the exported module's model is not
        return ScriptedChatModel(default=reply, disable_streaming=True)
    from graphspec.providers import init_provider_model

    return init_provider_model(settings.provider, settings.model, settings.params)


def _model_action(node: ModelNode) -> Callable:
    from langchain_core.messages import SystemMessage

    model = chat_model(node.model, node.id)

    def action(state: Any) -> dict:
        messages = list(state.get(node.messages_key) or [])
        if node.system_prompt:
            messages = [SystemMessage(content=node.system_prompt), *messages]
        return {node.messages_key: [model.invoke(messages)]}

    return _named(action, node.id)


def _tools(refs: list[Any], element_id: str, path: str) -> list[Any]:
    from langchain_core.tools import tool

    out = []
    for j, ref in enumerate(refs):
        fn = load_ref(ref, element_id=element_id, path=f"{path}.tools[{j}]")
        if ref.call is not None:  # a call gives the tool itself, as the factory made it
            out.append(fn)
            continue
        out.append(
            tool(
                ref.name, description=ref.description or ref.name, return_direct=ref.return_direct
            )(fn)
        )
    return out


def _tools_action(node: ToolsNode, path: str) -> Any:
    from engine.prebuilt import ToolNode

    handling = (
        {} if node.handle_tool_errors is None else {"handle_tool_errors": node.handle_tool_errors}
    )
    return ToolNode(_tools(node.tools, node.id, path), messages_key=node.messages_key, **handling)


def _middleware(agent: AgentSpec, element_id: str, path: str) -> list[Any]:
    from engine.agents import middleware as module

    out = []
    for j, mw in enumerate(agent.middleware):
        where = f"{path}.middleware[{j}]"
        if isinstance(mw, CustomMiddleware) and mw.import_path is not None:
            out.append(_imported_middleware(mw, element_id, where))
            continue
        if isinstance(mw, CustomMiddleware):
            for hook, ref in mw.hooks.items():
                fn = load_ref(ref, element_id=element_id, path=f"{where}.hooks.{hook}")
                decorator = getattr(module, hook)
                jumps = {"can_jump_to": list(mw.can_jump_to)} if mw.can_jump_to else {}
                out.append(decorator(**jumps)(fn) if jumps else decorator(fn))
            continue
        cls = getattr(module, PREBUILT_MIDDLEWARE[mw.name])
        try:
            out.append(cls(**mw.settings))
        except Exception as exc:  # whatever the middleware's constructor rejects the settings with
            raise SpecError(
                f"{mw.name} settings: {type(exc).__name__}: {exc}",
                element_id=element_id,
                path=where,
            ) from exc
    return out


def _imported_middleware(mw: CustomMiddleware, element_id: str, where: str) -> Any:
    """A program's AgentMiddleware by import path: the instance, or the class built with its
    settings."""
    if mw.call is not None:  # a library's middleware, made as the program's call made it
        return load_ref(CodeRef(import_path=mw.import_path, call=mw.call), element_id=element_id,
                        path=where)  # fmt: skip
    found = load_callable(None, None, mw.import_path, element_id=element_id, path=where)
    if isinstance(found, type) != mw.build:
        what = "a class (set build)" if mw.build is False else "no class"
        raise SpecError(f"middleware {mw.name}: {mw.import_path} names {what}",
                        element_id=element_id, path=f"{where}.import_path")  # fmt: skip
    if not mw.build:
        return found
    try:
        return found(**mw.settings)
    except Exception as exc:  # whatever the class's constructor rejects the settings with
        raise SpecError(f"{mw.name} settings: {type(exc).__name__}: {exc}",
                        element_id=element_id, path=where) from exc  # fmt: skip


def _agent_action(spec: GraphSpec, node: AgentNode, path: str, base_dir: Any = None) -> Any:
    from engine.agents import create_agent

    agent = spec.agent(node.agent)
    if agent is None:
        raise SpecError(f"unknown agent {node.agent!r}", element_id=node.id, path=f"{path}.agent")
    agent_path = f"$.agents[{spec.agents.index(agent)}]"
    model = chat_model(agent.model, node.id, f"{agent_path}.model")
    tools = _tools(agent.tools, node.id, agent_path)
    if agent.mcp_servers:  # the chosen tools of its MCP servers, after its own
        from graphspec.mcp_tools import agent_tools

        tools += agent_tools(agent, node.id, agent_path)
    middleware = _middleware(agent, node.id, agent_path)
    if agent.deep is not None:
        from graphspec.deep_agent_build import build_deep_agent

        def subagent_parts(k: int) -> tuple[Any, list[Any]]:
            sub = agent.deep.subagents[k]
            where = f"{agent_path}.deep.subagents[{k}]"
            model = chat_model(sub.model, node.id, f"{where}.model") if sub.model else None
            return model, _tools(sub.tools, node.id, where)

        parts = {"model": model, "tools": tools, "middleware": middleware,
                 **_agent_extras(agent, node.id, agent_path)}  # fmt: skip
        name = None if agent.unnamed else node.id
        return build_deep_agent(agent, name, parts, subagent_parts, element_id=node.id,
                                path=agent_path, base_dir=base_dir)  # fmt: skip
    extra = _agent_extras(agent, node.id, agent_path)
    try:
        if agent.builder == "create_react_agent":
            from engine.prebuilt import create_react_agent
            from engine.warnings import LangGraphDeprecatedSinceV10

            # the spec keeps an imported ReAct agent's builder: not the user's call to warn of
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", LangGraphDeprecatedSinceV10)
                return create_react_agent(model, tools, prompt=agent.system_prompt or None,
                                          name=None if agent.unnamed else node.id, **extra)  # fmt: skip
        return create_agent(
            model, tools, system_prompt=agent.system_prompt or None, middleware=middleware,
            name=None if agent.unnamed else node.id, **extra,
        )  # fmt: skip
    except Exception as exc:  # create_agent refuses the combination (duplicate middleware, ...)
        raise SpecError(
            f"{agent.builder}: {type(exc).__name__}: {exc}", element_id=node.id, path=agent_path
        ) from exc


def _agent_extras(agent: AgentSpec, element_id: str, path: str) -> dict[str, Any]:
    """The agent's response_format, state and context schemas and model hooks, loaded."""
    out: dict[str, Any] = {}
    for field in ("state_schema", "context_schema"):
        if (value := getattr(agent, field)) is not None:
            out[field] = load_callable(None, None, value, element_id=element_id,
                                       path=f"{path}.{field}")  # fmt: skip
    for field in ("pre_model_hook", "post_model_hook"):
        if (ref := getattr(agent, field)) is not None:
            out[field] = load_ref(ref, element_id=element_id, path=f"{path}.{field}")
    if (fmt := agent.response_format) is not None:
        schema = load_callable(None, None, fmt.schema_class, element_id=element_id,
                               path=f"{path}.response_format.schema_class")  # fmt: skip
        if fmt.strategy != "auto":
            from engine.agents import structured_output

            strategy = {"tool": "ToolStrategy", "provider": "ProviderStrategy"}[fmt.strategy]
            schema = getattr(structured_output, strategy)(schema)
        out["response_format"] = schema
    return out


def _retry(node: Any) -> RetryPolicy | None:
    if node.retry is None:
        return None
    r = node.retry
    retry_on: Any = default_retry_on
    if r.retry_on:
        classes = [getattr(builtins, name, None) for name in r.retry_on]
        retry_on = tuple(c for c in classes if isinstance(c, type) and issubclass(c, Exception))
    return RetryPolicy(
        initial_interval=r.initial_interval,
        backoff_factor=r.backoff_factor,
        max_interval=r.max_interval,
        max_attempts=r.max_attempts,
        jitter=r.jitter,
        retry_on=retry_on,
    )


class _Site(NamedTuple):
    """Where a node is compiled: its graph and JSON path, and what a subgraph build needs."""

    spec: GraphSpec
    path: str
    trusted: bool
    base_dir: Any
    depth: int


def _function_action(node: FunctionNode, site: _Site) -> Callable:
    return load_ref(node, element_id=node.id, path=site.path)


def _subgraph_action(node: SubgraphNode, site: _Site) -> Any:
    sub = site.spec.subgraph(node.subgraph)
    if sub is None:
        raise SpecError(f"unknown subgraph {node.subgraph!r}", element_id=node.id, path=site.path)
    child = resolve_subgraph(sub, site.base_dir, site.depth)
    try:
        return build_graph(
            child,
            trusted=site.trusted,
            base_dir=subgraph_dir(sub, site.base_dir),
            _depth=site.depth + 1,
        ).compile(  # a subgraph keeps its own static breakpoints, as a compiled one does
            interrupt_before=list(child.breakpoints.before) or None,
            interrupt_after=list(child.breakpoints.after) or None,
        )
    except SpecError as exc:
        raise SpecError(f"subgraph {sub.id}: {exc}", element_id=node.id, path=site.path) from exc


_ACTIONS: Mapping[str, Callable[[Any, _Site], Any]] = by_kind(
    {
        "function": _function_action,
        "set_state": lambda node, site: _set_state_action(
            node, site.path, site.spec.state_defaults()
        ),
        "model": lambda node, site: _model_action(node),
        "tools": lambda node, site: _tools_action(node, site.path),
        "agent": lambda node, site: _agent_action(site.spec, node, site.path, site.base_dir),
        "interrupt": lambda node, site: _interrupt_action(
            node, site.path, site.spec.state_defaults()
        ),
        "subgraph": _subgraph_action,
    },
    "compiler",
)
"""Each node kind -> (node, site) -> the action the engine runs for it."""


# ------------------------------------------------------------------ routers


def router_function(
    edge: ConditionalEdge, path: str, defaults: dict[str, Any] | None = None
) -> Callable:
    """The router's function; its expressions read `defaults` for keys the state lacks."""
    router = edge.router
    defaults = defaults or {}
    if isinstance(router, ExpressionRouter):

        def route(state: Any) -> Any:
            return _evaluate(
                router.expression, state, edge.id, f"{path}.router.expression", defaults=defaults
            )

        return _named(route, edge.id)
    if isinstance(router, SendRouter):

        def send(state: Any) -> list[Send]:
            budget = expressions.Budget()  # one for all the Sends: 100,000 items x a costly input
            items = _evaluate(router.over, state, edge.id, f"{path}.router.over", budget=budget,
                              defaults=defaults)  # fmt: skip
            return [
                Send(
                    router.target,
                    {
                        key: _evaluate(
                            expr,
                            state,
                            edge.id,
                            f"{path}.router.input.{key}",
                            budget=budget,
                            defaults=defaults,
                            item=item,
                        )  # fmt: skip
                        for key, expr in router.input.items()
                    },
                )
                for item in items
            ]

        return _named(send, edge.id)
    assert isinstance(router, CodeRouter)
    return load_ref(router, element_id=edge.id, path=f"{path}.router")


def path_map(edge: ConditionalEdge) -> Any:
    if edge.path_map is not None:
        return dict(edge.path_map) if isinstance(edge.path_map, dict) else list(edge.path_map)
    if isinstance(edge.router, SendRouter):
        return [edge.router.target]
    return None


# ------------------------------------------------------------------ the graph


def _check(spec: GraphSpec, base_dir: Any) -> None:
    from graphspec.validator import validate

    errors = [f for f in validate(spec, base_dir=base_dir) if f.severity == "error"]
    if errors:
        raise SpecCompileError(errors)


def _load_program(spec: GraphSpec, base_dir: Any) -> None:
    """The imported program the spec's import paths name, on the engine (its langgraph imports
    pointed here), under the name they give it, once per process unless it was loaded for
    langgraph before."""
    from graphspec.importer import load_module
    from graphspec.program_names import spec_module_name

    module_file = spec.module_file
    path = os.path.join(base_dir, module_file) if base_dir is not None else module_file
    try:
        load_module(path, on_engine=True, again=False, name=spec_module_name(spec, base_dir))
    except SpecError as exc:
        raise SpecError(str(exc), element_id="module", path="$.module_file") from exc


def _prepare(spec: GraphSpec, trusted: bool, base_dir: Any) -> None:
    """What every compile does first: validate, require trust, load the program it imports."""
    _check(spec, base_dir)
    require_trust(spec, trusted)
    if spec.module_file is not None:
        _load_program(spec, base_dir)


def node_graph(
    spec: GraphSpec, *, trusted: bool = False, base_dir: str | os.PathLike[str] | None = None
) -> Any:
    """The compiled graph a `graph_is_node` spec is: its one node's own graph (the agent it
    builds, or the compiled graph its import path names), before the run's saver goes in."""
    _prepare(spec, trusted, base_dir)
    node = spec.nodes[0]
    graph = _ACTIONS[node.kind](node, _Site(spec, "$.nodes[0]", trusted, base_dir, 0))
    if not callable(getattr(graph, "copy", None)) or not isinstance(
        getattr(graph, "nodes", None), Mapping
    ):
        raise SpecError(f"graph_is_node: {node.id!r} is a {type(graph).__name__}, not a compiled "
                        "graph", element_id=node.id, path="$.nodes[0]")  # fmt: skip
    return graph


def _channel(key: StateKey, index: int, trusted: bool) -> Any:
    """A graph built by hand's channel for `key`: its `channel`, else its reducer's."""
    from engine.channels import BinaryOperatorAggregate, EphemeralValue, LastValue, Topic

    typ = STATE_TYPES[key.type].annotation
    if key.channel == "ephemeral":
        return EphemeralValue(typ)
    if key.channel is not None:
        return Topic(typ, accumulate=key.channel == "accumulating_topic")
    reducer = _reducer(key, index, trusted)
    return LastValue(typ) if reducer is None else BinaryOperatorAggregate(typ, reducer)


def pregel_graph(
    spec: GraphSpec, *, trusted: bool = False, base_dir: str | os.PathLike[str] | None = None
) -> Any:
    """The Pregel a `pregel` spec describes (nodes wired to channels, as `NodeBuilder` wires
    them), before the run's saver goes in."""
    from engine.pregel import NodeBuilder, Pregel

    _prepare(spec, trusted, base_dir)
    channels = {key.name: _channel(key, i, trusted) for i, key in enumerate(spec.state)}
    nodes = {}
    for i, node in enumerate(spec.nodes):
        site = _Site(spec, f"$.nodes[{i}]", trusted, base_dir, 0)
        wiring = node.channels
        builder = NodeBuilder()
        if wiring.subscribe_only is not None:
            builder = builder.subscribe_only(wiring.subscribe_only)
        else:
            builder = builder.subscribe_to(*wiring.subscribe_to)
        nodes[node.id] = builder.do(_function_action(node, site)).write_to(*wiring.write_to)
    inputs = [k.name for k in spec.state if k.input]
    outputs = [k.name for k in spec.state if k.output]
    return _call(Pregel, nodes=nodes, channels=channels, input_channels=inputs,
                 output_channels=outputs, name=spec.name or None, element_id="graph",
                 path="$")  # fmt: skip


def build_graph(
    spec: GraphSpec,
    *,
    trusted: bool = False,
    base_dir: str | os.PathLike[str] | None = None,
    _depth: int = 0,
) -> StateGraph:
    """The engine StateGraph a spec describes; raises SpecError naming the element at fault."""
    _prepare(spec, trusted, base_dir)
    state, input_schema, output_schema = state_schemas(spec, trusted)
    context = None
    if spec.context_schema is not None:  # code: require_trust stopped an untrusted spec
        context = load_callable(None, None, spec.context_schema, element_id="context",
                                path="$.context_schema")  # fmt: skip
    builder = StateGraph(state, context, input_schema=input_schema, output_schema=output_schema)
    for i, node in enumerate(spec.nodes):
        action = _ACTIONS[node.kind](node, _Site(spec, f"$.nodes[{i}]", trusted, base_dir, _depth))
        destinations = getattr(node, "destinations", None)
        _call(
            builder.add_node,
            node.id,
            action,
            retry_policy=_retry(node),
            cache_policy=CachePolicy(ttl=node.cache.ttl) if node.cache else None,
            destinations=tuple(destinations) if destinations else None,
            defer=node.defer,
            element_id=node.id,
            path=f"$.nodes[{i}]",
        )
    for i, (element_id, _edge, sources, target) in enumerate(spec.all_edges()):
        start: Any = sources[0] if len(sources) == 1 else list(sources)
        _call(builder.add_edge, start, target, element_id=element_id, path=_edge_path(spec, i))
    for i, edge in enumerate(spec.conditional_edges):
        path = f"$.conditional_edges[{i}]"
        fn = router_function(edge, path, spec.state_defaults())
        _call(
            builder.add_conditional_edges,
            edge.source,
            fn,
            path_map(edge),
            element_id=edge.id,
            path=path,
        )
    return builder


def _edge_path(spec: GraphSpec, index: int) -> str:
    if index < len(spec.edges):
        return f"$.edges[{index}]"
    index -= len(spec.edges)
    if index < len(spec.entry):
        return f"$.entry[{index}]"
    return f"$.finish[{index - len(spec.entry)}]"


def _call(method: Callable, *args: Any, element_id: str, path: str, **kwargs: Any) -> Any:
    try:
        return method(*args, **kwargs)
    except (ValueError, TypeError, KeyError, RuntimeError) as exc:
        raise SpecError(str(exc), element_id=element_id, path=path) from exc


def compile_spec(
    spec: GraphSpec,
    *,
    trusted: bool = False,
    checkpointer: Any = None,
    base_dir: str | os.PathLike[str] | None = None,
    store: Any = None,
    cache: Any = None,
) -> Any:
    """Build and compile, with the spec's breakpoints."""
    if spec.graph_is_node:
        graph = node_graph(spec, trusted=trusted, base_dir=base_dir)
    elif spec.pregel:
        graph = pregel_graph(spec, trusted=trusted, base_dir=base_dir)
    else:
        builder = build_graph(spec, trusted=trusted, base_dir=base_dir)
    if store is None and spec.store_path is not None:  # code: build_graph required trust
        store = load_callable(None, None, spec.store_path, element_id="store", path="$.store_path")
    if store is None and spec.store == "memory":
        from engine.store.memory import InMemoryStore

        store = InMemoryStore()
    if cache is None and spec.cache == "memory":
        from engine.cache.memory import InMemoryCache

        cache = InMemoryCache()
    if spec.graph_is_node or spec.pregel:  # compiled: the run's parts go in their place
        return graph.copy({"checkpointer": checkpointer, "store": store, "cache": cache,
                           **spec.breakpoints_on(graph.nodes)})  # fmt: skip
    try:
        return builder.compile(
            checkpointer=checkpointer,
            store=store,
            cache=cache,
            interrupt_before=list(spec.breakpoints.before) or None,
            interrupt_after=list(spec.breakpoints.after) or None,
            name=spec.name or None,
        )
    except (ValueError, TypeError, KeyError) as exc:
        raise SpecError(str(exc), path="$") from exc


def run_config(spec: GraphSpec, thread_id: str | None = None) -> dict[str, Any]:
    config: dict[str, Any] = {}
    if thread_id is not None:
        config["configurable"] = {"thread_id": thread_id}
    if spec.recursion_limit is not None:
        config["recursion_limit"] = spec.recursion_limit
    return config


__all__ = [
    "build_graph",
    "compile_spec",
    "node_graph",
    "pregel_graph",
    "run_config",
    "state_schemas",
    "chat_model",
    "merge_dicts",
    "router_function",
    "path_map",
    "START",
    "END",
]
