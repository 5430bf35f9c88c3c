"""Building a v3 run: the mux from the built-in and extra transformers, and the inner stream."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine._constants import CONF, CONFIG_KEY_CHECKPOINT_NS, NS_SEP
from engine.stream._mux import StreamMux
from engine.stream._types import StreamTransformer

Factory = Callable[[tuple[str, ...]], Any]

# v3 decides these itself: the modes come from the transformers, subgraphs is always on
_V3_INVARIANT_KWARGS = ("stream_mode", "subgraphs")


def reject_v3_invariant_kwargs(kwargs: dict[str, Any]) -> None:
    collisions = [k for k in _V3_INVARIANT_KWARGS if k in kwargs]
    if collisions:
        raise TypeError(
            "stream_events(version='v3') / astream_events(version='v3') do "
            f"not accept {', '.join(collisions)}; v3 owns these "
            "(stream_mode is built from the transformer mux, subgraphs is "
            "forced True so nested namespaces flow through scoped muxes)."
        )


def normalize_factories(specs: Sequence[Factory] | None) -> list[Factory]:
    """Scope-aware factories from transformer classes or callables; instances cannot be
    cloned into subgraph scopes, so they are refused."""
    factories: list[Factory] = []
    for spec in specs or ():
        if isinstance(spec, StreamTransformer):
            raise TypeError(
                "stream_events(version='v3') transformers must be scope-aware callables, "
                f"got pre-built instance {type(spec).__name__}. Pass the transformer class or a "
                "factory like `lambda scope: MyTransformer(scope, ...)`."
            )
        if not callable(spec):
            raise TypeError(
                f"stream_events(version='v3') transformers must be scope-aware callables, got {type(spec).__name__}."
            )
        factories.append(lambda scope, _spec=spec: _spec(scope))
    return factories


def collect_stream_modes(mux: StreamMux) -> list[str]:
    """The union of what the registered transformers need, and nothing else."""
    modes: dict[str, None] = {}
    for transformer in mux._transformers:
        modes.update(dict.fromkeys(getattr(transformer, "required_stream_modes", ())))
    return list(modes)


def resolve_parent_ns(graph_config: dict | None, call_config: dict | None) -> tuple[str, ...]:
    """The namespace the caller runs in: () at the root, the task's inside a node."""
    from langchain_core.runnables.config import ensure_config

    from engine.pregel.run_setup import merge_configs

    ns = (
        ensure_config(merge_configs(graph_config, call_config))
        .get(CONF, {})
        .get(CONFIG_KEY_CHECKPOINT_NS)
    )
    return tuple(ns.split(NS_SEP)) if ns else ()


def build_mux(
    graph: Any, config: dict | None, transformers: Sequence[Factory] | None, *, is_async: bool
) -> StreamMux:
    from engine.stream.transformers import (
        LifecycleTransformer,
        MessagesTransformer,
        SubgraphTransformer,
        ValuesTransformer,
    )

    return StreamMux(
        factories=[
            ValuesTransformer,
            MessagesTransformer,
            LifecycleTransformer,
            SubgraphTransformer,
            *normalize_factories(getattr(graph, "stream_transformers", ())),
            *normalize_factories(transformers),
        ],
        scope=resolve_parent_ns(graph.config, config),
        is_async=is_async,
    )


def inner_stream_kwargs(
    config: dict | None, mux: StreamMux, kwargs: dict[str, Any]
) -> dict[str, Any]:
    """Arguments of the graph's own (a)stream call under a v3 run."""
    from engine.pregel.messages import CONFIG_KEY_STREAM_MESSAGES_V2

    config = dict(config or {})
    config[CONF] = {**(config.get(CONF) or {}), CONFIG_KEY_STREAM_MESSAGES_V2: True}
    return {
        "config": config,
        "stream_mode": collect_stream_modes(mux),
        "subgraphs": True,
        "version": "v2",
        **kwargs,
    }
