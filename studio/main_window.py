"""The main window: start page, canvas, docks, menus, files, autosave and recovery, export.

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

from PySide6.QtCore import QPointF, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDockWidget,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from graphspec import export as spec_export
from graphspec.errors import Finding, SpecValidationError
from graphspec.io import (
    load_spec,
    read_spec_bytes,
    resolve_subgraph,
    save_spec,
)
from graphspec.model import GraphSpec
from graphspec.trust import Closure, closure, digest
from studio import files
from studio.canvas.context_menu import MenuHooks, build_menu
from studio.canvas.layout import laid_out
from studio.canvas.scene import GraphScene
from studio.canvas.view import GraphView
from studio.document import GraphDocument
from studio.drawing import export_png, export_svg
from studio.editor import Editor
from studio.panels.help_dialogs import about_dialog, open_dialog, shortcuts_dialog
from studio.panels.inspector_panel import InspectorPanel
from studio.panels.palette_panel import PalettePanel
from studio.panels.problems_panel import ProblemsPanel
from studio.panels.start_page import StartPage
from studio.panels.state_panel import StatePanel
from studio.paths import icon, studio_home
from studio.chat import install as install_chat
from studio.run.controller import RunController
from studio.trust_gate import TrustGate
from studio.validation import LiveValidator

SPEC_FILTER = "Graph specs (*.json)"
OPEN_FILTER = "Graph specs (*.json);;Python modules with a graph (*.py)"
AUTOSAVE_DELAY_MS = 800


class Banner(QFrame):
    """A non-modal bar above the canvas: a message and a few buttons (nothing blocks)."""

    def __init__(self, name: str, color: str) -> None:
        super().__init__()
        self.setObjectName(name)
        self.setStyleSheet(f"#{name} {{ background: {color}; border-bottom: 1px solid #D0D4DB; }}")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 6, 12, 6)
        self.label = QLabel()
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # spec text (names, paths), never HTML
        self.label.setWordWrap(True)
        layout.addWidget(self.label, 1)
        self.buttons: dict[str, QPushButton] = {}
        self.hide()

    def add_button(self, name: str, text: str, slot) -> None:
        button = QPushButton(text)
        button.setObjectName(name)
        button.clicked.connect(slot)
        self.layout().addWidget(button)
        self.buttons[name] = button


class MainWindow(QMainWindow):
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
        self._build_central()
        self._build_docks()
        self._build_actions()
        self._wire()
        self.runner = RunController(self)
        install_chat(self)  # the chat dock and Settings → Model providers (studio/chat)
        self._build_window_menus()
        self.statusBar().showMessage("Ready")
        self._editor_layout = None
        """The docks as the editor last showed them (the start page hides them all)."""
        self.restore_layout()
        self.show_start()
        self.offer_recovery()

    def _fit_to_screen(self) -> None:
        """1440×900 where it fits, else the screen's free area (a 1280×720 laptop included)."""
        screen = self.screen().availableGeometry() if self.screen() else None
        if screen is None or screen.width() < 400:
            self.resize(1440, 900)
            return
        self.resize(min(1440, screen.width()), min(900, screen.height()))

    # -------------------------------------------------------------- layout

    def _build_central(self) -> None:
        self.trust_banner = Banner("trustBanner", "#FFF4D6")
        self.trust_banner.add_button("trustButton", "Trust and allow running", self.trust)
        self.recovery_banner = Banner("recoveryBanner", "#E3F0FF")
        self.recovery_banner.add_button("recoverButton", "Recover", lambda: self.recover(0))
        self.recovery_banner.add_button("discardRecoveryButton", "Discard", self.discard_recovery)
        self.start_page = StartPage()
        self.pages = QStackedWidget()
        self.pages.addWidget(self.start_page)
        self.pages.addWidget(self.view)
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        for widget in (self.recovery_banner, self.trust_banner, self.pages):
            layout.addWidget(widget)
        self.setCentralWidget(central)

    def _dock(self, name: str, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    # -------------------------------------------------------------- docks and banners (used by the run side)

    def add_dock(self, name: str, title: str, widget: QWidget, area: Qt.DockWidgetArea,
                 tab_with: str | None = None) -> QDockWidget:  # fmt: skip
        """A dock shown and hidden with the editor's; `tab_with` names a dock to share a tab with."""
        dock = self._dock(name, title, widget, area)
        if tab_with is not None and (other := self.dock(tab_with)) is not None:
            self.tabifyDockWidget(other, dock)
        self.docks.append(dock)
        return dock

    def dock(self, name: str) -> QDockWidget | None:
        return next((d for d in self.docks if d.objectName() == name), None)

    def add_banner(self, name: str, color: str) -> Banner:
        """A non-modal bar above the canvas, under the window's own banners; hidden until shown."""
        banner = Banner(name, color)
        self.add_bar(banner)
        return banner

    def add_bar(self, widget: QWidget) -> None:
        """Put a widget in the column above the canvas (interrupt answers, run warnings)."""
        layout = self.centralWidget().layout()
        layout.insertWidget(layout.indexOf(self.pages), widget)

    def _build_docks(self) -> None:
        self.palette = PalettePanel()
        self.inspector = InspectorPanel(self.editor)
        self.state_panel = StatePanel(self.editor)
        self.problems = ProblemsPanel()
        left, right, bottom = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea,
                               Qt.DockWidgetArea.BottomDockWidgetArea)  # fmt: skip
        self.docks = [
            self._dock("paletteDock", "Palette", self.palette, left),
            self._dock("inspectorDock", "Inspector", self.inspector, right),
            self._dock("stateDock", "State", self.state_panel, right),
            self._dock("problemsDock", "Problems", self.problems, bottom),
        ]
        self.resizeDocks(self.docks[:2], [190, 360], Qt.Orientation.Horizontal)
        self.resizeDocks([self.docks[3]], [150], Qt.Orientation.Vertical)

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
            "&File": [a("new", "&New", self.new_graph, k.New), a("open", "&Open…", self.ask_open, k.Open),
                      a("save", "&Save", self.save, k.Save), a("save_as", "Save &As…", self.ask_save_as, k.SaveAs),
                      None, a("export_png", "Export PNG…", lambda: self.ask_export("png")),
                      a("export_svg", "Export SVG…", lambda: self.ask_export("svg")),
                      a("export_mermaid", "Export Mermaid…", lambda: self.ask_export("mermaid")),
                      a("export_langgraph", "Export LangGraph code…", lambda: self.ask_export("langgraph")),
                      None, a("start_page", "Start page", self.show_start),
                      a("quit", "&Quit", self.quit, "Ctrl+Q")],
            "&Edit": [self._stack_action("undo", k.Undo), self._stack_action("redo", k.Redo), None,
                      a("cut", "Cu&t", self.cut, k.Cut), a("copy", "&Copy", self.copy, k.Copy),
                      a("paste", "&Paste", self.paste, k.Paste), a("delete", "&Delete", self.delete_selection, k.Delete),
                      a("select_all", "Select &all", self.select_all, k.SelectAll),
                      a("rename", "&Rename", self.rename_selected, "F2"),
                      a("duplicate", "D&uplicate", self.duplicate_selection, "Ctrl+D"), None,
                      a("add_conditional_edge", "Add &conditional edge", self.add_conditional_edge, "Ctrl+Shift+R"),
                      a("convert_to_router", "Convert edges to a &router", self.convert_to_router),
                      a("convert_to_edges", "Convert router to plain &edges", self.convert_to_edges), None,
                      a("toggle_breakpoint_before", "Breakpoint &before node", lambda: self.toggle_breakpoint("before"), "F9"),
                      a("toggle_breakpoint_after", "Breakpoint a&fter node", lambda: self.toggle_breakpoint("after"), "Shift+F9")],
            "&View": [a("zoom_in", "Zoom &in", lambda: self.view.zoom_by(1.25), k.ZoomIn),
                      a("zoom_out", "Zoom &out", lambda: self.view.zoom_by(0.8), k.ZoomOut),
                      a("fit", "&Fit graph", self.view.fit, "Ctrl+0"),
                      a("layout", "Automatic &layout", self.editor.auto_layout, "Ctrl+L"),
                      a("snap", "&Snap to grid", self.toggle_snap), a("minimap", "&Minimap", self.toggle_minimap, "Ctrl+M")],
        }  # fmt: skip
        for name in ("snap", "minimap"):
            self.actions_by_name[name].setCheckable(True)
            self.actions_by_name[name].setChecked(True)
        self.actions_by_name["delete"].setShortcuts([QKeySequence(k.Delete), QKeySequence("Backspace")])
        for name, object_name in (("add_conditional_edge", "addConditionalEdgeAction"),
                                  ("toggle_breakpoint_before", "toggleBreakpointBeforeAction"),
                                  ("toggle_breakpoint_after", "toggleBreakpointAfterAction")):  # fmt: skip
            self.actions_by_name[name].setObjectName(object_name)
        self.menus: dict[str, QMenu] = {}
        for title, items in menus.items():
            menu = self.menus[title] = self.menuBar().addMenu(title)
            for item in items:
                menu.addSeparator() if item is None else menu.addAction(item)
        toolbar = self.addToolBar("Main")
        toolbar.setObjectName("mainToolbar")
        for name in ("new", "open", "save", "undo", "redo", "fit", "layout"):
            toolbar.addAction(self.actions_by_name[name] if name not in ("undo", "redo") else self._fixed(name))

    def _fixed(self, name: str) -> QAction:
        """Undo/Redo for the toolbar: a fixed label (the menu's says what it undoes, and would
        resize the toolbar at every edit); the tooltip names the edit."""
        source = self.actions_by_name[name]
        action = QAction(name.title(), self)
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

    def _build_window_menus(self) -> None:
        """View → Panels (every dock, the run side's included) and Help; built once the run
        controller has added its docks."""
        panels = self.menus["&View"].addMenu("&Panels")
        panels.setObjectName("panelsMenu")
        for dock in self.docks:
            panels.addAction(dock.toggleViewAction())
        self.menus["&View"].addAction(self._action("reset_layout", "&Reset panels", self.reset_layout))
        help_menu = self.menuBar().addMenu("&Help")
        help_menu.addAction(self._action("shortcuts", "&Keyboard shortcuts", self.show_shortcuts, "F1"))
        help_menu.addAction(self._action("about", "&About Superstep Studio", self.show_about))
        self.breakpoints_button = QToolButton()
        self.breakpoints_button.setObjectName("breakpointsButton")
        self.breakpoints_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.breakpoints_button.setMenu(QMenu(self.breakpoints_button))
        self.runner.toolbar.addSeparator()
        self.runner.toolbar.addWidget(self.breakpoints_button)
        self.document.changed.connect(lambda fields: "breakpoints" in fields and self._show_breakpoints())
        self.document.reset.connect(self._show_breakpoints)
        self._show_breakpoints()
        if self.width() < 1500:  # both toolbars on one row need ~1500 px: the run side goes below
            self.insertToolBarBreak(self.runner.toolbar)
        self._default_layout = self.saveState()

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
        self.view.palette_dropped.connect(self.add_from_palette)
        self.view.rename_finished.connect(self.editor.rename)
        self.palette.activated_entry.connect(
            lambda p: self.add_from_palette(p, self.view.mapToScene(self.view.viewport().rect().center())))
        self.inspector.open_subgraph.connect(self.open_subgraph)
        self.validator.findings_ready.connect(self._findings)
        self.problems.element_chosen.connect(self.select_element)
        self.editor.failed.connect(lambda m: self.statusBar().showMessage(m, 6000))
        self.editor.pasted.connect(self.gate.pasted)
        self.gate.review_needed.connect(self._ask_trust)
        self.editor.renamed.connect(lambda _old, new: self.scene.select_ids([new]))
        self.editor.stack.cleanChanged.connect(self._update_title)
        self.editor.stack.indexChanged.connect(self._edited)
        self._autosave_timer = QTimer(self, singleShot=True, interval=AUTOSAVE_DELAY_MS, timeout=self.write_autosave)
        self.start_page.new_requested.connect(self.new_graph)
        self.start_page.open_requested.connect(self.ask_open)
        self.start_page.path_chosen.connect(lambda path, bundled: self.open_path(path, bundled=bundled))

    # -------------------------------------------------------------- pages

    def show_start(self) -> None:
        self.start_page.set_recent(files.recent_files())
        if self.pages.currentWidget() is self.view:
            self._editor_layout = self.saveState()
        self.pages.setCurrentWidget(self.start_page)
        for dock in self.docks:
            dock.hide()
        self.runner.toolbar.setEnabled(False)  # nothing to run on the start page

    def show_editor(self) -> None:
        came_from_start = self.pages.currentWidget() is not self.view
        self.pages.setCurrentWidget(self.view)
        if came_from_start:
            if self._editor_layout is None or not self.restoreState(self._editor_layout):
                for dock in self.docks:
                    dock.show()
        self.runner.toolbar.setEnabled(True)
        if came_from_start and self.isVisible() and not getattr(self, "_sized", False):
            self._sized = True
            QTimer.singleShot(0, self.size_docks)  # once the docks shown above are laid out
        self.view.setFocus()

    def _selection_changed(self) -> None:
        self.inspector.show_ids(self.scene.selected_ids())

    def _edited(self, _index: int = 0) -> None:
        self._autosave_timer.start()

    def _update_title(self, _clean: bool = False) -> None:
        name = self.document.path.name if self.document.path else (self.document.spec.name or "untitled")
        dirty = "" if self.editor.stack.isClean() else " *"
        self.setWindowTitle(f"{name}{dirty} — Superstep Studio")

    # -------------------------------------------------------------- files

    def _start_editing(self, spec: GraphSpec, path: Path | None, trusted: bool,
                       found: Closure | None = None, root_digest: str | None = None) -> None:  # fmt: skip
        self.editor.stack.clear()
        self.document.load(laid_out(spec), path, trusted)
        self.root_digest = root_digest
        self.editor.stack.setClean()
        self._update_title()
        self.statusBar().clearMessage()  # a message about the previous document is stale now
        self.runner.history.editor.clear()
        self.show_editor()
        self.view.fit()
        self.trust_banner.hide()
        self.gate.opened(found or closure(spec, self.document.base_dir), trusted)

    def _ask_trust(self, sites: list[Finding], why: str) -> None:
        """The banner lists every piece of code not yet approved, file subgraphs' by file."""
        places: dict[str | None, list[str]] = {}
        for site in sites:
            places.setdefault(site.file, []).append(site.element_id)
        parts = [f"{', '.join(dict.fromkeys(ids))} in {file or 'this spec'}" for file, ids in places.items()]
        lead = {"changed": "A subgraph file changed since you trusted this spec. ",
                "pasted": "Pasted elements carry Python code. "}.get(why, "")  # fmt: skip
        self.trust_banner.label.setText(
            f"{lead}This spec carries Python code ({'; '.join(parts)}). Nothing runs until you trust it.")
        self.trust_banner.show()

    def run_blocker(self) -> str | None:
        """Asked before each run: None if the spec (and its files, read again now) may run."""
        return self.gate.check()

    def run_args(self) -> tuple[GraphSpec, Path | None, bool]:
        """What the run compiles: the spec with its subgraph files as `run_blocker` read them."""
        return self.gate.run_spec(), self.document.base_dir, self.document.trusted

    def new_graph(self) -> None:
        self._start_editing(GraphSpec(name="untitled"), None, trusted=True)

    def open_path(self, path: Path, bundled: bool = False) -> bool:
        """Open a spec; on failure show why and leave the document (and the file) as they were."""
        path = Path(path)
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
        self._start_editing(spec, None if bundled else path, trusted, found, None if bundled else root)
        if bundled:
            self.document.path = None  # a template opens as a new, untitled copy
        else:
            files.add_recent(path)
        self.statusBar().showMessage(f"Opened {path.name}", 4000)
        return True

    def show_load_errors(self, path: Path, lines: list[str]) -> None:
        self.load_errors = lines
        box = QMessageBox(QMessageBox.Icon.Warning, "Cannot open spec",
                          f"{path.name} could not be opened; nothing was changed.", parent=self)  # fmt: skip
        box.setObjectName("loadErrorDialog")
        box.setTextFormat(Qt.TextFormat.PlainText)  # file names and spec text, never HTML
        box.setDetailedText("\n".join(lines))
        box.setInformativeText("\n".join(lines[:8]) + ("\n…" if len(lines) > 8 else ""))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # not exec(): the app keeps running and tests never block
        self.load_error_box = box
        self.statusBar().showMessage(f"Cannot open {path.name}: {lines[0] if lines else ''}", 8000)

    def save(self) -> bool:
        if self.document.path is None:
            return self.ask_save_as()
        return self.save_as(self.document.path)

    def save_as(self, path: Path) -> bool:
        path = Path(path)
        try:
            data = save_spec(self.document.spec, path)
        except Exception as exc:
            self.statusBar().showMessage(f"Cannot save {path}: {exc}", 8000)
            return False
        self.document.path = path
        self.root_digest = digest(data)
        self.editor.stack.setClean()
        self.autosave.clear()
        files.add_recent(path)
        found = self.gate.current()
        if self.document.trusted and found.files == self.gate.approved:  # what the user approved
            files.remember_trust(found.digest(self.root_digest))
        self._update_title()
        self.statusBar().showMessage(f"Saved {path}", 4000)
        return True

    def ask_open(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open spec", "", OPEN_FILTER)
        if path:
            self.open_path(Path(path))

    def ask_save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self, "Save spec", str(self.document.path or "graph.json"), SPEC_FILTER)
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
            else:
                text = spec_export.export(self.document.spec, fmt, base_dir=self.document.base_dir)
                path.write_text(text, encoding="utf-8")
        except Exception as exc:
            self.statusBar().showMessage(f"Export failed: {exc}", 8000)
            return False
        self.statusBar().showMessage(f"Exported {path}", 4000)
        return True

    def ask_export(self, fmt: str) -> None:
        suffix = {"png": "png", "svg": "svg", "mermaid": "mmd", "langgraph": "py"}[fmt]
        stem = self.document.path.stem if self.document.path else "graph"
        path, _ = QFileDialog.getSaveFileName(self, f"Export {fmt}", f"{stem}.{suffix}")
        if path:
            self.export(fmt, Path(path))

    # -------------------------------------------------------------- autosave and recovery

    def write_autosave(self) -> None:
        if self.editor.stack.isClean():
            self.autosave.clear()
            return
        try:
            self.autosave.write(self.document.spec, self.document.path)
        except OSError as exc:
            why = "the disk is full" if exc.errno == errno.ENOSPC else (exc.strerror or str(exc))
            kept = " (the previous autosave is kept)" if self.autosave.file.exists() else ""
            self.statusBar().showMessage(f"Autosave failed: {why}{kept}. Save your work elsewhere.", 15000)

    def offer_recovery(self) -> None:
        self.recoveries = self.autosave.leftovers()
        if self.recoveries:
            self.recovery_banner.label.setText(self.recoveries[0].describe())
        self.recovery_banner.setVisible(bool(self.recoveries))

    def recover(self, index: int = 0) -> bool:
        if not 0 <= index < len(self.recoveries):
            return False
        found = self.recoveries.pop(index)
        self._start_editing(found.spec, found.original, trusted=False)
        self.editor.stack.resetClean()  # recovered work is unsaved work
        self._update_title()
        self.write_autosave()
        found.discard()
        self.offer_recovery()
        return True

    def discard_recovery(self) -> None:
        if self.recoveries:
            self.recoveries.pop(0).discard()
        self.offer_recovery()

    def quit(self) -> None:
        """File → Quit (Ctrl+Q): asks to save unsaved edits first."""
        if self.editor.stack.isClean() or self.pages.currentWidget() is not self.view:
            self.close()
        else:
            self.ask_to_save(then=self.close)

    def ask_to_save(self, then) -> QMessageBox:
        """Save / Don't save / Cancel for unsaved edits; `then` runs unless the user cancels (or
        a save fails). Non-blocking (`open`, not `exec`): the app keeps painting meanwhile."""
        name = self.document.path.name if self.document.path else (self.document.spec.name or "untitled")
        box = QMessageBox(QMessageBox.Icon.Question, "Unsaved changes", f"Save the changes to {name}?",
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                          | QMessageBox.StandardButton.Cancel, self)  # fmt: skip
        box.setObjectName("savePrompt")
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setInformativeText("Your edits are lost if you don't save them.")
        box.setDefaultButton(QMessageBox.StandardButton.Save)

        def answered(button) -> None:
            choice = box.standardButton(button)
            if choice == QMessageBox.StandardButton.Cancel or (choice == QMessageBox.StandardButton.Save and not self.save()):
                return
            if choice == QMessageBox.StandardButton.Discard:
                self.autosave.clear()
                self.editor.stack.setClean()  # the user chose to drop them: nothing to offer back
            then()

        box.buttonClicked.connect(answered)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        self.save_prompt = box
        return box

    def closeEvent(self, event) -> None:
        if self._closed:
            return super().closeEvent(event)
        if event.spontaneous() and not self.editor.stack.isClean():
            # the window manager's close button: ask first (a programmatic close, as at the
            # session's end, keeps the autosave instead and offers it back next time)
            event.ignore()
            self.ask_to_save(then=self.close)
            return
        self._closed = True
        self.save_layout()
        dirty = not self.editor.stack.isClean()
        if dirty:
            self.write_autosave()  # kept: offered back on the next start, never lost
        self.autosave.close(keep=dirty)
        self.runner.thread_selector.blockSignals(True)  # its focus-out "activated" would run after close
        self.runner.close()
        self._autosave_timer.stop()
        self.editor.stack.cleanChanged.disconnect(self._update_title)
        self.editor.stack.indexChanged.disconnect(self._edited)
        self.scene.selectionChanged.disconnect(self._selection_changed)
        for window in self.subgraph_windows:
            window.close()
        super().closeEvent(event)

    # -------------------------------------------------------------- editing commands

    def add_from_palette(self, payload: str, pos: QPointF) -> str | None:
        if self.pages.currentWidget() is not self.view:
            self.new_graph()
        if payload == "note":
            return self.editor.add_note(pos.x(), pos.y())
        if payload.startswith("node:"):
            return self.editor.add_node(payload[5:], round(pos.x() / 20) * 20, round(pos.y() / 20) * 20)
        if payload.startswith("middleware:"):
            target = self.view.ported_at(pos)
            node_id = getattr(target, "node_id", "")
            return node_id if self.editor.add_middleware(node_id, payload[11:]) else None
        return None

    def selected(self) -> list[str]:
        return self.scene.selected_ids()

    def delete_selection(self) -> None:
        self.editor.delete(self.selected())

    def copy(self) -> None:
        if self.selected():
            QApplication.clipboard().setText(self.editor.copy(self.selected()))

    def cut(self) -> None:
        self.copy()
        self.delete_selection()

    def paste(self) -> None:
        ids = self.editor.paste(QApplication.clipboard().text())
        if ids:
            self.scene.select_ids(ids)

    def select_all(self) -> None:
        for item in [*self.scene.nodes.values(), *self.scene.notes.values()]:
            item.setSelected(True)

    def rename_selected(self) -> None:
        nodes = [i for i in self.selected() if i in self.scene.nodes]
        if len(nodes) == 1:
            self.view.start_rename(nodes[0])

    def toggle_snap(self) -> None:
        self.scene.snap = self.actions_by_name["snap"].isChecked()

    def toggle_minimap(self) -> None:
        self.view.minimap_wanted = self.actions_by_name["minimap"].isChecked()
        self.view.place_minimap()

    # -------------------------------------------------------------- routes, breakpoints, menus

    def _one_node(self) -> str | None:
        nodes = [i for i in self.selected() if i in self.scene.nodes]
        if len(nodes) != 1:
            self.statusBar().showMessage("Select one node first", 4000)
            return None
        return nodes[0]

    def add_route(self, source: str, target: str) -> None:
        """A route drawn by a drag or picked in a menu: select its router for the inspector."""
        edge_id = self.editor.add_route(source, target)
        if edge_id is not None:
            self.scene.select_ids([edge_id])

    def add_conditional_edge(self) -> None:
        node = self._one_node()
        if node is not None:
            self.add_route(node, None)

    def convert_to_router(self) -> None:
        chosen = self.selected()
        source = chosen[0] if len(chosen) == 1 else None
        edge = next((e for e in self.document.spec.edges if e.id == source), None)
        if edge is not None and len(edge.sources) == 1:
            source = edge.sources[0]
        elif source is not None and source.startswith("finish:"):
            source = source[7:]
        elif source is not None and source.startswith("entry:"):
            source = "__start__"  # START's fan-out
        if source is None or (self.document.spec.node(source) is None and source != "__start__"):
            self.statusBar().showMessage("Select a node or one of its edges first", 4000)
            return
        if self.editor.convert_to_router(source):
            self.scene.select_ids([self.editor.router_of(source)])

    def convert_to_edges(self) -> None:
        chosen = [i for i in self.selected() if any(e.id == i for e in self.document.spec.conditional_edges)]
        if len(chosen) != 1:
            self.statusBar().showMessage("Select a conditional edge first", 4000)
            return
        self.editor.convert_to_edges(chosen[0])

    def toggle_breakpoint(self, which: str) -> None:
        node = self._one_node()
        if node is not None:
            self.editor.toggle_breakpoint(node, which)

    def duplicate_selection(self) -> None:
        ids = self.editor.duplicate(self.selected())
        if ids:
            self.scene.select_ids(ids)

    def show_context_menu(self, kind: str, element: str, pos: QPointF, global_pos) -> QMenu:
        hooks = MenuHooks(
            add_node=lambda k, at: self.add_from_palette(f"node:{k}", at),
            add_note=lambda at: self.add_from_palette("note", at),
            connect=self.editor.connect, add_route=self.add_route, open_subgraph=self.open_subgraph,
        )  # fmt: skip
        menu = build_menu(self.view, kind, element, pos, self.document.spec, self.actions_by_name, hooks)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(global_pos)
        self.context_menu = menu
        return menu

    def _show_breakpoints(self) -> None:
        """The run toolbar's list of breakpoints; its menu clears one or all."""
        bp = self.document.spec.breakpoints
        found = [("before", n) for n in bp.before] + [("after", n) for n in bp.after]
        button, menu = self.breakpoints_button, self.breakpoints_button.menu()
        shown = ", ".join(f"{w} {n}" for w, n in found[:3]) + (f" +{len(found) - 3}" if len(found) > 3 else "")
        button.setText(f"Breakpoints: {shown}" if found else "No breakpoints")
        button.setToolTip("Breakpoints (F9 before, Shift+F9 after the selected node): Run and Continue pause there\n"
                          + "\n".join(f"{w} {n}" for w, n in found))  # fmt: skip
        menu.clear()
        for which, node in found:
            act = menu.addAction(f"Clear breakpoint {which} {node}")
            act.triggered.connect(lambda _=False, w=which, n=node: self.editor.toggle_breakpoint(n, w))
        if not found:
            menu.addAction("Select a node and press F9 (before) or Shift+F9 (after)").setEnabled(False)

    # -------------------------------------------------------------- window layout and help

    def _settings(self) -> QSettings:
        return QSettings(str(studio_home() / "studio.ini"), QSettings.Format.IniFormat)

    def save_layout(self) -> None:
        """Window size and the docks, as the editor shows them, for the next start."""
        state = self.saveState() if self.pages.currentWidget() is self.view else self._editor_layout
        settings = self._settings()
        settings.setValue("window/geometry", self.saveGeometry())
        if state is not None:
            settings.setValue("window/state", state)
        settings.sync()

    def restore_layout(self) -> None:
        settings = self._settings()
        geometry, state = settings.value("window/geometry"), settings.value("window/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self._editor_layout = state

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not getattr(self, "_sized", False) and self.pages.currentWidget() is self.view:
            self._sized = True
            QTimer.singleShot(0, self.size_docks)

    def size_docks(self) -> None:
        """The inspector gets most of the right column (a router's routes, an agent's tools),
        and a short screen (720 or 768 lines) a lower bottom row; docks are sized once they
        are shown (Qt ignores sizes given to hidden docks), and not over a saved layout."""
        if self._editor_layout is not None:
            return
        if self.height() < 780:
            self.resizeDocks([self.dock_named("problemsDock")], [130], Qt.Orientation.Vertical)
        column = self.dock_named("inspectorDock").height() + self.dock_named("stateDock").height()
        self.resizeDocks([self.dock_named("inspectorDock"), self.dock_named("stateDock")],
                         [int(column * 0.62), int(column * 0.38)], Qt.Orientation.Vertical)  # fmt: skip

    def dock_named(self, name: str) -> QDockWidget:
        return next(d for d in self.docks if d.objectName() == name)

    def reset_layout(self) -> None:
        self.restoreState(self._default_layout)
        for dock in self.docks:
            dock.show()

    def show_shortcuts(self) -> QDialog:
        return open_dialog(shortcuts_dialog(self, list(self.actions_by_name.values())))

    def show_about(self) -> QDialog:
        return open_dialog(about_dialog(self))

    def select_element(self, element_id: str) -> None:
        items = self.scene.select_ids([element_id])
        if items:
            self.view.centerOn(items[0])
        elif self.document.spec.key(element_id) is not None:
            self.docks[2].raise_()
            names = [k.name for k in self.document.spec.state]
            self.state_panel.table.selectRow(names.index(element_id))

    def _findings(self, findings: list) -> None:
        self.scene.set_marks(findings)
        self.problems.show_findings(findings)
        errors = sum(f.severity == "error" for f in findings)
        self.docks[3].setWindowTitle(f"Problems ({errors} errors, {len(findings) - errors} warnings)")

    def _activated(self, element_id: str) -> None:
        node = self.document.spec.node(element_id)
        if node is not None and node.kind == "subgraph":
            self.open_subgraph(element_id)
        elif node is not None:
            self.view.start_rename(element_id)

    def open_subgraph(self, node_id: str) -> QMainWindow | None:
        """Show a subgraph node's inner graph in its own window (read-only for now)."""
        node = self.document.spec.node(node_id)
        sub = self.document.spec.subgraph(getattr(node, "subgraph", ""))
        if sub is None:
            self.statusBar().showMessage(f"{node_id}: no such subgraph", 6000)
            return None
        try:
            inner = resolve_subgraph(sub, self.document.base_dir)
        except Exception as exc:
            self.statusBar().showMessage(f"{node_id}: {exc}", 8000)
            return None
        window = QMainWindow(self)
        window.setObjectName("subgraphWindow")
        window.setWindowTitle(f"{node_id} — inner graph {sub.id} (read-only)")
        document = GraphDocument(inner)
        scene = GraphScene(document, read_only=True)
        scene.setParent(window)  # the view does not own its scene
        document.setParent(scene)
        view = GraphView(scene)
        view.setObjectName("subgraphCanvas")
        window.setCentralWidget(view)
        window.resize(800, 600)
        window.show()
        view.fit()
        self.subgraph_windows.append(window)
        return window
