"""StateGraph: the builder API (nodes, edges, conditional edges) and its compilation to Pregel."""

from __future__ import annotations

import inspect
import logging
import typing
import warnings
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic

from engine._constants import END, NS_END, NS_SEP, START
from engine._lazy import lazy_names
from engine.channels.base import BaseChannel
from engine.channels.ephemeral_value import EphemeralValue
from engine.graph.schema import annotated_channel, channel_for, schema_fields
from engine.managed import is_managed_value
from engine.pregel.callable import coerce_to_bound
from engine.types import Command, TimeoutPolicy
from engine.typing import ContextT, InputT, OutputT, StateT
from engine.warnings import LangGraphDeprecatedSinceV05, LangGraphDeprecatedSinceV10

if typing.TYPE_CHECKING:
    from engine.graph.branch import BranchSpec
    from engine.graph.compiled import CompiledStateGraph

logger = logging.getLogger(__name__)


class StateNodeSpec(typing.NamedTuple):
    runnable: Any
    metadata: dict | None
    input_schema: Any
    retry_policy: Any
    cache_policy: Any
    ends: tuple[str, ...] | dict[str, str] | None = ()
    defer: bool = False
    error_handler_node: str | None = None
    is_error_handler: bool = False
    timeout: Any = None
    trace_policy: Any = None


DEFAULT_ERROR_HANDLER_NODE = "__default_error_handler__"


@dataclass(slots=True)
class _NodeDefaults:
    """set_node_defaults: policies for the nodes that set none, applied at compile."""

    retry_policy: Any = None
    cache_policy: Any = None
    error_handler: Any = None
    timeout: Any = None


def _node_name(action: Any) -> str:
    name = getattr(action, "name", None) or getattr(action, "__name__", None)
    if name is None:
        name = type(action).__name__
    return name


def _get_node_name(node: Any) -> str:
    """A node's default name: its `__name__`, else its class's name (langgraph's private
    helper, which tests and packages call)."""
    return getattr(node, "__name__", type(node).__name__)


def _warn_invalid_state_schema(schema: Any) -> None:
    """Warn when a state schema is neither a type nor a parametrised one such as
    `Annotated[type, reducer]` (an instance given by mistake, say)."""
    if isinstance(schema, type) or typing.get_args(schema):
        return
    warnings.warn(
        f"Invalid state_schema: {schema}. Expected a type or Annotated[type, reducer]. "
        "Please provide a valid schema to ensure correct updates.",
        stacklevel=3,
    )


def _is_field_channel(typ: Any) -> BaseChannel | None:
    """The channel an annotation's extras name, if any (langgraph's private helper)."""
    return annotated_channel(typ)


def _get_channel(name: str, annotation: Any, *, allow_managed: bool = True) -> Any:
    """The channel a state key's annotation asks for (langgraph's private name for it, which
    packages and tests call); a managed value where one is not allowed is refused."""
    channel = channel_for(name, annotation)
    if not allow_managed and not isinstance(channel, BaseChannel):
        raise ValueError(f"This {annotation} not allowed in this position")
    return channel


