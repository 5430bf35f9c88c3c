"""What each element looks like, computed from the spec alone (no Qt): titles, lines,
middleware with their hooks, edge styles and labels. Items draw a look; they never read specs."""

from __future__ import annotations

from dataclasses import dataclass

from engine.agents.hooks import HOOKS
from engine.constants import END, START
from graphspec.model import (
    AgentNode,
    ConditionalEdge,
    CustomMiddleware,
    FunctionNode,
    GraphSpec,
    ModelSettings,
    SendRouter,
    SetStateNode,
)
from graphspec.node_kinds import by_kind
from graphspec.routes import conditional_routes, drawn_routes
from studio.i18n import translate

PREBUILT_HOOKS: dict[str, tuple[str, ...]] = {
    "human_in_the_loop": ("after_model", "wrap_tool_call"),
    "model_call_limit": ("before_model", "after_model"),
    "tool_call_limit": ("after_model",),
    "model_retry": ("wrap_model_call",),
    "tool_retry": ("wrap_tool_call",),
    "model_fallback": ("wrap_model_call",),
    "pii": ("before_model", "after_model"),
    "summarization": ("before_model",),
    "todo_list": ("wrap_model_call", "after_model"),
    "tool_error_to_message": ("wrap_tool_call",),
}
"""The hooks each prebuilt middleware implements (those its engine class overrides). Written
out, not read from the classes: the agent layer (langchain-core's chat models) is not loaded to draw a card;
tests/studio/test_start_imports.py checks the table against the engine's classes."""


@dataclass(frozen=True)
class MiddlewareLook:
    name: str
    hooks: tuple[str, ...]
    custom: bool = False


@dataclass(frozen=True)
class NodeLook:
    """A node card: title, kind, text lines and (for agents) the middleware in order."""

    title: str
    kind: str
    lines: tuple[str, ...] = ()
    middleware: tuple[MiddlewareLook, ...] = ()
    breaks: tuple[str, ...] = ()
    """"before" and/or "after": the run pauses there (the spec's breakpoints)."""


@dataclass(frozen=True)
class EdgeLook:
    """One drawn edge. `style` is plain, join, conditional or goto; `element_id` is what the
    validator names (an edge id, `entry:X`, `finish:X`, a conditional edge id or a node id)."""

    key: str
    element_id: str
    sources: tuple[str, ...]
    target: str
    style: str
    label: str = ""


def _model_line(model: ModelSettings) -> str:
    name = f"{model.provider}:{model.model}" if model.model else model.provider
    return f"model  {name}"


def _clip(text: str, n: int = 34) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def middleware_look(mw) -> MiddlewareLook:
    if isinstance(mw, CustomMiddleware):  # its hook functions, or what the program's overrides
        hooks = tuple(h for h in HOOKS if h in mw.hooks or h in mw.overrides)
        return MiddlewareLook(mw.name, hooks, custom=True)
    return MiddlewareLook(mw.name, PREBUILT_HOOKS.get(mw.name, ()))


def _set_state_lines(spec: GraphSpec, node: SetStateNode) -> list[str]:
    lines = [_clip(f"{k} = {v}") for k, v in list(node.values.items())[:3]]
    if len(node.values) > 3:
        lines.append(f"… {len(node.values) - 3} more")
    if node.goto:
        lines.append(_clip(f"goto {node.goto}"))
    return lines


def _agent_lines(spec: GraphSpec, node: AgentNode) -> list[str]:
    agent = spec.agent(node.agent)
    if agent is None:
        return [translate("canvas.looks", "agent {agent} is missing").format(agent=node.agent)]
    tools = [t.name for t in agent.tools]
    tools += [f"{s.name}:{name}" for s in agent.mcp_servers for name in s.tools]  # MCP servers'
    lines = [_model_line(agent.model), _clip("tools  " + (", ".join(tools) or "none"))]
    if agent.deep is not None:  # deepagents' create_deep_agent: files and subagents
        subagents = ", ".join(s.name for s in agent.deep.subagents) or "none"
        lines.append(_clip(f"deep   files: {agent.deep.backend}; subagents: {subagents}"))
    return lines


