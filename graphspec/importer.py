"""A Python module holding a graph (engine or langgraph, compiled or a builder) -> spec.

    import_module_graph("pkg.module" or "path/to/file.py", attr=None) -> GraphSpec
    spec_from_graph(graph_or_builder) -> GraphSpec

Functions (nodes, routers, custom reducers) become references by import path `module:function`,
so they must live at module level; a file imported by path is named by its stem (its folder is
on sys.path only while it loads; sys.modules keeps it, so the references resolve later in the
same process). Compiled subgraphs used
as nodes become inline subgraphs. The spec gets no positions: the canvas lays it out.

A `create_agent` graph (langchain.agents or engine.agents) used as a node becomes an agent node:
the model, system prompt and tools are read from the compiled agent (the model node's closure and
its ToolNode); the ordered middleware list, and a non-scripted model's `init_chat_model(...)`
arguments, from the module-level `name = create_agent(...)` call in the module's source, as the
exporter writes it (prebuilt middleware with literal settings, custom hooks as `hook(fn)` on
module-level functions, referenced by import path). Without that source, only the prebuilt
middleware that have graph nodes come back, with the settings their instances keep as JSON.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import operator
import re
import sys
import typing
from pathlib import Path
from typing import Any

from engine.agents.middleware.types import HOOKS
from engine.constants import END, START
from graphspec.errors import SpecError
from graphspec.io import spec_from_dict
from graphspec.model import PREBUILT_MIDDLEWARE
from graphspec.state_types import MANAGED_BY_CLASS_NAME, MANAGED_TYPES, TYPE_OF_CLASS

_PREBUILT_BY_CLASS = {cls: name for name, cls in PREBUILT_MIDDLEWARE.items()}


def import_module_graph(target: str, attr: str | None = None) -> Any:
    """Import `target` (module name or .py file) and turn its graph into a spec."""
    module = _import(target)
    if attr is not None:
        if not hasattr(module, attr):
            raise SpecError(f"{target} has no attribute {attr!r}")
        return spec_from_graph(getattr(module, attr))
    for name in ("graph", "app", "agent"):
        if _builder_of(getattr(module, name, None)) is not None:
            return spec_from_graph(getattr(module, name))
    for value in vars(module).values():
        if _builder_of(value) is not None and not isinstance(value, type):
            return spec_from_graph(value)
    raise SpecError(f"{target} holds no graph (a compiled graph or a StateGraph builder)")


def _import(target: str) -> Any:
    path = Path(target)
    if path.suffix != ".py":
        try:
            return importlib.import_module(target)
        except Exception as exc:
            raise SpecError(f"cannot import {target}: {type(exc).__name__}: {exc}") from exc
    if not path.is_file():
        raise SpecError(f"no such file: {target}")
    name = path.stem
    saved = list(sys.path)
    sys.path.insert(0, str(path.resolve().parent))  # for its sibling imports, while it loads
    try:
        if name in sys.modules and getattr(sys.modules[name], "__file__", None) == str(
            path.resolve()
        ):
            return importlib.reload(sys.modules[name])
        module_spec = importlib.util.spec_from_file_location(name, path.resolve())
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        module_spec.loader.exec_module(module)
        return module
    except Exception as exc:
        raise SpecError(f"cannot import {target}: {type(exc).__name__}: {exc}") from exc
    finally:
        sys.path[:] = saved  # exactly as before: the folder must not shadow modules later


def _builder_of(obj: Any) -> Any:
    if obj is None:
        return None
    builder = getattr(obj, "builder", None)
    if builder is not None and hasattr(builder, "nodes") and hasattr(builder, "branches"):
        return builder
    if hasattr(obj, "nodes") and hasattr(obj, "branches") and hasattr(obj, "waiting_edges"):
        return obj
    return None


def _ref(fn: Any, element_id: str) -> str:
    fn = getattr(fn, "func", fn)
    module = getattr(fn, "__module__", None)
    qualname = getattr(fn, "__qualname__", None)
    if not module or not qualname or "<" in qualname:
        raise SpecError(
            f"{element_id}: {qualname or fn!r} is not a module-level function, so it cannot be "
            "referenced by import path; move it to module level",
            element_id=element_id,
        )
    return f"{module}:{qualname}"


# ------------------------------------------------------------------ state


def _state_key(name: str, annotation: Any) -> dict[str, Any]:
    key: dict[str, Any] = {"name": name}
    base, metadata = annotation, ()
    if typing.get_origin(annotation) is typing.Annotated:
        base, *rest = typing.get_args(annotation)
        metadata = tuple(rest)
    for item in metadata:
        managed = MANAGED_BY_CLASS_NAME.get(getattr(item, "__name__", ""))
        if managed:
            return {"name": name, "type": managed}
    base = typing.get_origin(base) or base
    key["type"] = TYPE_OF_CLASS.get(base, "any")
    reducer = metadata[-1] if metadata and callable(metadata[-1]) else None
    if reducer is operator.add:
        key["reducer"] = "add"
    elif getattr(reducer, "__name__", "") in ("add_messages", "_add_messages"):
        # langgraph's add_messages is a decorated wrapper whose inner function is `_add_messages`
        key.update(type="messages", reducer="add_messages")
    elif getattr(reducer, "__name__", "") == "merge_dicts":
        key["reducer"] = "merge"
    elif reducer is not None:
        key.update(reducer="custom", custom_reducer={"import_path": _ref(reducer, name)})
    return key


def _hints(schema: Any) -> dict[str, Any]:
    try:
        return typing.get_type_hints(schema, include_extras=True)
    except Exception:
        return dict(getattr(schema, "__annotations__", {}))


def _state(builder: Any) -> list[dict[str, Any]]:
    hints = _hints(builder.state_schema)
    inputs = (
        set(_hints(builder.input_schema))
        if builder.input_schema is not builder.state_schema
        else None
    )
    outputs = (
        set(_hints(builder.output_schema))
        if builder.output_schema is not builder.state_schema
        else None
    )
    keys = []
    for name, annotation in hints.items():
        key = _state_key(name, annotation)
        if inputs is not None and name not in inputs:
            key["input"] = False
        if outputs is not None and name not in outputs:
            key["output"] = False
        if key["type"] in MANAGED_TYPES:
            key.pop("input", None)
            key.pop("output", None)
        keys.append(key)
    return keys


# ------------------------------------------------------------------ nodes and edges


def _retry(policy: Any) -> dict[str, Any] | None:
    if policy is None:
        return None
    if isinstance(policy, (list, tuple)) and policy and not hasattr(policy, "max_attempts"):
        policy = policy[0]
    out = {
        "initial_interval": policy.initial_interval,
        "backoff_factor": policy.backoff_factor,
        "max_interval": policy.max_interval,
        "max_attempts": policy.max_attempts,
        "jitter": policy.jitter,
    }
    retry_on = policy.retry_on
    classes = retry_on if isinstance(retry_on, tuple) else (retry_on,)
    if all(isinstance(c, type) and c.__module__ == "builtins" for c in classes):
        out["retry_on"] = [c.__name__ for c in classes]
    return out


def _node(
    name: str, node: Any, subgraphs: list[dict[str, Any]], agents: list[dict[str, Any]], scope: Any
) -> dict[str, Any]:
    runnable = node.runnable
    inner = _builder_of(runnable)
    if inner is not None and _is_agent(inner):
        agent_id = _agent(runnable, inner, name, agents, scope)
        out: dict[str, Any] = {"id": name, "kind": "agent", "agent": agent_id}
    elif inner is not None and not hasattr(runnable, "func"):
        sub_id = name if name.isidentifier() else f"sub_{len(subgraphs)}"
        subgraphs.append({"id": sub_id, "graph": _graph_doc(inner)})
        out = {"id": name, "kind": "subgraph", "subgraph": sub_id}
    else:
        out = {"id": name, "kind": "function", "import_path": _ref(runnable, name)}
    if (retry := _retry(node.retry_policy)) is not None:
        out["retry"] = retry
    if node.cache_policy is not None:
        out["cache"] = {"ttl": getattr(node.cache_policy, "ttl", None)}
    ends = node.ends
    if ends and out["kind"] in ("function", "agent"):
        out["destinations"] = sorted(ends.values() if isinstance(ends, dict) else ends)
    if node.defer:
        out["defer"] = True
    return out


def _branch(source: str, name: str, branch: Any) -> dict[str, Any]:
    edge: dict[str, Any] = {
        "id": name if name.isidentifier() else f"{source}_router",
        "source": source,
        "router": {"kind": "code", "import_path": _ref(branch.path, name)},
    }
    ends = branch.ends
    if ends:
        edge["path_map"] = (
            list(ends.values())
            if all(k == v for k, v in ends.items())
            else {str(k): v for k, v in ends.items()}
        )
    return edge


# ------------------------------------------------------------------ agents (create_agent graphs)


class _Scope:
    """Where a graph's agents were built: the modules of its state schema and tools, whose source
    holds the `create_agent(...)` calls (middleware list, model construction) as written."""

    def __init__(self, builder: Any) -> None:
        self.modules = [sys.modules.get(getattr(builder.state_schema, "__module__", ""))]
        self.seen: dict[int, str] = {}
        self._trees: dict[str, dict[str, ast.expr]] = {}

    def assignment(self, obj: Any, extra: list[Any]) -> tuple[Any, ast.expr] | None:
        """The module-level `name = <expression>` that made `obj`, with its module."""
        for module in [*self.modules, *extra]:
            if module is None:
                continue
            for name, value in vars(module).items():
                if value is obj and (expr := self._assignments(module).get(name)) is not None:
                    return module, expr
        return None

    def _assignments(self, module: Any) -> dict[str, ast.expr]:
        key = module.__name__
        if key not in self._trees:
            try:
                tree = ast.parse(inspect.getsource(module))
            except (OSError, TypeError, SyntaxError):
                tree = ast.Module(body=[], type_ignores=[])
            self._trees[key] = {
                target.id: stmt.value
                for stmt in tree.body
                if isinstance(stmt, ast.Assign)
                for target in stmt.targets
                if isinstance(target, ast.Name)
            }
        return self._trees[key]


def _is_agent(builder: Any) -> bool:
    model = builder.nodes.get("model")
    fn = getattr(getattr(model, "runnable", None), "func", None)
    return getattr(fn, "__qualname__", "").startswith("create_agent.<locals>.")


def _closure(fn: Any, depth: int = 3) -> dict[str, Any]:
    """Free variables of `fn` and of the nested create_agent functions it closes over."""
    found: dict[str, Any] = {}
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=False):
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        found.setdefault(name, value)
        if depth and inspect.isfunction(value):
            for inner, v in _closure(value, depth - 1).items():
                found.setdefault(inner, v)
    return found


def _literal(node: ast.expr, element_id: str) -> Any:
    try:
        return ast.literal_eval(node)
    except ValueError:
        raise SpecError(
            f"{element_id}: {ast.unparse(node)} is not a literal setting", element_id=element_id
        ) from None


def _called(call: ast.expr) -> str:
    return call.func.id if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) else ""


def _model_settings(model: Any, source: tuple[Any, ast.expr] | None, owner: str) -> dict:
    responses = getattr(model, "responses", None)
    if type(model).__name__ == "ScriptedModel" and isinstance(responses, list):
        out = []
        for i, message in enumerate(responses):
            calls = [
                {
                    "name": c["name"],
                    "args": dict(c.get("args") or {}),
                    # the exporter fills in missing ids as call_<response>_<call>
                    **({"id": c["id"]} if c.get("id") and c["id"] != f"call_{i}_{j}" else {}),
                }
                for j, c in enumerate(getattr(message, "tool_calls", None) or [])
            ]
            content = message.content if isinstance(message.content, str) else ""
            out.append({k: v for k, v in (("content", content), ("tool_calls", calls)) if v})
        return {"provider": "scripted", "responses": out}
    if source is not None and _called(source[1]) == "init_chat_model" and source[1].args:
        call = source[1]
        provider, _, name = str(_literal(call.args[0], owner)).partition(":")
        params = {k.arg: _literal(k.value, owner) for k in call.keywords if k.arg}
        return {"provider": provider, "model": name, "params": params}
    params = model._get_ls_params() if hasattr(model, "_get_ls_params") else {}
    return {
        "provider": re.sub(r"[^a-z0-9_\-]", "_", str(params.get("ls_provider") or "unknown"))[:40],
        "model": str(params.get("ls_model_name") or ""),
    }


def _middleware_from_source(call: ast.expr, module: Any, owner: str) -> list[dict[str, Any]]:
    items = next((k.value for k in call.keywords if k.arg == "middleware"), None)
    if items is None:
        return []
    if not isinstance(items, ast.List):
        raise SpecError(f"{owner}: the middleware is not a list written out", element_id=owner)
    out: list[dict[str, Any]] = []
    for item in items.elts:
        cls = _called(item)
        if cls in _PREBUILT_BY_CLASS and not item.args:
            settings = {k.arg: _literal(k.value, owner) for k in item.keywords if k.arg}
            out.append({"kind": "prebuilt", "name": _PREBUILT_BY_CLASS[cls], "settings": settings})
            continue
        # a custom hook: hook(fn) or hook(can_jump_to=[...])(fn), fn a module-level function
        decorator = item.func if isinstance(item, ast.Call) else None
        hook, jumps = _called(item), []
        if isinstance(decorator, ast.Call):
            hook = _called(decorator)
            jumps = next(
                (_literal(k.value, owner) for k in decorator.keywords if k.arg == "can_jump_to"),
                [],
            )
        fn_name = (
            item.args[0].id
            if hook in HOOKS and len(item.args) == 1 and isinstance(item.args[0], ast.Name)
            else None
        )
        fn = vars(module).get(fn_name) if fn_name else None
        if fn is None:
            raise SpecError(
                f"{owner}: middleware {ast.unparse(item)} is neither a prebuilt middleware nor a "
                "hook decorator on a module-level function",
                element_id=owner,
            )
        middleware = {
            "kind": "custom",
            "name": fn_name,
            "hooks": {hook: {"import_path": _ref(fn, owner)}},
        }
        if jumps:
            middleware["can_jump_to"] = list(jumps)
        out.append(middleware)
    return out


def _middleware_from_nodes(builder: Any) -> list[dict[str, Any]]:
    """Without the source: the prebuilt middleware that have graph nodes, with the settings their
    instances keep under the names of their constructor's arguments."""
    out, seen = [], set()
    for name, node in builder.nodes.items():
        instance = getattr(getattr(node.runnable, "func", None), "__self__", None)
        cls = type(instance).__name__
        if "." not in name or id(instance) in seen or cls not in _PREBUILT_BY_CLASS:
            continue
        seen.add(id(instance))
        params = inspect.signature(type(instance).__init__).parameters
        settings = {
            k: vars(instance)[k]
            for k, p in params.items()
            if k in vars(instance) and vars(instance)[k] != p.default and _plain(vars(instance)[k])
        }
        out.append({"kind": "prebuilt", "name": _PREBUILT_BY_CLASS[cls], "settings": settings})
    return out