class StateGraph(Generic[StateT, ContextT, InputT, OutputT]):
    """A graph whose nodes read a shared state and return partial updates to it.

    Each state key becomes a channel: a plain key a LastValue, an `Annotated[T, reducer]` key a
    BinaryOperatorAggregate. Call `compile()` to get a runnable Pregel.
    """

    def __init__(
        self,
        state_schema: Any = None,
        context_schema: Any = None,
        *,
        input_schema: Any = None,
        output_schema: Any = None,
        **kwargs: Any,
    ) -> None:
        for old, new, category in (
            ("config_schema", "context_schema", LangGraphDeprecatedSinceV10),
            ("input", "input_schema", LangGraphDeprecatedSinceV05),
            ("output", "output_schema", LangGraphDeprecatedSinceV05),
        ):
            if kwargs.get(old) is not None:
                warnings.warn(
                    f"`{old}` is deprecated and will be removed. Please use `{new}` instead.",
                    category=category,
                    stacklevel=2,
                )
        context_schema = context_schema or kwargs.get("config_schema")
        input_schema = input_schema or kwargs.get("input")
        output_schema = output_schema or kwargs.get("output")
        if state_schema is None:
            if input_schema is None or output_schema is None:
                raise ValueError("Must provide state_schema or input and output")
            state_schema = input_schema
        self.nodes: dict[str, StateNodeSpec] = {}
        self.edges: set[tuple[str, str]] = set()
        self.waiting_edges: set[tuple[tuple[str, ...], str]] = set()
        self.branches: defaultdict[str, dict[str, BranchSpec]] = defaultdict(dict)
        self.schemas: dict[Any, dict[str, Any]] = {}
        self.channels: dict[str, BaseChannel] = {}
        self.managed: dict[str, Any] = {}
        self.compiled = False
        self.state_schema = state_schema
        self.context_schema = context_schema
        self.input_schema = input_schema or state_schema
        self.output_schema = output_schema or state_schema
        self._node_defaults = _NodeDefaults()
        self._add_schema(state_schema)
        self._add_schema(self.input_schema, allow_managed=False)
        self._add_schema(self.output_schema, allow_managed=False)

    def _add_schema(self, schema: Any, allow_managed: bool = True) -> None:
        if schema in self.schemas:
            return
        _warn_invalid_state_schema(schema)
        fields = schema_fields(schema)
        channels = {name: channel_for(name, ann) for name, ann in fields.items()}
        self.schemas[schema] = channels
        for name, channel in channels.items():
            if is_managed_value(channel):
                if not allow_managed:
                    raise ValueError(f"Invalid managed channels detected in {schema}: {name}")
                self.managed.setdefault(name, channel)
            elif name in self.channels:
                existing = self.channels[name]
                if type(existing) is not type(channel) and type(existing).__name__ == "LastValue":
                    self.channels[name] = channel
                elif type(existing) is not type(channel) and type(channel).__name__ != "LastValue":
                    raise ValueError(f"Channel '{name}' already exists with a different type")
            else:
                self.channels[name] = channel

    # ------------------------------------------------------------------ builder API
    def set_node_defaults(
        self,
        *,
        retry_policy: Any = None,
        cache_policy: Any = None,
        error_handler: Any = None,
        timeout: Any = None,
    ) -> StateGraph:
        """Policies for every node that sets none of its own, applied at compile (not inherited
        by subgraphs). Retry and timeout apply to error handlers too; cache and error_handler
        only to regular nodes (a handler never catches itself)."""
        defaults = self._node_defaults
        if retry_policy is not None:
            defaults.retry_policy = retry_policy
        if cache_policy is not None:
            defaults.cache_policy = cache_policy
        if error_handler is not None:
            defaults.error_handler = error_handler
        if timeout is not None:
            defaults.timeout = TimeoutPolicy.coerce(timeout)
        return self

    def add_node(
        self,
        node: Any,
        action: Any = None,
        *,
        defer: bool = False,
        metadata: dict | None = None,
        input_schema: Any = None,
        retry_policy: Any = None,
        cache_policy: Any = None,
        destinations: dict[str, str] | tuple[str, ...] | None = None,
        error_handler: Any = None,
        timeout: Any = None,
        trace_policy: Any = None,
        **kwargs: Any,
    ) -> StateGraph:
        timeout = TimeoutPolicy.coerce(timeout)  # refused now, not at compile
        # given at all (None too), as langgraph checks; the warnings point inside the library as
        # langgraph's do, so a script does not show them (a DeprecationWarning shows in __main__)
        if "retry" in kwargs:
            warnings.warn(
                "`retry` is deprecated and will be removed. Please use `retry_policy` instead.",
                category=LangGraphDeprecatedSinceV05,
                stacklevel=1,
            )
            if retry_policy is None:
                retry_policy = kwargs["retry"]
        if "input" in kwargs:
            warnings.warn(
                "`input` is deprecated and will be removed. Please use `input_schema` instead.",
                category=LangGraphDeprecatedSinceV05,
                stacklevel=1,
            )
            if input_schema is None:
                input_schema = kwargs["input"]
        if not isinstance(node, str):
            action = node
            node = _node_name(action)
        if action is None:
            raise RuntimeError("add_node needs an action")
        if self.compiled:
            logger.warning(
                "Adding a node to a graph that has already been compiled. This will not be "
                "reflected in the compiled graph."
            )
        if node in self.nodes:
            raise ValueError(f"Node `{node}` already present.")
        if node in (END, START):
            raise ValueError(f"Node `{node}` is reserved.")
        for character in (NS_SEP, NS_END):
            if character in node:
                raise ValueError(
                    f"'{character}' is a reserved character and is not allowed in the node names."
                )
        ends: Any = ()
        if input_schema is None:
            input_schema = _inferred_input_schema(action)
        if destinations is not None:
            ends = destinations
        else:
            ends = _command_ends(action) or ()
        if input_schema is not None:
            self._add_schema(input_schema)
        handler_name = None
        if error_handler is not None:
            # the handler is a node of its own, run in place of a failed task
            handler_name = f"__error_handler__{node}"
            if handler_name in self.nodes:
                raise ValueError(
                    f"Auto-generated error handler node `{handler_name}` already exists."
                )
            self.nodes[handler_name] = _handler_spec(
                error_handler, handler_name, input_schema or self.state_schema
            )
        self.nodes[node] = StateNodeSpec(
            coerce_to_bound(action, node),
            metadata,
            input_schema or self.state_schema,
            retry_policy,
            cache_policy,
            ends,
            defer,
            handler_name,
            timeout=timeout,
            trace_policy=trace_policy,
        )
        return self

    def add_edge(self, start_key: str | Sequence[str], end_key: str) -> StateGraph:
        if self.compiled:
            logger.warning(
                "Adding an edge to a graph that has already been compiled. This will not be "
                "reflected in the compiled graph."
            )
        if isinstance(start_key, str):
            if start_key == END:
                raise ValueError("END cannot be a start node")
            if end_key == START:
                raise ValueError("START cannot be an end node")
            self.edges.add((start_key, end_key))
            return self
        for start in start_key:
            if start == END:
                raise ValueError("END cannot be a start node")
            if start not in self.nodes:
                raise ValueError(f"Need to add_node `{start}` first")
        if end_key == START:
            raise ValueError("START cannot be an end node")
        if end_key != END and end_key not in self.nodes:
            raise ValueError(f"Need to add_node `{end_key}` first")
        self.waiting_edges.add((tuple(start_key), end_key))
        return self

    def add_conditional_edges(
        self, source: str, path: Any, path_map: dict[Hashable, str] | list[str] | None = None
    ) -> StateGraph:
        if self.compiled:
            logger.warning(
                "Adding an edge to a graph that has already been compiled. This will not be "
                "reflected in the compiled graph."
            )
        from engine.graph.branch import BranchSpec  # routers run under the tracer: load it late

        branch = BranchSpec.from_path(path, path_map, _inferred_input_schema(path))
        if branch.name in self.branches[source]:
            raise ValueError(f"Branch with name `{branch.name}` already exists for node `{source}`")
        self.branches[source][branch.name] = branch
        if branch.input_schema is not None:
            self._add_schema(branch.input_schema)
        return self

    def add_sequence(self, nodes: Sequence[Any]) -> StateGraph:
        if len(nodes) < 1:
            raise ValueError("Sequence requires at least one node.")
        previous = None
        for item in nodes:
            if isinstance(item, tuple) and len(item) == 2:
                name, action = item
            else:
                name, action = _node_name(item), item
            if name in self.nodes:
                raise ValueError(
                    f"Node names must be unique: node with the name '{name}' already exists. "
                    "If you need to use two different runnables/callables with the same name "
                    "(for example, using `lambda`), please provide them as tuples "
                    "(name, runnable/callable)."
                )
            self.add_node(name, action)
            if previous is not None:
                self.add_edge(previous, name)
            previous = name
        return self

    def set_entry_point(self, key: str) -> StateGraph:
        return self.add_edge(START, key)

    def set_conditional_entry_point(self, path: Any, path_map: Any = None) -> StateGraph:
        return self.add_conditional_edges(START, path, path_map)

    def set_finish_point(self, key: str) -> StateGraph:
        return self.add_edge(key, END)

    def _nodes_with_defaults(self) -> dict[str, StateNodeSpec]:
        """The node specs with set_node_defaults filled in where a node set nothing."""
        defaults, nodes = self._node_defaults, dict(self.nodes)
        default_handler = None
        if defaults.error_handler is not None:
            if DEFAULT_ERROR_HANDLER_NODE in nodes:
                raise ValueError(
                    "Auto-generated default error handler node "
                    f"`{DEFAULT_ERROR_HANDLER_NODE}` already exists."
                )
            default_handler = DEFAULT_ERROR_HANDLER_NODE
            nodes[default_handler] = _handler_spec(
                defaults.error_handler, default_handler, self.state_schema
            )
        for name, spec in nodes.items():
            changes: dict[str, Any] = {}
            if not spec.is_error_handler:
                if default_handler is not None and spec.error_handler_node is None:
                    changes["error_handler_node"] = default_handler
                if defaults.cache_policy is not None and spec.cache_policy is None:
                    changes["cache_policy"] = defaults.cache_policy
            if defaults.retry_policy is not None and spec.retry_policy is None:
                changes["retry_policy"] = defaults.retry_policy
            if defaults.timeout is not None and spec.timeout is None:
                changes["timeout"] = defaults.timeout
            if changes:
                nodes[name] = spec._replace(**changes)
        return nodes

    @property
    def _all_edges(self) -> set[tuple[str, str]]:
        return self.edges | {(s, e) for starts, e in self.waiting_edges for s in starts}

    def validate(self, interrupt: Sequence[str] | None = None) -> StateGraph:
        sources = {s for s, _ in self._all_edges} | set(self.branches)
        sources |= {name for name, spec in self.nodes.items() if spec.ends}
        for source in sources:
            if source not in self.nodes and source != START:
                raise ValueError(f"Found edge starting at unknown node '{source}'")
        if START not in sources:
            raise ValueError(
                "Graph must have an entrypoint: add at least one edge from START to another node"
            )
        targets = {e for _, e in self._all_edges}
        for start, branches in self.branches.items():
            for cond, branch in branches.items():
                if branch.ends is not None:
                    for end in branch.ends.values():
                        if end not in self.nodes and end != END:
                            raise ValueError(
                                f"At '{start}' node, '{cond}' branch found unknown target '{end}'"
                            )
                        targets.add(end)
                else:
                    targets.add(END)
                    targets.update(n for n in self.nodes if n != start)
        for spec in self.nodes.values():
            if spec.ends:
                targets.update(spec.ends)
        for target in targets:
            if target not in self.nodes and target != END:
                raise ValueError(f"Found edge ending at unknown node `{target}`")
        if interrupt and interrupt != "*":
            for node in interrupt:
                if node not in self.nodes:
                    raise ValueError(f"Interrupt node `{node}` not found")
        self.compiled = True
        return self

    def compile(
        self,
        checkpointer: Any = None,
        *,
        cache: Any = None,
        store: Any = None,
        interrupt_before: Any = None,
        interrupt_after: Any = None,
        debug: bool = False,
        name: str | None = None,
        transformers: Sequence[Any] | None = None,
    ) -> CompiledStateGraph:
        """The runnable graph; `transformers` are stream transformer factories for
        stream_events(version="v3")."""
        interrupt_before = interrupt_before or []
        interrupt_after = interrupt_after or []
        self.validate(
            interrupt=(interrupt_before if interrupt_before != "*" else [])
            + (interrupt_after if interrupt_after != "*" else [])
        )
        output_channels = _keys_or_root(self.schemas[self.output_schema], self.managed)
        stream_channels = _keys_or_root(self.channels, self.managed)
        from engine.graph.compiled import CompiledStateGraph  # loads the Pregel runtime

        compiled = CompiledStateGraph(
            builder=self,
            schema_to_mapper={},
            context_schema=self.context_schema,
            nodes={},
            channels={**self.channels, **self.managed, START: EphemeralValue(self.input_schema)},
            input_channels=START,
            stream_mode="updates",
            output_channels=output_channels,
            stream_channels=stream_channels,
            checkpointer=checkpointer,
            interrupt_before_nodes=interrupt_before,
            interrupt_after_nodes=interrupt_after,
            auto_validate=False,
            debug=debug,
            store=store,
            cache=cache,
            name=name or "LangGraph",
            stream_transformers=transformers,
        )
        compiled.attach_node(START, None)
        for key, node in self._nodes_with_defaults().items():
            compiled.attach_node(key, node)
        for start, end in self.edges:
            compiled.attach_edge(start, end)
        for starts, end in self.waiting_edges:
            compiled.attach_edge(starts, end)
        for start, branches in self.branches.items():
            for branch in branches.values():
                compiled.attach_branch(start, branch)
        compiled.trigger_to_nodes = compiled._trigger_map()
        from engine.pregel.timeouts import validate_node_timeouts

        validate_node_timeouts(compiled.nodes)
        return compiled


