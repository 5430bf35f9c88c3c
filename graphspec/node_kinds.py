"""The node kinds: one name per class of the model's `Node` union, and tables keyed by them.

    NODE_KINDS                    ("function", "set_state", ...), in the union's order
    NODE_CLASSES                  kind -> its model class
    by_kind(handlers, owner)      a table checked to cover every kind and no other

The compiler, the exporter and the canvas each look a node's handler up as `table[node.kind]` in
a `by_kind` table kept at module level, so a kind added to the model fails at import in every
place that must handle it, instead of falling through an isinstance ladder to a default.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TypeVar, get_args

from graphspec.model import Node

H = TypeVar("H")


def _kind(cls: type) -> str:
    (kind,) = get_args(cls.model_fields["kind"].annotation)  # kind: Literal["..."]
    return kind


NODE_CLASSES: Mapping[str, type] = MappingProxyType(
    {_kind(cls): cls for cls in get_args(get_args(Node)[0])}  # Annotated[Union[...], Field]
)
"""Each node kind's model class, in the order of the `Node` union (the palette's order)."""

NODE_KINDS: tuple[str, ...] = tuple(NODE_CLASSES)


def by_kind(handlers: Mapping[str, H], owner: str) -> Mapping[str, H]:
    """`handlers` as a read-only table, once it has exactly one entry per node kind.

    Args:
        handlers: node kind -> whatever that kind needs (a function, a shape, ...).
        owner: who keeps the table, named in the error.

    Raises:
        TypeError: a kind is missing or unknown.
    """
    missing = [k for k in NODE_KINDS if k not in handlers]
    unknown = [k for k in handlers if k not in NODE_CLASSES]
    if missing or unknown:
        raise TypeError(
            f"{owner}: node kinds not handled {missing}, unknown {unknown}; "
            f"handle each of {list(NODE_KINDS)}"
        )
    return MappingProxyType({k: handlers[k] for k in NODE_KINDS})


__all__ = ["NODE_CLASSES", "NODE_KINDS", "by_kind"]