def _plain(value: Any) -> bool:
    """JSON data (what a prebuilt middleware's settings are), not a resolved object."""
    if isinstance(value, (list, tuple)):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return value is None or isinstance(value, (str, int, float, bool))


def _agent(graph: Any, builder: Any, node_id: str, agents: list[dict], scope: _Scope) -> str:
    if id(graph) in scope.seen:
        return scope.seen[id(graph)]
    found = _closure(builder.nodes["model"].runnable.func)
    tools_node = builder.nodes.get("tools")
    by_name = getattr(getattr(tools_node, "runnable", None), "tools_by_name", None) or {}
    tools = []
    for name, tool in by_name.items():
        fn = getattr(tool, "func", None) or getattr(tool, "coroutine", None)
        entry = {"name": name, "import_path": _ref(fn, node_id)}
        if tool.description and tool.description != name:
            entry["description"] = tool.description
        tools.append(entry)
    modules = [sys.modules.get(t["import_path"].partition(":")[0]) for t in tools]
    made = scope.assignment(graph, modules)
    call = made[1] if made is not None and _called(made[1]) == "create_agent" else None
    agent_id = node_id
    model_source = None
    if call is not None and call.args and isinstance(call.args[0], ast.Name):
        var = call.args[0].id
        wanted = re.sub(r"_model_*$", "", var)
        agent_id = wanted if wanted.isidentifier() and wanted != var else node_id
        model_source = scope.assignment(found.get("model"), [made[0]])
    system = found.get("system_message")
    agent: dict[str, Any] = {
        "model": _model_settings(found.get("model"), model_source, node_id),
        "system_prompt": getattr(system, "content", None) or "",
        "tools": tools,
        "middleware": (
            _middleware_from_source(call, made[0], node_id)
            if call is not None
            else _middleware_from_nodes(builder)
        ),
    }
    agent = {k: v for k, v in agent.items() if v}
    # the exporter writes one create_agent per node: nodes running the same agent share it again
    same = [a["id"] for a in agents if {k: v for k, v in a.items() if k != "id"} == agent]
    if same and re.sub(r"_+$", "", same[0]) == agent_id:
        agent_id = same[0]
    else:
        taken = {a["id"] for a in agents}
        while agent_id in taken:
            agent_id = f"{agent_id}_"
        agents.append({"id": agent_id, **agent})
    scope.seen[id(graph)] = agent_id
    return agent_id


