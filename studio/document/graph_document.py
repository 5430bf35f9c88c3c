"""The spec being edited: one `GraphSpec`, replaced field by field by edits only."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from graphspec.model import GraphSpec


@dataclass(frozen=True)
class FromCode:
    """A graph from code: the compiled graph the document draws, and where it came from."""

    graph: Any
    source: Path | None
    """The program's file (a module or langgraph.json); None for a live object (`debug`)."""
    name: str
    """The graph's name there (a module attribute, a langgraph.json graph id)."""
    saver: Any = None
    """The graph's own checkpointer, kept as given (`debug`); else the studio's SQLite file."""
    context: Any = None
    """The run context its runs get (`debug(graph, context=...)`)."""
    thread: Any = None
    """The thread shown first when the studio ran none (a script's last, in `saver`)."""
    script_input: Any = None
    """The input the program's script first ran it with (graphspec.program_script.ScriptInput,
    live, never saved): the Run input dock starts from it, so the first run is the script's."""

    @property
    def where(self) -> str:
        return f"{self.source.name}:{self.name}" if self.source else self.name


NOT_EDITS = frozenset({"breakpoints"})
"""Fields kept with the document and saved with it whose change does not mark it modified."""


def edited_beyond_breakpoints(saved: GraphSpec, now: GraphSpec) -> bool:
    """Whether `now` differs from `saved` in more than NOT_EDITS (fields are compared by
    identity first: an edit shares every field it did not touch, so this is cheap)."""
    return any(
        getattr(saved, f) is not getattr(now, f) and getattr(saved, f) != getattr(now, f)
        for f in type(now).model_fields
        if f not in NOT_EDITS
    )


class GraphDocument(QObject):
    """Wraps one GraphSpec; `apply` (called by `studio.edits` only) swaps top-level fields.

    The spec is never changed in place: `apply` builds a new GraphSpec sharing every untouched
    field, so a snapshot handed to a worker thread (validation, layout) stays consistent and an
    edit can keep the old field values as its undo state. Listeners diff by object identity.
    """

    changed = Signal(object)
    """frozenset of the top-level GraphSpec field names that changed."""
    reset = Signal()
    """A different spec was loaded: rebuild everything."""
    replacing = Signal()
    """Sent just before another spec is loaded: `spec` and `path` are still the ones left."""

    def __init__(self, spec: GraphSpec | None = None, path: Path | None = None) -> None:
        super().__init__()
        self._spec = spec if spec is not None else GraphSpec()
        self.path = path
        self.trusted = False
        """Whether the user trusted this spec's Python code to run."""
        self.code: FromCode | None = None
        """Set when the spec is the drawing of a graph from code: runs use `code.graph`."""
        self.origin: Path | None = None
        """The Python module an editable spec was imported from: edits never reach it."""
        self.served: Any = None
        """How langgraph dev serves the langgraph.json project's graph this is (its store, its
        run context: `program_serve.Served`); None for anything else."""

    @property
    def spec(self) -> GraphSpec:
        return self._spec

    @property
    def base_dir(self) -> Path | None:
        return self.path.parent if self.path else None

    def apply(self, fields: dict[str, Any]) -> None:
        """Replace top-level fields; values must already be valid (edits build them so)."""
        changed = {k: v for k, v in fields.items() if getattr(self._spec, k) is not v}
        if not changed:
            return
        self._spec = self._spec.model_copy(update=changed)
        self.changed.emit(frozenset(changed))

    def load(self, spec: GraphSpec, path: Path | None, trusted: bool = False,
             code: FromCode | None = None, origin: Path | None = None) -> None:  # fmt: skip
        """Start editing another spec (not an edit: the caller clears the undo stack)."""
        self.replacing.emit()
        self._spec = spec
        self.path = path
        self.trusted = trusted
        self.code = code
        self.origin = origin
        self.served = None  # a project's graph: set by its opener once loaded
        self.reset.emit()