def _wiring_lines(node: FunctionNode) -> list[str]:
    """A node of a graph built by hand: the channels that run it, and those it writes."""
    wiring = node.channels
    if wiring is None:
        return []
    runs = wiring.subscribe_only or "{" + ", ".join(wiring.subscribe_to) + "}"
    return [_clip(f"on {runs}"), _clip(f"writes {', '.join(wiring.write_to) or 'nothing'}")]


_LINES = by_kind(
    {
        "function": lambda spec, node: [
            f"def {node.function}()" if node.code is not None else f"{node.import_path}",
            *_wiring_lines(node),
        ],
        "set_state": _set_state_lines,
        "model": lambda spec, node: [_model_line(node.model)],
        "tools": lambda spec, node: [
            _clip("tools  " + (", ".join(t.name for t in node.tools) or "none"))
        ],
        "agent": _agent_lines,
        "interrupt": lambda spec, node: [
            _clip(
                f"ask  {node.prompt}"
                if node.prompt
                else translate("canvas.looks", "pause for input")
            ),
            f"answer -> {node.resume_key}",
        ],
        "subgraph": lambda spec, node: [f"graph  {node.subgraph}  (double-click)"],
    },
    "node_look",
)
"""Each node kind -> (spec, node) -> the card's lines under its id."""


def node_look(spec: GraphSpec, node) -> NodeLook:
    title = node.label or node.id
    lines: list[str] = []
    if node.label and node.label != node.id:
        lines.append(f"id  {node.id}")
    lines += _LINES[node.kind](spec, node)
    agent = spec.agent(node.agent) if node.kind == "agent" else None
    middleware = tuple(middleware_look(m) for m in agent.middleware) if agent else ()
    breaks = tuple(w for w in ("before", "after") if node.id in getattr(spec.breakpoints, w))
    return NodeLook(title, node.kind, tuple(lines), middleware, breaks)


def routes(edge: ConditionalEdge) -> list[tuple[str, str]]:
    """(result, target) for each route a conditional edge may take, as far as the spec tells, in
    the order drawn (a route's index is its place here): the path map's entries, a Send router's
    target, or the names a literal expression returns."""
    return conditional_routes(edge) or []


def shown(name: str) -> str:
    """A node name as drawn: START and END, not the engine's __start__ and __end__."""
    return {START: "START", END: "END"}.get(name, name)


def edge_looks(spec: GraphSpec, nodes: set[str] | None = None) -> list[EdgeLook]:
    """Every edge to draw; ends that name no node are left out (the validator reports them)."""
    known = ({n.id for n in spec.nodes} if nodes is None else nodes) | {START, END}
    out: list[EdgeLook] = []
    for element_id, edge, sources, target in spec.all_edges():
        srcs = tuple(s for s in sources if s in known)
        if not srcs or target not in known:
            continue
        style = "join" if len(srcs) > 1 else "plain"
        out.append(
            EdgeLook(element_id, element_id, srcs, target, style, edge.label if edge else "")
        )
    for edge in spec.conditional_edges:
        if edge.source not in known:
            continue
        send = isinstance(edge.router, SendRouter)
        # a route the spec tells is keyed by its index (its end can be re-targeted); the END
        # drawn for a router that may go anywhere is not one of its routes
        told = conditional_routes(edge) is not None
        for i, (label, target) in enumerate(drawn_routes(spec, edge)):
            if target in known:
                text = f"Send → {shown(target)}" if send else _clip(shown(label), 24)
                key = f"{edge.id}#{i if told else 'anywhere'}"
                out.append(EdgeLook(key, edge.id, (edge.source,), target, "conditional", text))
    for node in spec.nodes:
        for dest in getattr(node, "destinations", ()):
            if dest in known:
                out.append(EdgeLook(f"{node.id}>{dest}", node.id, (node.id,), dest, "goto", "goto"))
    return out
