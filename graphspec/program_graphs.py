"""Find the graphs a loaded program holds, and get each as a compiled graph.

The second step of opening a program, after loading it (with the user's consent): a module
attribute holds a graph when it is a compiled graph (a `StateGraph` compiled, a `Pregel` built by
hand, an `@entrypoint` workflow, what `create_agent` / `create_react_agent` /
`create_deep_agent` return), a `StateGraph` builder (compiled here, as `langgraph dev` does), or a
function that returns one of these: langgraph.json's `module:function`, called with no arguments
or with a `RunnableConfig`, as LangGraph's server calls it. A factory is called only when named
(`file.py:function`), so finding a module's graphs never calls a function of it.

Objects are recognised by shape, not class, so a program loaded on langgraph (`superstep import`)
and one loaded on the engine (the studio) are found alike.
"""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

from graphspec.errors import SpecError

PREFERRED_NAMES = ("graph", "app", "agent")
"""The variable taken when a module holds several graphs and none is named."""


class NoGraph(SpecError):
    """The module holds no graph at module level (a script may still run one: program_script)."""


class SeveralGraphs(SpecError):
    """The module holds more than one graph and none is called graph, app or agent: pick one."""

    def __init__(self, target: str, names: list[str]) -> None:
        super().__init__(
            f"{target} holds several graphs ({', '.join(names)}): name one as {target}:{names[0]}"
        )
        self.names = names


NAME_ONE = "{file} defines {count} graphs: {names}; run one with {path}:{first}"
"""The command line's line (English, as all its text); the studio gives its translation."""


def name_one(path: Any, names: list[str], text: str = NAME_ONE) -> str:
    """The line that names a program's (or project's) graphs when nobody can pick one: the
    command to give instead, `PATH:NAME`, in `text`."""
    return text.format(file=path.name, count=len(names), names=", ".join(names), path=path,
                       first=names[0])  # fmt: skip


def builder_of(obj: Any) -> Any:
    """The StateGraph builder of a compiled graph, or the builder itself; None otherwise."""
    if obj is None or isinstance(obj, type):
        return None
    try:
        builder = getattr(obj, "builder", None)
        if builder is not None and hasattr(builder, "nodes") and hasattr(builder, "branches"):
            return builder
        if hasattr(obj, "nodes") and hasattr(obj, "branches") and hasattr(obj, "waiting_edges"):
            return obj
    except Exception:  # an object whose attributes raise (a lazy proxy) is no graph
        return None
    return None


def is_pregel(obj: Any) -> bool:
    """A compiled graph of any kind: it has nodes, channels and the run methods."""
    if isinstance(obj, type):
        return False
    try:
        return (isinstance(getattr(obj, "channels", None), dict)
                and isinstance(getattr(obj, "nodes", None), dict) and hasattr(obj, "stream"))  # fmt: skip
    except Exception:  # an object whose attributes raise (a lazy proxy) is no graph
        return False


def graph_names(module: Any) -> list[str]:
    """Module-level names holding a graph, a builder only when no compiled graph of it is there."""
    found = {name: value for name, value in vars(module).items()
             if not name.startswith("_") and (builder_of(value) is not None or is_pregel(value))}  # fmt: skip
    compiled = {id(builder_of(v)) for v in found.values() if builder_of(v) is not v}
    return [n for n, v in found.items() if builder_of(v) is not v or id(v) not in compiled]


def pick_name(module: Any, target: str) -> str:
    """The name of the module's graph: its only one, else of those no other holds as a subgraph
    (a supervisor beside its agents; a grandparent graph beside the parent called `graph` it
    runs) graph/app/agent, else the only one, else graph/app/agent held by another;
    SeveralGraphs when that leaves more than one (the caller asks which)."""
    names = graph_names(module)
    if len(names) == 1:
        return names[0]
    if not names:
        raise NoGraph(f"{target} holds no graph (a compiled graph, a StateGraph builder or an "
                        f"@entrypoint); for a function making one, name it as {target}:FUNCTION")  # fmt: skip
    outermost = _outermost(module, names)
    preferred = [n for n in PREFERRED_NAMES if n in outermost]
    if preferred or len(outermost) == 1:
        return (preferred or outermost)[0]
    if held := [n for n in PREFERRED_NAMES if n in names]:  # run by one of several outermost
        return held[0]
    raise SeveralGraphs(target, names)


