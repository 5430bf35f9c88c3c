"""Node timeouts: one attempt of an async node under its TimeoutPolicy.

The attempt runs as an asyncio task beside one watchdog per limit. The run watchdog sleeps
`run_timeout`; the idle one sleeps until `idle_timeout` has passed since the last progress. The
attempt's config is a guarded copy: its writes, stream output, stream writes, child-task calls
and LangChain callback events count as progress (refresh_on="auto"), `runtime.heartbeat()`
always does. An observer under CONFIG_KEY_TIMED_ATTEMPT_OBSERVER hears of progress. When a
watchdog fires first, the scope closes (late writes and stream output are dropped), the
attempt's writes are discarded, the task is cancelled and NodeTimeoutError raised.

Sync nodes cannot be cancelled in-process, so a timeout on one is refused when the graph is
built, as langgraph does.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
import weakref
from collections.abc import Callable
from contextlib import suppress
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.runnables.config import var_child_runnable_config

from engine._constants import (
    CONF,
    CONFIG_KEY_CALL,
    CONFIG_KEY_RUNTIME,
    CONFIG_KEY_SEND,
    CONFIG_KEY_STREAM,
)
from engine.errors import NodeTimeoutError
from engine.pregel.attempt_observer import ObservedAttempt
from engine.pregel.protocol import StreamProtocol
from engine.runtime import Runtime

_SYNC_TIMEOUT = (
    "Node timeouts are only supported for async nodes because sync Python "
    "execution cannot be safely cancelled in-process."
)


def sync_timeout_unsupported(name: str, *, kind: str = "Node") -> ValueError:
    return ValueError(f"{_SYNC_TIMEOUT} {kind} {name!r} is sync.")


# ------------------------------------------------------------------ build-time check
def has_native_async(runnable: Any) -> bool:
    """Whether a node's callable runs natively async, so cancelling it stops it."""
    from langchain_core.runnables import Runnable, RunnableLambda, RunnableParallel
    from langchain_core.runnables.base import RunnableBindingBase, RunnableSequence

    from engine.pregel.callable import RunnableCallable
    from engine.pregel.read import _Sequence

    while isinstance(runnable, RunnableBindingBase):
        runnable = runnable.bound
    if isinstance(runnable, RunnableSequence):
        return all(has_native_async(step) for step in runnable.steps)
    if isinstance(runnable, RunnableParallel):
        return all(has_native_async(step) for step in runnable.steps__.values())
    if isinstance(runnable, RunnableCallable):  # or its async body, given beside a sync one
        return runnable.is_async or getattr(runnable, "afunc", None) is not None
    if isinstance(runnable, RunnableLambda):
        return bool(getattr(runnable, "afunc", None))
    if isinstance(runnable, _Sequence):  # NodeBuilder.do twice
        return has_native_async(runnable.first) and has_native_async(runnable.second)
    if isinstance(runnable, Runnable):
        return type(runnable).ainvoke is not Runnable.ainvoke
    return callable(getattr(runnable, "ainvoke", None))


def validate_timeout_supported(name: str, node: Any) -> None:
    """Refuse a timeout on a node whose callable or writers are sync."""
    parts = [node.bound, *(w for w in node.writers if _is_user_runnable(w))]
    if not all(has_native_async(part) for part in parts):
        raise sync_timeout_unsupported(name)


def validate_node_timeouts(nodes: dict[str, Any]) -> None:
    for name, node in nodes.items():
        if node.timeout is not None:
            validate_timeout_supported(name, node)


def _is_user_runnable(writer: Any) -> bool:
    from engine.pregel.protocol import is_runnable

    return is_runnable(writer)


