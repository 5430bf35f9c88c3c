"""Spec -> the JSON Schema of the graph's input state (reducers and outputs as `x-` keys)."""

from __future__ import annotations

from typing import Any

from graphspec.model import GraphSpec
from graphspec.state_types import STATE_TYPES


def state_json_schema(spec: GraphSpec) -> dict[str, Any]:
    """The graph's input state as JSON Schema; reducers and output keys as `x-` extensions."""
    properties = {}
    for key in spec.state:
        if key.managed:
            continue
        prop = dict(STATE_TYPES[key.type].json_schema or {})
        if key.description:
            prop["description"] = key.description
        if key.reducer != "none":
            prop["x-reducer"] = key.reducer
        if key.default is not None:
            prop["default"] = key.default
        properties[key.name] = prop
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{spec.name or 'Graph'} input",
        "type": "object",
        "properties": {k: v for k, v in properties.items() if spec.key(k).input},
        "additionalProperties": False,
        "x-output-properties": {k: v for k, v in properties.items() if spec.key(k).output},
    }


__all__ = ["state_json_schema"]
