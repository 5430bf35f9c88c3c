"""Open a LangGraph program: ask first, load it on the engine, find its graph, show it.

The program is a module (`MODULE.py[:NAME]`, NAME a graph or a function returning one) or a
`langgraph.json` project (`[:GRAPH_ID]`, its env file and local dependencies as `langgraph dev`
reads them). Importing runs its code (and whatever it imports), so nothing is imported until the
user says yes to a prompt naming the file. Then, one pass: load the module
(`graphspec.importer.load_module`) -> find its graphs (`graphspec.program_graphs`) -> the
compiled graph -> a spec when the spec can hold it (`graphspec.importer.spec_from_graph`: nodes
reference the module's functions by import path, editable on the canvas, opened untitled), else
the compiled graph itself, drawn from what compile() built (`graphspec.graph_drawing`) and run
as it is. A module holding several graphs (and none called graph, app or agent) asks which;
a run nobody can answer (`superstep studio --quit`, a screenshot, offscreen) never asks: it names
the graphs, and runs no code without --trust.

While it is open the file is watched (`ModuleWatch`): when it changes on disk the prompt asks
again (the new code has not been agreed to), then the module is imported again and the graph
replaces the document's as one undoable edit, so the run view, its threads and their history
stay; nodes that were there keep their place on the canvas. A save that reaches the disk as
several writes (truncate, write, rename) asks once, after the last.

An imported spec remembers its module (`GraphDocument.origin`): canvas edits change the spec,
never the module, which the window says at the first edit; a save starts beside the module.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer
from PySide6.QtWidgets import QInputDialog, QMessageBox

from engine.pregel.main import Pregel
from graphspec.compiler import compile_spec
from graphspec.errors import SpecError
from graphspec.importer import spec_of
from graphspec.model import GraphSpec
from graphspec.program_graphs import name_one, unlike
from graphspec.program_project import is_project_file, read_project
from graphspec.program_run import load_graph, program_target
from graphspec.program_script import TOP_LEVEL
from graphspec.program_serve import served
from studio.canvas.layout import laid_out
from studio.debugger import own_saver
from studio.edits.base import SpecEdit
from studio.i18n import translate
from studio.main_block_wait import MainBlockWait, stopped_text

SETTLE_MS = 300
"""How long the file stays unchanged before a change is acted on (one save, one prompt)."""


def confirm_import(parent: Any, path: Path, changed: bool = False) -> bool:
    """The trust prompt: Yes runs the module; Cancel (the default) opens nothing."""
    buttons = QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel
    lead = (
        translate("python_open", "{name} changed on disk. Reloading").format(name=path.name)
        if changed
        else translate("python_open", "Opening {name}").format(name=path.name)
    )
    box = QMessageBox(QMessageBox.Icon.Warning, translate("python_open", "Run this Python module?"),
                      translate("python_open", "{lead} imports it, which runs its Python code and the code of everything it imports.").format(lead=lead), buttons, parent)  # fmt: skip
    box.setObjectName("importTrustDialog")
    box.setInformativeText(translate(
        "python_open", "{path}\n\nIf it holds no graph, the graphs its code runs open: its "
        "top-level code and its if __name__ == \"__main__\" block run, as python {name} would."
        "\n\nOpen it only if you trust this code.").format(path=path, name=path.name))  # fmt: skip
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.button(QMessageBox.StandardButton.Yes).setText(translate("python_open", "Run and open"))
    return box.exec() == QMessageBox.StandardButton.Yes


def ask_graph_name(parent: Any, path: Path, names: list[str], ask: bool = True) -> str | None:
    """Which of the module's graphs to open; None when the user cancels. Without `ask` (no one
    is there to answer: `superstep studio --quit`, a screenshot, offscreen) the window's load
    errors name the choices instead, and None."""
    if not ask:
        text = translate("python_open",
                         "{file} defines {count} graphs: {names}; open one with {path}:{first}")  # fmt: skip
        parent.show_load_errors(path, [name_one(path, names, text)])
        return None
    dialog = QInputDialog(parent)
    dialog.setObjectName("graphPicker")
    dialog.setWindowTitle(translate("python_open", "Pick a graph"))
    dialog.setLabelText(
        translate("python_open", "{name} holds several graphs:").format(name=path.name)
    )
    dialog.setComboBoxItems(names)
    dialog.setComboBoxEditable(False)
    return dialog.textValue() if dialog.exec() else None


@dataclass
class Opened:
    """A program's graph: as an editable spec when it can become one, else drawn from code."""

    name: str
    graph: Any
    spec: GraphSpec | None = None
    why_code: str = ""
    """Why it could not become a spec (it is drawn from the compiled graph instead)."""
    saver: Any = None
    """The graph's own checkpointer, kept (a graph the program's script ran: its threads)."""
    thread: Any = None
    """The thread to show first (the one the script ran it on last)."""
    script_input: Any = None
    """The input the script first ran it with (a ScriptInput): the first run's, in the studio."""


