"""What `prune(strategy="keep_latest")` keeps of a thread, for every saver: in each namespace
the newest checkpoint, and the ancestors its DeltaChannel values are rebuilt from.

A DeltaChannel stores no value in most checkpoints: reading it walks the parent chain, through
the ancestors' pending writes, to the nearest checkpoint that stores it (a `_DeltaSnapshot`),
or to the root if none does (`BaseCheckpointSaver.get_delta_channel_history`). Keeping only the
newest checkpoint would leave such a channel silently empty, so the walk keeps those ancestors
and their writes. A channel the newest checkpoint holds no value of but an ancestor holds a
plain value of is an ordinary channel that is empty now (a consumed trigger): it needs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.checkpoint.serde.types import _DeltaSnapshot

STRATEGIES = ("keep_latest", "delete")


def prune_threads(
    thread_ids: Iterable[Any],
    strategy: str,
    delete: Callable[[str], None],
    keep_latest: Callable[[str], None],
) -> None:
    """A saver's `prune`: each thread (by its id as text) deleted or kept to its newest."""
    if strategy not in STRATEGIES:
        raise ValueError(
            f"Unknown prune strategy {strategy!r}: expected 'keep_latest' (the newest checkpoint "
            "of each namespace) or 'delete' (the whole thread)."
        )
    for thread_id in map(str, thread_ids):
        (delete if strategy == "delete" else keep_latest)(thread_id)


def kept_checkpoints(
    get_tuple: Callable[[dict], Any], newest: Mapping[str, dict]
) -> dict[str, set[str]]:
    """namespace -> the ids of the checkpoints to keep, given each namespace's newest
    checkpoint's config."""
    return {ns: _kept_chain(get_tuple, config) for ns, config in newest.items()}


def _kept_chain(get_tuple: Callable[[dict], Any], config: dict) -> set[str]:
    head = get_tuple(config)
    if head is None:
        return set()
    chain = [head]
    values = head.checkpoint["channel_values"]
    unresolved = {c for c in head.checkpoint["channel_versions"] if c not in values}
    needed = 0  # how far back a DeltaChannel's value is rebuilt from
    cursor = head.parent_config
    while unresolved and cursor is not None and (saved := get_tuple(cursor)) is not None:
        chain.append(saved)
        values = saved.checkpoint["channel_values"]
        for channel in [c for c in unresolved if c in values]:
            unresolved.discard(channel)
            if isinstance(values[channel], _DeltaSnapshot):
                needed = len(chain)
        cursor = saved.parent_config
    if unresolved:  # never stored back to the root: a DeltaChannel rebuilt from every write
        needed = len(chain)
    return {t.config["configurable"]["checkpoint_id"] for t in chain[: max(needed, 1)]}


def copied_metadata(metadata: dict, source: str, target: str) -> dict:
    """A checkpoint's metadata for its copy in `target` (a thread id it names is the copy's)."""
    if metadata.get("thread_id") == source:
        return {**metadata, "thread_id": target}
    return metadata


__all__ = ["STRATEGIES", "copied_metadata", "kept_checkpoints", "prune_threads"]
