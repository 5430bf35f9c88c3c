"""How RemoteGraph's v1/v2 runs talk to the server: which stream modes to ask for, how each
server event comes back (to the caller, to a calling graph's stream, as an interrupt or an
error), and which config values can travel as JSON."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

from engine._constants import CONF, CONFIG_KEY_CHECKPOINT_NS, CONFIG_KEY_STREAM, INTERRUPT, NS_SEP
from engine.errors import GraphInterrupt, ParentCommand
from engine.types import Command, Interrupt


class RemoteException(Exception):
    """An error the remote run reported (its `error` stream event)."""


def _plain(value: Any) -> Any:
    """`value` reduced to what JSON carries; anything else becomes None and is dropped."""
    if isinstance(value, (str, int, float, bool, UUID)):
        return value
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if isinstance(k, str) and (v := _plain(v)) is not None:
                out[k] = v
        return out
    if isinstance(value, (list, tuple)):
        return [v for v in map(_plain, value) if v is not None]
    return None


def _plain_items(mapping: dict, skip: frozenset = frozenset()) -> dict:
    out = {}
    for k, v in mapping.items():
        if isinstance(k, str) and k not in skip and (v := _plain(v)) is not None:
            out[k] = v
    return out


def _interrupt(data: Any) -> Interrupt:
    return data if isinstance(data, Interrupt) else Interrupt(**data)


class _StreamPlan:
    """What one remote run asks the server for, and how its events come back to the caller."""

    def __init__(self, stream_mode: Any, config: dict | None, subgraphs: bool, version: str):
        conf = (config or {}).get(CONF, {})
        if not stream_mode:
            wanted = ["updates"]
        else:
            wanted = [stream_mode] if isinstance(stream_mode, str) else list(stream_mode)
        self.single = isinstance(stream_mode, str) or not stream_mode
        # a caller graph's stream (when this runs as its node): a StreamProtocol
        self.parent = conf.get(CONFIG_KEY_STREAM)
        parent_modes = self.parent.modes if self.parent is not None else ()
        sent = [*wanted, *parent_modes]
        # the server says "messages-tuple" for what the local API calls "messages"
        if "messages" in sent:
            sent.remove("messages")
            sent.append("messages-tuple")
        self.requested = {"messages" if m == "messages-tuple" else m for m in wanted}
        # interrupts arrive as updates: always ask for them
        if "updates" not in sent:
            sent.append("updates")
        self.sent = [m for m in dict.fromkeys(sent) if m != "events"]
        self.subgraphs = subgraphs
        self.stream_subgraphs = subgraphs or self.parent is not None
        caller_ns = conf.get(CONFIG_KEY_CHECKPOINT_NS)
        self.caller_ns = tuple(caller_ns.split(NS_SEP)) if caller_ns else ()
        self.version = version

    def relay(self, chunk: Any) -> Iterator[Any]:
        """The caller-side outputs of one server event (none when it wasn't asked for)."""
        event, data = chunk.event, chunk.data
        mode, _, rest = event.partition(NS_SEP)
        ns = tuple(rest.split(NS_SEP)) if rest else ()
        if mode == "command" and isinstance(data, dict) and data.get("graph") == Command.PARENT:
            raise ParentCommand(Command(**data))
        ns = self.caller_ns + ns
        if self.parent is not None and mode in self.parent.modes:
            self.parent((ns, mode, data))
        if mode == "updates":
            # as a node, a remote interrupt pauses the calling graph
            if self.caller_ns and isinstance(data, dict) and INTERRUPT in data:
                raise GraphInterrupt([_interrupt(i) for i in data[INTERRUPT]])
        elif mode == "error":
            raise RemoteException(data)
        if mode not in self.requested:
            return
        # subgraph parts asked only for the caller's stream; the server dedupes messages
        if rest and not self.subgraphs and mode != "messages":
            return
        if mode == "messages":
            data = tuple(data)
            chunk = chunk._replace(data=data)
        if self.version == "v2":
            found: tuple = ()
            if mode == "values" and isinstance(data, dict):
                found = tuple(_interrupt(i) for i in data.pop(INTERRUPT, ()))
            yield {"type": mode, "ns": ns, "data": data, "interrupts": found}
        elif self.subgraphs:
            yield (ns, data) if self.single else (ns, mode, data)
        elif self.single:
            yield data
        else:
            yield chunk  # the sdk's StreamPart: (event, data)
