"""Find the graphs a loaded program holds, and get each as a compiled graph.

The second step of opening a program (after loading it on the engine, with the user's consent):
a module attribute holds a graph when it is a compiled graph (a `StateGraph` compiled, a `Pregel`
built by hand, an `@entrypoint` workflow, what `create_agent` / `create_react_agent` /
`create_deep_agent` return), a `StateGraph` builder (compiled here, as `langgraph dev` does), or a
function that returns one of these: langgraph.json's `module:function`, called with no arguments or
with a `RunnableConfig`, as LangGraph's server calls it. Factories are only called when named, or
when nothing else is found and their return annotation or name says they build a graph, so
opening a module never calls an arbitrary function of it.
"""

from __future__ import annotations

import inspect
from typing import Any

from graphspec.errors import SpecError

PREFERRED_NAMES = ("graph", "app", "agent")
"""When a module holds several graphs, one of these names is the one a program means."""

FACTORY_WORDS = ("graph", "agent", "workflow", "app")
"""A module function named with one of these (make_graph, build_agent, ...) may be a factory."""


def compiled_class() -> type:
    from engine.pregel.main import Pregel

    return Pregel


def is_builder(value: Any) -> bool:
    """A `StateGraph` (or any graph builder with `compile`), not compiled yet."""
    from engine.graph.state import StateGraph

    return isinstance(value, StateGraph)


def is_graph(value: Any) -> bool:
    return isinstance(value, compiled_class()) or is_builder(value)


def _takes_config(function: Any) -> bool | None:
    """True if `function` takes one RunnableConfig, False if no argument, None if neither."""
    try:
        params = [p for p in inspect.signature(function).parameters.values()
                  if p.default is inspect.Parameter.empty
                  and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]  # fmt: skip
    except (TypeError, ValueError):
        return None
    if not params:
        return False
    return True if len(params) == 1 else None


def _looks_like_factory(module: Any, name: str, value: Any) -> bool:
    if not inspect.isfunction(value) or value.__module__ != module.__name__:
        return False
    if _takes_config(value) is None:
        return False
    returns = str(inspect.signature(value).return_annotation)
    if any(w in returns for w in ("CompiledStateGraph", "Pregel", "StateGraph", "Compiled")):
        return True
    return any(word in name.lower() for word in FACTORY_WORDS)


def graph_names(module: Any) -> list[str]:
    """The module's attributes that hold a graph; a builder only when no compiled graph of it is
    there too; factories only when there is nothing else."""
    found = {n: v for n, v in vars(module).items() if not n.startswith("_") and is_graph(v)}
    compiled = {id(getattr(v, "builder", None)) for v in found.values() if not is_builder(v)}
    names = [n for n, v in found.items() if not is_builder(v) or id(v) not in compiled]
    if names:
        return names
    return [n for n, v in vars(module).items()
            if not n.startswith("_") and _looks_like_factory(module, n, v)]  # fmt: skip


class SeveralGraphs(SpecError):
    """The module holds several graphs and none has a preferred name: the caller asks which."""

    def __init__(self, target: str, names: list[str]) -> None:
        super().__init__(f"{target} holds several graphs ({', '.join(names)}): name one as "
                         f"{target}:NAME")  # fmt: skip
        self.names = names


def pick_name(module: Any, target: str) -> str:
    """The module's graph: one of PREFERRED_NAMES, else its only one."""
    names = graph_names(module)
    preferred = [n for n in PREFERRED_NAMES if n in names]
    if preferred or len(names) == 1:
        return (preferred or names)[0]
    if not names:
        raise SpecError(f"{target} holds no graph (a compiled graph, a StateGraph builder, an "
                        "@entrypoint, or a function returning one)")  # fmt: skip
    raise SeveralGraphs(target, names)


def compiled_graph(module: Any, name: str, target: str = "") -> Any:
    """`module.name` as a compiled graph: compiled if a builder, called if a factory."""
    where = f"{target or module.__name__}:{name}"
    if not hasattr(module, name):
        raise SpecError(f"{target or module.__name__} has no attribute {name!r}")
    value = getattr(module, name)
    if callable(value) and not is_graph(value) and inspect.isroutine(value):
        takes = _takes_config(value)
        if takes is None:
            raise SpecError(f"{where} takes arguments: a graph factory takes none, or one "
                            "RunnableConfig")  # fmt: skip
        try:
            value = value({"configurable": {}}) if takes else value()
        except Exception as exc:
            raise SpecError(f"{where}() failed: {type(exc).__name__}: {exc}") from exc
        if inspect.isawaitable(value):
            import asyncio

            value = asyncio.run(value)
    if is_builder(value):
        try:
            value = value.compile()
        except Exception as exc:
            raise SpecError(f"{where} does not compile: {type(exc).__name__}: {exc}") from exc
    if not isinstance(value, compiled_class()):
        raise SpecError(f"{where} is a {type(value).__name__}, not a graph this engine runs "
                        "(a compiled graph, a StateGraph, an @entrypoint, or a function "
                        "returning one)")  # fmt: skip
    return value


__all__ = [
    "PREFERRED_NAMES",
    "SeveralGraphs",
    "compiled_graph",
    "graph_names",
    "is_builder",
    "is_graph",
    "pick_name",
]
