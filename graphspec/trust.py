"""Trust: Python code in a spec runs only when the user trusts the spec.

Code-bearing elements are function nodes, code routers, custom reducers, tools, custom
middleware hooks and the factory of a program's own chat model (inline code or an import path:
importing runs code too), in the spec and in its inline subgraphs. A model that would send the user's API key to a server the spec chose
(`graphspec.endpoints`), an MCP server that is a command this machine starts or that would get
the user's secrets on another host (`graphspec.mcp_servers`) and a deep agent's real folder need
trust too. An untrusted spec loads, validates, draws and exports; compiling it for a run raises
UntrustedCodeError naming them.

Trust covers a spec's closure: the spec, every subgraph file it pulls in, recursively, and the
program a spec made from Python names (`module_file`, with the local modules it imports:
`graphspec.module_files`). A closure is read once: its digest is taken from the very bytes that
were parsed, and `Closure.spec` has those files inlined, so what runs is what was hashed and shown.

Inline code runs in a fresh namespace that already holds the runtime's `Send`, `Command`,
`interrupt`, `END`, `START`, `get_stream_writer` and `ToolRuntime` (the exported module imports
the same names from langgraph), so the same code runs on both.
"""

from __future__ import annotations

import copy
import hashlib
import importlib
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from graphspec.endpoints import endpoint_sites, models
from graphspec.errors import Finding, SpecError, UntrustedCodeError
from graphspec.io import MAX_SUBGRAPH_DEPTH, SpecValidationError, load_spec, read_spec_bytes
from graphspec.mcp_servers import mcp_sites
from graphspec.model import (
    AgentNode,
    CodeRef,
    CodeRouter,
    CustomMiddleware,
    FunctionNode,
    GraphSpec,
    ToolsNode,
    call_text,
)
from graphspec.module_files import local_files
from graphspec.program_code import compile_user_code


def _site(element_id: str, path: str, what: str) -> Finding:
    return Finding(path, what, element_id, code="python-code")


def _ref_kind(ref: CodeRef | FunctionNode) -> str:
    if ref.call is not None:
        return f"call {call_text(ref)}"
    return "inline code" if ref.code is not None else f"import {ref.import_path}"


def code_sites(spec: GraphSpec, prefix: str = "$") -> list[Finding]:
    """Every element that would run Python code, with its JSON path."""
    sites: list[Finding] = []
    if spec.module_file is not None:  # a run imports the program first
        sites.append(_site("module", f"{prefix}.module_file", f"import file {spec.module_file}"))
    for name in ("state_class", "context_schema", "store_path"):  # importing runs its module
        if (value := getattr(spec, name)) is not None:
            sites.append(_site(name.partition("_")[0], f"{prefix}.{name}", f"import {value}"))
    for i, key in enumerate(spec.state):
        if key.reducer == "custom" and key.custom_reducer is not None:
            path = f"{prefix}.state[{i}].custom_reducer"
            sites.append(_site(key.name, path, _ref_kind(key.custom_reducer)))
    for i, node in enumerate(spec.nodes):
        path = f"{prefix}.nodes[{i}]"
        if isinstance(node, FunctionNode):
            sites.append(_site(node.id, path, _ref_kind(node)))
        elif isinstance(node, ToolsNode):
            sites += [
                _site(node.id, f"{path}.tools[{j}]", _ref_kind(t)) for j, t in enumerate(node.tools)
            ]
    for i, edge in enumerate(spec.conditional_edges):
        if isinstance(edge.router, CodeRouter):
            sites.append(
                _site(edge.id, f"{prefix}.conditional_edges[{i}].router", _ref_kind(edge.router))
            )
    for i, agent in enumerate(spec.agents):
        path = f"{prefix}.agents[{i}]"
        users = [n.id for n in spec.nodes if isinstance(n, AgentNode) and n.agent == agent.id]
        element = users[0] if users else agent.id
        sites += [
            _site(element, f"{path}.tools[{j}]", _ref_kind(t)) for j, t in enumerate(agent.tools)
        ]
        for j, mw in enumerate(agent.middleware):
            if isinstance(mw, CustomMiddleware):
                sites += [
                    _site(element, f"{path}.middleware[{j}].hooks.{hook}", _ref_kind(ref))
                    for hook, ref in mw.hooks.items()
                ]
                if mw.import_path is not None:
                    made = CodeRef(import_path=mw.import_path, call=mw.call)
                    sites.append(_site(element, f"{path}.middleware[{j}].import_path",
                                       _ref_kind(made)))  # fmt: skip
        sites += _agent_import_sites(agent, element, path)
        if agent.deep is not None:
            sites += _deep_agent_sites(agent.deep, element, f"{path}.deep")
    sites += [_site(element, f"{path}.factory", _ref_kind(settings.factory))
              for element, path, settings in models(spec, prefix) if settings.factory is not None]  # fmt: skip
    sites += endpoint_sites(spec, prefix)
    sites += mcp_sites(spec, prefix)
    for i, sub in enumerate(spec.subgraphs):
        if sub.graph is not None:
            inner = code_sites(sub.graph, f"{prefix}.subgraphs[{i}].graph")
            users = [n.id for n in spec.nodes if getattr(n, "subgraph", None) == sub.id]
            element = users[0] if users else sub.id
            sites += [replace(s, element_id=element) for s in inner]
    return sites


