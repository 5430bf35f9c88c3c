"""Checkpoints saved by older langgraph versions (checkpoint format v1-v2), read in today's
channel layout: a node is triggered through its `branch:to:<node>` channel, where older graphs
used `start:<node>`, `branch:<source>:<condition>:<node>` or the source node's own channel.
Migrated as langgraph migrates them when it loads such a checkpoint, so a thread saved then
resumes and shows the same next tasks."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from engine._constants import END, INTERRUPT, MISSING, START


def migrate_channel_layout(
    checkpoint: dict[str, Any], nodes: Mapping[str, Any], edges: Iterable[tuple[str, str]]
) -> None:
    """Rename, in place, the old trigger channels of `checkpoint` to `branch:to:<node>`."""
    versions = checkpoint["channel_versions"]
    if not versions or checkpoint["v"] >= 3:  # empty, or already in today's layout
        return
    for key in list(versions):
        parts = key.split(":")
        if key.startswith("start:"):
            node = parts[1]
        elif key.startswith("branch:") and len(parts) == 4:
            node = parts[-1]
        else:
            continue
        if node in nodes:
            _move(checkpoint, key, node, versions.pop(key), keep_value=False)
    if set(nodes).isdisjoint(versions):
        return
    # a node's own channel triggered the nodes its static edges lead to
    targets: dict[str, list[str]] = defaultdict(list)
    for start, end in edges:
        if start != START and end != END:
            targets[start].append(end)
    for key in list(versions):
        if key == START or key not in nodes:
            continue
        version = versions.pop(key)
        value = checkpoint["channel_values"].pop(key, MISSING)
        for end in targets[key]:
            _move(checkpoint, key, end, version, keep_value=True, value=value)
        checkpoint["versions_seen"].get(INTERRUPT, {}).pop(key, None)


def _move(
    checkpoint: dict[str, Any],
    old: str,
    node: str,
    version: Any,
    *,
    keep_value: bool,
    value: Any = MISSING,
) -> None:
    """Carry `old`'s version, what `node` (and the interrupt check) saw of it, and its value
    over to `branch:to:<node>`, keeping the newer of two versions when both exist."""
    new = f"branch:to:{node}"
    versions, values = checkpoint["channel_versions"], checkpoint["channel_values"]
    seen = checkpoint["versions_seen"]
    for node_seen in (seen.get(node, {}), seen.get(INTERRUPT, {})):
        if old in node_seen:
            was = node_seen.pop(old)
            node_seen[new] = max(was, node_seen[new]) if new in node_seen else was
    if keep_value:  # the source node's value, already taken off the checkpoint
        if new not in values and value is not MISSING:
            values[new] = value
    elif new not in values and old in values:
        values[new] = values.pop(old)
    versions[new] = max(versions[new], version) if new in versions else version
