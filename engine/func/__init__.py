"""The functional API: `@entrypoint` turns a function into a graph, `@task` into a step of it.

An entrypoint is a Pregel graph with one node: it reads `__start__`, writes its return value to
`__end__` (the output) and `__previous__` (handed to the next run on the same thread as
`previous`). Calling a task inside it returns a future at once; the task runs beside the caller
in the same superstep, and its result is saved as a pending write, so after an interrupt the
entrypoint re-runs from the top and finished tasks return their saved results instantly.
"""

from __future__ import annotations

import functools
import inspect
import typing
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Generic, TypeVar

from engine._constants import END, PREVIOUS, START
from engine.channels.ephemeral_value import EphemeralValue
from engine.channels.last_value import LastValue
from engine.pregel.call import Call, SyncAsyncFuture, call
from engine.pregel.callable import RunnableCallable, is_async_callable
from engine.pregel.calls import call_cache_ns
from engine.pregel.main import Pregel
from engine.pregel.read import PregelNode
from engine.pregel.timeouts import sync_timeout_unsupported
from engine.pregel.write import ChannelWrite, ChannelWriteEntry
from engine.types import CachePolicy, RetryPolicy, TimeoutPolicy
from engine.warnings import LangGraphDeprecatedSinceV05, LangGraphDeprecatedSinceV10

R = TypeVar("R")
S = TypeVar("S")


def _deprecated_retry(retry_policy: Any, kwargs: dict[str, Any]) -> Any:
    if kwargs.get("retry") is None:
        return retry_policy
    warnings.warn(
        "`retry` is deprecated and will be removed. Please use `retry_policy` instead.",
        category=LangGraphDeprecatedSinceV05,
        stacklevel=3,
    )
    return retry_policy or kwargs["retry"]


def _policies(retry_policy: RetryPolicy | Sequence[RetryPolicy] | None) -> tuple[RetryPolicy, ...]:
    if retry_policy is None:
        return ()
    if isinstance(retry_policy, RetryPolicy):
        return (retry_policy,)
    return tuple(retry_policy)


def _name_of(func: Callable[..., Any]) -> str:
    while isinstance(func, functools.partial):
        func = func.func
    return getattr(func, "__name__", None) or type(func).__name__


def _refuse_generators(func: Callable[..., Any], what: str) -> None:
    if inspect.isgeneratorfunction(func) or inspect.isasyncgenfunction(func):
        raise NotImplementedError(f"Generators are not supported in the functional API ({what}).")


class _TaskFunction(Generic[R]):
    """A function that, called inside an entrypoint or a graph node, runs as a task."""

    def __init__(
        self,
        func: Callable[..., R],
        *,
        name: str | None,
        retry_policy: Sequence[RetryPolicy],
        cache_policy: CachePolicy | None,
        timeout: TimeoutPolicy | None = None,
    ) -> None:
        _refuse_generators(func, "task")
        if timeout is not None and not is_async_callable(func):
            raise sync_timeout_unsupported(str(name or _name_of(func)), kind="Task")
        self.timeout = timeout
        self.func = func
        self.name = name or _name_of(func)
        self.retry_policy = retry_policy
        self.cache_policy = cache_policy
        if not isinstance(func, functools.partial):
            functools.update_wrapper(self, func)

    def __call__(self, *args: Any, **kwargs: Any) -> SyncAsyncFuture:
        return call(
            Call(
                self.func,
                self.name,
                args,
                kwargs,
                self.retry_policy,
                self.cache_policy,
                self.timeout,
            )
        )

    def clear_cache(self, cache: Any) -> None:
        """Forget this task's cached results."""
        cache.clear((call_cache_ns(self.func),))

    async def aclear_cache(self, cache: Any) -> None:
        await cache.aclear((call_cache_ns(self.func),))


