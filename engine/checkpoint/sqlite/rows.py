"""Checking stored checkpoint rows, and metadata filters as SQL.

Reading never trusts a row: a checkpoint or metadata that is not the shape the engine reads
is a DeserializationError (the saver names the file, thread and checkpoint).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from engine.checkpoint.serde.jsonplus import DeserializationError, JsonPlusSerializer

PLAIN = JsonPlusSerializer()  # the checkpoint rows: plain data, whatever the saver's serde is
FILTER_KEY = re.compile(r"^[A-Za-z0-9_.-]+$")
# what reading a tampered row can raise besides DeserializationError (a ValueError, as is
# json's JSONDecodeError): wrong types and shapes in otherwise readable data
BAD_ROW = (ValueError, TypeError, KeyError, IndexError, AttributeError)
_VERSION_TYPES = (str, int, float)
_VERSION_TYPE_SET = frozenset(_VERSION_TYPES)
_STR = frozenset({str})
_JSON_CONTAINERS = (dict, list)
_SHAPE = (("v", int), ("id", str), ("ts", str), ("channel_versions", dict), ("versions_seen", dict))


def checkpoint_of(blob: Any) -> dict:
    """The stored checkpoint dict (without values), if it has the shape the engine reads."""
    checkpoint = PLAIN.unpack(blob) if type(blob) is bytes else PLAIN.loads_typed(("msgpack", blob))
    if not isinstance(checkpoint, dict):
        raise DeserializationError("the checkpoint row is not a mapping")
    get = checkpoint.get
    if not (isinstance(get("v"), int) and isinstance(get("id"), str) and isinstance(get("ts"), str)
            and isinstance(get("channel_versions"), dict)
            and isinstance(get("versions_seen"), dict)):  # fmt: skip
        for key, kind in _SHAPE:  # which one, for the message
            if not isinstance(get(key), kind):
                raise DeserializationError(
                    f"the checkpoint's {key!r} is missing or not a {kind.__name__}"
                )
    versions = checkpoint["channel_versions"]
    if not (set(map(type, versions)) <= _STR and _versions(versions.values())):
        raise DeserializationError("the checkpoint's channel versions are not channel: version")
    seen_types = set()  # every node's version types at once: a row is read per checkpoint listed
    for seen in checkpoint["versions_seen"].values():
        if type(seen) is not dict:
            raise DeserializationError("the checkpoint's versions_seen are not node: versions")
        seen_types.update(map(type, seen.values()))
    if not seen_types <= _VERSION_TYPE_SET:
        for seen in checkpoint["versions_seen"].values():
            if not _versions(seen.values()):
                raise DeserializationError("the checkpoint's versions_seen are not node: versions")
    return checkpoint


class CheckedBlobs:
    """What reading checkpoint rows again can skip, by (thread, namespace, checkpoint id): the
    blobs checked (the same bytes decode to the same shape, so a checkpoint read again, by
    get_state on a thread, a history read again or the studio after each step, is decoded
    without checking it again), and the metadata read twice (the same text is the same JSON:
    handed out as a copy, cheaper than parsing). Bounded by `BYTES` of blobs and of text."""

    BYTES = 8 << 20

    def __init__(self) -> None:
        self.checked: dict[tuple, Any] = {}
        self.size = 0
        self.metadatas: dict[tuple, list] = {}  # key -> [text, its JSON once read twice]
        self.text_size = 0

    def metadata(self, key: tuple, text: Any) -> dict:
        kept = self.metadatas.get(key)
        if kept is not None and kept[0] == text:
            if kept[1] is not None:
                return json_copy(kept[1])
            metadata = metadata_of(text)
            kept[1] = json_copy(metadata)
            return metadata
        metadata = metadata_of(text)  # only text kept: a history read once pays no copy
        self.text_size += len(text)
        if self.text_size > self.BYTES // 4:  # JSON decoded takes several times its text
            self.metadatas.clear()
            self.text_size = len(text)
        self.metadatas[key] = [text, None]
        return metadata

    def checkpoint(self, key: tuple, blob: Any) -> dict:
        if self.checked.get(key) == blob:
            return PLAIN.unpack(blob)
        checkpoint = checkpoint_of(blob)
        self.size += len(blob)
        if self.size > self.BYTES:
            self.checked.clear()
            self.size = len(blob)
        self.checked[key] = blob
        return checkpoint


def json_copy(value: Any) -> Any:
    """Decoded JSON as new dicts and lists (the atoms shared): cheaper than decoding it again."""
    if type(value) is dict:
        return {k: json_copy(v) if type(v) in _JSON_CONTAINERS else v for k, v in value.items()}
    return [json_copy(v) if type(v) in _JSON_CONTAINERS else v for v in value]


def _versions(values: Any) -> bool:
    # the types compared as a set first: a row is read per checkpoint listed
    return set(map(type, values)) <= _VERSION_TYPE_SET or all(
        isinstance(v, _VERSION_TYPES) for v in values
    )


def metadata_of(text: Any) -> dict:
    if not isinstance(text, str):
        raise DeserializationError("the checkpoint's metadata is not text")
    try:
        metadata = json.loads(text)
    except ValueError as exc:
        raise DeserializationError(f"the checkpoint's metadata is not JSON ({exc})") from None
    if not isinstance(metadata, dict):
        raise DeserializationError("the checkpoint's metadata is not a JSON object")
    return metadata


def json_default(value: Any) -> Any:
    raise TypeError(
        f"checkpoint metadata must be JSON: cannot store a value of type "
        f"{type(value).__module__}.{type(value).__qualname__}"
    )


def step_column(step: Any) -> int | str:
    """`checkpoints.step` for a metadata `step`: an int SQLite stores exactly, else '' (a
    filter on `step` then reads such a row's metadata, as it reads every row of an old file)."""
    return step if type(step) is int and -(2**63) <= step < 2**63 else ""


def filter_sql(filter: dict[str, Any], step_column: bool = False) -> tuple[str, list[Any]]:
    """A WHERE clause keeping every row that can match `filter` (metadata key == value).

    It is a pre-filter: the caller still compares each row's metadata in Python, so a value SQL
    cannot compare exactly (a dict, a list, a huge number) is left to that. Rows whose metadata
    is not valid JSON are kept, for the reader to name them as the error they are. With
    `step_column` (schema 3), `step` is looked up in the indexed column: a row whose step is not
    an int there ('') is compared on its metadata.
    """
    clauses, params, step = [], [], None
    for key, value in filter.items():
        if not FILTER_KEY.match(key):
            raise ValueError(f"invalid metadata filter key {key!r}")
        found = _json_clause(key, value)
        if found is None:
            continue
        if key == "step" and step_column:
            step = (value, found)
        else:
            clauses.append(found[0])
            params += found[1]
    where = [_unless_bad(clauses)] if clauses else []
    if step is not None:
        value, (clause, step_params) = step
        if _comparable_number(value):  # an int row compares in the index; '' on its JSON
            where.insert(0, f"step IN (?, '') AND (step != '' OR {_unless_bad([clause])})")
            params = [value, *step_params, *params]
        else:  # None or a string: never an int's value
            where.insert(0, f"step = '' AND {_unless_bad([clause])}")
            params = [*step_params, *params]
    return " AND ".join(where), params  # one conjunction: the caller ANDs it to others


def step_seek(filter: dict[str, Any]) -> bool:
    """Whether `filter_sql(filter, step_column=True)` looks `step` up in its index."""
    return "step" in filter and _json_clause("step", filter["step"]) is not None


def _json_clause(key: str, value: Any) -> tuple[str, list[Any]] | None:
    """SQL keeping the rows whose metadata JSON has `key` == `value`, if SQL compares it."""
    path = f'$."{key}"'  # quoted: '.' and '-' are parts of the key, not a path
    if value is None:
        return "coalesce(json_type(metadata, ?), 'null') = 'null'", [path]
    if isinstance(value, str):
        return "json_type(metadata, ?) = 'text' AND json_extract(metadata, ?) = ?", [
            path,
            path,
            value,
        ]
    if _comparable_number(value):
        # true/false read as 1/0, as True == 1 in Python
        return (
            "json_type(metadata, ?) IN ('integer', 'real', 'true', 'false') "
            "AND json_extract(metadata, ?) = ?",
            [path, path, value],
        )
    return None


def _comparable_number(value: Any) -> bool:
    return (
        isinstance(value, bool)
        or (isinstance(value, int) and -(2**63) <= value < 2**63)
        or (isinstance(value, float) and math.isfinite(value))
    )


def _unless_bad(clauses: list[str]) -> str:
    """`clauses` for rows whose metadata is JSON text; any other row kept (to raise)."""
    where = " AND ".join(f"({c})" for c in clauses)
    return f"(typeof(metadata) != 'text' OR NOT json_valid(metadata) OR ({where}))"


def matches(metadata: dict, filter: dict[str, Any] | None) -> bool:
    return not filter or all(metadata.get(k) == v for k, v in filter.items())