def _outermost(module: Any, names: list[str]) -> list[str]:
    """Of `names`, the graphs no other one runs as a subgraph (nor, for a builder, a compiled
    graph of it): what a file holding a graph and its parts means to open."""
    graphs = {name: getattr(module, name) for name in names}
    held: set[int] = set()  # the ids of the subgraphs run, and of their builders
    for graph in graphs.values():
        if not is_pregel(graph):
            continue
        try:
            inner = [sub for _, sub in graph.get_subgraphs(recurse=True)]
        except Exception:  # a graph that cannot list its subgraphs holds none we know of
            continue
        held.update(id(part) for sub in inner for part in (sub, builder_of(sub)) if part is not None)  # fmt: skip
    return [name for name, graph in graphs.items()
            if id(graph) not in held and id(builder_of(graph)) not in held]  # fmt: skip


def from_factory(factory: Any, where: str) -> Any:
    """The graph a factory function makes, called as langgraph's server calls one: with no
    arguments, or with a RunnableConfig when it takes one; a coroutine function is awaited."""
    params = [p for p in inspect.signature(factory).parameters.values()
              if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]  # fmt: skip
    if len(params) > 1:
        raise SpecError(f"{where} takes {len(params)} arguments; a graph factory takes none or "
                        "one RunnableConfig")  # fmt: skip
    args = [{"configurable": {}}] if params else []
    try:
        made = factory(*args)
        if inspect.iscoroutine(made):
            made = asyncio.run(made)
    except Exception as exc:
        raise SpecError(f"{where} failed: {type(exc).__name__}: {exc}") from exc
    if builder_of(made) is None and not is_pregel(made):
        raise SpecError(f"{where} returned {type(made).__name__}, not a graph")
    return made


def graph_value(module: Any, name: str, target: str) -> Any:
    """`module.name`, called first if it is a factory function."""
    if not hasattr(module, name):
        raise SpecError(f"{target} has no attribute {name!r}")
    value = getattr(module, name)
    return from_factory(value, f"{target}:{name}") if inspect.isfunction(value) else value


def compiled(graph: Any, where: str) -> Any:
    """A graph as a compiled one: a builder compiled as `langgraph dev` compiles it."""
    if builder_of(graph) is graph:
        try:
            return graph.compile()
        except Exception as exc:
            raise SpecError(f"{where} does not compile: {type(exc).__name__}: {exc}") from exc
    if not is_pregel(graph):
        raise SpecError(f"{where} is a {type(graph).__name__}, not a graph")
    return graph


def kept_channels(graph: Any, attr: str = "stream_channels") -> set[str] | None:
    """The channels `graph.attr` lists, but those that hold a value only for the step after the
    one that wrote it (an agent's `jump_to`): no state a caller reads or resumes keeps them."""
    names, channels = getattr(graph, attr, None), getattr(graph, "channels", None) or {}
    if not isinstance(names, list):
        return None
    return {n for n in names if type(channels.get(n)).__name__ != "EphemeralValue"}


def unlike(program: Any, spec_graph: Any) -> str | None:
    """What a program's compiled graph shows its callers that the graph compiled from its spec
    would not (the state keys it takes, gives and keeps, a run context, a store's data), or None
    when they agree: a spec that differs there would run another program, so the program is
    drawn from code."""
    for what, attr in (("input", "input_channels"), ("output", "output_channels"),
                       ("state", "stream_channels")):  # fmt: skip
        mine, theirs = kept_channels(program, attr), kept_channels(spec_graph, attr)
        if isinstance(mine, set) and isinstance(theirs, set) and mine != theirs:
            extra = sorted(mine ^ theirs)
            return f"the spec's {what} keys differ from the program's ({', '.join(extra)})"
    if (getattr(program, "context_schema", None) is None) != (
        getattr(spec_graph, "context_schema", None) is None
    ):
        return "the program's run context (context_schema) has no place in the spec"
    store = getattr(program, "store", None)
    if store is not None and getattr(spec_graph, "store", None) is store:
        return None  # the spec points at the program's own store, data and all
    try:
        kept = store is not None and bool(store.list_namespaces(limit=1))
    except Exception:  # a store that cannot list: its data is unknown, so keep the program's
        kept = store is not None
    if kept:
        return "the program's store holds data the spec cannot carry"
    return None


__all__ = [
    "PREFERRED_NAMES",
    "SeveralGraphs",
    "builder_of",
    "compiled",
    "from_factory",
    "graph_names",
    "graph_value",
    "is_pregel",
    "kept_channels",
    "name_one",
    "pick_name",
    "unlike",
]
