"""A Python module holding a graph (engine or langgraph, compiled or a builder) -> spec.

    import_module_graph("pkg.module" or "path/to/file.py", attr=None) -> GraphSpec
    spec_from_graph(graph_or_builder) -> GraphSpec

Functions (nodes, routers, custom reducers) become references by import path `module:function`,
so they must live at module level; a file imported by path is named by its stem and its folder
is put on sys.path, so the references resolve later in the same process. Compiled subgraphs used
as nodes become inline subgraphs. The spec gets no positions: the canvas lays it out.
"""

from __future__ import annotations

import importlib
import importlib.util
import operator
import sys
import typing
from pathlib import Path
from typing import Any

from engine.errors import SpecError
from spec.io import spec_from_dict

_TYPES = {str: "str", int: "int", float: "float", bool: "bool", list: "list", dict: "dict"}
_MANAGED = {"RemainingStepsManager": "remaining_steps", "IsLastStepManager": "is_last_step"}
_START, _END = "__start__", "__end__"


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
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    name = path.stem
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
        managed = _MANAGED.get(getattr(item, "__name__", ""))
        if managed:
            return {"name": name, "type": managed}
    base = typing.get_origin(base) or base
    key["type"] = _TYPES.get(base, "any")
    reducer = metadata[-1] if metadata and callable(metadata[-1]) else None
    if reducer is operator.add:
        key["reducer"] = "add"
    elif getattr(reducer, "__name__", "") == "add_messages":
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
        if key["type"] in _MANAGED.values():
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


def _node(name: str, node: Any, subgraphs: list[dict[str, Any]]) -> dict[str, Any]:
    runnable = node.runnable
    inner = _builder_of(runnable)
    if inner is not None and not hasattr(runnable, "func"):
        sub_id = name if name.isidentifier() else f"sub_{len(subgraphs)}"
        subgraphs.append({"id": sub_id, "graph": _graph_doc(inner)})
        out: dict[str, Any] = {"id": name, "kind": "subgraph", "subgraph": sub_id}
    else:
        out = {"id": name, "kind": "function", "import_path": _ref(runnable, name)}
    if (retry := _retry(node.retry_policy)) is not None:
        out["retry"] = retry
    if node.cache_policy is not None:
        out["cache"] = {"ttl": getattr(node.cache_policy, "ttl", None)}
    ends = node.ends
    if ends and out["kind"] == "function":
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


def _graph_doc(builder: Any) -> dict[str, Any]:
    subgraphs: list[dict[str, Any]] = []
    nodes = [_node(name, node, subgraphs) for name, node in builder.nodes.items()]
    entry, finish, edges = [], [], []
    for start, end in sorted(builder.edges):
        if start == _START:
            entry.append(end)
        elif end == _END:
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
