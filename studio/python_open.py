"""Open a Python module holding a LangGraph graph: ask first, import it, pick a graph, edit it.

Importing runs the module's code (and whatever it imports), so nothing is imported until the
user says yes to a prompt naming the file. The graph becomes an editable spec whose nodes
reference the module's functions by import path (`graphspec.importer`); the module stays
imported, so those references resolve when the spec runs. The spec opens untitled: saving writes
a spec file, never over the module. A module holding several graphs (and none called graph, app
or agent) asks which, unless `MODULE.py:NAME` named one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QInputDialog, QMessageBox

from graphspec.errors import SpecError
from graphspec.importer import SeveralGraphs, load_module, pick_graph, spec_from_graph


def confirm_import(parent: Any, path: Path) -> bool:
    """The trust prompt: Yes runs the module; Cancel (the default) opens nothing."""
    buttons = QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel
    box = QMessageBox(QMessageBox.Icon.Warning, "Run this Python module?",
                      f"Opening {path.name} imports it, which runs its Python code and the code "
                      "of everything it imports.", buttons, parent)  # fmt: skip
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


def open_python(window: Any, path: Path, attr: str | None = None) -> bool:
    """Ask, import, pick and start editing; on failure say why and leave the document as it was."""
    path = Path(path)
    if not confirm_import(window, path):
        window.statusBar().showMessage(f"Did not open {path.name}: its code was not run", 6000)
        return False
    try:
        module = load_module(str(path))
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
        return False
    if not spec.name:
        spec = spec.model_copy(update={"name": f"{path.stem}.{attr}"})
    # the user agreed to run this code: the spec only points at it
    window._start_editing(spec, None, trusted=True)
    window.statusBar().showMessage(f"Imported {attr} from {path.name}", 4000)
    return True


__all__ = ["confirm_import", "open_python", "pick_name"]
