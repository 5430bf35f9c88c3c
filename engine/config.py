"""Access the running task's config, stream writer and store from inside a node."""

from __future__ import annotations

from typing import Any

from langchain_core.runnables.config import var_child_runnable_config

from engine._constants import CONF, CONFIG_KEY_RUNTIME


def get_config() -> dict[str, Any]:
    """The config of the task running in this context.

    Raises:
        RuntimeError: outside a graph run.
    """
    if config := var_child_runnable_config.get():
        return config
    raise RuntimeError("Called get_config outside of a runnable context")


def get_store() -> Any:
    """The store given to compile(store=...), or None."""
    return get_config()[CONF][CONFIG_KEY_RUNTIME].store


def get_stream_writer() -> Any:
    """A function that sends its argument to stream_mode="custom" (a no-op when not streamed)."""
    runtime = get_config()[CONF][CONFIG_KEY_RUNTIME]
    return runtime.stream_writer


__all__ = ["get_config", "get_store", "get_stream_writer"]
