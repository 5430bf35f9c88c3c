"""Graphics items: each draws a look and reports gestures to its scene; none reads the document."""

from studio.canvas.items.edge_item import EdgeItem
from studio.canvas.items.node_item import KIND_COLORS, NodeItem, TerminalItem
from studio.canvas.items.note_item import NoteItem

__all__ = ["EdgeItem", "NodeItem", "TerminalItem", "NoteItem", "KIND_COLORS"]
