"""CompiledStateGraph: the Pregel a StateGraph compiles to.

Apart from engine/graph/state.py so that building a StateGraph loads no Pregel runtime (and so no
langchain_core Runnable, whose import pulls in the tracers and langsmith): `compile()` imports
this module.
"""

from __future__ import annotations

import typing
from collections.abc import Sequence
from typing import Any, Generic

from engine._constants import END, START, TAG_HIDDEN, TASKS
from engine._fields import update_as_tuples
from engine.channels.ephemeral_value import EphemeralValue
from engine.channels.last_value import LastValueAfterFinish
from engine.channels.named_barrier_value import NamedBarrierValue, NamedBarrierValueAfterFinish
from engine.errors import (
    ErrorCode,
    InvalidUpdateError,
    ParentCommand,
    create_error_message,
)
from engine.graph.branch import BranchSpec, BranchWriter, branch_channel
from engine.graph.migrate import migrate_channel_layout
from engine.graph.schema import coercer
from engine.managed import is_managed_value
from engine.pregel.main import Pregel
from engine.pregel.read import PregelNode
from engine.pregel.schemas import state_jsonschema
from engine.pregel.write import ChannelWrite, ChannelWriteEntry, ChannelWriteTupleEntry
from engine.types import Command, Send
from engine.typing import ContextT, InputT, OutputT, StateT

if typing.TYPE_CHECKING:
    from engine.graph.state import StateGraph, StateNodeSpec


