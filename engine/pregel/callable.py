"""RunnableCallable: a user function as a node, called with the arguments it asks for."""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable
from typing import Any

from engine._constants import CONF, CONFIG_KEY_NODE_ERROR, CONFIG_KEY_RUNTIME

# keyword parameter name -> how to get it from the task config
_INJECTABLE: dict[str, Callable[[dict], Any]] = {
    "config": lambda config: config,
    "runtime": lambda config: config[CONF].get(CONFIG_KEY_RUNTIME),
    "writer": lambda config: config[CONF][CONFIG_KEY_RUNTIME].stream_writer,
    "store": lambda config: config[CONF][CONFIG_KEY_RUNTIME].store,
    "previous": lambda config: config[CONF][CONFIG_KEY_RUNTIME].previous,
    # an error handler's failure context; None in any other node that asks for it
    "error": lambda config: config[CONF].get(CONFIG_KEY_NODE_ERROR),
}


@functools.cache
def _accepted_annotations() -> dict[str, tuple[Any, ...]]:
    """Like langgraph, `config`, `writer` and `store` are injected only when unannotated or
    annotated with their own type (a `store: dict` is an ordinary parameter)."""
    from typing import Optional

    from langchain_core.runnables import RunnableConfig

    from engine.errors import NodeError
    from engine.store.base import BaseStore
    from engine.types import StreamWriter

    empty = inspect.Parameter.empty
    return {
        "config": (
            RunnableConfig,
            "RunnableConfig",
            Optional[RunnableConfig],
            "Optional[RunnableConfig]",
            empty,
        ),  # noqa: UP045
        "writer": (StreamWriter, "StreamWriter", empty),
        "store": (BaseStore, "BaseStore", Optional[BaseStore], "Optional[BaseStore]", empty),  # noqa: UP045
        "error": (NodeError, "NodeError"),
    }


def _injectable(param: inspect.Parameter) -> bool:
    if param.name not in _INJECTABLE or param.kind not in (
        param.KEYWORD_ONLY,
        param.POSITIONAL_OR_KEYWORD,
    ):
        return False
    accepted = _accepted_annotations().get(param.name)
    return accepted is None or param.annotation in accepted


def _warn_config_annotation(params: Any, stacklevel: int) -> None:
    """langgraph once injected a config of any annotation; it now warns and passes none. The
    warning points where langgraph's does (`stacklevel` counts from this function)."""
    config = params.get("config")
    if config is None or config.annotation is inspect.Parameter.empty:
        return
    if config.kind in (config.KEYWORD_ONLY, config.POSITIONAL_OR_KEYWORD) and not _injectable(
        config
    ):
        warnings.warn(
            "The 'config' parameter should be typed as 'RunnableConfig' or "
            f"'RunnableConfig | None', not '{config.annotation}'. ",
            UserWarning,
            stacklevel=stacklevel,
        )


def _signature_params(func: Callable) -> Any:
    try:
        return inspect.signature(func).parameters
    except (TypeError, ValueError):
        return {}


def _injected_params(params: Any) -> tuple[str, ...]:
    first = next(iter(params), None)
    return tuple(name for name, p in params.items() if name != first and _injectable(p))


def is_async_callable(func: Any) -> bool:
    call = type(func).__call__ if callable(func) and not inspect.isfunction(func) else None
    return inspect.iscoroutinefunction(func) or inspect.iscoroutinefunction(call)


class EngineRunnable:
    """Marks the engine's own node callables (invoke/ainvoke with a task config): coerce_to_bound
    keeps them as they are, like langchain Runnables."""

    __slots__ = ()


