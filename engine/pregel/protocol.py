"""The interface every graph runnable offers (langgraph's PregelProtocol).

A graph is a langchain Runnable, as langgraph's is, but importing langchain-core's Runnable costs
more than the rest of the engine (its module loads langchain's tracers and langsmith), and a
program that only builds and runs graphs never touches it. So PregelProtocol stands on
`RunnableToCome` until `langchain_core.runnables.base` loads, by anyone, and from then on on
Runnable itself: whoever can name Runnable (isinstance, `graph | other`, a RunnableSequence) finds
it in every graph's MRO, and a Runnable method asked of a graph before that loads it.
"""

from __future__ import annotations

import importlib
import sys
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, Generic

from engine._after_import import after_import
from engine.typing import ContextT, InputT, OutputT, StateT

RUNNABLE_MODULE = "langchain_core.runnables.base"


def load_runnable() -> type:
    """langchain-core's Runnable, loaded (and so put under every graph) if it was not yet."""
    return importlib.import_module(RUNNABLE_MODULE).Runnable


def is_runnable(value: Any) -> bool:
    """Whether `value` is a langchain Runnable, without loading Runnable's module: while nobody
    has begun loading it, nothing can be one (once begun, the import waits for it to finish)."""
    return RUNNABLE_MODULE in sys.modules and isinstance(value, load_runnable())


class RunnableToCome(ABC):  # noqa: B024  (ABC: Runnable's metaclass, before and after)
    """Runnable's place in PregelProtocol's bases until its module loads (the same instance
    layout, so the base can be swapped). A Runnable method asked of a graph before then loads it."""

    def __getattr__(self, name: str) -> Any:
        if not name.startswith("__"):
            load_runnable()
            if RunnableToCome not in type(self).__mro__:
                return getattr(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __or__(self, other: Any) -> Any:
        return load_runnable().__or__(self, other)

    def __ror__(self, other: Any) -> Any:
        return load_runnable().__ror__(self, other)


class PregelProtocol(RunnableToCome, Generic[StateT, ContextT, InputT, OutputT]):
    """A runnable graph: configurable, drawable, streamable.

    State access (get_state, get_state_history, update_state) comes from
    engine.pregel.state.StateAccess, mixed into Pregel after this class.
    """

    @abstractmethod
    def with_config(self, config: dict | None = None, **kwargs: Any) -> PregelProtocol: ...

    @abstractmethod
    def get_graph(self, config: dict | None = None, *, xray: int | bool = False) -> Any: ...

    @abstractmethod
    def stream(self, input: Any, config: dict | None = None, **kwargs: Any) -> Iterator[Any]: ...

    @abstractmethod
    def astream(
        self, input: Any, config: dict | None = None, **kwargs: Any
    ) -> AsyncIterator[Any]: ...

    @abstractmethod
    def invoke(self, input: Any, config: dict | None = None, **kwargs: Any) -> Any: ...

    @abstractmethod
    async def ainvoke(self, input: Any, config: dict | None = None, **kwargs: Any) -> Any: ...


class StreamProtocol:
    """A run's stream as the tasks it runs see it (the config's `__pregel_stream`): called with
    each (namespace, mode, payload) chunk; `modes` are the modes someone downstream wants, so a
    subgraph or remote graph run as a node sends only those on."""

    __slots__ = ("_emit", "modes")

    def __init__(
        self, emit: Callable[[tuple[tuple[str, ...], str, Any]], None], modes: set
    ) -> None:
        self._emit = emit
        self.modes = modes

    def __call__(self, chunk: tuple[tuple[str, ...], str, Any]) -> None:
        self._emit(chunk)


def _stand_on_runnable(module: Any) -> None:
    PregelProtocol.__bases__ = (module.Runnable, Generic)
    PregelProtocol.__orig_bases__ = (
        module.Runnable[InputT, Any],
        Generic[StateT, ContextT, InputT, OutputT],
    )


after_import(RUNNABLE_MODULE, _stand_on_runnable)

__all__ = ["PregelProtocol", "StreamProtocol"]
