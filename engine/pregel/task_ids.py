"""Task ids and task paths as langgraph writes them: an id is a hash of the checkpoint's id and
the task's place, so the same checkpoint plans the same ids on both; a path's text orders the
tasks whose writes a barrier applies."""

from __future__ import annotations

import functools
import hashlib
from typing import Any

from xxhash import xxh3_128_hexdigest


def id_namespace(checkpoint_id: str) -> bytes:
    """The bytes a checkpoint's task ids are hashed under (a step's tasks share them)."""
    try:
        return bytes.fromhex(checkpoint_id.replace("-", ""))
    except ValueError:  # not a uuid (a hand-made checkpoint): its text still keys the id
        return checkpoint_id.encode()


def task_id_in(namespace: bytes, *parts: str) -> str:
    """Deterministic task id: the same checkpoint (its id_namespace), step and node always give
    the same id, and the id langgraph gives (XXH3-128 of the checkpoint id's bytes and the
    parts' text)."""
    digest = xxh3_128_hexdigest(namespace + "".join(parts).encode())
    # (_as_uuid, inline: every task of every step)
    return f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"


def v1_task_id_in(namespace: bytes, *parts: str) -> str:
    """The task id langgraph gives in a checkpoint of format 1 (before XXH3: SHA-1 of the same
    bytes), so a thread saved then still finds its tasks' pending writes."""
    return _as_uuid(hashlib.sha1(namespace + "".join(parts).encode()).hexdigest())


def legacy_task_id(checkpoint_id: str, *parts: str) -> str:
    """The id engine versions before 2026-12 gave (SHA-1 of the parts joined by NUL): the
    pending writes of threads they saved are keyed by it."""
    return _as_uuid(hashlib.sha1("\x00".join((checkpoint_id, *parts)).encode()).hexdigest())


def _as_uuid(digest: str) -> str:
    return f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"


def task_path_str(part: Any) -> str:
    """Sortable text of a task path, as langgraph writes it (task ids hash it too): ints
    zero-padded so (PUSH, 10) sorts after (PUSH, 9), tuples as "~a, b"."""
    if isinstance(part, str):
        return part
    if isinstance(part, int):
        return f"{part:010d}"
    if isinstance(part, (tuple, list)):
        return f"~{', '.join(task_path_str(p) for p in part)}"
    return str(part)


path_text = functools.lru_cache(maxsize=4096)(task_path_str)
"""task_path_str of a whole task path, remembered: a saver is told the path of every task's
writes, and a graph's nodes have the same pull paths in every step and every run."""


def path_sort_key(path: tuple) -> str:
    """task_path_str(path[:3]), the text a barrier sorts tasks by: the plain parts (strings,
    ints) every pull and push path starts with are written without a call each."""
    parts = []
    for part in path[:3]:
        kind = type(part)
        if kind is str:
            parts.append(part)
        elif kind is int or kind is bool:
            parts.append(f"{part:010d}")
        else:
            parts.append(task_path_str(part))
    return f"~{', '.join(parts)}"
