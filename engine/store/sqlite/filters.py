"""Search filters as SQL over the stored JSON, with langgraph's SqliteStore semantics.

A filter maps a value key to a value (equality) or to a dict of operators (`$eq`, `$ne`,
`$gt`, `$gte`, `$lt`, `$lte`). Keys are JSON paths below the value's root (`"a.b"` is nested)
and may hold only letters, digits, `_`, `.` and `-`. SQLite's `json_extract` decides, so:
    * a number matches any number equal to it (`1` finds `1.0`), a bool matches 1/0 (and so
      the numbers 1 and 0), None matches a null *or missing* key;
    * a list or dict compares with the stored JSON text (key order counts);
    * a comparison with a missing key is never true (so `$ne` skips items without the key);
    * ordering a number casts the stored value to REAL, ordering a string compares text;
    * a dict with keys other than operators raises ValueError (`Unsupported operator`).
"""

from __future__ import annotations

import re
from typing import Any

import orjson

_KEY = re.compile(r"^[a-zA-Z0-9_.-]+$")
_ORDERINGS = {"$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}
_FIELD = "json_extract(value, ?)"


def filter_sql(filter: dict[str, Any] | None) -> tuple[list[str], list[Any]]:
    """The SQL conditions (to AND together) and their parameters for `filter`."""
    conditions: list[str] = []
    params: list[Any] = []
    for key, wanted in (filter or {}).items():
        path = _path(key)
        if isinstance(wanted, dict):
            pairs = list(wanted.items())
        else:
            pairs = [("=", wanted)]
        for operator, operand in pairs:
            condition, args = _condition(operator, operand, structured_eq=operator == "=")
            conditions.append(condition)
            params.extend([path, *args])
    return conditions, params


def _path(key: str) -> str:
    if not isinstance(key, str) or not _KEY.match(key):
        raise ValueError(
            f"Invalid filter key: '{key}'. Filter keys must contain only alphanumeric "
            "characters, underscores, dots, and hyphens."
        )
    return "$." + key


def _condition(operator: str, operand: Any, *, structured_eq: bool) -> tuple[str, list[Any]]:
    """One condition reading `_FIELD` once (its `?` is the path), then `args`."""
    if operator in ("=", "$eq", "$ne"):
        negate = operator == "$ne"
        if operand is None:
            return f"{_FIELD} IS {'NOT ' if negate else ''}NULL", []
        compare = "!=" if negate else "="
        if isinstance(operand, bool):
            return f"{_FIELD} {compare} {int(operand)}", []
        if isinstance(operand, (int, float)):
            return f"{_FIELD} {compare} ?", [float(operand)]
        if isinstance(operand, str):
            return f"{_FIELD} {compare} ?", [operand]
        return f"{_FIELD} {compare} ?", [_json_operand(operand, as_text=structured_eq)]
    if operator in _ORDERINGS:
        sign = _ORDERINGS[operator]
        if isinstance(operand, (int, float)):
            return f"CAST({_FIELD} AS REAL) {sign} ?", [float(operand)]
        if isinstance(operand, str):
            return f"{_FIELD} {sign} ?", [operand]
        return f"{_FIELD} {sign} ?", [_json_operand(operand, as_text=False)]
    raise ValueError(f"Unsupported operator: {operator}")


def _json_operand(operand: Any, *, as_text: bool) -> str | bytes:
    """A list or dict as JSON: text for plain equality (it can match the stored JSON), bytes
    under an operator, as langgraph passes it (a blob, which never equals stored text)."""
    encoded = orjson.dumps(operand)
    return encoded.decode() if as_text else encoded
