"""The one shape every edit has: new values for some top-level spec fields, and the old ones."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import TypeAdapter
from PySide6.QtGui import QUndoCommand

from graphspec.model import Node
from studio.document import GraphDocument

NODE = TypeAdapter(Node)
MERGE_ID = 0x5E1
"""QUndoCommand.id() of edits that merge (typing in one field); `merge_key` says which field."""


class SpecEdit(QUndoCommand):
    """Holds the before and after values of the fields it changes; redo/undo apply one of them.

    Subclasses compute `after` from the document's current spec in their constructor, so a
    bad value raises there (pydantic ValidationError, ValueError) and nothing is pushed.
    """

    def __init__(
        self, document: GraphDocument, text: str, after: dict[str, Any], merge_key: Any = None
    ) -> None:
        super().__init__(text)
        self.document = document
        self.before = {k: getattr(document.spec, k) for k in after}
        self.after = after
        self.merge_key = merge_key

    def redo(self) -> None:
        self.document.apply(self.after)

    def undo(self) -> None:
        self.document.apply(self.before)

    def id(self) -> int:
        return MERGE_ID if self.merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, SpecEdit) or other.merge_key != self.merge_key:
            return False
        if set(other.after) != set(self.after):
            return False
        self.after = other.after
        return True


def unique_id(base: str, taken: Iterable[str]) -> str:
    """`base`, or `base_2`, `base_3`... whichever is free; always a valid identifier."""
    taken = set(taken)
    base = "".join(c if c.isalnum() or c == "_" else "_" for c in base)[:56] or "node"
    if not (base[0].isalpha() or base[0] == "_"):
        base = f"n_{base}"
    if base not in taken and base not in ("START", "END", "state", "item"):
        return base
    i = 2
    while f"{base}_{i}" in taken:
        i += 1
    return f"{base}_{i}"


def replaced(items: list[Any], element_id: str, new: Any, attr: str = "id") -> list[Any]:
    """A copy of `items` with the element whose `attr` is `element_id` replaced by `new`."""
    out = list(items)
    for i, item in enumerate(out):
        if getattr(item, attr) == element_id:
            out[i] = new
            return out
    raise KeyError(element_id)


def updated(element: Any, /, **changes: Any) -> Any:
    """A validated copy of a pydantic model with `changes` (raises on a bad value).

    `element` is positional-only: agents and model nodes have a field called `model`."""
    data = element.model_dump(exclude_defaults=True)
    data.update(changes)
    return type(element).model_validate(data)
