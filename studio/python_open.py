"""Open a Python module holding a LangGraph graph: ask first, import it, pick a graph, edit it.

Importing runs the module's code (and whatever it imports), so nothing is imported until the
user says yes to a prompt naming the file. The graph becomes an editable spec whose nodes
reference the module's functions by import path (`graphspec.importer`); the module stays
imported, so those references resolve when the spec runs. The spec opens untitled: saving writes
a spec file, never over the module. A module holding several graphs (and none called graph, app
or agent) asks which, unless `MODULE.py:NAME` named one.

While it is open the file is watched (`ModuleWatch`): when it changes on disk the prompt asks
again (the new code has not been agreed to), then the module is imported again and the graph
replaces the document's as one undoable edit, so the run view, its threads and their history
stay; nodes that were there keep their place on the canvas.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QFileSystemWatcher, QObject
from PySide6.QtWidgets import QInputDialog, QMessageBox

from graphspec.errors import SpecError
from graphspec.importer import SeveralGraphs, load_module, pick_graph, spec_from_graph
from graphspec.model import GraphSpec
from studio.canvas.layout import laid_out
from studio.edits.base import SpecEdit


def confirm_import(parent: Any, path: Path, changed: bool = False) -> bool:
    """The trust prompt: Yes runs the module; Cancel (the default) opens nothing."""
    buttons = QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel
    lead = f"{path.name} changed on disk. Reloading" if changed else f"Opening {path.name}"
    box = QMessageBox(QMessageBox.Icon.Warning, "Run this Python module?",
                      f"{lead} imports it, which runs its Python code and the code of everything "
                      "it imports.", buttons, parent)  # fmt: skip
    box.setObjectName("importTrustDialog")
    box.setInformativeText(f"{path}\n\nOpen it only if you trust this code.")
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.button(QMessageBox.StandardButton.Yes).setText("Run and open")
    return box.exec() == QMessageBox.StandardButton.Yes


def pick_name(parent: Any, path: Path, names: list[str]) -> str | None:
    """Which of the module's graphs to open; None when the user cancels."""
    dialog = QInputDialog(parent)
    dialog.setObjectName("graphPicker")
    dialog.setWindowTitle("Pick a graph")
    dialog.setLabelText(f"{path.name} holds several graphs:")
    dialog.setComboBoxItems(names)
    dialog.setComboBoxEditable(False)
    return dialog.textValue() if dialog.exec() else None


def _import(window: Any, path: Path, attr: str | None) -> tuple[GraphSpec, str] | None:
    """The module's graph as a spec (None, having said why, when it cannot be had)."""
    try:
        module = load_module(str(path), on_engine=True)  # runs on the engine, as the studio does
        if attr is None:
            try:
                attr = pick_graph(module, path.name)
            except SeveralGraphs as several:
                attr = pick_name(window, path, several.names)
                if attr is None:
                    return False
        if not hasattr(module, attr):
            raise SpecError(f"{path.name} has no attribute {attr!r}")
        spec = spec_from_graph(getattr(module, attr), module)
    except SpecError as exc:
        window.show_load_errors(path, [exc.line()])
        return None
    if not spec.name:
        spec = spec.model_copy(update={"name": f"{path.stem}.{attr}"})
    return spec, attr


def open_python(window: Any, path: Path, attr: str | None = None) -> bool:
    """Ask, import, pick and start editing; on failure say why and leave the document as it was."""
    path = Path(path)
    if not confirm_import(window, path):
        window.statusBar().showMessage(f"Did not open {path.name}: its code was not run", 6000)
        return False
    found = _import(window, path, attr)
    if found is None:
        return False
    spec, attr = found
    # the user agreed to run this code: the spec only points at it
    window._start_editing(spec, None, trusted=True)
    previous = getattr(window, "module_watch", None)
    if previous is not None:
        previous.stop()
    window.module_watch = ModuleWatch(window, path, attr)
    window.statusBar().showMessage(f"Imported {attr} from {path.name}", 4000)
    return True


class ModuleWatch(QObject):
    """Reloads the opened module's graph when its file changes, after asking again."""

    def __init__(self, window: Any, path: Path, attr: str) -> None:
        super().__init__(window)
        self.window, self.path, self.attr = window, path, attr
        self.spec = window.document.spec
        """The spec this watch put in the document: another one there means it was replaced."""
        self.text = path.read_bytes()
        self.watcher = QFileSystemWatcher([str(path)], self)
        self.watcher.fileChanged.connect(self.changed)

    def stop(self) -> None:
        self.watcher.removePaths(self.watcher.files())

    def changed(self, _path: str = "") -> None:
        if str(self.path) not in self.watcher.files() and self.path.exists():
            self.watcher.addPath(str(self.path))  # editors save by replacing the file
        if not self.path.exists() or self.path.read_bytes() == self.text:
            return
        self.text = self.path.read_bytes()
        document = self.window.document
        if document.spec.name != self.spec.name:  # another graph was opened since
            self.stop()
            return
        if not confirm_import(self.window, self.path, changed=True):
            self.window.statusBar().showMessage(f"{self.path.name} changed; not reloaded", 6000)
            return
        found = _import(self.window, self.path, self.attr)
        if found is None:
            return
        after = _replacing(document.spec, found[0])
        self.window.editor.stack.push(SpecEdit(document, f"Reload {self.path.name}", after))
        self.spec = document.spec
        self.window.statusBar().showMessage(f"Reloaded {self.path.name}", 4000)


def _replacing(old: GraphSpec, new: GraphSpec) -> dict[str, Any]:
    """Every top-level field of `new`, nodes keeping the places they had; `nodes` is always a new
    list, so the run compiles again and picks up the module's new functions."""
    places = {n.id: n.position for n in old.nodes if n.position is not None}
    new = laid_out(new)  # new nodes get a place; the others go back to theirs
    new = new.model_copy(update={"nodes": [
        n.model_copy(update={"position": places[n.id]}) if n.id in places else n
        for n in new.nodes]})  # fmt: skip
    after = {name: getattr(new, name) for name in GraphSpec.model_fields if name != "view"}
    return {k: v for k, v in after.items() if k == "nodes" or v != getattr(old, k)}


__all__ = ["ModuleWatch", "confirm_import", "open_python", "pick_name"]
