"""The main window: start page, canvas, docks, menus, files, autosave and recovery, export.
The frame and layout live in studio/window_layout.py, the editing commands in
studio/editor_commands.py (mixins of MainWindow; every method stays on the window).

objectNames: `canvas`, `palette`, `inspector`, `stateSchemaEditor`, `problemsPanel`, `startPage`
(`templatesGallery`, `recentFiles`), `minimap`, `trustBanner`, `recoveryBanner`, docks
`paletteDock`, `inspectorDock`, `stateDock`, `problemsDock`, actions `action_<name>`; the run side
(toolbar, run docks, interrupt panel) is `studio.run.controller`. Editing actions with fixed
names: `addConditionalEdgeAction`, `toggleBreakpointBeforeAction`, `toggleBreakpointAfterAction`;
View → Panels is `panelsMenu`; the run toolbar's `breakpointsButton` lists the breakpoints.
"""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMenu, QMessageBox

from graphspec.errors import Finding, SpecError, SpecValidationError
from graphspec.io import load_spec, read_spec_bytes, save_spec
from graphspec.model import GraphSpec
from graphspec.module_files import naming_program
from graphspec.templates import is_bundled
from graphspec.trust import Closure, closure, digest
from studio import files
from studio.canvas.layout import laid_out
from studio.canvas.scene import GraphScene
from studio.canvas.view import GraphView
from studio.chat import install as install_chat
from studio.document import FromCode, GraphDocument, edited_beyond_breakpoints
from studio.drawing import export_png, export_svg
from studio.editor import Editor
from studio.editor_commands import EditorCommands
from studio.evals import install as install_evals
from studio.i18n import QT_TRANSLATE_NOOP, translate
from studio.lecture import install as install_lecture
from studio.paths import icon
from studio.remote import install as install_remote
from studio.replay import install as install_replay
from studio.run.breakpoints_dock import install as install_breakpoints
from studio.run.controller import RunController
from studio.timeline import install as install_timeline
from studio.trust_gate import TrustGate
from studio.validation import LiveValidator
from studio.window_layout import WindowLayout

SPEC_FILTER = QT_TRANSLATE_NOOP("main_window", "Graph specs (*.json)")
OPEN_FILTER = QT_TRANSLATE_NOOP(
    "main_window", "Graph specs (*.json);;Python modules with a graph (*.py)"
)
AUTOSAVE_DELAY_MS = 800


