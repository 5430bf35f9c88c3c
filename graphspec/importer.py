"""A Python module holding a graph (engine or langgraph, compiled or a builder) -> spec.

    import_module_graph("pkg.module" or "path/to/file.py", attr=None) -> GraphSpec
    spec_of(module, name, target) -> GraphSpec of a loaded module's graph (or factory's)
    spec_from_graph(graph_or_builder) -> GraphSpec

The last step of a program's way to the canvas (load it -> find its graphs in
`graphspec.program_graphs` -> the compiled graph, drawn by `graphspec.graph_drawing` -> here,
a spec when the spec can hold it).

Functions (nodes, routers, custom reducers, tools) become references by import path
`module:name`, checked by resolving them back (`graphspec.import_refs`): async functions,
callable objects and `@tool` functions get one; a function a later definition shadowed becomes
inline code importing the module globals it reads, never a path to the wrong function. A file
imported by path is named by its stem (made a name when it is none: `graphspec.program_names`,
`09_subgraph.py` is `_09_subgraph`); its folder is on sys.path only while it loads, and
sys.modules keeps it, so the references resolve later in the same process. Importing runs the
module: callers ask the user first. `module:function` names a graph factory: it is called as
langgraph's server calls one (no arguments, or a RunnableConfig).

What each construct becomes: compiled subgraphs used as nodes, inline subgraphs; `create_agent`
and `create_react_agent` graphs (as nodes or the module's graph, also made by a module-level
factory), agent nodes (`graphspec.import_agents`), the graph around an agent keeping its extra
state keys and `structured_response`; a `ToolNode`, a tools node with its tools; a
functional-API entrypoint, a node running it as written (`graphspec.import_func`); a pydantic or
dataclass state, `state_class` by import path; `interrupt_before/after`, breakpoints; an
in-memory checkpointer, store or cache given to compile, the spec's `checkpointer`/`store`/
`cache`; `Command[Literal[...]]` annotations, destinations; path maps, retry and cache policies
as they are; edge ids fitted to the spec's 64 characters. What the spec has no place for is
refused with a SpecError naming the element, never dropped, and nothing else escapes: any other
failure while reading the graph is a SpecError too. The spec gets no positions: the canvas lays
it out.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import importlib
import importlib.util
import keyword
import operator
import re
import sys
import typing
from pathlib import Path
from typing import Any

from engine.constants import END, START
from graphspec import import_agents, import_func, import_pregel
from graphspec.call_refs import built_node_code
from graphspec.engine_source import EngineLoader
from graphspec.errors import SpecError
from graphspec.import_refs import code_ref, ref, target_of
from graphspec.io import spec_from_dict
from graphspec.model import RESERVED_NAMES
from graphspec.program_graphs import builder_of, graph_value, kept_channels, pick_name
from graphspec.program_names import module_name
from graphspec.program_siblings import make_way
from graphspec.state_types import MANAGED_BY_CLASS_NAME, MANAGED_TYPES, TYPE_OF_CLASS


def import_module_graph(target: str, attr: str | None = None, *, on_engine: bool = False) -> Any:
    """Import `target` (module name or .py file) and turn its graph into a spec."""
    module = load_module(target, on_engine=on_engine)
    return spec_of(module, attr or pick_name(module, target), target)


def spec_of(module: Any, name: str, target: str, value: Any = None) -> Any:
    """The spec of the graph `module.name` holds, or makes (a factory, as langgraph.json's
    `module:function`: read from the call it returns); `value` is what it made, when known."""
    value = graph_value(module, name, target) if value is None else value
    made = ast.Call(func=ast.Name(id=name), args=[], keywords=[])
    return spec_from_graph(value, module, made if value is not getattr(module, name) else None)


def load_module(
    target: str, *, on_engine: bool = False, again: bool = True, name: str | None = None
) -> Any:
    """Import a module by name or a .py file by path (run again if already imported, unless not
    `again`); with `on_engine`, a file's langgraph imports are pointed at the engine
    (`graphspec.engine_source`). A file is imported as `name` (what a spec's import paths call
    it), else under a name no other module holds (`graphspec.program_names.module_name`)."""
    path = Path(target)
    if path.suffix != ".py":
        try:
            return importlib.import_module(target)
        except Exception as exc:
            raise SpecError(f"cannot import {target}: {type(exc).__name__}: {exc}") from exc
    if not path.is_file():
        raise SpecError(f"no such file: {target}")
    name = name or module_name(path)  # `09_subgraph.py` too, as `langgraph dev` loads it by path
    make_way([path.resolve().parent])  # its sibling modules, not another program's of their name
    saved = list(sys.path)
    sys.path.insert(0, str(path.resolve().parent))  # for its sibling imports, while it loads
    try:
        loaded = sys.modules.get(name)
        loader = getattr(getattr(loaded, "__spec__", None), "loader", None)
        same_runtime = isinstance(loader, EngineLoader) == on_engine
        if same_runtime and getattr(loaded, "__file__", None) == str(path.resolve()):
            if not again:
                return loaded
            # run again in place with its own loader (importlib.reload would look the file up
            # on sys.path and could load it with the other runtime's imports)
            loader.exec_module(loaded)
            return loaded
        engine_loader = EngineLoader(path.resolve()) if on_engine else None
        module_spec = importlib.util.spec_from_file_location(name, path.resolve(),
                                                             loader=engine_loader)  # fmt: skip
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        module_spec.loader.exec_module(module)
        return module
    except Exception as exc:
        raise SpecError(f"cannot import {target}: {type(exc).__name__}: {exc}"
                        f"{_not_on_engine(exc) if on_engine else ''}") from exc  # fmt: skip
    finally:
        sys.path[:] = saved  # exactly as before: the folder must not shadow modules later


def _not_on_engine(exc: Exception) -> str:
    """What a program's import the engine lacks was written as: the file says
    `langgraph.store.sqlite`, the failure names its engine counterpart `engine.store.sqlite`."""
    missing = getattr(exc, "name", None) if isinstance(exc, ModuleNotFoundError) else None
    if not missing or missing.partition(".")[0] != "engine":
        return ""
    agents = missing == "engine.agents" or missing.startswith("engine.agents.")
    written = ("langchain" if agents else "langgraph") + missing[len("engine") :]
    return f" (the program imports {written}, which the engine does not provide)"


# ------------------------------------------------------------------ state


def state_key(name: str, annotation: Any, modules: list[Any]) -> dict[str, Any]:
    key: dict[str, Any] = {"name": name}
    while getattr(typing.get_origin(annotation), "_name", "") in ("Required", "NotRequired"):
        annotation = typing.get_args(annotation)[0]  # a TypedDict key's marks, not its type
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
    # a reducer is a function; a class in the metadata marks the key (langchain's OmitFromInput)
    last = metadata[-1] if metadata else None
    reducer = last if callable(last) and not isinstance(last, type) else None
    if reducer is operator.add:
        key["reducer"] = "add"
    elif getattr(reducer, "__name__", "") in ("add_messages", "_add_messages"):
        # langgraph's add_messages is a decorated wrapper whose inner function is `_add_messages`
        key.update(type="messages", reducer="add_messages")
    elif getattr(reducer, "__name__", "") == "merge_dicts":
        key["reducer"] = "merge"
    elif reducer is not None:
        key.update(reducer="custom", custom_reducer=code_ref(reducer, name, modules))
    return key


def _hints(schema: Any) -> dict[str, Any]:
    try:
        return typing.get_type_hints(schema, include_extras=True)
    except Exception:
        return dict(getattr(schema, "__annotations__", {}))


def _is_typed_dict(schema: Any) -> bool:
    # typing_extensions' TypedDict (what most programs import) is not typing's on every Python
    return isinstance(schema, type) and issubclass(schema, dict)


def _state(builder: Any, modules: list[Any]) -> tuple[list[dict[str, Any]], str | None]:
    """The keys (the state's, then the private ones other schemas add) and, for a pydantic or
    dataclass state, the class by import path."""
    schema = builder.state_schema
    if (
        isinstance(schema, type)
        and schema.__module__ == "builtins"
        and not hasattr(schema, "__annotations__")
    ):  # as langgraph decides: a schema with no annotations (StateGraph(int), StateGraph(dict);
        # not a dict subclass, which has them) is one value, which what a node returns replaces
        return [], f"builtins:{schema.__qualname__}"
    hints = _hints(schema)
    state_class = None
    if not _is_typed_dict(schema):
        if not (hasattr(schema, "model_fields") or dataclasses.is_dataclass(schema)):
            raise SpecError(f"the state schema {schema!r} is neither a TypedDict, a pydantic "
                            "model nor a dataclass")  # fmt: skip
        state_class = ref(schema, "state", modules)
    inputs = set(_hints(builder.input_schema)) if builder.input_schema is not schema else None
    outputs = set(_hints(builder.output_schema)) if builder.output_schema is not schema else None
    private: dict[str, Any] = {}
    for other in getattr(builder, "schemas", {}):
        for name, annotation in _hints(other).items():
            if name not in hints:
                private.setdefault(name, annotation)
    keys = []
    for name, annotation in [*hints.items(), *private.items()]:
        key = state_key(name, annotation, modules)
        if name in private or (inputs is not None and name not in inputs):
            key["input"] = False
        if name in private or (outputs is not None and name not in outputs):
            key["output"] = False
        if key["type"] in MANAGED_TYPES:
            key.pop("input", None)
            key.pop("output", None)
        keys.append(key)
    if state_class is None and any("call" in (k.get("custom_reducer") or {}) for k in keys):
        # a reducer a call made is another object each time it is made, and langgraph wants the
        # very same one in a node's input schema (the program's class, by its type hint)
        state_class = ref(schema, "state", modules)
    return keys, state_class


# ------------------------------------------------------------------ nodes and edges


_MAX_ID = 64
"""The spec's identifiers are at most this long (`graphspec.model.Identifier`)."""


def _edge_id(wanted: str, taken: set[str]) -> str:
    """`wanted` as an edge id: an identifier of at most _MAX_ID characters (a long one cut and
    ended with a hash of the whole, so ids of different long names stay apart), not in `taken`
    (which it joins)."""
    text = re.sub(r"\W", "_", wanted, flags=re.ASCII)
    text = text if text[:1].isalpha() or text[:1] == "_" else f"e_{text}"
    if len(text) > _MAX_ID:
        digest = hashlib.sha1(wanted.encode("utf-8")).hexdigest()[:8]
        text = f"{text[: _MAX_ID - 9]}_{digest}"
    out, n = text, 1
    while out in taken or keyword.iskeyword(out) or out in RESERVED_NAMES:
        n += 1
        out = f"{text[: _MAX_ID - len(str(n)) - 1]}_{n}"
    taken.add(out)
    return out


def _retry(policy: Any, element_id: str) -> dict[str, Any] | None:
    if policy is None:
        return None
    if isinstance(policy, (list, tuple)) and not hasattr(policy, "max_attempts"):
        if len(policy) > 1:
            raise SpecError(f"{element_id}: several retry policies; the spec holds one",
                            element_id=element_id)  # fmt: skip
        policy = policy[0]
    out = {
        "initial_interval": policy.initial_interval,
        "backoff_factor": policy.backoff_factor,
        "max_interval": policy.max_interval,
        "max_attempts": policy.max_attempts,
        "jitter": policy.jitter,
    }
    retry_on = policy.retry_on
    if getattr(retry_on, "__name__", "") == "default_retry_on":
        return out
    classes = retry_on if isinstance(retry_on, (tuple, list)) else (retry_on,)
    if not all(isinstance(c, type) and c.__module__ == "builtins" for c in classes):
        raise SpecError(f"{element_id}: retry_on={retry_on!r}: the spec's retry policy names "
                        "builtin exception classes only", element_id=element_id)  # fmt: skip
    out["retry_on"] = [c.__name__ for c in classes]
    return out


def _cache(policy: Any, element_id: str) -> dict[str, Any] | None:
    if policy is None:
        return None
    if getattr(policy.key_func, "__name__", "") != "default_cache_key":
        raise SpecError(f"{element_id}: the cache policy's key_func has no place in the spec "
                        "(it keys by the node's input)", element_id=element_id)  # fmt: skip
    return {"ttl": policy.ttl}


class _Graph:
    """One graph's spec document being built, with what its nodes share."""

    def __init__(self, builder: Any, modules: list[Any], made: Any = None) -> None:
        self.builder = builder
        self.modules = [sys.modules.get(getattr(builder.state_schema, "__module__", "")), *modules]
        self.modules = [m for m in self.modules if m is not None]
        self.scope = import_agents.Scope(builder, made)
        self.scope.modules += self.modules
        self.subgraphs: list[dict[str, Any]] = []
        self.agents: list[dict[str, Any]] = []

    def agent_node(self, name: str, graph: Any, inner: Any) -> dict[str, Any] | None:
        if import_agents.is_agent(inner):
            agent_id = import_agents.agent(graph, inner, name, self.agents, self.scope)
        elif import_agents.is_react_agent(inner):
            agent_id = import_agents.react_agent(graph, inner, name, self.agents, self.scope)
        else:
            return None
        return {"id": name, "kind": "agent", "agent": agent_id}

    def node(self, name: str, node: Any) -> dict[str, Any]:
        runnable = node.runnable
        inner = builder_of(runnable)
        out = self.agent_node(name, runnable, inner) if inner is not None else None
        if out is not None:
            pass
        elif inner is not None and not hasattr(runnable, "func"):
            sub_id = name if name.isidentifier() else f"sub_{len(self.subgraphs)}"
            doc = _graph_doc(inner, self.modules)
            if points := _static_breakpoints(runnable):  # compiled with its own: they pause
                doc["breakpoints"] = points
            self.subgraphs.append({"id": sub_id, "graph": doc})
            out = {"id": name, "kind": "subgraph", "subgraph": sub_id}
        elif type(runnable).__name__ == "ToolNode":
            out = import_agents.tools_node(name, runnable, self.modules)
        else:
            out = {"id": name, "kind": "function", **self.function(name, runnable)}
            if import_func.is_entrypoint(runnable):
                out["description"] = import_func.NODE_NOTE
        if (retry := _retry(node.retry_policy, name)) is not None:
            out["retry"] = retry
        if (cache := _cache(node.cache_policy, name)) is not None:
            out["cache"] = cache
        ends = node.ends
        if ends and out["kind"] in ("function", "agent"):
            out["destinations"] = sorted(ends.values() if isinstance(ends, dict) else ends)
        if node.defer:
            out["defer"] = True
        return out

    def function(self, name: str, runnable: Any) -> dict[str, Any]:
        """A function node's code reference; for a node a library's graph factory made inside
        the builder the program made by a call, code making that node again."""
        try:
            return code_ref(target_of(runnable), name, self.modules)
        except SpecError:
            made = self.scope.assignment(self.builder, self.modules)
            if made is None or (kept := built_node_code(made, name, runnable, name)) is None:
                raise
            return kept

    def router(self, source: str, name: str, branch: Any) -> dict[str, Any]:
        """A branch's router as a code reference; for one a library's graph factory added to
        the builder the program made by a call, code making that router again."""
        try:
            return code_ref(target_of(branch.path), name, self.modules)
        except SpecError:
            made = self.scope.assignment(self.builder, self.modules)
            kept = None if made is None else built_node_code(made, source, branch.path, name, name)
            if kept is None:
                raise
            return kept

    def branch(self, source: str, name: str, branch: Any, taken: set[str]) -> dict[str, Any]:
        edge: dict[str, Any] = {
            "id": _edge_id(name if name.isidentifier() else f"{source}_router", taken),
            "source": source,
            "router": {"kind": "code", **self.router(source, name, branch)},
        }
        ends = branch.ends
        if ends:
            if not all(isinstance(k, str) for k in ends):
                raise SpecError(f"{edge['id']}: the path map's keys {list(ends)!r} are not all "
                                "strings; the spec's path map is keyed by text (return strings "
                                "from the router)", element_id=edge["id"])  # fmt: skip
            edge["path_map"] = (
                list(ends.values()) if all(k == v for k, v in ends.items()) else dict(ends)
            )
        return edge


def _graph_doc(builder: Any, modules: list[Any]) -> dict[str, Any]:
    g = _Graph(builder, modules)
    state, state_class = _state(builder, g.modules)
    nodes = [g.node(name, node) for name, node in builder.nodes.items()]
    entry, finish, edges = [], [], []
    taken = {n["id"] for n in nodes}
    for start, end in sorted(builder.edges):
        if start == START:
            entry.append(end)
        elif end == END:
            finish.append(start)
        else:
            edge_id = _edge_id(f"{start}_to_{end}", taken)
            edges.append({"id": edge_id, "sources": [start], "target": end})
    for starts, end in sorted(builder.waiting_edges):
        edge_id = _edge_id(f"{'_'.join(starts)}_to_{end.strip('_')}", taken)
        edges.append({"id": edge_id, "sources": list(starts), "target": end})
    conditional = [
        g.branch(source, name, branch, taken)
        for source, branches in builder.branches.items()
        for name, branch in branches.items()
    ]
    context = getattr(builder, "context_schema", None)
    doc: dict[str, Any] = {
        "state": state,
        "state_class": state_class,
        "context_schema": ref(context, "context", g.modules) if context is not None else None,
        "nodes": nodes,
        "edges": edges,
        "conditional_edges": conditional,
        "entry": entry,
        "finish": finish,
        "subgraphs": g.subgraphs,
        "agents": g.agents,
    }
    return {k: v for k, v in doc.items() if v}


# ------------------------------------------------------------------ the whole graph


_IN_MEMORY = {
    "checkpointer": ("InMemorySaver", "MemorySaver"),
    "store": ("InMemoryStore",),
    "cache": ("InMemoryCache",),
}


def _own_store(store: Any, modules: list[Any]) -> str | None:
    """The import path of a store the spec keeps as the program's own: one holding data, or
    not a plain in-memory store, that a module-level name holds; None for an empty in-memory
    store (the spec's `memory` is the same) or one no name holds."""
    plain = type(store).__name__ in _IN_MEMORY["store"] and not getattr(store, "index_config", None)
    try:
        if plain and not store.list_namespaces(limit=1):
            return None
        return ref(store, "store", modules)
    except Exception:  # a store that cannot list, or no name holds: as before
        return None


def _static_breakpoints(graph: Any) -> dict[str, list[str]]:
    """The interrupt_before/after a compiled graph was given, "*" as its every node."""
    nodes = [n for n in getattr(graph, "nodes", {}) if n != START]
    points = {}
    for when in ("before", "after"):
        chosen = getattr(graph, f"interrupt_{when}_nodes", None) or []
        chosen = nodes if chosen == "*" or "*" in chosen else list(chosen)
        if chosen:
            points[when] = chosen
    return points


def _compiled_with(graph: Any, modules: list[Any]) -> dict[str, Any]:
    """Breakpoints and the in-memory checkpointer, store and cache a compiled graph was given;
    a store of the program's own by import path (`_own_store`)."""
    out: dict[str, Any] = {}
    if points := _static_breakpoints(graph):
        out["breakpoints"] = points
    for field, classes in _IN_MEMORY.items():
        value = getattr(graph, field, None)
        if value is None or value is True or value is False:
            continue
        if field == "store" and (path := _own_store(value, modules)) is not None:
            out["store_path"] = path
            continue
        if type(value).__name__ not in classes or getattr(value, "index_config", None):
            raise SpecError(f"the graph is compiled with {field}={type(value).__name__}(...); the "
                            f"spec holds an in-memory {field} only")  # fmt: skip
        out[field] = "memory"
    return out


def spec_from_graph(graph: Any, module: Any = None, made: ast.expr | None = None) -> Any:
    """The spec of a compiled graph, a builder or an entrypoint; `module` is where it was found
    (its source holds agent calls; its globals the names of callable objects), `made` the
    expression that made it when no module variable holds it (a factory's call).

    What cannot become a spec raises SpecError, whatever went wrong inside."""
    try:
        return _spec_from_graph(graph, module, made)
    except SpecError:
        raise
    except Exception as exc:  # a construct no rule here foresaw: refused, never a crash
        raise SpecError(f"cannot read the graph: {type(exc).__name__}: {exc}") from exc


def _spec_from_graph(graph: Any, module: Any, made: ast.expr | None) -> Any:
    modules = [module] if module is not None else []
    if import_func.is_entrypoint(graph):
        doc = import_func.entrypoint_doc(graph, modules)
    elif import_pregel.is_built_by_hand(graph):
        doc = import_pregel.pregel_doc(graph, modules)
    else:
        builder = builder_of(graph)
        if builder is None:
            raise SpecError(f"{type(graph).__name__} is not a graph (no StateGraph builder)")
        made_by = (graph, module, made) if made is not None else None
        doc = _agent_doc(graph, builder, modules, made_by) or _graph_doc(builder, modules)
    if builder_free := graph is not builder_of(graph):
        doc.update(_compiled_with(graph, modules))
    name = getattr(graph, "name", None)
    if name and name != "LangGraph" and builder_free:
        doc["name"] = name
    return spec_from_dict({"version": 2, **doc})


def _agent_doc(graph: Any, builder: Any, modules: list[Any], made: Any) -> dict[str, Any] | None:
    """An agent graph as the module's graph: one agent node on a conversation."""
    if not (import_agents.is_agent(builder) or import_agents.is_react_agent(builder)):
        return None
    name = getattr(graph, "name", None) or ""
    node_id = name if name.isidentifier() and name != "LangGraph" else "agent"
    g = _Graph(builder, modules, made)
    node = g.agent_node(node_id, graph, builder)
    state = [
        {"name": "messages", "type": "messages", "reducer": "add_messages"},
        *_agent_keys(builder, g.modules),
    ]
    doc = {"state": state, "nodes": [node], "entry": [node_id], "finish": [node_id],
           "agents": g.agents}  # fmt: skip
    if (context := getattr(builder, "context_schema", None)) is not None:
        # the graph around the agent takes the run context the agent reads (`context_schema`)
        doc["context_schema"] = ref(context, "context", g.modules)
    kept = kept_channels(graph if graph is not builder else builder.compile()) or set()
    if kept - {key["name"] for key in state}:  # private state a graph around it would drop
        doc["graph_is_node"] = True
    return doc


def _agent_keys(builder: Any, modules: list[Any]) -> list[dict[str, Any]]:
    """The agent's keys besides its conversation, so the graph around it takes and returns them
    too: its state schema's own keys and, with structured output, `structured_response`."""
    inputs, outputs = _hints(builder.input_schema), _hints(builder.output_schema)
    keys = []
    for name, annotation in {**inputs, **outputs}.items():
        if name == "messages":
            continue
        key = state_key(name, annotation, modules)
        if key["type"] in MANAGED_TYPES:
            continue
        keys.append({**key, **({} if name in inputs else {"input": False}),
                     **({} if name in outputs else {"output": False})})  # fmt: skip
    return keys


__all__ = [
    "import_module_graph",
    "load_module",
    "spec_from_graph",
    "spec_of",
]
