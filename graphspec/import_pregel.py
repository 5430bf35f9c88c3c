"""A Pregel built by hand (langgraph's low-level API: channels, and nodes a `NodeBuilder` wired to
them, no StateGraph) as a spec (`GraphSpec.pregel`): each channel a state key, the input and
output channels its input and output keys, each node a function with the channels that run it
and the ones it writes (`NodeChannels`).

What the spec cannot hold is refused naming it: another channel class, a node reading channels
it is not run by, a write that maps or skips its value, an input or output that is one channel's
bare value.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

from graphspec.errors import SpecError
from graphspec.import_refs import code_ref

CHANNEL_OF_CLASS = {"LastValue": None, "EphemeralValue": "ephemeral",
                    "BinaryOperatorAggregate": None}  # fmt: skip
"""A channel's class -> `StateKey.channel` (None: the key's reducer says which); a Topic's
depends on whether it accumulates."""


def is_built_by_hand(graph: Any) -> bool:
    """A compiled graph with no builder, no entrypoint: a `Pregel(...)` a program wrote."""
    from graphspec.import_func import is_entrypoint
    from graphspec.program_graphs import builder_of, is_pregel

    return is_pregel(graph) and builder_of(graph) is None and not is_entrypoint(graph)


def pregel_doc(graph: Any, modules: list[Any]) -> dict[str, Any]:
    """The spec document of a Pregel built by hand."""
    inputs, outputs = graph.input_channels, graph.output_channels
    for what, given in (("input", inputs), ("output", outputs)):
        if isinstance(given, str):
            raise SpecError(f"the Pregel's {what} is the bare value of channel {given!r} "
                            f"({what}_channels={given!r}); the spec holds a list of {what} "
                            "channels")  # fmt: skip
    state = [_key(name, channel, name in inputs, name in outputs, modules)
             for name, channel in graph.channels.items() if not name.startswith("__")]  # fmt: skip
    nodes = [_node(name, node, modules) for name, node in graph.nodes.items()]
    return {"pregel": True, "state": state, "nodes": nodes}


def _key(name: str, channel: Any, is_input: bool, is_output: bool,
         modules: list[Any]) -> dict[str, Any]:  # fmt: skip
    from graphspec.importer import state_key  # one reading of annotations; importer imports us

    kind = type(channel).__name__
    typ = getattr(channel, "typ", Any)
    if kind == "Topic":
        # Topic(str) holds a list of str; its `typ` is the value type
        extra = {"channel": "accumulating_topic" if channel.accumulate else "topic"}
    elif kind in CHANNEL_OF_CLASS:
        extra = {"channel": CHANNEL_OF_CLASS[kind]} if CHANNEL_OF_CLASS[kind] else {}
    else:
        raise SpecError(f"channel {name!r} is a {kind}: the spec holds LastValue, EphemeralValue, "
                        "Topic and BinaryOperatorAggregate channels")  # fmt: skip
    operator = getattr(channel, "operator", None)
    annotation = Annotated[typ, operator] if kind == "BinaryOperatorAggregate" else typ
    key = {**state_key(name, annotation, modules), **extra}
    if not is_input:
        key["input"] = False
    if not is_output:
        key["output"] = False
    return key


def _node(name: str, node: Any, modules: list[Any]) -> dict[str, Any]:
    channels, triggers = node.channels, list(node.triggers)
    if isinstance(channels, str):
        wiring: dict[str, Any] = {"subscribe_only": channels}
        reads = [channels]
    else:
        wiring = {"subscribe_to": list(channels)}
        reads = list(channels)
    if triggers != reads:
        raise SpecError(f"node {name!r} reads {reads} but is run by {triggers}: the spec holds "
                        "nodes run by the channels they read (subscribe_only, subscribe_to)",
                        element_id=name)  # fmt: skip
    if node.mapper is not None or getattr(node, "retry_policy", None):
        raise SpecError(f"node {name!r} maps its input or retries: the spec holds a node's "
                        "function and channels only", element_id=name)  # fmt: skip
    wiring["write_to"] = _written(name, node.writers)
    fn = getattr(node.bound, "func", None) or getattr(node.bound, "afunc", None)
    if fn is None:
        raise SpecError(f"node {name!r} runs a {type(node.bound).__name__}, not a function",
                        element_id=name)  # fmt: skip
    return {"id": name, "kind": "function", **code_ref(fn, name, modules), "channels": wiring}


def _written(name: str, writers: list[Any]) -> list[str]:
    """The channels a node's writers put its whole result in, as `write_to` lists them."""
    out = []
    for writer in writers:
        for entry in getattr(writer, "writes", None) or [None]:
            # the result itself: the marker of the runtime (engine or langgraph) that made it
            passthrough = getattr(sys.modules.get(type(entry).__module__), "PASSTHROUGH", None)
            plain = (entry is not None and getattr(entry, "value", None) is passthrough
                     and entry.mapper is None and not entry.skip_none)  # fmt: skip
            if not plain:
                raise SpecError(f"node {name!r} writes something else than its result to a "
                                "channel: the spec holds write_to(channel, ...) only",
                                element_id=name)  # fmt: skip
            out.append(entry.channel)
    return out


__all__ = ["is_built_by_hand", "pregel_doc"]
