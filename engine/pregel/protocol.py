"""The interface every graph runnable offers (langgraph's PregelProtocol)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import AsyncIterator, Iterator
from typing import Any, Generic

from langchain_core.runnables import Runnable

from engine.typing import ContextT, InputT, OutputT, StateT


class PregelProtocol(Runnable[InputT, Any], Generic[StateT, ContextT, InputT, OutputT]):
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


__all__ = ["PregelProtocol"]