def _handler_spec(handler: Any, name: str, input_schema: Any) -> StateNodeSpec:
    return StateNodeSpec(
        coerce_to_bound(handler, name), None, input_schema, None, None, is_error_handler=True
    )


def _keys_or_root(channels: dict[str, Any], managed: dict[str, Any]) -> list[str] | str:
    keys = [k for k, v in channels.items() if not is_managed_value(v)]
    return "__root__" if keys == ["__root__"] else keys


def _inferred_input_schema(action: Any) -> Any:
    """The state schema a node or router reads, from its first parameter's type hint (a
    function, a method, or an object's __call__); None without a usable one."""
    func = getattr(action, "func", action)  # a RunnableCallable or RunnableLambda: its function
    if not (inspect.isfunction(func) or inspect.ismethod(func)):
        func = func.__call__ if callable(func) else None
        if not inspect.ismethod(func):
            return None
    try:
        hints = typing.get_type_hints(func)
        first = next(iter(inspect.signature(func).parameters), None)
    except Exception:
        return None
    hint = hints.get(first) if first else None
    if hint is None or not inspect.isclass(hint):
        return None
    try:
        fields = schema_fields(hint)
    except NameError:  # langgraph gives up inferring here, silently
        return None
    return hint if fields and "__root__" not in fields else None


