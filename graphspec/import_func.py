"""Functional-API entrypoints (`@entrypoint`, engine.func or langgraph.func) in an imported module.

An entrypoint's control flow is Python (its `@task` calls, loops, `interrupt`s), which a spec
cannot draw; what it can hold faithfully is the entrypoint itself, drawn as one node. Its spec
is the entrypoint's own graph (`graph_is_node`), not a graph running it as a node: a value it
keeps between runs (`previous`, `entrypoint.final`) lives in its own checkpoints, and a graph
around it sees an interrupt its task raises twice (the task's and its caller's, as langgraph's
runner counts them), where the program shows it once. The spec's state is the entrypoint's
input and output TypedDicts (input keys in, returned keys out), drawn as the graph's keys.
An entrypoint whose input or result is not a TypedDict (a string, a bare dict, a list, a pydantic
model) has no keys to draw: its graph's state is the one value (`WHOLE_VALUE`).
"""

from __future__ import annotations

import inspect
import typing
from typing import Any

from graphspec.import_refs import ref

NODE_NOTE = (
    "Functional-API entrypoint, run as one node: its tasks and control flow are Python, not "
    "drawn; edit them in the module."
)
"""The imported node's description: the canvas and the inspector show what it is."""


WHOLE_VALUE = "builtins:object"
"""The state class of an entrypoint taking or returning something else than a TypedDict (a
string, a dict, a list, a pydantic model): a graph whose state is that one value, as
`StateGraph(object)` is in langgraph, so the node gets the input as given and the graph returns
what it returns."""


def holds_one_value(spec: Any) -> bool:
    """Whether a spec's state is one value: its state class is a builtin one (`WHOLE_VALUE`, or
    `builtins:int` for a `StateGraph(int)`), so a run takes any value, not a state object."""
    return str(spec.state_class or "").startswith("builtins:")


def is_entrypoint(obj: Any) -> bool:
    """A compiled `@entrypoint`: a Pregel with one node and the `__previous__` channel."""
    try:
        channels = getattr(obj, "channels", None)
        nodes = getattr(obj, "nodes", None)
        builder = getattr(obj, "builder", None)
    except Exception:  # an object whose attributes raise (a lazy proxy) is no entrypoint
        return False
    return (
        builder is None
        and isinstance(channels, dict)
        and "__previous__" in channels
        and isinstance(nodes, dict)
        and len(nodes) == 1
    )


def entry_function(graph: Any) -> Any:
    [node] = graph.nodes.values()
    bound = getattr(node, "bound", None)
    return getattr(bound, "func", None) or getattr(bound, "afunc", None)


def _keys(annotation: Any) -> dict[str, Any] | None:
    if typing.get_origin(annotation) is not None and typing.get_args(annotation):
        # entrypoint.final[Value, Save]: the caller gets Value
        if getattr(typing.get_origin(annotation), "__name__", "") == "final":
            annotation = typing.get_args(annotation)[0]
    if isinstance(annotation, type) and issubclass(annotation, dict) and annotation is not dict:
        return typing.get_type_hints(annotation, include_extras=True)
    return None


def entrypoint_doc(graph: Any, modules: list[Any]) -> dict[str, Any]:
    """The spec document of a module-level entrypoint: one node running it."""
    fn = entry_function(graph)
    name = getattr(fn, "__name__", "") or "entrypoint"
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception:
        hints = {}
    params = list(inspect.signature(fn).parameters) if fn is not None else []
    inputs = _keys(hints.get(params[0])) if params else None
    outputs = _keys(hints.get("return"))
    node = {"id": name, "kind": "function", "import_path": ref(graph, name, modules),
            "description": NODE_NOTE}  # fmt: skip
    # the graph is the entrypoint itself, not a graph running it as a node: a value it keeps
    # between runs lives in its own checkpoints, and an interrupt its task raises reaches a
    # graph around it twice (the task's and its caller's, as langgraph's runner counts them)
    doc = {"nodes": [node], "entry": [name], "finish": [name], "graph_is_node": True}
    if inputs is None or outputs is None:  # the state is the one value it takes and returns
        return {"state_class": WHOLE_VALUE, **doc}
    from graphspec.importer import state_key  # one reading of annotations; importer imports us

    state = []
    for key, annotation in {**inputs, **outputs}.items():
        entry = state_key(key, annotation, modules)
        if key not in inputs:
            entry["input"] = False
        if key not in outputs:
            entry["output"] = False
        state.append(entry)
    return {"state": state, **doc}


__all__ = [
    "NODE_NOTE",
    "WHOLE_VALUE",
    "entry_function",
    "entrypoint_doc",
    "holds_one_value",
    "is_entrypoint",
]
