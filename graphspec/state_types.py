"""The types a state key can have, and what each one becomes elsewhere.

One row per type: the annotation the compiler gives the key, the same annotation as exported
langgraph code writes it, the key's JSON Schema, for a managed value the engine class that
fills it in per task, and the JSON classes a default value of the type may have. The model's `StateType`, the compiler, the exporter and the importer all
read this table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.managed import IsLastStep, IsLastStepManager, RemainingSteps, RemainingStepsManager


@dataclass(frozen=True)
class KeyType:
    annotation: Any
    """What the compiler annotates the key with (a reducer wraps it in `Annotated`)."""
    source: str
    """The same annotation in exported code."""
    json_schema: dict[str, Any] | None
    """The key's JSON Schema; None for a managed value, which is never part of the input."""
    manager: type | None = None
    """For a managed value, the engine class that computes it (langgraph's has the same name)."""
    values: tuple[type, ...] = ()
    """The classes a default value may have (empty: any; a managed value takes none)."""

    def fits(self, value: Any) -> bool:
        """Whether `value` may be the default of a key of this type (bool is not a number)."""
        if self.manager is not None:
            return False
        if not self.values or value is None:
            return True
        return isinstance(value, self.values) and not (
            isinstance(value, bool) and bool not in self.values
        )

    def zero(self) -> Any:
        """The default a new key of this type starts with: its empty value (None for any)."""
        return self.values[0]() if self.values else None


STATE_TYPES: dict[str, KeyType] = {
    "any": KeyType(Any, "Any", {}),
    "str": KeyType(str, "str", {"type": "string"}, values=(str,)),
    "int": KeyType(int, "int", {"type": "integer"}, values=(int,)),
    "float": KeyType(float, "float", {"type": "number"}, values=(float, int)),
    "bool": KeyType(bool, "bool", {"type": "boolean"}, values=(bool,)),
    "list": KeyType(list, "list", {"type": "array"}, values=(list,)),
    "dict": KeyType(dict, "dict", {"type": "object"}, values=(dict,)),
    "messages": KeyType(
        list, "list", {"type": "array", "items": {"type": "object"}}, values=(list,)
    ),
    "remaining_steps": KeyType(RemainingSteps, "RemainingSteps", None, RemainingStepsManager),
    "is_last_step": KeyType(IsLastStep, "IsLastStep", None, IsLastStepManager),
}
"""In the order the spec's JSON Schema lists them."""

MANAGED_TYPES = frozenset(name for name, t in STATE_TYPES.items() if t.manager is not None)
"""Types the runtime fills in per task; nodes never write them."""

MANAGED_BY_CLASS_NAME = {t.manager.__name__: name for name, t in STATE_TYPES.items() if t.manager}
"""A managed value's class name (engine's or langgraph's) -> its type."""

TYPE_OF_CLASS: dict[Any, str] = {}
"""A plain annotation's class -> the type it reads back as: the first row naming the class, so a
`list` is `list` (a `messages` key is known by its add_messages reducer instead)."""
for _name, _type in STATE_TYPES.items():
    if isinstance(_type.annotation, type) and _type.manager is None:
        TYPE_OF_CLASS.setdefault(_type.annotation, _name)

__all__ = ["KeyType", "STATE_TYPES", "MANAGED_TYPES", "MANAGED_BY_CLASS_NAME", "TYPE_OF_CLASS"]