def _command_ends(action: Any) -> tuple[str, ...] | None:
    """Destinations from a `-> Command[Literal["a", "b"]]` return hint."""
    func = action if inspect.isfunction(action) or inspect.ismethod(action) else None
    if func is None:
        return None
    try:
        hint = typing.get_type_hints(func).get("return")
    except Exception:
        return None
    if hint is None or typing.get_origin(hint) is not Command:
        return None
    args = typing.get_args(hint)
    if args and typing.get_origin(args[0]) is typing.Literal:
        return tuple(typing.get_args(args[0]))
    return None


# Names langgraph.graph.state holds because it imports them; programs import them from there
# (`from langgraph.graph.state import CompiledStateGraph, LastValue`). They live elsewhere here.
_REEXPORTED = {
    "CompiledStateGraph": "engine.graph.compiled",
    **dict.fromkeys(
        (
            "BinaryOperatorAggregate",
            "DeltaChannel",
            "LastValue",
            "LastValueAfterFinish",
            "NamedBarrierValue",
            "NamedBarrierValueAfterFinish",
        ),
        "engine.channels",
    ),
    **dict.fromkeys(("All", "CachePolicy", "Checkpointer", "RetryPolicy", "Send"), "engine.types"),
    **dict.fromkeys(("ErrorCode", "InvalidUpdateError", "ParentCommand"), "engine.errors"),
    "Pregel": "engine.pregel",
}
__getattr__ = lazy_names(__name__, _REEXPORTED, globals())