class MainWindow(WindowLayout, EditorCommands, QMainWindow):
    """The window: the frame and its layout (studio/window_layout.py), editing commands
    (studio/editor_commands.py), and here the actions, files, export, autosave and quit."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowIcon(icon("app"))
        self._fit_to_screen()
        self.document = GraphDocument()
        self.editor = Editor(self.document)
        self.scene = GraphScene(self.document)
        self.view = GraphView(self.scene)
        self.validator = LiveValidator(self.document)
        self.gate = TrustGate(self.document)
        self.root_digest: str | None = None
        """sha256 of the bytes the open file was read from (or last saved as)."""
        self.autosave = files.AutosaveSession()
        self.recoveries: list[files.Recovery] = []
        self.load_errors: list[str] = []
        self.subgraph_windows: list[QMainWindow] = []
        self._closed = False
        self._saved_spec: GraphSpec | None = None
        """The spec as last opened or saved (None: recovered, never saved)."""
        self._build_central()
        self._build_docks()
        self._build_actions()
        self._wire()
        self.runner = RunController(self)
        install_chat(self)  # the chat dock and Settings → Model providers (studio/chat)
        install_remote(self)  # the Server dock and File → Connect to server… (studio/remote)
        install_lecture(self)  # the compiled runtime view and lecture mode (studio/lecture)
        install_replay(self)  # recording, replay and the Tests dock (studio/replay)
        install_evals(self)  # datasets, experiments and their compare view (studio/evals)
        install_breakpoints(self)  # the Breakpoints dock (studio/run/breakpoints_dock.py)
        install_timeline(self)  # the superstep timeline, scrubbing and re-run (studio/timeline)
        self._build_window_menus()
        self.statusBar().showMessage(translate("main_window", "Ready"))
        self._editor_layout = None
        """The docks as the editor last showed them (the start page hides them all)."""
        self.restore_layout()
        self.show_start()
        self.offer_recovery()

    def _action(self, name: str, text: str, slot, shortcut=None) -> QAction:
        action = QAction(text, self)
        action.setObjectName(f"action_{name}")
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(lambda _=False: slot())
        self.addAction(action)
        self.actions_by_name[name] = action
        return action

    def _build_actions(self) -> None:
        self.actions_by_name: dict[str, QAction] = {}
        a, k = self._action, QKeySequence.StandardKey
        menus = {
            QT_TRANSLATE_NOOP("main_window", "&File"): [a("new", translate("main_window", "&New"), self.ask_new, k.New), a("open", translate("main_window", "&Open…"), self.ask_open, k.Open),
                      a("save", translate("main_window", "&Save"), self.save, k.Save), a("save_as", translate("main_window", "Save &As…"), self.ask_save_as, k.SaveAs),
                      None, a("export_png", translate("main_window", "Export PNG…"), lambda: self.ask_export("png")),
                      a("export_svg", translate("main_window", "Export SVG…"), lambda: self.ask_export("svg")),
                      a("export_mermaid", translate("main_window", "Export Mermaid…"), lambda: self.ask_export("mermaid")),
                      a("export_langgraph", translate("main_window", "Export LangGraph code…"), lambda: self.ask_export("langgraph")),
                      None, a("start_page", translate("main_window", "Start page"), self.show_start),
                      a("quit", translate("main_window", "&Quit"), self.quit, "Ctrl+Q")],
            QT_TRANSLATE_NOOP("main_window", "&Edit"): [self._stack_action("undo", k.Undo), self._stack_action("redo", k.Redo), None,
                      a("cut", translate("main_window", "Cu&t"), self.cut, k.Cut), a("copy", translate("main_window", "&Copy"), self.copy, k.Copy),
                      a("paste", translate("main_window", "&Paste"), self.paste, k.Paste), a("delete", translate("main_window", "&Delete"), self.delete_selection, k.Delete),
                      a("select_all", translate("main_window", "Select &all"), self.select_all, k.SelectAll),
                      a("rename", translate("main_window", "&Rename"), self.rename_selected, "F2"),
                      a("duplicate", translate("main_window", "D&uplicate"), self.duplicate_selection, "Ctrl+D"), None,
                      a("add_conditional_edge", translate("main_window", "Add &conditional edge"), self.add_conditional_edge, "Ctrl+Shift+R"),
                      a("convert_to_router", translate("main_window", "Convert edges to a &router"), self.convert_to_router),
                      a("convert_to_edges", translate("main_window", "Convert router to plain &edges"), self.convert_to_edges), None,
                      a("toggle_breakpoint_before", translate("main_window", "Breakpoint &before node"), lambda: self.toggle_breakpoint("before"), "F9"),
                      a("toggle_breakpoint_after", translate("main_window", "Breakpoint a&fter node"), lambda: self.toggle_breakpoint("after"), "Shift+F9")],
            QT_TRANSLATE_NOOP("main_window", "&View"): [a("zoom_in", translate("main_window", "Zoom &in"), lambda: self.view.zoom_by(1.25), k.ZoomIn),
                      a("zoom_out", translate("main_window", "Zoom &out"), lambda: self.view.zoom_by(0.8), k.ZoomOut),
                      a("fit", translate("main_window", "&Fit graph"), self.view.fit, "Ctrl+0"),
                      a("layout", translate("main_window", "Automatic &layout"), self.editor.auto_layout, "Ctrl+L"),
                      a("snap", translate("main_window", "&Snap to grid"), self.toggle_snap), a("minimap", translate("main_window", "&Minimap"), self.toggle_minimap, "Ctrl+M")],
        }  # fmt: skip
        for name in ("snap", "minimap"):
            self.actions_by_name[name].setCheckable(True)
            self.actions_by_name[name].setChecked(True)
        self.actions_by_name["delete"].setShortcuts(
            [QKeySequence(k.Delete), QKeySequence("Backspace")]
        )
        for name, object_name in (("add_conditional_edge", "addConditionalEdgeAction"),
                                  ("toggle_breakpoint_before", "toggleBreakpointBeforeAction"),
                                  ("toggle_breakpoint_after", "toggleBreakpointAfterAction")):  # fmt: skip
            self.actions_by_name[name].setObjectName(object_name)
        self.menus: dict[str, QMenu] = {}
        for title, items in menus.items():
            menu = self.menus[title] = self.menuBar().addMenu(translate("main_window", title))
            for item in items:
                menu.addSeparator() if item is None else menu.addAction(item)
        toolbar = self.addToolBar("Main")
        toolbar.setObjectName("mainToolbar")
        for name in ("new", "open", "save", "undo", "redo", "fit", "layout"):
            toolbar.addAction(
                self.actions_by_name[name] if name not in ("undo", "redo") else self._fixed(name)
            )

    def _fixed(self, name: str) -> QAction:
        """Undo/Redo for the toolbar: a fixed label (the menu's says what it undoes, and would
        resize the toolbar at every edit); the tooltip names the edit."""
        source = self.actions_by_name[name]
        shown = (
            translate("main_window", "Undo") if name == "undo" else translate("main_window", "Redo")
        )
        action = QAction(shown, self)
        action.setObjectName(f"toolbar_{name}")
        action.setEnabled(False)
        action.triggered.connect(source.trigger)

        def follow() -> None:
            try:
                action.setEnabled(source.isEnabled())
                action.setToolTip(source.text())
            except RuntimeError:  # the window is being deleted
                pass

        source.changed.connect(follow)
        return action

    def _stack_action(self, name: str, shortcut) -> QAction:
        stack = self.editor.stack
        action = stack.createUndoAction(self) if name == "undo" else stack.createRedoAction(self)
        action.setObjectName(f"action_{name}")
        action.setShortcuts(QKeySequence.keyBindings(shortcut))  # Redo: Ctrl+Shift+Z and Ctrl+Y
        self.actions_by_name[name] = action
        self.addAction(action)
        return action

    def _wire(self) -> None:
        self.scene.moved.connect(self.editor.move)
        self.scene.connect_requested.connect(self.editor.connect)
        self.scene.reconnect_requested.connect(self.editor.reconnect)
        self.scene.route_requested.connect(self.add_route)
        self.scene.retarget_requested.connect(self.editor.retarget_route)
        self.view.context_requested.connect(self.show_context_menu)
        self.scene.activated.connect(self._activated)
        self.scene.selectionChanged.connect(self._selection_changed)
        self.view.palette_dropped.connect(self.drop_from_palette)
        self.view.released_on_canvas.connect(self.offer_new_target)
        self.view.rename_finished.connect(self.editor.rename)
        self.palette.activated_entry.connect(self.add_in_view)
        self.editor.layout_finished.connect(self.show_laid_out)
        self.inspector.open_subgraph.connect(self.open_subgraph)
        self.validator.findings_ready.connect(self._findings)
        self.problems.element_chosen.connect(self.select_element)
        self.problems.fix_chosen.connect(lambda apply: apply(self.editor))
        self.editor.failed.connect(lambda m: self.statusBar().showMessage(m, 6000))
        self.editor.pasted.connect(self.gate.pasted)
        self.gate.review_needed.connect(self._ask_trust)
        self.editor.renamed.connect(lambda _old, new: self.scene.select_ids([new]))
        self.editor.stack.cleanChanged.connect(self._update_title)
        self.editor.stack.indexChanged.connect(self._edited)
        self._autosave_timer = QTimer(
            self, singleShot=True, interval=AUTOSAVE_DELAY_MS, timeout=self.write_autosave
        )
        self.start_page.new_requested.connect(self.ask_new)
        self.start_page.open_requested.connect(self.ask_open)
        self.start_page.path_chosen.connect(self.ask_open_path)

    def _selection_changed(self) -> None:
        ids = self.scene.selected_ids()
        self.inspector.show_ids(ids)
        inspector = self.dock_named("inspectorDock")
        if ids and inspector.toggleViewAction().isChecked():  # open, maybe behind another tab
            inspector.raise_()  # what was selected is shown, not the chat or the channels
            QTimer.singleShot(0, self._room_for_inspector)  # once its tab is laid out

    def _fit_new(self) -> None:
        """The document just opened, fitted to the canvas as it is now laid out (its size was
        still the start page's or the previous layout's at the first fit)."""
        if not self._closed and self.editor.stack.count() == 0:  # not once the user edits
            self.view.fit()

    def _room_for_inspector(self) -> None:
        """A form taller than the inspector (an agent's) gets the right column's room, down to
        the State dock's minimum, when it is selected (edits then keep the size the user set)."""
        if self._closed:
            return
        inspector, state = self.dock_named("inspectorDock"), self.dock_named("stateDock")
        group = [state, *self.tabifiedDockWidgets(state)]  # its tab in front stands for it
        state = next((d for d in group if not d.visibleRegion().isEmpty()), None)
        if state is None or state.isFloating() or inspector.isFloating() or inspector in group:
            return
        if self.dockWidgetArea(inspector) != self.dockWidgetArea(state):
            return
        column = inspector.height() + state.height()
        wanted = self.inspector.widget().sizeHint().height() + 40  # the title bar and margins
        if inspector.height() >= wanted:
            return
        room = max(column - state.minimumSizeHint().height(), inspector.height())
        height = min(wanted, room)
        self.resizeDocks([inspector, state], [height, column - height], Qt.Orientation.Vertical)

    def _edited(self, _index: int = 0) -> None:
        if not self._autosave_timer.isActive():  # not restarted: edits that go on get saved too
            self._autosave_timer.start()
        origin = self.document.origin
        if origin is not None and self.unsaved() and self.code_banner.isHidden():
            # said when it matters: the first edit of a spec imported from a module
            self.code_banner.label.setText(
                translate(
                    "main_window",
                    "Imported from {name}: edits here change this spec, not the module. Save keeps them as a spec file beside {name}.",
                ).format(name=origin.name)
            )
            self.code_banner.show()
            self.statusBar().showMessage(
                translate("main_window", "Canvas edits do not change {name}").format(
                    name=origin.name
                ),
                6000,
            )
        self._update_title()  # the star follows the content, not only the clean index

    def _update_title(self, _clean: bool = False) -> None:
        name = (
            self.document.path.name
            if self.document.path
            else (self.document.spec.name or "untitled")
        )
        dirty = " *" if self.unsaved() else ""
        self.setWindowTitle(
            translate("main_window", "{name}{dirty} — Superstep Studio").format(
                name=name, dirty=dirty
            )
        )

    # -------------------------------------------------------------- files

    def unsaved(self) -> bool:
        """Edits that would be lost: a graph from code keeps none (it is edited in its code),
        and breakpoints are not edits of the graph (kept with it and saved with it, undone like
        edits, but setting one does not mark the graph modified)."""
        if self.document.code is not None or self.editor.stack.isClean():
            return False
        return self._saved_spec is None or edited_beyond_breakpoints(
            self._saved_spec, self.document.spec
        )

    def _mark_clean(self) -> None:
        """The document is as on disk (opened, saved, or its edits dropped)."""
        self.editor.stack.setClean()
        self._saved_spec = self.document.spec
        self._update_title()

    def _start_editing(self, spec: GraphSpec, path: Path | None, trusted: bool,
                       found: Closure | None = None, root_digest: str | None = None,
                       code: FromCode | None = None, origin: Path | None = None) -> None:  # fmt: skip
        if self.unsaved():  # replaced without a prompt (a reload, a script): kept, offered back
            self.set_aside("replaced")
        self.editor.stack.clear()
        self.document.load(laid_out(spec), path, trusted, code, origin)
        self.root_digest = root_digest
        self._mark_clean()
        self._update_title()
        self.statusBar().clearMessage()  # a message about the previous document is stale now
        self.runner.history.editor.clear()
        self.show_editor()
        self.view.fit()
        QTimer.singleShot(0, self._fit_new)  # again once the docks shown above are laid out
        self.trust_banner.hide()
        self.code_banner.setVisible(code is not None)
        if code is not None:
            self.code_banner.label.setText(
                translate(
                    "main_window", "Drawn from {where}: this graph is edited in its code"
                ).format(where=code.where)
                + (
                    translate("main_window", ", and reloads when the file changes.")
                    if code.source
                    else "."
                )
                + translate(
                    "main_window",
                    " Run, step, breakpoints, checkpoints and forks work as on any graph.",
                )
            )
            return
        self.gate.opened(found or closure(spec, self.document.base_dir), trusted)

    def open_code(self, graph: Any, source: Path | None, name: str, keep_places: bool = False,
                  saver: Any = None, context: Any = None, thread: Any = None,
                  script_input: Any = None) -> None:  # fmt: skip
        """Show a compiled graph from code: drawn from itself, run as it is (the user agreed to
        run its code when it was imported, or handed it over with `debug`). With `keep_places`
        (the code changed), the cards that were there stay where they were; `script_input`
        (a program's script ran it) is what the first run starts from."""
        from graphspec.graph_drawing import drawing

        code = FromCode(graph, source, name, saver, context, thread, script_input)
        drawn = laid_out(drawing(graph, code.where))
        if keep_places:
            places = {n.id: n.position for n in self.document.spec.nodes}
            drawn = drawn.model_copy(update={"nodes": [
                n.model_copy(update={"position": places.get(n.id) or n.position})
                for n in drawn.nodes]})  # fmt: skip
        from studio.document.side_breakpoints import restored

        self._start_editing(restored(code, drawn), None, trusted=True, code=code)

    def _ask_trust(self, sites: list[Finding], why: str) -> None:
        """The banner lists every piece of code not yet approved, file subgraphs' by file, each
        server a model would send the user's API key to, and each MCP server's command or
        secrets sent away."""
        places: dict[str | None, list[str]] = {}
        sends: list[str] = []
        mcp: list[str] = []
        this_spec = translate("main_window", "this spec")
        for site in sites:
            does = translate("main_window", "{element} in {file} would {message}").format(
                element=site.element_id, file=site.file or this_spec, message=site.message)  # fmt: skip
            if site.code == "model-endpoint":
                sends.append(does)
            elif site.code in ("mcp-command", "mcp-secret"):
                mcp.append(does)
            else:
                places.setdefault(site.file, []).append(site.element_id)
        parts = [
            translate("main_window", "{elements} in {file}").format(
                elements=", ".join(dict.fromkeys(ids)), file=file or this_spec
            )
            for file, ids in places.items()
        ]
        lead = {"changed": translate("main_window", "A file this spec uses changed since you trusted it. "),
                "pasted": translate("main_window", "Pasted elements carry Python code. ")}.get(why, "")  # fmt: skip
        code = (
            translate("main_window", "This spec carries Python code ({join}). ").format(
                join="; ".join(parts)
            )
            if parts
            else ""
        )
        key = (
            translate("main_window", "{join}, not its provider's server or one you set. ").format(
                join="; ".join(sends)
            )
            if sends
            else ""
        )
        key += f"{'; '.join(mcp)}. " if mcp else ""
        self.trust_banner.label.setText(
            translate("main_window", "{lead}{code}{key}Nothing runs until you trust it.").format(
                lead=lead, code=code, key=key
            )
        )
        self.trust_banner.show()

    def run_blocker(self) -> str | None:
        """Asked before each run: None if the spec (and its files, read again now) may run; a
        graph from code was agreed to when it was imported (a changed file asks again)."""
        return None if self.document.code is not None else self.gate.check()

    def run_args(self) -> tuple:
        """What the run compiles: the spec with its subgraph files as `run_blocker` read them,
        or the graph from code (with its drawing, which carries the breakpoints), run with the
        context and config keys its script ran it with, if it did."""
        code, served = self.document.code, self.document.served
        if code is not None:
            script = code.script_input
            context = code.context if code.context is not None or script is None else script.context
            configurable = script.configurable if script is not None else None
            return self.document.spec, None, True, code.graph, context, served, configurable
        return (
            self.gate.run_spec(),
            self.document.base_dir,
            self.document.trusted,
            None,
            None,
            served,
            None,
        )

    def new_graph(self) -> None:
        self._start_editing(GraphSpec(name="untitled"), None, trusted=True)

    def ask_new(self) -> None:
        """File → New (Ctrl+N), the start page's New graph: asks to save unsaved edits first."""
        self.replace_document(self.new_graph)

    def open_path(self, path: Path, bundled: bool = False) -> bool:
        """Open a spec; on failure show why and leave the document (and the file) as they were.
        A file in the bundled templates folder opens as a template does from the gallery: an
        untitled copy, so nothing (a save, a run's checkpoints) is ever written beside it."""
        path = Path(path)
        bundled = bundled or is_bundled(path)
        if path.suffix == ".py":  # a LangGraph program: asks before running it
            from studio.python_open import open_python

            return open_python(self, path)
        try:
            data = read_spec_bytes(path)  # trust hashes these bytes, the ones parsed
            spec = load_spec(data)
            found = closure(spec, path.parent)
        except SpecValidationError as exc:
            self.show_load_errors(path, [str(p) for p in exc.problems])
            return False
        except Exception as exc:  # anything else about a bad file: report, never crash
            self.show_load_errors(path, [f"{type(exc).__name__}: {exc}"])
            return False
        root = digest(data)
        trusted = bundled or files.is_trusted(found.digest(root))
        self._start_editing(
            spec, None if bundled else path, trusted, found, None if bundled else root
        )
        if bundled:
            self.document.path = None  # a template opens as a new, untitled copy
        else:
            files.add_recent(path)
        self.statusBar().showMessage(
            translate("main_window", "Opened {name}").format(name=path.name), 4000
        )
        return True

    def show_load_errors(self, path: Path, lines: list[str]) -> None:
        self.load_errors = lines
        box = QMessageBox(QMessageBox.Icon.Warning, translate("main_window", "Cannot open spec"),
                          translate("main_window", "{name} could not be opened; nothing was changed.").format(name=path.name), parent=self)  # fmt: skip
        box.setObjectName("loadErrorDialog")
        box.setTextFormat(Qt.TextFormat.PlainText)  # file names and spec text, never HTML
        box.setDetailedText("\n".join(lines))
        box.setInformativeText("\n".join(lines[:8]) + ("\n…" if len(lines) > 8 else ""))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # not exec(): the app keeps running and tests never block
        self.load_error_box = box
        self.statusBar().showMessage(
            translate("main_window", "Cannot open {name}: {value}").format(
                name=path.name, value=lines[0] if lines else ""
            ),
            8000,
        )

    def save(self) -> bool:
        if self.document.code is not None:
            self.statusBar().showMessage(
                translate(
                    "main_window", "{where} is edited in its code: nothing to save here"
                ).format(where=self.document.code.where),
                6000,
            )
            return False
        if self.document.path is None:
            return self.ask_save_as()
        return self.save_as(self.document.path)

    def save_as(self, path: Path) -> bool:
        path = Path(path)
        if is_bundled(path):
            self.statusBar().showMessage(
                translate(
                    "main_window",
                    "{parent} holds the bundled templates, read-only to the studio: save your copy in another folder",
                ).format(parent=path.parent),
                8000,
            )
            return False
        try:
            data = save_spec(self.spec_beside(path.parent), path)
        except Exception as exc:
            self.statusBar().showMessage(
                translate("main_window", "Cannot save {path}: {exc}").format(path=path, exc=exc),
                8000,
            )
            return False
        self.document.path = path
        self.root_digest = digest(data)
        self._mark_clean()
        self.autosave.clear()
        files.add_recent(path)
        found = self.gate.current()
        if self.document.trusted and found.files == self.gate.approved:  # what the user approved
            files.remember_trust(found.digest(self.root_digest))
        self._update_title()
        self.statusBar().showMessage(
            translate("main_window", "Saved {path}").format(path=path), 4000
        )
        return True

    def spec_beside(self, folder: Path) -> GraphSpec:
        """The spec as written to `folder`: one imported from a program names its file, so a
        reopened spec runs it again and an export imports it (the document's stays as made)."""
        return naming_program(self.document.spec, self.document.origin, folder)

    def ask_open(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, translate("main_window", "Open spec"), "", translate("main_window", OPEN_FILTER)
        )
        if path:
            self.ask_open_path(Path(path))

    def ask_open_path(self, path: Path, bundled: bool = False) -> None:
        """Open a file the user chose (File → Open, a recent file or a template on the start
        page): asks to save unsaved edits first."""
        self.replace_document(lambda: self.open_path(path, bundled=bundled))

    def ask_save_as(self) -> bool:
        origin = self.document.origin  # a spec imported from a module: beside the module
        start = self.document.path or (origin.with_suffix(".json") if origin else "graph.json")
        path, _ = QFileDialog.getSaveFileName(
            self,
            translate("main_window", "Save spec"),
            str(start),
            translate("main_window", SPEC_FILTER),
        )
        if path and not Path(path).suffix:  # a name typed bare: as Qt's default suffix does,
            path += ".json"  # else Open (its filter *.json) never shows the file saved
        return self.save_as(Path(path)) if path else False

    def trust(self) -> None:
        found = self.gate.approve()
        if self.root_digest is not None and self.editor.stack.isClean():  # the bytes on disk
            files.remember_trust(found.digest(self.root_digest))
        self.trust_banner.hide()

    # -------------------------------------------------------------- export

    def export(self, fmt: str, path: Path) -> bool:
        path = Path(path)
        try:
            if fmt == "png":
                export_png(self.scene, path)
            elif fmt == "svg":
                export_svg(self.scene, path, self.document.spec.name)
            elif (code := self.document.code) is not None:  # the graph is its code already
                if fmt != "mermaid":
                    self.statusBar().showMessage(
                        translate("main_window", "{where} is LangGraph code already").format(
                            where=code.where
                        ),
                        6000,
                    )
                    return False
                path.write_text(code.graph.get_graph().draw_mermaid(), encoding="utf-8")
            else:
                from graphspec import export as spec_export  # the exporters load the engine

                spec = self.spec_beside(self.document.base_dir or path.parent)
                text = spec_export.export(spec, fmt, base_dir=self.document.base_dir)
                path.write_text(text, encoding="utf-8")
        except SpecError as exc:  # names the element and field at fault
            self.statusBar().showMessage(
                translate("main_window", "Export failed: {line}").format(line=exc.line()), 8000
            )
            return False
        except Exception as exc:
            self.statusBar().showMessage(
                translate("main_window", "Export failed: {exc}").format(exc=exc), 8000
            )
            return False
        self.statusBar().showMessage(
            translate("main_window", "Exported {path}").format(path=path), 4000
        )
        return True

    def ask_export(self, fmt: str) -> None:
        suffix = {"png": "png", "svg": "svg", "mermaid": "mmd", "langgraph": "py"}[fmt]
        stem = self.document.path.stem if self.document.path else "graph"
        path, _ = QFileDialog.getSaveFileName(
            self, translate("main_window", "Export {fmt}").format(fmt=fmt), f"{stem}.{suffix}"
        )
        if path:
            self.export(fmt, Path(path))

    # -------------------------------------------------------------- autosave and recovery

    def write_autosave(self) -> None:
        if not self.unsaved():
            self.autosave.clear()
            return
        try:
            self.autosave.write(self.document.spec, self.document.path)
        except OSError as exc:
            why = (
                translate("main_window", "the disk is full")
                if exc.errno == errno.ENOSPC
                else (exc.strerror or str(exc))
            )
            kept = (
                translate("main_window", " (the previous autosave is kept)")
                if self.autosave.file.exists()
                else ""
            )
            self.statusBar().showMessage(
                translate(
                    "main_window", "Autosave failed: {why}{kept}. Save your work elsewhere."
                ).format(why=why, kept=kept),
                15000,
            )

    def offer_recovery(self) -> None:
        self.recoveries = self.autosave.leftovers()
        if self.recoveries:
            self.recovery_banner.label.setText(self.recoveries[0].describe())
        self.recovery_banner.setVisible(bool(self.recoveries))

    def set_aside(self, why: str) -> None:
        """Keep the unsaved edits this window is leaving, offered back in the recovery banner
        (now and on later starts) until recovered or discarded there."""
        try:
            self.autosave.set_aside(self.document.spec, self.document.path, why)
        except OSError as exc:
            self.statusBar().showMessage(
                translate("main_window", "Could not keep the unsaved edits: {exc}").format(exc=exc),
                15000,
            )
        self.offer_recovery()

    def ask_recover(self) -> None:
        """The recovery banner's Recover: asks to save unsaved edits first (the work offered
        now is recovered, even when those edits are set aside meanwhile)."""
        if self.recoveries:
            found = self.recoveries[0]
            self.replace_document(lambda: self._recover(found))

    def recover(self, index: int = 0) -> bool:
        if not 0 <= index < len(self.recoveries):
            return False
        self._recover(self.recoveries.pop(index))
        return True

    def _recover(self, found: files.Recovery) -> None:
        self._start_editing(found.spec, found.original, trusted=False)
        self.editor.stack.resetClean()  # recovered work is unsaved work
        self._saved_spec = None
        self._update_title()
        self.write_autosave()
        found.discard()
        self.offer_recovery()

    def discard_recovery(self) -> None:
        if self.recoveries:
            self.recoveries.pop(0).discard()
        self.offer_recovery()

    def quit(self) -> None:
        """File → Quit (Ctrl+Q): asks to save unsaved edits first."""
        if not self.unsaved() or self.pages.currentWidget() is not self.view:
            self.close()
        else:
            self.ask_to_save(then=self.close)

    def replace_document(self, then) -> None:
        """Run `then` (it opens another document in this window) at once, or after the user
        saved or set aside the unsaved edits it would replace."""
        if self.unsaved():
            self.ask_to_save(then)
        else:
            then()

    def ask_to_save(self, then) -> QMessageBox:
        """Save / Don't save / Cancel for unsaved edits; `then` runs unless the user cancels (or
        a save fails). Don't save keeps the edits in the recovery banner (now and on later
        starts) until discarded there. Non-blocking (`open`, not `exec`): the app keeps
        painting meanwhile."""
        name = (
            self.document.path.name
            if self.document.path
            else (self.document.spec.name or "untitled")
        )
        box = QMessageBox(QMessageBox.Icon.Question, translate("main_window", "Unsaved changes"), translate("main_window", "Save the changes to {name}?").format(name=name),
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                          | QMessageBox.StandardButton.Cancel, self)  # fmt: skip
        box.setObjectName("savePrompt")
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setInformativeText(
            translate(
                "main_window",
                "If you don't save them, the recovery banner keeps them until you discard them there.",
            )
        )
        box.setDefaultButton(QMessageBox.StandardButton.Save)

        def answered(button) -> None:
            choice = box.standardButton(button)
            if choice == QMessageBox.StandardButton.Cancel or (
                choice == QMessageBox.StandardButton.Save and not self.save()
            ):
                return
            if choice == QMessageBox.StandardButton.Discard:
                self.set_aside("discarded")
                self._mark_clean()  # set aside: the window has nothing unsaved now
            then()

        box.buttonClicked.connect(answered)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        self.save_prompt = box
        return box

    def closeEvent(self, event) -> None:
        if self._closed:
            return super().closeEvent(event)
        if event.spontaneous() and self.unsaved():
            # the window manager's close button: ask first (a programmatic close, as at the
            # session's end, keeps the autosave instead and offers it back next time)
            event.ignore()
            self.ask_to_save(then=self.close)
            return
        self._closed = True
        self.save_layout()
        dirty = self.unsaved()
        if dirty:
            self.write_autosave()  # kept: offered back on the next start, never lost
        self.autosave.close(keep=dirty)
        self.runner.thread_selector.blockSignals(
            True
        )  # its focus-out "activated" would run after close
        self.runner.close()
        self._autosave_timer.stop()
        self.editor.stack.cleanChanged.disconnect(self._update_title)
        self.editor.stack.indexChanged.disconnect(self._edited)
        self.scene.selectionChanged.disconnect(self._selection_changed)
        for window in self.subgraph_windows:
            window.close()
        super().closeEvent(event)

    def _findings(self, findings: list) -> None:
        self.scene.set_marks(findings)
        self.problems.show_findings(findings)
        self.inspector.show_findings(findings)
        errors = sum(f.severity == "error" for f in findings)
        self.docks[3].setWindowTitle(
            translate("main_window", "Problems ({errors} errors, {value} warnings)").format(
                errors=errors, value=len(findings) - errors
            )
        )
