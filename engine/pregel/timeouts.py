"""Node timeouts: one attempt of an async node under its TimeoutPolicy.

The attempt runs as an asyncio task beside one watchdog per limit. The run watchdog sleeps
`run_timeout`; the idle one sleeps until `idle_timeout` has passed since the last progress. The
attempt's config is a guarded copy: its writes, stream writes, child-task calls and LangChain
callback events count as progress (refresh_on="auto"), `runtime.heartbeat()` always does. When a
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
from collections.abc import Callable
from contextlib import suppress
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.runnables.config import var_child_runnable_config

from engine._constants import CONF, CONFIG_KEY_CALL, CONFIG_KEY_RUNTIME, CONFIG_KEY_SEND
from engine.errors import NodeTimeoutError

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
class _Scope:
    """Progress clock and gate of one timed attempt."""

    __slots__ = ("active", "last", "lock", "auto", "__weakref__")

    def __init__(self, auto: bool) -> None:
        self.active = True
        self.last = time.monotonic()
        self.lock = threading.Lock()
        self.auto = auto

    def touch(self) -> None:
        self.last = time.monotonic()

    def close(self) -> None:
        with self.lock:
            self.active = False

    async def idle(self, seconds: float) -> None:
        while self.active:
            remaining = self.last + seconds - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            await asyncio.sleep(remaining)

    def guard(self, fn: Callable[..., Any], *, calls: bool = False) -> Callable[..., Any]:
        def guarded(*args: Any, **kwargs: Any) -> Any:
            with self.lock:
                if not self.active:
                    if calls:
                        raise asyncio.CancelledError
                    return None
                if self.auto:
                    self.last = time.monotonic()
            return fn(*args, **kwargs)

        return guarded


class _ProgressHandler(BaseCallbackHandler):
    """Any LangChain callback event under the attempt (a model's tokens, a tool) is progress."""

    run_inline = True

    def __init__(self, scope: _Scope) -> None:
        self.touch = scope.touch

    def _touch(self, *args: Any, **kwargs: Any) -> None:
        self.touch()

    on_llm_start = on_chat_model_start = on_llm_new_token = on_llm_end = on_llm_error = _touch
    on_chain_start = on_chain_end = on_chain_error = _touch
    on_tool_start = on_tool_end = on_tool_error = _touch
    on_retriever_start = on_retriever_end = on_retriever_error = _touch
    on_agent_action = on_agent_finish = on_text = on_retry = on_custom_event = _touch


def _scoped_config(config: dict, scope: _Scope) -> dict:
    conf = dict(config[CONF])
    if (send := conf.get(CONFIG_KEY_SEND)) is not None:
        conf[CONFIG_KEY_SEND] = scope.guard(send)
    if (call := conf.get(CONFIG_KEY_CALL)) is not None:
        conf[CONFIG_KEY_CALL] = scope.guard(call, calls=True)
    if (runtime := conf.get(CONFIG_KEY_RUNTIME)) is not None:
        conf[CONFIG_KEY_RUNTIME] = runtime.override(
            stream_writer=scope.guard(runtime.stream_writer), heartbeat=scope.touch
        )
    scoped = {**config, CONF: conf}
    if scope.auto:
        scoped["callbacks"] = _with_handler(config.get("callbacks"), _ProgressHandler(scope))
    return scoped


def _with_handler(callbacks: Any, handler: BaseCallbackHandler) -> Any:
    if callbacks is None:
        return [handler]
    if isinstance(callbacks, list):
        return [*callbacks, handler]
    manager = callbacks.copy()
    manager.add_handler(handler, inherit=True)
    return manager


async def run_timed(task: Any, config: dict) -> Any:
    """`await task.proc.bound.ainvoke(task.input, config)` under task.timeout."""
    policy = task.timeout
    run_s, idle_s = policy.run_timeout, policy.idle_timeout
    scope = _Scope(auto=policy.refresh_on == "auto")
    scoped = _scoped_config(config, scope)
    context = contextvars.copy_context()
    context.run(var_child_runnable_config.set, scoped)
    attempt = asyncio.ensure_future(
        asyncio.get_running_loop().create_task(
            task.proc.bound.ainvoke(task.input, scoped), context=context
        )
    )
    watchdogs: dict[asyncio.Future, str] = {}
    if idle_s is not None:
        watchdogs[asyncio.ensure_future(scope.idle(idle_s))] = "idle"
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
