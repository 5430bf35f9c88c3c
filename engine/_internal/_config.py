"""langgraph._internal._config: config helpers at langgraph's private path (langgraph-supervisor
patches each agent's thread id with `patch_configurable`)."""

from __future__ import annotations

from typing import Any

from engine._constants import (
    CONF,
    CONFIG_KEY_CHECKPOINT_ID,
    CONFIG_KEY_CHECKPOINT_MAP,
    CONFIG_KEY_CHECKPOINT_NS,
)
from engine.pregel.run_setup import DEFAULT_RECURSION_LIMIT, merge_configs  # noqa: F401
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