# ------------------------------------------------------------------ one timed attempt
class TimedAttemptScope:
    """Progress clock and gate of one timed attempt: `wrap_config` gives the attempt's config
    guarded copies of its send, stream, call and stream writer. Sends are serialised with
    `close()` under the lock, so a cancelled attempt's late writes never land; stream output
    and child calls after close are dropped (refused) without it, as they come from the loop.
    `on_progress` (an observer's) hears of progress at most once per `progress_min_interval`."""

    __slots__ = (
        "_active",
        "_last_progress",
        "_last_progress_emit",
        "_lock",
        "_on_progress",
        "_progress_min_interval",
        "_refresh_on",
        "__weakref__",
    )

    def __init__(
        self,
        on_progress: Callable[[], None] | None = None,
        progress_min_interval: float = 0.0,
        refresh_on: str | None = None,
    ) -> None:
        self._active = True
        self._last_progress = time.monotonic()
        self._lock = threading.Lock()
        self._on_progress = on_progress
        self._progress_min_interval = progress_min_interval
        self._refresh_on = refresh_on  # None: no idle limit, nothing to refresh
        self._last_progress_emit = float("-inf")

    def wrap_config(self, config: dict) -> dict:
        conf = dict(config.get(CONF, {}))
        if (send := conf.get(CONFIG_KEY_SEND)) is not None:
            conf[CONFIG_KEY_SEND] = self._guard_send(send)
        if (stream := conf.get(CONFIG_KEY_STREAM)) is not None:
            conf[CONFIG_KEY_STREAM] = self._guard_stream(stream)
        if (call := conf.get(CONFIG_KEY_CALL)) is not None:
            conf[CONFIG_KEY_CALL] = self._guard_call(call)
        if isinstance(runtime := conf.get(CONFIG_KEY_RUNTIME), Runtime):
            writer = self._guard_stream_writer(runtime.stream_writer)
            if self._refresh_on is None:
                conf[CONFIG_KEY_RUNTIME] = runtime.override(stream_writer=writer)
            else:
                conf[CONFIG_KEY_RUNTIME] = runtime.override(
                    stream_writer=writer, heartbeat=self.touch
                )
        scoped = {**config, CONF: conf}
        if self._refresh_on == "auto":
            scoped["callbacks"] = _with_handler(config.get("callbacks"), _ProgressHandler(self))
        return scoped

    def touch(self) -> None:
        """Progress: the idle clock restarts (unlocked: the limit is coarse next to the race)."""
        now = time.monotonic()
        self._last_progress = now
        if self._on_progress is not None and (
            now - self._last_progress_emit >= self._progress_min_interval
        ):
            self._last_progress_emit = now
            self._on_progress()

    def close(self) -> None:
        with self._lock:
            self._active = False

    async def wait_for_idle_timeout(self, seconds: float) -> None:
        """Raise TimeoutError once `seconds` pass without progress; return when closed."""
        while True:
            with self._lock:
                if not self._active:
                    return
                remaining = self._last_progress + seconds - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            await asyncio.sleep(remaining)

    def _auto_progress(self) -> None:
        if self._refresh_on == "auto":
            self._last_progress = time.monotonic()

    def _guard_send(self, send: Callable[[Any], None]) -> Callable[[Any], None]:
        def guarded_send(writes: Any) -> None:
            with self._lock:
                if self._active:
                    if writes:
                        self._auto_progress()
                    send(writes)

        return guarded_send

    def _guard_stream(self, stream: StreamProtocol) -> StreamProtocol:
        def guarded_stream(chunk: Any) -> None:
            if self._active:
                self._auto_progress()
                stream(chunk)

        return StreamProtocol(guarded_stream, stream.modes)

    def _guard_call(self, call: Callable[..., Any]) -> Callable[..., Any]:
        def guarded_call(*args: Any, **kwargs: Any) -> Any:
            if not self._active:
                raise asyncio.CancelledError
            self._auto_progress()
            return call(*args, **kwargs)

        return guarded_call

    def _guard_stream_writer(self, writer: Callable[[Any], None]) -> Callable[[Any], None]:
        def guarded_stream_writer(chunk: Any) -> None:
            with self._lock:
                if not self._active:
                    return
                self._auto_progress()
            writer(chunk)

        return guarded_stream_writer


class _ProgressHandler(BaseCallbackHandler):
    """Any LangChain callback event under the attempt (a model's tokens, a tool) is progress.
    It holds the scope weakly: a child run's manager may outlive the attempt."""

    run_inline = True

    def __init__(self, scope: TimedAttemptScope) -> None:
        self._scope = weakref.ref(scope)

    def _touch(self, *args: Any, **kwargs: Any) -> None:
        if (scope := self._scope()) is not None:
            scope.touch()

    on_llm_start = on_chat_model_start = on_llm_new_token = on_llm_end = on_llm_error = _touch
    on_chain_start = on_chain_end = on_chain_error = _touch
    on_tool_start = on_tool_end = on_tool_error = _touch
    on_retriever_start = on_retriever_end = on_retriever_error = _touch
    on_agent_action = on_agent_finish = on_text = on_retry = on_custom_event = _touch


def _with_handler(callbacks: Any, handler: BaseCallbackHandler) -> Any:
    if callbacks is None:
        return [handler]
    if isinstance(callbacks, list):
        return [*callbacks, handler]
    manager = callbacks.copy()
    manager.add_handler(handler, inherit=True)
    return manager


async def run_timed(task: Any, config: dict, observed: ObservedAttempt | None = None) -> Any:
    """`await task.proc.bound.ainvoke(task.input, config)` under task.timeout; `observed`
    hears of the attempt's progress."""
    policy = task.timeout
    run_s, idle_s = policy.run_timeout, policy.idle_timeout
    on_progress = observed.progressed if observed is not None and idle_s is not None else None
    scope = TimedAttemptScope(
        on_progress,
        # at most about four progress events per idle window: token callbacks come fast
        idle_s / 4 if idle_s is not None else 0.0,
        policy.refresh_on if idle_s is not None else None,
    )
    scoped = scope.wrap_config(config)
    context = contextvars.copy_context()
    context.run(var_child_runnable_config.set, scoped)
    attempt = asyncio.ensure_future(
        asyncio.get_running_loop().create_task(
            task.proc.bound.ainvoke(task.input, scoped), context=context
        )
    )
    watchdogs: dict[asyncio.Future, str] = {}
    if idle_s is not None:
        watchdogs[asyncio.ensure_future(scope.wait_for_idle_timeout(idle_s))] = "idle"
    if run_s is not None:
        watchdogs[asyncio.ensure_future(asyncio.sleep(run_s))] = "run"
    start = time.monotonic()
    try:
        done, _ = await asyncio.wait({attempt, *watchdogs}, return_when=asyncio.FIRST_COMPLETED)
        if attempt in done:
            return attempt.result()
        kind = next(watchdogs[w] for w in done)
        scope.close()
        task.writes.clear()
        attempt.cancel()
        attempt.add_done_callback(_drain)
        raise NodeTimeoutError(
            task.name, time.monotonic() - start, kind=kind, idle_timeout=idle_s, run_timeout=run_s
        )
    except asyncio.CancelledError:
        attempt.cancel()
        attempt.add_done_callback(_drain)
        raise
    finally:
        scope.close()
        for watchdog in watchdogs:
            watchdog.cancel()
            with suppress(asyncio.CancelledError, asyncio.TimeoutError):
                await watchdog


def _drain(future: asyncio.Future) -> None:
    # the abandoned attempt's outcome is read so asyncio does not log it
    with suppress(asyncio.CancelledError, Exception):
        future.exception()