class RunnableCallable(EngineRunnable):
    """Calls `func(input, **injected)`; `injected` holds config/runtime/writer/store if asked for.

    The signature is inspected once, at construction, so a call costs one dict build at most.
    """

    __slots__ = ("func", "name", "is_async", "params", "trace", "off_loop")

    def __init__(
        self,
        func: Callable,
        name: str | None = None,
        *,
        trace: bool = True,
        off_loop: bool = True,
        warn_frames_up: int = 4,
    ) -> None:
        self.func = func
        # as langgraph's RunnableCallable(trace=False): a router not shown as a callback run
        self.trace = trace
        # as langgraph coerces a user's function: sync, awaited by the async API, it runs in
        # the loop's default executor, so a blocking node does not stall the event loop and
        # parallel sync nodes overlap (False: called inline, for the engine's own helpers)
        self.off_loop = off_loop
        self.name = name or getattr(func, "__name__", type(func).__name__)
        self.is_async = is_async_callable(func)
        params = _signature_params(func)
        self.params = _injected_params(params)
        if next(iter(params), None) != "config":  # a first parameter is the input, not injected
            # `warn_frames_up` counts from this __init__: langgraph's four reach the program's
            # add_node line; a caller one frame nearer the program than langgraph's passes three
            _warn_config_annotation(params, warn_frames_up + 1)

    def _kwargs(self, config: dict) -> dict[str, Any]:
        return {name: _INJECTABLE[name](config) for name in self.params}

    def invoke(self, input: Any, config: dict) -> Any:
        kwargs = self._kwargs(config) if self.params else {}
        if self.is_async:
            raise TypeError(
                f'No synchronous function provided to "{self.name}".\nEither initialize with a '
                "synchronous function or invoke via the async API (ainvoke, astream, etc.)"
            )
        return self.func(input, **kwargs)

    async def ainvoke(self, input: Any, config: dict) -> Any:
        kwargs = self._kwargs(config) if self.params else {}
        if self.is_async:
            return await self.func(input, **kwargs)
        if self.off_loop:  # the context (config, runtime...) goes with it
            from langchain_core.runnables.config import run_in_executor  # heavy: on first use

            return await run_in_executor(None, self.func, input, **kwargs)
        return self.func(input, **kwargs)

    def __repr__(self) -> str:
        return f"RunnableCallable({self.name})"


def coerce_to_bound(action: Any, name: str | None = None) -> Any:
    """A langchain Runnable or a graph is kept as is; any other callable is called as a function
    (as in langgraph: an object merely having `invoke`, such as a mock, is not a Runnable)."""
    from engine.pregel.protocol import PregelProtocol, is_runnable

    if isinstance(action, (PregelProtocol, EngineRunnable)) or is_runnable(action):
        return action
    if callable(action):
        return RunnableCallable(action, name)
    if isinstance(action, dict):  # as langgraph: each key's runnable on the same input
        from langchain_core.runnables import RunnableParallel

        return RunnableParallel(action)
    raise TypeError(
        f"Expected a Runnable, callable or dict.Instead got an unsupported type: {type(action)}"
    )


class CallRunnable(EngineRunnable):
    """Runs a functional-API call: `func(*args, **kwargs)`, plus the injectable parameters
    (config, store, writer, ...) the function declares and the caller did not pass."""

    __slots__ = ("call", "name", "is_async", "injected")

    def __init__(self, call: Any) -> None:
        self.call = call
        self.name = call.name
        self.is_async = is_async_callable(call.func)
        try:
            signature = inspect.signature(call.func)
            given = signature.bind_partial(*call.args, **call.kwargs).arguments
            params = signature.parameters
        except (TypeError, ValueError):  # unbindable: let the call itself raise
            given, params = {}, {}
        self.injected = tuple(
            name for name, p in params.items() if name not in given and _injectable(p)
        )
        if "config" not in given:  # inside the library, as langgraph's task runnable warns
            _warn_config_annotation(params, 2)

    def trace_inputs(self) -> Any:
        """What a tracer records as the call's inputs, as langgraph records a task's: its
        arguments by parameter name, defaults filled in, `self`/`cls` left out and `**kwargs`
        spread (the raw (args, kwargs) when they do not fit the signature)."""
        try:
            signature = inspect.signature(self.call.func)
            bound = signature.bind_partial(*self.call.args, **self.call.kwargs)
        except (TypeError, ValueError):
            return (self.call.args, self.call.kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop("self", None)
        arguments.pop("cls", None)
        for name, param in signature.parameters.items():
            if param.kind is param.VAR_KEYWORD and name in arguments:
                arguments.update(arguments.pop(name))
        return arguments

    def _kwargs(self, config: dict) -> dict[str, Any]:
        kwargs = self.call.kwargs
        if self.injected:
            kwargs = {**kwargs, **{name: _INJECTABLE[name](config) for name in self.injected}}
        return kwargs

    def invoke(self, input: Any, config: dict) -> Any:
        if self.is_async:
            raise TypeError(
                f'No synchronous function provided to "{self.name}".\nEither initialize with a '
                "synchronous function or invoke via the async API (ainvoke, astream, etc.)"
            )
        return self.call.func(*self.call.args, **self._kwargs(config))

    async def ainvoke(self, input: Any, config: dict) -> Any:
        result = self.call.func(*self.call.args, **self._kwargs(config))
        return await result if self.is_async else result

    def __repr__(self) -> str:
        return f"CallRunnable({self.name})"
