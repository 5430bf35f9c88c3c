"""langgraph._internal._config: config helpers at langgraph's private path (langgraph-supervisor
patches each agent's thread id with `patch_configurable`; langmem completes its configs with
`ensure_config`, through langgraph.utils.config)."""

from __future__ import annotations

from typing import Any

from engine._constants import (
    CONF,
    CONFIG_KEY_CHECKPOINT_ID,
    CONFIG_KEY_CHECKPOINT_MAP,
    CONFIG_KEY_CHECKPOINT_NS,
    CONFIG_KEY_THREAD_ID,
)
from engine.pregel.run_setup import _IDS_TO_METADATA, DEFAULT_RECURSION_LIMIT, merge_configs
from engine.pregel.state import own_namespace as recast_checkpoint_ns  # noqa: F401


def patch_configurable(config: dict | None, patch: dict[str, Any]) -> dict:
    """A copy of `config` whose `configurable` has `patch`'s keys on top."""
    if config is None:
        return {CONF: patch}
    if CONF not in config:
        return {**config, CONF: patch}
    return {**config, CONF: {**config[CONF], **patch}}


def patch_config(
    config: dict | None,
    *,
    callbacks: Any = None,
    recursion_limit: int | None = None,
    max_concurrency: int | None = None,
    run_name: str | None = None,
    configurable: dict[str, Any] | None = None,
) -> dict:
    """A copy of `config` with the given values; new callbacks drop the run name and id, which
    belonged to the run the old callbacks were for."""
    config = dict(config) if config is not None else {}
    if callbacks is not None:
        config["callbacks"] = callbacks
        config.pop("run_name", None)
        config.pop("run_id", None)
    if recursion_limit is not None:
        config["recursion_limit"] = recursion_limit
    if max_concurrency is not None:
        config["max_concurrency"] = max_concurrency
    if run_name is not None:
        config["run_name"] = run_name
    if configurable is not None:
        config[CONF] = {**config.get(CONF, {}), **configurable}
    return config


def patch_checkpoint_map(config: dict | None, metadata: dict | None) -> dict | None:
    """With a checkpoint's parents in `metadata`, the config's checkpoint map gains them and
    its own namespace's checkpoint."""
    parents = metadata.get("parents") if metadata else None
    if config is None or not parents:
        return config
    conf = config[CONF]
    return patch_configurable(
        config,
        {
            CONFIG_KEY_CHECKPOINT_MAP: {
                **parents,
                conf[CONFIG_KEY_CHECKPOINT_NS]: conf[CONFIG_KEY_CHECKPOINT_ID],
            }
        },
    )


CONFIG_KEYS = ("tags", "metadata", "callbacks", "run_name", "max_concurrency",
               "recursion_limit", CONF, "run_id")  # fmt: skip
"""A RunnableConfig's own keys; ensure_config puts any other key under `configurable`."""
_COORDINATES = (CONFIG_KEY_THREAD_ID, CONFIG_KEY_CHECKPOINT_NS, CONFIG_KEY_CHECKPOINT_ID,
                CONFIG_KEY_CHECKPOINT_MAP)  # fmt: skip


def _given(value: Any) -> bool:
    return len(value) > 0 if isinstance(value, (list, tuple, dict)) else value is not None


def ensure_config(*configs: dict | None) -> dict:
    """A config with every key: the running task's config (if any), then `configs` merged over
    it left to right (tags, metadata, callbacks and configurable merge; tags the task already
    has are not added twice). A config naming its own thread or checkpoint drops the task's
    configurable: it addresses its own checkpoints. The thread, checkpoint and run ids are
    copied into the metadata."""
    from langchain_core.runnables.config import var_child_runnable_config

    out: dict[str, Any] = {"tags": [], "metadata": {}, "callbacks": None,
                           "recursion_limit": DEFAULT_RECURSION_LIMIT, CONF: {}}  # fmt: skip
    ambient = var_child_runnable_config.get() or {}
    out.update({k: v.copy() if isinstance(v, (list, dict)) else v
                for k, v in ambient.items() if _given(v)})  # fmt: skip
    inherited = set(out["tags"])
    if out[CONF] and any(_given((c or {}).get(CONF, {}).get(k)) for c in configs
                         for k in _COORDINATES):  # fmt: skip
        out[CONF] = {}
    for config in configs:
        own = {k: v for k, v in (config or {}).items() if _given(v)}
        extra = {k: v for k, v in own.items() if k not in CONFIG_KEYS}
        tags = [t for t in own.pop("tags", []) if t not in inherited]
        merged = merge_configs({k: v for k, v in out.items() if k != "tags"},
                               {k: v for k, v in own.items() if k in CONFIG_KEYS})  # fmt: skip
        out = {**merged, "tags": [*out["tags"], *tags], CONF: {**merged[CONF], **extra}}
    conf, metadata = out[CONF], out["metadata"]
    for key in _IDS_TO_METADATA:
        if key not in metadata and conf.get(key):
            metadata[key] = conf[key]
    return out
