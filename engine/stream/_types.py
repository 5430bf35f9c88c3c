"""Protocol events (the v3 stream's envelope) and the StreamTransformer extension point."""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import Coroutine
from typing import Any, ClassVar, Literal, NotRequired

from typing_extensions import TypedDict

_logger = logging.getLogger(__name__)

_ASYNC_HOOKS = ("aprocess", "afinalize", "afail")


class _ProtocolEventParams(TypedDict):
    """`timestamp` is wall-clock milliseconds; order events by the envelope's `seq` instead."""

    namespace: list[str]
    timestamp: int
    data: Any
    interrupts: NotRequired[tuple[Any, ...]]


class ProtocolEvent(TypedDict):
    """One stream part in the v3 envelope; the root mux numbers them with `seq`."""

    type: Literal["event"]
    event_id: NotRequired[str]
    seq: NotRequired[int]
    method: str
    params: _ProtocolEventParams


class StreamTransformer(ABC):
    """Observes protocol events and builds projections (StreamChannels and the like).

    `init()` returns the projection dict; `process()` (or `aprocess()`) sees each event and
    returns False to keep it out of the main log. Class flags: `_native` exposes projection
    keys as run-stream attributes, `requires_async` / `supports_sync` pick the lane,
    `required_stream_modes` tells the run which modes to request, `before_builtins` registers
    the transformer ahead of the built-in ones.
    """

    requires_async: ClassVar[bool] = False
    supports_sync: ClassVar[bool] = False
    required_stream_modes: ClassVar[tuple[str, ...]] = ()
    before_builtins: ClassVar[bool] = False

    def __init__(self, scope: tuple[str, ...] = ()) -> None:
        self.scope: tuple[str, ...] = scope

    @abstractmethod
    def init(self) -> dict[str, Any]:
        """The projection dict: its keys become `run.extensions` entries."""

    def _on_register(self, mux: Any) -> None:  # noqa: B027 - optional hook
        """Called once the owning mux has wired this transformer in."""

    def process(self, event: ProtocolEvent) -> bool:
        # no silent pass-through: a transformer that handles nothing is a bug
        raise NotImplementedError(f"{type(self).__name__} must override process() or aprocess()")

    async def aprocess(self, event: ProtocolEvent) -> bool:
        return self.process(event)

    def finalize(self) -> None:  # noqa: B027 - optional hook
        """The run ended normally (projection channels are closed by the mux)."""

    async def afinalize(self) -> None:
        self.finalize()

    def fail(self, err: BaseException) -> None:  # noqa: B027 - optional hook
        """The run ended with `err` (projection channels are failed by the mux)."""

    async def afail(self, err: BaseException) -> None:
        self.fail(err)

    def schedule(
        self, coro: Coroutine[Any, Any, Any], *, on_error: Literal["log", "raise"] = "log"
    ) -> asyncio.Task[Any]:
        """Run `coro` as a task the mux awaits before finalizing (and cancels on failure)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            raise RuntimeError(
                f"{type(self).__name__}.schedule() requires a running event loop; this "
                "transformer must run under astream(), not stream(). Set requires_async=True "
                "on the class so this fails at registration rather than at first event."
            ) from None
        task = asyncio.create_task(_logged(coro) if on_error == "log" else coro)
        pending = self._scheduled_task_set()
        pending.add(task)
        task.add_done_callback(pending.discard)
        return task

    def _scheduled_task_set(self) -> set[asyncio.Task[Any]]:
        # created lazily so subclasses need not call super().__init__()
        pending = self.__dict__.get("_stream_scheduled_tasks")
        if pending is None:
            pending = self._stream_scheduled_tasks = set()
        return pending


async def _logged(coro: Coroutine[Any, Any, Any]) -> Any:
    try:
        return await coro
    except asyncio.CancelledError:
        raise
    except BaseException:
        _logger.exception("Scheduled StreamTransformer task failed")


def transformer_requires_async(transformer: StreamTransformer) -> bool:
    """Whether `transformer` needs an event loop (explicitly, or by overriding an async hook)."""
    if transformer.requires_async:
        return True
    if transformer.supports_sync:
        return False
    cls = type(transformer)
    return any(getattr(cls, hook) is not getattr(StreamTransformer, hook) for hook in _ASYNC_HOOKS)
