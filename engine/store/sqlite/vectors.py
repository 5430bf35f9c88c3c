"""Stored embeddings and the similarity search over them, done in Python.

langgraph's SqliteStore ranks with the sqlite-vec extension, which many Python builds cannot
load; here vectors are float32 blobs (the precision sqlite-vec keeps) and scores are computed
by the same formulas: `cosine` (the default) is the cosine similarity; `l2` the Euclidean
distance and `inner_product` the negated L1 distance, as langgraph computes them for those
`distance_type`s (both ranked highest first, as there).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence


def pack(vector: Sequence[float]) -> bytes:
    return struct.pack(f"<{len(vector)}f", *vector)


def unpack(blob: bytes) -> list[float]:
    return list(struct.unpack(f"<{len(blob) // 4}f", blob))


def _cosine(x: Sequence[float], y: Sequence[float]) -> float:
    norms = math.sqrt(math.fsum(a * a for a in x)) * math.sqrt(math.fsum(b * b for b in y))
    return math.fsum(a * b for a, b in zip(x, y, strict=True)) / norms if norms else 0.0


def _l2(x: Sequence[float], y: Sequence[float]) -> float:
    return math.sqrt(math.fsum((a - b) ** 2 for a, b in zip(x, y, strict=True)))


def _negated_l1(x: Sequence[float], y: Sequence[float]) -> float:
    return -math.fsum(abs(a - b) for a, b in zip(x, y, strict=True))


_SCORES: dict[str, Callable[[Sequence[float], Sequence[float]], float]] = {
    "cosine": _cosine,
    "l2": _l2,
    "inner_product": _negated_l1,
}


def scorer(distance_type: str | None) -> Callable[[Sequence[float], bytes], float]:
    """score(query, stored blob) for the index's `distance_type` (unknown ones: cosine)."""
    score = _SCORES.get(distance_type or "cosine", _cosine)

    def run(query: Sequence[float], blob: bytes) -> float:
        stored = unpack(blob)
        if len(stored) != len(query):
            raise ValueError(
                f"Stored embedding has {len(stored)} dimensions, the query's has {len(query)}: "
                "was the store's embedding model changed?"
            )
        return score(query, stored)

    return run


def query_vector(vector: Sequence[float]) -> list[float]:
    """The query rounded to float32, as sqlite-vec compares it."""
    return unpack(pack(vector))
