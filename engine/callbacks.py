"""Graph lifecycle callbacks: handlers told when a run pauses on interrupts and when it resumes.

A `GraphCallbackHandler` given in `config["callbacks"]` (alone, in a list, or inside a LangChain
callback manager) receives `on_interrupt` and `on_resume` besides the usual LangChain events.
Other handlers never see lifecycle events. A handler that raises is logged and the run goes on,
unless the handler sets `raise_error`, as with any LangChain handler.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, TypeVar
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler, BaseCallbackManager
from langchain_core.callbacks.manager import ahandle_event, handle_event

from engine.types import Interrupt

GraphLifecycleStatus: TypeAlias = Literal[
    "input", "pending", "done", "interrupt_before", "interrupt_after", "out_of_steps"
]
"""The loop's status when a lifecycle event was captured."""


@dataclass(frozen=True)
class GraphInterruptEvent:
    """The run paused on one or more interrupts."""

    run_id: UUID | None
    status: GraphLifecycleStatus
    checkpoint_id: str
    checkpoint_ns: tuple[str, ...]
    interrupts: tuple[Interrupt, ...]


@dataclass(frozen=True)
class GraphResumeEvent:
    """The run resumed from a saved checkpoint."""

    run_id: UUID | None
    status: GraphLifecycleStatus
    checkpoint_id: str
    checkpoint_ns: tuple[str, ...]


GraphLifecycleEvent: TypeAlias = GraphInterruptEvent | GraphResumeEvent


class GraphCallbackHandler(BaseCallbackHandler):
    """Subclass to observe a graph's lifecycle; pass instances in `config["callbacks"]`."""

    def on_interrupt(self, event: GraphInterruptEvent) -> Any:
        """The run paused on interrupts."""

    def on_resume(self, event: GraphResumeEvent) -> Any:
        """The run resumed from a checkpoint."""


def _graph_handlers(handlers: Sequence[BaseCallbackHandler]) -> list[GraphCallbackHandler]:
    return [h for h in handlers if isinstance(h, GraphCallbackHandler)]


_MISSING: Any = object()


class _GraphManagerBase(BaseCallbackManager):
    """A callback manager holding only graph handlers, bound to one graph run's id."""

    run_id: UUID | None

    def __init__(
        self,
        handlers: Sequence[GraphCallbackHandler] | None = None,
        inheritable_handlers: Sequence[GraphCallbackHandler] | None = None,
        parent_run_id: UUID | None = None,
        *,
        tags: list[str] | None = None,
        inheritable_tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        inheritable_metadata: dict[str, Any] | None = None,
        run_id: UUID | None = None,
    ) -> None:
        super().__init__(
            handlers=list(handlers or ()),
            inheritable_handlers=list(inheritable_handlers or ()),
            parent_run_id=parent_run_id,
            tags=tags,
            inheritable_tags=inheritable_tags,
            metadata=metadata,
            inheritable_metadata=inheritable_metadata,
        )
        self.run_id = run_id

    @classmethod
    def _from_manager(cls: type[_M], manager: BaseCallbackManager, run_id: Any) -> _M:
        return cls(
            _graph_handlers(manager.handlers),
            _graph_handlers(manager.inheritable_handlers),
            manager.parent_run_id,
            tags=manager.tags.copy(),
            inheritable_tags=manager.inheritable_tags.copy(),
            metadata=manager.metadata.copy(),
            inheritable_metadata=manager.inheritable_metadata.copy(),
            run_id=run_id,
        )

    def copy(self: _M, *, run_id: Any = _MISSING) -> _M:
        if run_id is _MISSING:
            run_id = self.run_id
        elif run_id is not None and not isinstance(run_id, UUID):
            raise TypeError("run_id must be a UUID or None")
        return type(self)._from_manager(self, run_id)

    @classmethod
    def configure(cls: type[_M], callbacks: Any = None, *, run_id: UUID | None = None) -> _M:
        """The graph handlers among `callbacks` (None, a handler, a sequence, a manager)."""
        if callbacks is None:
            return cls(run_id=run_id)
        if isinstance(callbacks, BaseCallbackManager):
            return cls._from_manager(callbacks, run_id)
        if isinstance(callbacks, GraphCallbackHandler):
            return cls((callbacks,), run_id=run_id)
        if isinstance(callbacks, (str, bytes)) or not isinstance(callbacks, Sequence):
            raise TypeError("callbacks must be a handler, sequence, or manager")
        return cls(_graph_handlers(list(callbacks)), run_id=run_id)


_M = TypeVar("_M", bound=_GraphManagerBase)


class _GraphCallbackManager(_GraphManagerBase):
    """Dispatches lifecycle events to graph handlers (sync API)."""

    def on_interrupt(self, event: GraphInterruptEvent) -> None:
        handle_event(self.handlers, "on_interrupt", None, event)

    def on_resume(self, event: GraphResumeEvent) -> None:
        handle_event(self.handlers, "on_resume", None, event)


class _AsyncGraphCallbackManager(_GraphManagerBase):
    """Dispatches lifecycle events to graph handlers (async API: async handlers awaited)."""

    @property
    def is_async(self) -> bool:
        return True

    async def on_interrupt(self, event: GraphInterruptEvent) -> None:
        await ahandle_event(self.handlers, "on_interrupt", None, event)

    async def on_resume(self, event: GraphResumeEvent) -> None:
        await ahandle_event(self.handlers, "on_resume", None, event)


def get_sync_graph_callback_manager_for_config(
    config: dict, *, run_id: UUID | None = None
) -> _GraphCallbackManager:
    """The graph handlers of `config["callbacks"]`, bound to `run_id`."""
    return _GraphCallbackManager.configure(config.get("callbacks"), run_id=run_id)


def get_async_graph_callback_manager_for_config(
    config: dict, *, run_id: UUID | None = None
) -> _AsyncGraphCallbackManager:
    """The graph handlers of `config["callbacks"]`, bound to `run_id`, for the async API."""
    return _AsyncGraphCallbackManager.configure(config.get("callbacks"), run_id=run_id)


__all__ = (
    "GraphCallbackHandler",
    "GraphInterruptEvent",
    "GraphLifecycleEvent",
    "GraphLifecycleStatus",
    "GraphResumeEvent",
    "get_async_graph_callback_manager_for_config",
    "get_sync_graph_callback_manager_for_config",
)