def load_program(window: Any, path: Path, name: str | None, ask: bool = True) -> Opened | None:
    """Load the module (the user agreed), find its graph (asking which when several, if `ask`),
    and get it as a spec, or as the compiled graph when the spec cannot hold it or would not run
    it. None (having said why) when there is no graph to open."""
    wait = MainBlockWait(window, path, attended=ask)
    try:
        try:
            found = load_graph(path, name, partial(ask_graph_name, window, ask=ask), wait)
        finally:
            wait.close()
        if found is None:
            return None
        module, name, value, graph = found.module, found.name, found.value, found.graph
        if not isinstance(graph, Pregel):
            raise SpecError(translate("python_open", "{name}:{name2} is a {name__}, which the engine does not run").format(name=path.name, name2=name, name__=type(graph).__name__))  # fmt: skip
    except SpecError as exc:
        window.show_load_errors(path, [exc.line()])
        return None
    if (ran := found.script) is not None:  # live, where the script left it: its threads
        why = _script_why(ran)
        saver = own_saver(graph)
        return Opened(name, graph, why_code=why, saver=saver, thread=ran.thread if saver else None,
                      script_input=ran.script_input)  # fmt: skip
    try:
        spec = spec_of(module, name, path.name, value)
        differs = unlike(graph, compile_spec(spec, trusted=True))
    except SpecError as exc:  # what a spec cannot hold is drawn from the compiled graph
        return Opened(name, graph, why_code=exc.line())
    if differs:
        return Opened(name, graph, why_code=differs)
    if not spec.name:
        spec = spec.model_copy(update={"name": f"{path.stem}.{name}"})
    return Opened(name, graph, spec)


def _script_why(ran: Any) -> str:
    """Which part of the program ran (or made) the graph, and how the program ended early."""
    top = ran.part == TOP_LEVEL
    if ran.ran:
        why = (translate("python_open", "run by its top-level code") if top
               else translate("python_open", 'run by its if __name__ == "__main__" block'))  # fmt: skip
    else:
        why = (translate("python_open", "made by its top-level code, which ran none") if top
               else translate("python_open", 'made by its if __name__ == "__main__" block, '
                              "which ran none"))  # fmt: skip
    if not ran.stopped:
        return why
    error = stopped_text(ran.stopped)
    if ran.stopped_in == ran.part:
        return why + translate("python_open", ", which stopped: {error}").format(error=error)
    return why + translate(
        "python_open", '; its if __name__ == "__main__" block stopped: {error}'
    ).format(error=error)


def show_program(window: Any, path: Path, found: Opened) -> None:
    if found.spec is None:
        window.open_code(found.graph, path, found.name, saver=found.saver, thread=found.thread,
                         script_input=found.script_input)  # fmt: skip
        window.statusBar().showMessage(
            translate("python_open", "Drawn from code: {why_code}").format(why_code=found.why_code),
            8000,
        )
    else:  # the user agreed to run this code: the spec only points at it
        window._start_editing(found.spec, None, trusted=True, origin=path)
        window.statusBar().showMessage(
            translate("python_open", "Imported {name} from {name2}").format(
                name=found.name, name2=path.name
            ),
            4000,
        )