def _agent_import_sites(agent: Any, element: str, path: str) -> list[Finding]:
    """An agent's classes and hooks by import path: importing them runs their module."""
    sites = [_site(element, f"{path}.{name}", f"import {value}")
             for name in ("state_schema", "context_schema")
             if (value := getattr(agent, name, None)) is not None]  # fmt: skip
    if agent.response_format is not None:
        sites.append(_site(element, f"{path}.response_format.schema_class",
                           f"import {agent.response_format.schema_class}"))  # fmt: skip
    for name in ("pre_model_hook", "post_model_hook"):
        if (ref := getattr(agent, name, None)) is not None:
            sites.append(_site(element, f"{path}.{name}", _ref_kind(ref)))
    return sites


def _deep_agent_sites(deep: Any, element: str, path: str) -> list[Finding]:
    """A deep agent's subagents' tools run code; its folder backend reads and writes real
    files (under its root only), which a spec from elsewhere must not do until trusted."""
    sites = [
        _site(element, f"{path}.subagents[{k}].tools[{j}]", _ref_kind(t))
        for k, sub in enumerate(deep.subagents)
        for j, t in enumerate(sub.tools)
    ]
    sites += [_site(element, f"{path}.subagents[{k}].runnable", _ref_kind(sub.runnable))
              for k, sub in enumerate(deep.subagents) if sub.runnable is not None]  # fmt: skip
    if deep.backend == "folder":
        what = f"read and write the files in folder {deep.root}"
        sites.append(Finding(f"{path}.root", what, element, code="folder-access"))
    return sites


# ------------------------------------------------------------------ closure


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class Closure:
    """A spec with every subgraph file it pulls in, each read exactly once."""

    spec: GraphSpec
    """The spec with its subgraph files inlined (from the bytes hashed in `files`)."""
    files: dict[str, str] = field(default_factory=dict)
    """Each subgraph and program file (resolved path) -> sha256 of its bytes ("missing" if it
    cannot be read: one that appears later changes the digest)."""
    sites: list[Finding] = field(default_factory=list)
    """Code in the spec and in every file, the files' with `file` set."""
    errors: list[str] = field(default_factory=list)
    """Subgraph files that could not be read or loaded (left as file references)."""

    def digest(self, root_digest: str) -> str:
        """One hash for the spec's bytes and all its files'; a spec without files keeps its own."""
        if not self.files:
            return root_digest
        lines = [root_digest, *(f"{p}\0{d}" for p, d in sorted(self.files.items()))]
        return digest("\n".join(lines).encode())


def closure(spec: GraphSpec, base_dir: str | os.PathLike[str] | None) -> Closure:
    """Read every subgraph file `spec` pulls in (recursively, relative to `base_dir`)."""
    found = Closure(spec)
    root = Path(base_dir).resolve() if base_dir is not None else None
    found.spec = _inline(spec, root, root, found, 0)
    found.sites = code_sites(spec) + found.sites
    return found


