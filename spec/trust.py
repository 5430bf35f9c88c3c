"""Trust: Python code in a spec runs only when the user trusts the spec.

Code-bearing elements are function nodes, code routers, custom reducers, tools and custom
middleware hooks (inline code or an import path: importing runs code too), in the spec and in
its inline subgraphs. An untrusted spec loads, validates, draws and exports; compiling it for a
run raises UntrustedCodeError naming those elements.

Inline code runs in a fresh namespace that already holds the runtime's `Send`, `Command`,
`interrupt`, `END`, `START`, `get_stream_writer` and `ToolRuntime` (the exported module imports
the same names from langgraph), so the same code runs on both.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from engine.errors import SpecError
from spec.model import (
    AgentNode,
    CodeRef,
    CodeRouter,
    CustomMiddleware,
    FunctionNode,
    GraphSpec,
    ToolsNode,
)


@dataclass(frozen=True)
class CodeSite:
    element_id: str
    path: str
    what: str


class UntrustedCodeError(SpecError):
    """The spec carries Python code and was not trusted."""

    def __init__(self, sites: list[CodeSite]) -> None:
        self.sites = sites
        names = ", ".join(dict.fromkeys(s.element_id for s in sites))
        super().__init__(
            f"this spec carries Python code ({names}); it runs only when trusted "
            "(pass --trust, or trust it in the studio)",
            element_id=sites[0].element_id,
            path=sites[0].path,
        )


def _ref_kind(ref: CodeRef | FunctionNode) -> str:
    return "inline code" if ref.code is not None else f"import {ref.import_path}"


def code_sites(spec: GraphSpec, prefix: str = "$") -> list[CodeSite]:
    """Every element that would run Python code, with its JSON path."""
    sites: list[CodeSite] = []
    for i, key in enumerate(spec.state):
        if key.reducer == "custom" and key.custom_reducer is not None:
            sites.append(
                CodeSite(
                    key.name, f"{prefix}.state[{i}].custom_reducer", _ref_kind(key.custom_reducer)
                )
            )
    for i, node in enumerate(spec.nodes):
        path = f"{prefix}.nodes[{i}]"
        if isinstance(node, FunctionNode):
            sites.append(CodeSite(node.id, path, _ref_kind(node)))
        elif isinstance(node, ToolsNode):
            sites += [
                CodeSite(node.id, f"{path}.tools[{j}]", _ref_kind(t))
                for j, t in enumerate(node.tools)
            ]
    for i, edge in enumerate(spec.conditional_edges):
        if isinstance(edge.router, CodeRouter):
            sites.append(
                CodeSite(edge.id, f"{prefix}.conditional_edges[{i}].router", _ref_kind(edge.router))
            )
    for i, agent in enumerate(spec.agents):
        path = f"{prefix}.agents[{i}]"
        users = [n.id for n in spec.nodes if isinstance(n, AgentNode) and n.agent == agent.id]
        element = users[0] if users else agent.id
        sites += [
            CodeSite(element, f"{path}.tools[{j}]", _ref_kind(t)) for j, t in enumerate(agent.tools)
        ]
        for j, mw in enumerate(agent.middleware):
            if isinstance(mw, CustomMiddleware):
                sites += [
                    CodeSite(element, f"{path}.middleware[{j}].hooks.{hook}", _ref_kind(ref))
                    for hook, ref in mw.hooks.items()
                ]
    for i, sub in enumerate(spec.subgraphs):
        if sub.graph is not None:
            inner = code_sites(sub.graph, f"{prefix}.subgraphs[{i}].graph")
            users = [n.id for n in spec.nodes if getattr(n, "subgraph", None) == sub.id]
            element = users[0] if users else sub.id
            sites += [CodeSite(element, s.path, s.what) for s in inner]
    return sites


def require_trust(spec: GraphSpec, trusted: bool) -> None:
    if trusted:
        return
    sites = code_sites(spec)
    if sites:
        raise UntrustedCodeError(sites)


def runtime_names() -> dict[str, Any]:
    """Names inline code finds predefined: the engine's, as the export imports langgraph's."""
    from engine.config import get_stream_writer
    from engine.graph import END, START
    from engine.types import Command, Send, interrupt

    names: dict[str, Any] = {
        "Send": Send,
        "Command": Command,
        "interrupt": interrupt,
        "END": END,
        "START": START,
        "get_stream_writer": get_stream_writer,
    }
    try:  # tools annotate `runtime: ToolRuntime` (the export imports langgraph.prebuilt's)
        from engine.agents.tool_node import ToolRuntime
    except ImportError:  # a build without the agent layer
        pass
    else:
        names["ToolRuntime"] = ToolRuntime
    return names


def load_callable(
    code: str | None, function: str | None, import_path: str | None, *, element_id: str, path: str
) -> Any:
    """The function a code reference names. Only call this for a trusted spec."""
    if import_path is not None:
        module_name, _, attr = import_path.partition(":")
        try:
            target: Any = importlib.import_module(module_name)
            for part in attr.split("."):
                target = getattr(target, part)
        except Exception as exc:
            raise SpecError(
                f"cannot import {import_path}: {type(exc).__name__}: {exc}",
                element_id=element_id,
                path=path,
            ) from exc
        return target
    namespace: dict[str, Any] = {"__name__": f"superstep_spec_{element_id}", **runtime_names()}
    try:
        exec(compile(code or "", f"<spec {element_id}>", "exec"), namespace)  # trusted code only
    except Exception as exc:
        raise SpecError(
            f"code failed to load: {type(exc).__name__}: {exc}", element_id=element_id, path=path
        ) from exc
    fn = namespace.get(function or "")
    if not callable(fn):
        raise SpecError(
            f"code does not define a function named {function!r}", element_id=element_id, path=path
        )
    return fn


__all__ = ["CodeSite", "UntrustedCodeError", "code_sites", "require_trust", "load_callable"]