class CompiledStateGraph(
    Pregel[StateT, ContextT, InputT, OutputT], Generic[StateT, ContextT, InputT, OutputT]
):
    """The Pregel a StateGraph compiles to; `builder` keeps the drawn graph for get_graph()."""

    def __init__(self, *, builder: StateGraph, schema_to_mapper: dict, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.builder = builder
        self.schema_to_mapper = schema_to_mapper

    def _migrate_checkpoint(self, checkpoint: dict[str, Any]) -> None:
        """Also rename an old checkpoint's trigger channels to today's (engine.graph.migrate)."""
        super()._migrate_checkpoint(checkpoint)
        migrate_channel_layout(checkpoint, self.nodes, self.builder.edges)

    def get_input_jsonschema(self, config: dict | None = None) -> dict[str, Any]:
        return self._schema_of(self.builder.input_schema, "Input")

    def get_output_jsonschema(self, config: dict | None = None) -> dict[str, Any]:
        return self._schema_of(self.builder.output_schema, "Output")

    def _schema_of(self, typ: Any, suffix: str) -> dict[str, Any]:
        builder = self.builder
        return state_jsonschema(
            typ, list(builder.schemas[typ]), builder.channels, self.get_name(suffix)
        )

    def attach_node(self, key: str, node: StateNodeSpec | None) -> None:
        builder = self.builder
        if key == START:
            output_keys = [
                k
                for k, v in builder.schemas[builder.input_schema].items()
                if not is_managed_value(v)
            ]
        else:
            output_keys = list(builder.channels) + list(builder.managed)
        key_set = frozenset(output_keys)

        def get_updates(value: Any) -> list[tuple[str, Any]] | None:
            if value is None:
                return None
            if isinstance(value, dict):
                if key_set.issuperset(value):  # (every key a state key: no Python loop)
                    return list(value.items())
                return [(k, v) for k, v in value.items() if k in key_set]
            if isinstance(value, Command):
                if value.graph == Command.PARENT:
                    return None
                return [(k, v) for k, v in value._update_as_tuples() if k in key_set]
            if (
                isinstance(value, (list, tuple))
                and value
                and any(isinstance(i, Command) for i in value)
            ):
                updates: list[tuple[str, Any]] = []
                for item in value:
                    if isinstance(item, Command):
                        if item.graph != Command.PARENT:
                            updates.extend(
                                (k, v) for k, v in item._update_as_tuples() if k in key_set
                            )
                    else:
                        updates.extend(get_updates(item) or ())
                return updates
            if (pairs := update_as_tuples(value)) is not None:
                return [(k, v) for k, v in pairs if k in key_set]
            raise InvalidUpdateError(
                create_error_message(
                    message=f"Expected dict, got {value}",
                    error_code=ErrorCode.INVALID_GRAPH_NODE_RETURN_VALUE,
                )
            )

        def get_root(value: Any) -> list[tuple[str, Any]] | None:
            if isinstance(value, Command):
                return (
                    [("__root__", value.update)]
                    if value.update is not None and value.graph != Command.PARENT
                    else None
                )
            if isinstance(value, (list, tuple)) and any(isinstance(i, Command) for i in value):
                # several updates (Commands, and values between them) in order
                return [
                    write
                    for item in value
                    if not (isinstance(item, Command) and item.graph == Command.PARENT)
                    for write in (get_root(item) or ())
                ]
            return [("__root__", value)] if value is not None else None

        writer = ChannelWrite(
            [
                ChannelWriteTupleEntry(
                    mapper=get_root if output_keys == ["__root__"] else get_updates
                ),
                ChannelWriteTupleEntry(
                    mapper=_control_branch,
                    static=_control_static(node.ends)
                    if node is not None and node.ends is not None
                    else None,
                ),
            ]
        )
        if key == START:
            self.nodes[key] = PregelNode(
                tags=[TAG_HIDDEN], triggers=[START], channels=START, writers=[writer]
            )
            return
        input_schema = node.input_schema
        input_channels = list(builder.schemas[input_schema])
        single = input_channels == ["__root__"]
        if input_schema not in self.schema_to_mapper:
            self.schema_to_mapper[input_schema] = None if single else coercer(input_schema)
        channel = branch_channel(key)
        self.channels[channel] = (
            LastValueAfterFinish(Any) if node.defer else EphemeralValue(Any, guard=False)
        )
        self.channels[channel].key = channel
        self.nodes[key] = PregelNode(
            triggers=[channel],
            channels="__root__" if single else input_channels,
            mapper=self.schema_to_mapper[input_schema],
            writers=[writer],
            metadata=node.metadata,
            retry_policy=node.retry_policy,
            cache_policy=node.cache_policy,
            bound=node.runnable,
            error_handler_node=node.error_handler_node,
            is_error_handler=node.is_error_handler,
            timeout=node.timeout,
            trace_policy=node.trace_policy,
        )

    def attach_edge(self, starts: str | Sequence[str], end: str) -> None:
        if isinstance(starts, str):
            if end != END:
                self.nodes[starts].writers.append(
                    ChannelWrite([ChannelWriteEntry(branch_channel(end), None)])
                )
            return
        if end == END:
            return
        channel = f"join:{'+'.join(starts)}:{end}"
        deferred = self.builder.nodes[end].defer
        self.channels[channel] = (
            NamedBarrierValueAfterFinish(str, set(starts))
            if deferred
            else NamedBarrierValue(str, set(starts))
        )
        self.channels[channel].key = channel
        self.nodes[end].triggers.append(channel)
        for start in starts:
            self.nodes[start].writers.append(ChannelWrite([ChannelWriteEntry(channel, start)]))

    def attach_branch(self, start: str, branch: BranchSpec) -> None:
        builder = self.builder
        # as langgraph: the router's own schema, else what its node reads
        schema = branch.input_schema or (
            builder.nodes[start].input_schema if start in builder.nodes else builder.state_schema
        )
        keys = list(builder.schemas[schema])
        select: Any = "__root__" if keys == ["__root__"] else keys
        mapper = None if select == "__root__" else coercer(schema)
        self.nodes[start].writers.append(BranchWriter(branch, select, mapper))


def _control_static(ends: tuple[str, ...] | dict[str, str]) -> list[tuple[str, Any, str | None]]:
    """For drawing: a node's Command destinations, (channel, None, label); END stays END."""
    labels = ends if isinstance(ends, dict) else dict.fromkeys(ends)
    return [(e if e == END else branch_channel(e), None, label) for e, label in labels.items()]


def _control_branch(value: Any) -> list[tuple[str, Any]]:
    if isinstance(value, dict):  # a state update (most nodes' output): no Command in it
        return []
    if isinstance(value, Send):
        return [(TASKS, value)]
    commands: list[Command] = []
    if isinstance(value, Command):
        commands.append(value)
    elif isinstance(value, (list, tuple)):
        commands.extend(c for c in value if isinstance(c, Command))
    writes: list[tuple[str, Any]] = []
    for command in commands:
        if command.graph == Command.PARENT:
            raise ParentCommand(command)
        gotos = [command.goto] if isinstance(command.goto, (Send, str)) else command.goto
        for goto in gotos:
            if isinstance(goto, Send):
                writes.append((TASKS, goto))
            elif isinstance(goto, str) and goto != END:
                writes.append((branch_channel(goto), None))
    return writes
