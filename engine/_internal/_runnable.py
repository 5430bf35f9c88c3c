"""langgraph._internal._runnable: `RunnableCallable` with langgraph's signature, for third-party
packages that build nodes from it (langgraph-supervisor's agent nodes pass a sync and an async
body: `RunnableCallable(call_agent, acall_agent)`).

The engine's own RunnableCallable takes one body; this one takes langgraph's arguments and is
still the engine's kind of node callable, so the runner treats it as any function node.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

from langchain_core.runnables import Runnable
from langchain_core.runnables.base import RunnableLike  # noqa: F401
from langchain_core.runnables.config import ensure_config, set_config_context

from engine._constants import CONF, CONFIG_KEY_NODE_ERROR, CONFIG_KEY_RUNTIME, MISSING
from engine.pregel.callable import _INJECTABLE, coerce_to_bound, is_async_callable  # noqa: F401
from engine.pregel.callable import RunnableCallable as _EngineCallable

_EMPTY = inspect.Parameter.empty
_NA = "N/A"  # injected without reading a Runtime attribute


@functools.cache
def _injections() -> tuple[tuple[str, tuple | None, str, Any], ...]:
    """(parameter name, annotations it may have (None: any), Runtime attribute, default), as
    langgraph injects them into a RunnableCallable's function. A `store: BaseStore` must be
    given; a `store: Optional[BaseStore]` defaults to None; a writer to a no-op."""
    from typing import Optional

    from langchain_core.runnables import RunnableConfig

    from engine.errors import NodeError
    from engine.store.base import BaseStore
    from engine.types import StreamWriter

    config_types = (RunnableConfig, "RunnableConfig", Optional[RunnableConfig],  # noqa: UP045
                    "Optional[RunnableConfig]", _EMPTY)  # fmt: skip
    return (
        ("config", config_types, _NA, _EMPTY),
        ("writer", (StreamWriter, "StreamWriter", _EMPTY), "stream_writer", lambda _: None),
        ("store", (BaseStore, "BaseStore", _EMPTY), "store", _EMPTY),
        ("store", (Optional[BaseStore], "Optional[BaseStore]"), "store", None),  # noqa: UP045
        ("previous", None, "previous", _EMPTY),
        ("runtime", None, _NA, _EMPTY),
        ("error", (NodeError, "NodeError"), _NA, None),
    )


def _accepted(func: Callable) -> dict[str, tuple[str, Any]]:
    """The injectable parameters `func` declares (by name and annotation)."""
    params = inspect.signature(func).parameters
    accepted: dict[str, tuple[str, Any]] = {}
    for name, allowed, runtime_key, default in _injections():
        param = params.get(name)
        if param is None or param.kind not in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY):
            continue
        if allowed is not None and param.annotation not in allowed:
            continue
        accepted[name] = (runtime_key, default)
    return accepted


def _name_of(func: Callable | None, afunc: Callable | None) -> str | None:
    """As langgraph: the sync body's name unless it is a lambda, else the async body's."""
    if func is not None:
        name = getattr(func, "__name__", None)
        return None if name == "<lambda>" else name
    return getattr(afunc, "__name__", None)


class RunnableCallable(_EngineCallable):
    """`func` answers invoke, `afunc` ainvoke (invoke's body when there is no `afunc`).

    `kwargs` are passed on every call; with `explode_args` the input is `(args, kwargs)`; with
    `recurse` a Runnable the body returns is invoked on the same input."""

    __slots__ = ("afunc", "tags", "kwargs", "recurse", "explode_args", "func_accepts")

    def __init__(
        self,
        func: Callable[..., Any] | None,
        afunc: Callable[..., Awaitable[Any]] | None = None,
        *,
        name: str | None = None,
        tags: Sequence[str] | None = None,
        trace: bool = True,
        recurse: bool = True,
        explode_args: bool = False,
        **kwargs: Any,
    ) -> None:
        if func is None and afunc is None:
            raise ValueError("At least one of func or afunc must be provided.")
        super().__init__(
            func or afunc, name or _name_of(func, afunc) or type(self).__name__, trace=trace
        )
        self.func = func
        self.afunc = afunc
        self.is_async = func is None  # only an async body: invoke cannot run it
        self.off_loop = False  # a sync body without afunc runs inline, as langgraph's
        self.tags = tags
        self.kwargs = kwargs
        self.recurse = recurse
        self.explode_args = explode_args
        # injected parameter -> (the Runtime attribute it comes from, its default when absent)
        self.func_accepts = _accepted(func or afunc)

    def get_name(self) -> str:
        return self.name

    def _call(self, input: Any, config: dict, kwargs: dict) -> tuple[tuple, dict]:
        if self.explode_args:
            args, extra = input
        else:
            args, extra = (input,), {}
        given = {**self.kwargs, **extra, **kwargs}
        runtime = config.get(CONF, {}).get(CONFIG_KEY_RUNTIME)
        for name, (runtime_key, default) in self.func_accepts.items():
            if name in given:  # passed by the caller: wins over the runtime's
                continue
            value: Any = MISSING
            if name == "config":
                value = config
            elif name == "error":
                value = config.get(CONF, {}).get(CONFIG_KEY_NODE_ERROR, MISSING)
            elif runtime:
                value = runtime if name == "runtime" else getattr(runtime, runtime_key, MISSING)
            if value is MISSING:
                if default is _EMPTY:
                    raise ValueError(
                        f"Missing required config key '{runtime_key}' for '{self.name}'."
                    )
                value = default
            given[name] = value
        return tuple(args), given

    def invoke(self, input: Any, config: dict | None = None, **kwargs: Any) -> Any:
        if self.func is None:
            raise TypeError(
                f'No synchronous function provided to "{self.name}".\nEither initialize with a '
                "synchronous function or invoke via the async API (ainvoke, astream, etc.)"
            )
        config = ensure_config() if config is None else config
        args, given = self._call(input, config, kwargs)
        if self.trace:  # its own chain run, as langgraph's (create_react_agent's call_model)
            from engine.pregel.tracing import traced_call  # (engine.pregel imports this module)

            ret = traced_call(
                self.name, self.tags, input, config, lambda: self.func(*args, **given)
            )
        else:
            ret = self.func(*args, **given)
        if self.recurse and isinstance(ret, Runnable):
            return ret.invoke(input, config)
        return ret

    async def ainvoke(self, input: Any, config: dict | None = None, **kwargs: Any) -> Any:
        if self.afunc is None:
            return self.invoke(input, config, **kwargs)
        config = ensure_config() if config is None else config
        args, given = self._call(input, config, kwargs)
        if self.trace:
            from engine.pregel.tracing import atraced_call

            ret = await atraced_call(
                self.name, self.tags, input, config, lambda: self.afunc(*args, **given)
            )
        else:
            ret = await self.afunc(*args, **given)
        if self.recurse and isinstance(ret, Runnable):
            return await ret.ainvoke(input, config)
        return ret

    def __repr__(self) -> str:
        return f"RunnableCallable({self.name})"


def coerce_to_runnable(thing: Any, *, name: str | None, trace: bool = True) -> Any:
    """A Runnable as is, a function as a node callable, a dict as a RunnableParallel."""
    return coerce_to_bound(thing, name)


def is_async_generator(func: Any) -> bool:
    """Whether calling `func` (a function, or an object through its `__call__`) gives an async
    generator; wrappers made with functools.wraps are seen through."""
    call = type(func).__call__ if callable(func) and not inspect.isfunction(func) else None
    return inspect.isasyncgenfunction(func) or inspect.isasyncgenfunction(call)


def create_task_in_config_context(
    coro_factory: Callable[[], Coroutine[Any, Any, Any]], config: dict
) -> asyncio.Task:
    """An asyncio task made while `config` is the current runnable config, so the task (which
    copies the context when created) and the runs it traces see `config` as their parent."""
    with set_config_context(config) as context:
        return context.run(lambda: asyncio.create_task(coro_factory()))
