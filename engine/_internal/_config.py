"""langgraph._internal._config: config helpers at langgraph's private path (langgraph-supervisor
patches each agent's thread id with `patch_configurable`; langmem completes its configs with
`ensure_config`, through langgraph.utils.config)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine._constants import (
    CONF,
    CONFIG_KEY_CHECKPOINT_ID,
    CONFIG_KEY_CHECKPOINT_MAP,
    CONFIG_KEY_CHECKPOINT_NS,
    CONFIG_KEY_THREAD_ID,
)
from engine.pregel.run_setup import _IDS_TO_METADATA, DEFAULT_RECURSION_LIMIT
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


def _is_not_empty(value: Any) -> bool:
    """A config value that counts as given: a non-empty container or anything but None."""
    return len(value) > 0 if isinstance(value, (list, tuple, dict)) else value is not None


def _copied(value: Any) -> Any:
    return dict(value) if isinstance(value, Mapping) else value


def _merge_metadata(base: Mapping | None, new: Mapping | None) -> dict[str, Any]:
    """`new` over `base`, neither mutated; mapping values are copied one level, and
    `lc_versions` (package versions that each LangChain library adds) merges one level deeper
    so each library keeps its entry."""
    out = {k: _copied(v) for k, v in (base or {}).items()}
    for key, value in (new or {}).items():
        old = out.get(key)
        if key == "lc_versions" and isinstance(old, Mapping) and isinstance(value, Mapping):
            out[key] = {**old, **value}
        else:
            out[key] = _copied(value)
    return out


def _merge_callbacks(base: Any, new: Any) -> Any:
    """Two callbacks values (None, a list of handlers or a manager) as one; a manager keeps
    the other side's handlers as inheritable ones. Neither input is mutated."""
    from langchain_core.callbacks import BaseCallbackManager

    if new is None:
        return base
    if base is None:
        return new.copy() if isinstance(new, (list, BaseCallbackManager)) else new
    if isinstance(new, list) and isinstance(base, list):
        return base + new
    if isinstance(new, BaseCallbackManager) and isinstance(base, BaseCallbackManager):
        return base.merge(new)
    if isinstance(base, BaseCallbackManager) and isinstance(new, list):
        manager, handlers = base.copy(), new
    elif isinstance(new, BaseCallbackManager) and isinstance(base, list):
        manager, handlers = new.copy(), base
    else:
        raise NotImplementedError(f"Unsupported callback types: {type(base)}, {type(new)}")
    for handler in handlers:
        manager.add_handler(handler, inherit=True)
    return manager


def merge_configs(*configs: dict | None) -> dict:
    """Configs merged left to right, as langgraph's private helper does: empty values are
    skipped, tags concatenate, configurable merges shallowly, metadata and callbacks merge as
    above; always has a `configurable`."""
    out: dict[str, Any] = {}
    for config in configs:
        for key, value in (config or {}).items():
            if not value:
                continue
            if key == "metadata":
                out[key] = _merge_metadata(out.get(key), value)
            elif key == "tags":
                out[key] = [*out[key], *value] if out.get(key) else value
            elif key == CONF:
                out[key] = {**out[key], **value} if out.get(key) else value
            elif key == "callbacks":
                out[key] = _merge_callbacks(out.get(key), value)
            else:
                out[key] = value
    out.setdefault(CONF, {})
    return out


_SECRET_WORDS = ("key", "token", "secret", "password", "auth")


def _tracing_metadata(config: dict) -> dict[str, Any] | None:
    """The configurable's plain, non-secret, non-internal values, which tracers (not other
    callbacks) get as metadata."""
    found = {
        k: v
        for k, v in (config.get(CONF) or {}).items()
        if not k.startswith("__")
        and isinstance(v, (str, int, float, bool))
        and not any(word in k.casefold() for word in _SECRET_WORDS)
    }
    return found or None


def _callback_manager(cls: type, config: dict, tags: Sequence[str] | None) -> Any:
    all_tags = config.get("tags")
    if tags is not None:
        all_tags = [*(all_tags or []), *tags]
    callbacks = config.get("callbacks")
    if callbacks and isinstance(callbacks, cls):
        # the config's own manager is reused (so its run ids stay), given the tags and metadata
        if all_tags:
            callbacks.add_tags(all_tags)
        if metadata := config.get("metadata"):
            callbacks.add_metadata(metadata)
        return callbacks
    return cls.configure(
        inheritable_callbacks=callbacks,
        inheritable_tags=all_tags,
        inheritable_metadata=config.get("metadata"),
        langsmith_inheritable_metadata=_tracing_metadata(config),
    )


def get_callback_manager_for_config(config: dict, tags: Sequence[str] | None = None) -> Any:
    """A CallbackManager for `config` (its callbacks, tags plus `tags`, metadata)."""
    from langchain_core.callbacks import CallbackManager

    return _callback_manager(CallbackManager, config, tags)


def get_async_callback_manager_for_config(config: dict, tags: Sequence[str] | None = None) -> Any:
    """An AsyncCallbackManager for `config` (its callbacks, tags plus `tags`, metadata)."""
    from langchain_core.callbacks import AsyncCallbackManager

    return _callback_manager(AsyncCallbackManager, config, tags)


def ensure_config(*configs: dict | None) -> dict:
    """A config with every key: the running task's config (if any), then `configs` merged over
    it left to right (tags, metadata, callbacks and configurable merge; tags the task already
    has are not added twice; keys that are no config key go into `configurable`). A config
    naming its own thread or checkpoint drops the task's configurable: it addresses its own
    checkpoints. The thread, checkpoint and run ids are copied into the metadata."""
    from langchain_core.runnables.config import var_child_runnable_config

    out: dict[str, Any] = {"tags": [], "metadata": {}, "callbacks": None,
                           "recursion_limit": DEFAULT_RECURSION_LIMIT, CONF: {}}  # fmt: skip
    ambient = var_child_runnable_config.get() or {}
    out.update({k: v.copy() if isinstance(v, (list, dict)) else v
                for k, v in ambient.items() if _is_not_empty(v)})  # fmt: skip
    inherited = set(out["tags"])
    if out[CONF] and any(_is_not_empty((c or {}).get(CONF, {}).get(k)) for c in configs
                         for k in _COORDINATES):  # fmt: skip
        out[CONF] = {}
    for config in configs:
        for key, value in (config or {}).items():
            if not _is_not_empty(value):
                continue
            if key not in CONFIG_KEYS:
                out[CONF] = {**out[CONF], key: value}
            elif key == CONF:
                out[CONF] = {**out[CONF], **value}
            elif key == "callbacks":
                out[key] = _merge_callbacks(out[key], value)
            elif key == "metadata":
                out[key] = _merge_metadata(out[key], value)
            elif key == "tags":
                out[key] = [*out[key], *(t for t in value if t not in inherited)]
            else:
                out[key] = value
    conf, metadata = out[CONF], out["metadata"]
    for key in _IDS_TO_METADATA:
        if key not in metadata and conf.get(key):
            metadata[key] = conf[key]
    return out