def _inline(spec: GraphSpec, folder: Path | None, root: Path | None, found: Closure,
            depth: int) -> GraphSpec:  # fmt: skip
    _hash_program(spec, folder, found)
    subs = []
    for sub in spec.subgraphs:
        if sub.graph is not None:
            graph = _inline(sub.graph, folder, root, found, depth)
        elif folder is None or depth >= MAX_SUBGRAPH_DEPTH:
            found.errors.append(f"subgraph file {sub.file}: cannot resolve it here")
            subs.append(sub)
            continue
        else:
            path = (folder / sub.file).resolve()
            shown = os.path.relpath(path, root) if root else str(path)
            try:
                data = read_spec_bytes(path)
                child = load_spec(data)
            except SpecValidationError as exc:
                found.errors.append(f"subgraph file {sub.file}: {exc.problems[0]}")
                subs.append(sub)
                continue
            found.files[str(path)] = digest(data)
            found.sites += [replace(s, file=shown) for s in code_sites(child)]
            graph = _inline(child, path.parent, root, found, depth + 1)
            if graph.module_file is not None:  # inlined, it runs from the parent's folder
                program = str(_program_path(graph.module_file, path.parent))
                graph = graph.model_copy(update={"module_file": program})
        subs.append(sub.model_copy(update={"graph": graph, "file": None}))
    if all(a is b for a, b in zip(subs, spec.subgraphs, strict=True)):
        return spec
    return spec.model_copy(update={"subgraphs": subs})


def _program_path(module_file: str, folder: Path | None) -> Path:
    """Where a run finds the program: beside the spec (the working folder when unsaved)."""
    return (folder / module_file if folder is not None else Path(module_file)).resolve()


def _hash_program(spec: GraphSpec, folder: Path | None, found: Closure) -> None:
    """The program a spec made from Python runs, and the local modules it imports."""
    if spec.module_file is None:
        return
    for path in local_files(_program_path(spec.module_file, folder)):
        try:
            found.files[str(path)] = digest(path.read_bytes())
        except OSError:
            found.files[str(path)] = "missing"


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
        from engine.prebuilt.tool_node import ToolRuntime
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
        exec(compile_user_code(code or "", f"<spec {element_id}>"), namespace)  # trusted code only
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


def load_ref(ref: CodeRef | FunctionNode, *, element_id: str, path: str) -> Any:
    """What a code reference gives: the function it names or, with `call`, the value of calling
    it with its arguments (each JSON data or what its own reference gives). A call is made on the
    engine (`graphspec.engine_world`): a library's factory runs in the world the program ran in,
    and a langgraph path names the engine's module. Only call this for a trusted spec."""
    if ref.call is None:
        return load_callable(ref.code, ref.function, ref.import_path, element_id=element_id,
                             path=path)  # fmt: skip
    from graphspec.engine_world import on_engine

    with on_engine():
        made = load_callable(ref.code, ref.function, ref.import_path, element_id=element_id,
                             path=path)  # fmt: skip
        args = [_argument(a, element_id, f"{path}.call.args[{i}]")
                for i, a in enumerate(ref.call.args)]  # fmt: skip
        kwargs = {k: _argument(a, element_id, f"{path}.call.kwargs.{k}")
                  for k, a in ref.call.kwargs.items()}  # fmt: skip
        try:
            return made(*args, **kwargs)
        except Exception as exc:  # whatever the library's factory raises
            raise SpecError(f"{call_text(ref)} failed: {type(exc).__name__}: {exc}",
                            element_id=element_id, path=f"{path}.call") from exc  # fmt: skip


def _argument(arg: Any, element_id: str, path: str) -> Any:
    if arg.ref is not None:
        return load_ref(arg.ref, element_id=element_id, path=f"{path}.ref")
    if arg.items is not None:
        return [_argument(a, element_id, f"{path}.items[{i}]") for i, a in enumerate(arg.items)]
    if arg.entries is not None:
        return {k: _argument(a, element_id, f"{path}.entries.{k}") for k, a in arg.entries.items()}
    return copy.deepcopy(arg.value)


__all__ = [
    "Closure",
    "closure",
    "code_sites",
    "digest",
    "require_trust",
    "load_callable",
    "load_ref",
]
