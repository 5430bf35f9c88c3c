"""What changed between two checkpoints: channels (value old -> new, with a structural diff for
dicts and lists), versions, each side's pending writes and next nodes. No Qt: the panels draw it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from studio.i18n import translate

MAX_PARTS = 200
"""A structural diff lists at most this many parts per channel (a huge list says "…")."""


@dataclass(frozen=True)
class Part:
    """One piece of a structural diff: `path` (`[2]`, `.name`) added, removed or changed."""

    path: str
    kind: str  # "added", "removed", "changed"
    old: Any = None
    new: Any = None


@dataclass(frozen=True)
class ChannelDiff:
    channel: str
    old_value: Any
    new_value: Any
    old_version: Any
    new_version: Any
    old_has: bool
    new_has: bool
    parts: tuple[Part, ...] = ()

    @property
    def kind(self) -> str:
        if self.new_has and not self.old_has:
            return "added"
        if self.old_has and not self.new_has:
            return "removed"
        return "changed"  # a value, or only the version (a mailbox like branch:to:X carries none)


@dataclass(frozen=True)
class CheckpointDiff:
    old_id: str
    new_id: str
    old_step: Any
    new_step: Any
    channels: tuple[ChannelDiff, ...]
    old_next: tuple[str, ...] = ()
    new_next: tuple[str, ...] = ()
    old_writes: tuple[tuple[str, str, Any], ...] = ()
    """(task id, channel, value) saved against the old checkpoint and not applied yet."""
    new_writes: tuple[tuple[str, str, Any], ...] = ()
    unchanged: int = 0
    notes: list[str] = field(default_factory=list)


def _message_key(value: Any) -> Any:
    """Messages compare by id when they have one (add_messages replaces by id)."""
    return getattr(value, "id", None) or (value.get("id") if isinstance(value, dict) else None)


def structural(old: Any, new: Any, path: str = "", out: list[Part] | None = None) -> list[Part]:
    """Parts that differ between two JSON-like values, depth first; a scalar (or a change of
    type) is one "changed" part at its path."""
    out = [] if out is None else out
    if len(out) >= MAX_PARTS:
        return out
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old.keys() | new.keys():
            sub = f"{path}.{key}"
            if key not in new:
                out.append(Part(sub, "removed", old[key]))
            elif key not in old:
                out.append(Part(sub, "added", None, new[key]))
            elif not _same(old[key], new[key]):
                structural(old[key], new[key], sub, out)
        out.sort(key=lambda p: p.path)
        return out
    if isinstance(old, list | tuple) and isinstance(new, list | tuple):
        shared = min(len(old), len(new))
        for i in range(shared):
            if not _same(old[i], new[i]):
                if _message_key(old[i]) is not None and _message_key(old[i]) == _message_key(
                    new[i]
                ):
                    out.append(
                        Part(f"{path}[{i}]", "changed", old[i], new[i])
                    )  # the same message, edited
                else:
                    structural(old[i], new[i], f"{path}[{i}]", out)
        out.extend(Part(f"{path}[{i}]", "added", None, new[i]) for i in range(shared, len(new)))
        out.extend(Part(f"{path}[{i}]", "removed", old[i]) for i in range(shared, len(old)))
        return out
    if not _same(old, new):
        out.append(Part(path or "(value)", "changed", old, new))
    return out


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # a value whose __eq__ raises (numpy arrays, odd objects): call it changed
        return False


def _plain(value: Any) -> Any:
    """Messages and models as dicts, so their fields diff structurally."""
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        try:
            return dump()
        except Exception:
            return value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _side(tup: Any) -> tuple[dict, dict, tuple]:
    if tup is None:
        return {}, {}, ()
    checkpoint = tup.checkpoint
    writes = tuple((str(t), str(c), v) for t, c, v in (tup.pending_writes or ()))
    return (
        dict(checkpoint.get("channel_values") or {}),
        dict(checkpoint.get("channel_versions") or {}),
        writes,
    )


def diff_checkpoints(
    old_entry: Any, old_tuple: Any, new_entry: Any, new_tuple: Any
) -> CheckpointDiff:
    """Diff two checkpoints (HistoryEntry and the saver's CheckpointTuple of each)."""
    old_values, old_versions, old_writes = _side(old_tuple)
    new_values, new_versions, new_writes = _side(new_tuple)
    channels = []
    unchanged = 0
    for name in sorted(
        old_versions.keys() | new_versions.keys() | old_values.keys() | new_values.keys()
    ):
        old_has, new_has = name in old_values, name in new_values
        old, new = old_values.get(name), new_values.get(name)
        same_version = old_versions.get(name) == new_versions.get(name)
        if same_version and old_has == new_has and _same(old, new):
            unchanged += 1
            continue
        parts = tuple(structural(_plain(old), _plain(new))) if old_has and new_has else ()
        channels.append(ChannelDiff(name, old, new, old_versions.get(name), new_versions.get(name),
                                    old_has, new_has, parts))  # fmt: skip
    notes = (
        []
        if old_tuple is not None and new_tuple is not None
        else [translate("run.diff", "a checkpoint is no longer in the database")]
    )
    return CheckpointDiff(old_entry.checkpoint_id, new_entry.checkpoint_id, old_entry.step, new_entry.step,
                          tuple(channels), tuple(old_entry.next), tuple(new_entry.next), old_writes, new_writes,
                          unchanged, notes)  # fmt: skip