def task(
    __func_or_none__: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    retry_policy: RetryPolicy | Sequence[RetryPolicy] | None = None,
    cache_policy: CachePolicy | None = None,
    timeout: float | timedelta | TimeoutPolicy | None = None,
    **kwargs: Any,
) -> Any:
    """Make a function a task: `@task`, `@task()` or `task(func, name=...)`; an async one may
    have a `timeout` per attempt."""
    retry_policy = _deprecated_retry(retry_policy, kwargs)
    timeout_policy = TimeoutPolicy.coerce(timeout)

    def decorate(func: Callable[..., Any]) -> _TaskFunction:
        return _TaskFunction(
            func,
            name=name,
            retry_policy=_policies(retry_policy),
            cache_policy=cache_policy,
            timeout=timeout_policy,
        )

    return decorate(__func_or_none__) if __func_or_none__ is not None else decorate


class entrypoint(Generic[R]):
    """Make a function a graph: `@entrypoint(checkpointer=...)` over `def f(input, *, previous)`."""

    @dataclass
    class final(Generic[R, S]):
        """Return `value` to the caller but save `save` as the next run's `previous`."""

        value: R
        save: S

    def __init__(
        self,
        checkpointer: Any = None,
        store: Any = None,
        cache: Any = None,
        context_schema: Any = None,
        cache_policy: CachePolicy | None = None,
        retry_policy: RetryPolicy | Sequence[RetryPolicy] | None = None,
        timeout: float | timedelta | TimeoutPolicy | None = None,
        **kwargs: Any,
    ) -> None:
        self.timeout = TimeoutPolicy.coerce(timeout)
        if kwargs.get("config_schema") is not None:
            warnings.warn(
                "`config_schema` is deprecated and will be removed. "
                "Please use `context_schema` instead.",
                category=LangGraphDeprecatedSinceV10,
                stacklevel=2,
            )
            context_schema = context_schema or kwargs["config_schema"]
        retry_policy = _deprecated_retry(retry_policy, kwargs)
        self.checkpointer = checkpointer
        self.store = store
        self.cache = cache
        self.context_schema = context_schema
        self.cache_policy = cache_policy
        self.retry_policy = _policies(retry_policy)

    def __call__(self, func: Callable[..., Any]) -> Pregel:
        _refuse_generators(func, "entrypoint")
        name = _name_of(func)
        input_type, output_type, save_type = _io_types(func)
        if self.timeout is not None and not is_async_callable(func):
            raise sync_timeout_unsupported(name)
        return Pregel(
            nodes={
                name: PregelNode(
                    bound=RunnableCallable(func, name, warn_frames_up=3),  # the decorator's line
                    triggers=[START],
                    channels=START,
                    timeout=self.timeout,
                    writers=[
                        ChannelWrite(
                            [
                                ChannelWriteEntry(END, mapper=_returned),
                                ChannelWriteEntry(PREVIOUS, mapper=_saved),
                            ]
                        )
                    ],
                )
            },
            channels={
                START: EphemeralValue(input_type),
                END: LastValue(output_type, END),
                PREVIOUS: LastValue(save_type, PREVIOUS),
            },
            input_channels=START,
            output_channels=END,
            stream_channels=END,
            stream_mode="updates",
            checkpointer=self.checkpointer,
            store=self.store,
            cache=self.cache,
            cache_policy=self.cache_policy,
            retry_policy=self.retry_policy,
            context_schema=self.context_schema,
        )


def _io_types(func: Callable[..., Any]) -> tuple[Any, Any, Any]:
    """The input, output and saved types an entrypoint's annotations declare (Any if none);
    `-> entrypoint.final[R, S]` returns R and saves S."""
    try:
        hints = typing.get_type_hints(func)
    except Exception:  # unresolvable annotations: the schemas say Any
        hints = {}
    params = list(inspect.signature(func).parameters)
    input_type = hints.get(params[0], Any) if params else Any
    output = hints.get("return", Any)
    if output is entrypoint.final:
        return input_type, Any, Any
    if typing.get_origin(output) is entrypoint.final:
        returned, saved = typing.get_args(output)
        return input_type, returned, saved
    return input_type, output, output


def _returned(value: Any) -> Any:
    return value.value if isinstance(value, entrypoint.final) else value


def _saved(value: Any) -> Any:
    return value.save if isinstance(value, entrypoint.final) else value


__all__ = ["entrypoint", "task"]