def open_python(window: Any, path: Path, attr: str | None = None, *,
                trusted: bool = False, ask: bool = True) -> bool:  # fmt: skip
    """Open a module's graph (`attr`, else the one it holds) or a langgraph.json project's
    (`attr` is then a graph id): ask first (unless `trusted`: the user already agreed), import,
    pick and open; on failure say why and leave the document as it was. Without `ask` nobody is
    there to answer a dialog: code not trusted is not run, and several graphs are named."""
    path = project = Path(path)
    try:
        target = program_target(path, attr, partial(ask_graph_name, window, ask=ask))
    except SpecError as exc:
        window.show_load_errors(path, [exc.line()])
        return False
    if target is None:
        return False
    path, attr, environment = target
    if not trusted and not ask:  # no one to ask: its code runs only with --trust
        window.show_load_errors(path, [translate(
            "python_open", "opening {name} runs its Python code: not opened (pass --trust to allow it)"
        ).format(name=path.name)])  # fmt: skip
        return False
    if not trusted and not confirm_import(window, path):
        window.statusBar().showMessage(
            translate("python_open", "Did not open {name}: its code was not run").format(
                name=path.name
            ),
            6000,
        )
        return False
    with environment():
        found = load_program(window, path, attr, ask)
        try:  # a project's graph runs as its server runs it (its store, its run context)
            serving = served(read_project(project)) if is_project_file(project) else None
        except SpecError as exc:
            window.show_load_errors(project, [exc.line()])
            return False
    if found is None:
        return False
    show_program(window, path, found)
    window.document.served = serving
    previous = getattr(window, "module_watch", None)
    if previous is not None:
        previous.stop()
    window.module_watch = ModuleWatch(window, path, found.name, environment, serving)
    return True


class ModuleWatch(QObject):
    """Reloads the opened module's graph when its file changes, after asking again."""

    def __init__(self, window: Any, path: Path, attr: str,
                 environment: Callable[[], Any] = nullcontext, served: Any = None) -> None:  # fmt: skip
        super().__init__(window)
        self.window, self.path, self.attr = window, path, attr
        self.environment = environment
        """What loading it needs again (a project's folders on sys.path)."""
        self.served = served
        """How its project's server serves it, kept across reloads (the store keeps its data)."""
        self.spec = window.document.spec
        """The spec this watch put in the document: another one there means it was replaced."""
        self.text: bytes | None = path.read_bytes()
        self.watcher = QFileSystemWatcher([str(path)], self)
        self.watcher.fileChanged.connect(self.changed)
        self.settle = QTimer(self, singleShot=True, interval=SETTLE_MS, timeout=self.reload)
        self.asking = False
        """The prompt is up: its answer covers the file as it is when answered."""

    def stop(self) -> None:
        self.settle.stop()
        self.watcher.removePaths(self.watcher.files())

    def changed(self, _path: str = "") -> None:
        if str(self.path) not in self.watcher.files() and self.path.exists():
            self.watcher.addPath(str(self.path))  # editors save by replacing the file
        self.settle.start()  # each write of a save restarts it: the save is read once, whole

    def on_disk(self) -> bytes | None:
        try:
            return self.path.read_bytes()
        except OSError:  # gone (between an editor's delete and rename), or unreadable now
            return None

    def reload(self) -> None:
        if self.asking or (now := self.on_disk()) is None or now == self.text:
            return
        document = self.window.document
        if document.spec.name != self.spec.name:  # another graph was opened since
            self.stop()
            return
        self.asking = True
        try:
            agreed = confirm_import(self.window, self.path, changed=True)
        finally:
            self.asking = False
        self.text = self.on_disk()  # what is imported now (writes during the prompt too)
        if not agreed:
            self.window.statusBar().showMessage(
                translate("python_open", "{name} changed; not reloaded").format(
                    name=self.path.name
                ),
                6000,
            )
            return
        with self.environment():
            found = load_program(self.window, self.path, self.attr)
        if found is None:
            return
        if found.spec is not None and document.code is None:
            after = _replacing(document.spec, found.spec)
            self.window.editor.stack.push(SpecEdit(document, f"Reload {self.path.name}", after))
        elif found.spec is None and document.code is not None:  # drawn again, cards in place
            self.window.open_code(found.graph, self.path, found.name, keep_places=True,
                                  saver=found.saver, thread=found.thread,
                                  script_input=found.script_input)  # fmt: skip
        else:  # it can become a spec now, or no longer can: open it afresh
            show_program(self.window, self.path, found)
        document.served = self.served
        self.spec = document.spec
        self.window.statusBar().showMessage(
            translate("python_open", "Reloaded {name}").format(name=self.path.name), 4000
        )


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


__all__ = [
    "ModuleWatch",
    "Opened",
    "ask_graph_name",
    "confirm_import",
    "load_program",
    "open_python",
]
