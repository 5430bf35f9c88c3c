"""PregelNode (what a node reads, what wakes it, what it runs, what it writes) and NodeBuilder."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.pregel.callable import EngineRunnable, RunnableCallable, coerce_to_bound
from engine.pregel.write import ChannelWrite, ChannelWriteEntry
from engine.types import TimeoutPolicy


class PregelNode:
    """A node of the runtime graph: a record, not a runnable.

    Attributes:
        channels: the channels read as input: one name (the input is that value) or a list
            (the input is a dict of the available ones).
        triggers: the channels whose update wakes the node.
        mapper: turns the read input into the node's argument (a dict into a pydantic model).
        writers: run after `bound`, in order; each turns the output into channel writes.
        bound: the callable (anything with invoke/ainvoke).
    """

    __slots__ = (
        "channels",
        "triggers",
        "mapper",
        "writers",
        "bound",
        "retry_policy",
        "cache_policy",
        "tags",
        "metadata",
        "subgraphs",
        "input_cache_key",
        "error_handler_node",
        "is_error_handler",
        "timeout",
        "trace_policy",
    )

    def __init__(
        self,
        *,
        channels: str | list[str],
        triggers: Sequence[str],
        mapper: Callable[[Any], Any] | None = None,
        writers: list[Any] | None = None,
        bound: Any = None,
        retry_policy: Any = None,
        cache_policy: Any = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        subgraphs: Sequence[Any] | None = None,
        error_handler_node: str | None = None,
        is_error_handler: bool = False,
        timeout: Any = None,
        trace_policy: Any = None,
    ) -> None:
        self.channels = channels
        # what tracers record of this node's run (engine.types.TracePolicy)
        self.trace_policy = trace_policy
        # the node a failure of this one goes to, after retries (StateGraph error_handler)
        self.error_handler_node = error_handler_node
        self.is_error_handler = is_error_handler
        self.timeout = TimeoutPolicy.coerce(timeout)
        self.triggers = list(triggers)
        self.mapper = mapper
        self.writers = writers or []
        self.bound = (
            bound if bound is not None else RunnableCallable(_identity, "identity", off_loop=False)
        )
        if retry_policy is not None and (
            hasattr(retry_policy, "max_attempts") or not isinstance(retry_policy, Sequence)
        ):
            retry_policy = (retry_policy,)
        self.retry_policy = retry_policy
        self.cache_policy = cache_policy
        self.tags = tags
        self.metadata = metadata
        self.subgraphs = list(_subgraphs_of(bound) if subgraphs is None else subgraphs)
        # nodes reading the same channels with the same mapper share one input dict per step
        self.input_cache_key = (
            (mapper, tuple(channels)) if isinstance(channels, list) else (mapper, channels)
        )

    def copy(self, update: dict[str, Any] | None = None) -> PregelNode:
        """A copy with the attributes in `update` replaced (langgraph's signature)."""
        attrs = {k: getattr(self, k) for k in self.__slots__ if k != "input_cache_key"}
        attrs.update(update or {})
        return PregelNode(**attrs)

    def __repr__(self) -> str:
        return f"PregelNode(triggers={self.triggers}, channels={self.channels})"


def _identity(x: Any) -> Any:
    return x


def _subgraphs_of(bound: Any) -> list[Any]:
    """The graph a node runs: the node itself, or (as langgraph finds it) the first checkpointed
    graph its function refers to (a closure variable or a global it reads), so get_state shows
    the state of a subgraph invoked inside a node function too."""
    from engine.pregel.main import Pregel

    if isinstance(bound, Pregel):
        return [bound]
    func = getattr(bound, "func", None) if isinstance(bound, RunnableCallable) else None
    if func is None:
        return []
    from engine.pregel._utils import get_function_nonlocals

    for value in get_function_nonlocals(func):
        value = getattr(value, "__self__", value)  # a bound method of a graph: the graph
        if isinstance(value, Pregel) and value.checkpointer is not False:
            return [value]
    return []


class NodeBuilder:
    """Fluent builder of a PregelNode for the low-level Pregel API."""

    def __init__(self) -> None:
        self._channels: str | list[str] = []
        self._triggers: list[str] = []
        self._bound: Any = None
        self._writes: list[Any] = []
        self._tags: list[str] = []
        self._metadata: dict[str, Any] = {}
        self._retry_policy: list[Any] = []
        self._cache_policy: Any = None
        self._timeout: Any = None

    def subscribe_only(self, channel: str) -> NodeBuilder:
        """Wake on `channel` and take its value (not a dict) as input."""
        if self._channels:
            raise ValueError("subscribe_only must be the only subscription of a node")
        self._channels = channel
        self._triggers.append(channel)
        return self

    def subscribe_to(self, *channels: str, read: bool = True) -> NodeBuilder:
        """Wake on any of `channels`; with `read`, also take them as input (a dict)."""
        if isinstance(self._channels, str):
            raise ValueError("Cannot subscribe to more channels after subscribe_only")
        if read:
            self._channels.extend(channels)
        self._triggers.extend(channels)
        return self

    def read_from(self, *channels: str) -> NodeBuilder:
        """Add `channels` to the input dict without waking on them."""
        if isinstance(self._channels, str):
            raise ValueError("Cannot read more channels after subscribe_only")
        self._channels.extend(channels)
        return self

    def do(self, action: Any) -> NodeBuilder:
        """The callable to run; several `do` calls compose left to right."""
        bound = coerce_to_bound(action)
        self._bound = bound if self._bound is None else _Sequence(self._bound, bound)
        return self

    def write_to(self, *channels: str | ChannelWriteEntry, **kwargs: Any) -> NodeBuilder:
        """Write the output to `channels`; `key=value` writes a constant or `value(output)`."""
        for channel in channels:
            self._writes.append(ChannelWriteEntry(channel) if isinstance(channel, str) else channel)
        for key, value in kwargs.items():
            self._writes.append(
                ChannelWriteEntry(key, mapper=value)
                if callable(value)
                else ChannelWriteEntry(key, value=value)
            )
        return self

    def meta(self, *tags: str, **metadata: Any) -> NodeBuilder:
        self._tags.extend(tags)
        self._metadata.update(metadata)
        return self

    def add_retry_policies(self, *policies: Any) -> NodeBuilder:
        self._retry_policy.extend(policies)
        return self

    def add_cache_policy(self, policy: Any) -> NodeBuilder:
        self._cache_policy = policy
        return self

    def set_timeout(self, timeout: Any) -> NodeBuilder:
        """Time limits of each attempt: a TimeoutPolicy, or seconds / a timedelta of run time."""
        self._timeout = TimeoutPolicy.coerce(timeout)
        return self

    def build(self) -> PregelNode:
        return PregelNode(
            channels=self._channels,
            triggers=self._triggers,
            writers=[ChannelWrite(self._writes)] if self._writes else [],
            bound=self._bound,
            retry_policy=self._retry_policy or None,
            cache_policy=self._cache_policy,
            tags=self._tags or None,
            metadata=self._metadata or None,
            timeout=self._timeout,
        )


class _Sequence(EngineRunnable):
    """Two bound callables run one after the other (NodeBuilder.do twice)."""

    def __init__(self, first: Any, second: Any) -> None:
        self.first, self.second = first, second
        self.name = f"{getattr(first, 'name', '?')}|{getattr(second, 'name', '?')}"

    def invoke(self, input: Any, config: dict) -> Any:
        return self.second.invoke(self.first.invoke(input, config), config)

    async def ainvoke(self, input: Any, config: dict) -> Any:
        return await self.second.ainvoke(await self.first.ainvoke(input, config), config)


def cache_identity(bound: Any) -> str:
    """The name a node's cache entries are kept under, beside the node's name: as langgraph's,
    its function's module and qualified name, or "__dynamic__" when it has none (a Runnable,
    a callable object, a subgraph, an async-only function, whose sync body langgraph keeps as
    None). A node that passes its input on (START's) is langgraph's lambda there."""
    target = bound
    if isinstance(bound, RunnableCallable):
        target = None if bound.is_async else bound.func
        if target is _identity:
            return "langgraph.pregel._read.<lambda>"
    name = getattr(target, "__qualname__", None) or getattr(target, "__name__", None)
    module = getattr(target, "__module__", None)
    return f"{module}.{name}" if name is not None and module is not None else "__dynamic__"