def _graph_doc(builder: Any) -> dict[str, Any]:
    subgraphs: list[dict[str, Any]] = []
    agents: list[dict[str, Any]] = []
    scope = _Scope(builder)
    nodes = [_node(name, node, subgraphs, agents, scope) for name, node in builder.nodes.items()]
    entry, finish, edges = [], [], []
    for start, end in sorted(builder.edges):
        if start == START:
            entry.append(end)
        elif end == END:
            finish.append(start)
        else:
            edges.append({"id": f"{start}_to_{end}", "sources": [start], "target": end})
    for starts, end in sorted(builder.waiting_edges):
        edges.append(
            {
                "id": f"{'_'.join(starts)}_to_{end.strip('_')}",
                "sources": list(starts),
                "target": end,
            }
        )
    conditional = [
        _branch(source, name, branch)
        for source, branches in builder.branches.items()
        for name, branch in branches.items()
    ]
    doc: dict[str, Any] = {
        "state": _state(builder),
        "nodes": nodes,
        "edges": edges,
        "conditional_edges": conditional,
        "entry": entry,
        "finish": finish,
        "subgraphs": subgraphs,
        "agents": agents,
    }
    return {k: v for k, v in doc.items() if v}


def spec_from_graph(graph: Any) -> Any:
    builder = _builder_of(graph)
    if builder is None:
        raise SpecError(f"{type(graph).__name__} is not a graph (no StateGraph builder)")
    doc = _graph_doc(builder)
    name = getattr(graph, "name", None)
    if name and name != "LangGraph":
        doc["name"] = name
    return spec_from_dict({"version": 2, **doc})


__all__ = ["import_module_graph", "spec_from_graph"]
