"""How a graph runs a v3 event stream (`stream_events(version="v3")`): the mux of the built-in
and the graph's and caller's transformers, and the arguments of the graph's own inner stream."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.runnables.config import ensure_config

from engine._constants import CONF, CONFIG_KEY_CHECKPOINT_NS, NS_SEP
from engine.pregel.messages import CONFIG_KEY_STREAM_MESSAGES_V2
from engine.pregel.run_setup import merge_configs
from engine.stream._mux import StreamMux
from engine.stream._v3 import Factory, collect_stream_modes, normalize_factories
from engine.stream.transformers import (
    LifecycleTransformer,
    MessagesTransformer,
    SubgraphTransformer,
    ValuesTransformer,
)


def resolve_parent_ns(graph_config: dict | None, call_config: dict | None) -> tuple[str, ...]:
    """The namespace the caller runs in: () at the root, the task's inside a node."""
    ns = (
        ensure_config(merge_configs(graph_config, call_config))
        .get(CONF, {})
        .get(CONFIG_KEY_CHECKPOINT_NS)
    )
    return tuple(ns.split(NS_SEP)) if ns else ()


def build_mux(
    graph: Any, config: dict | None, transformers: Sequence[Factory] | None, *, is_async: bool
) -> StreamMux:
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
    config = dict(config or {})
    config[CONF] = {**(config.get(CONF) or {}), CONFIG_KEY_STREAM_MESSAGES_V2: True}
    return {
        "config": config,
        "stream_mode": collect_stream_modes(mux),
        "subgraphs": True,
        "version": "v2",
        **kwargs,
    }
