"""The main window's frame: banners, the central pages, docks, View → Panels, Help, and the
window layout saved in QSettings (studio.ini under the studio's home) for the next start.

`WindowLayout` is a mixin of `studio.main_window.MainWindow`; it uses the window's `docks`,
`pages`, `view`, `start_page`, `menus`, `runner` and `actions_by_name`.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDockWidget,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStackedWidget,
    QTabBar,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from studio import files
from studio.dock_scroll import scrolled
from studio.i18n import translate
from studio.language_menu import add_language_menu
from studio.panels.help_dialogs import about_dialog, open_dialog, shortcuts_dialog
from studio.panels.inspector_panel import InspectorPanel
from studio.panels.palette_panel import PalettePanel
from studio.panels.problems_panel import ProblemsPanel
from studio.panels.start_page import StartPage
from studio.panels.state_panel import StatePanel
from studio.paths import settings
from studio.startup import thaw
from studio.workspaces import WORKSPACES, Workspaces, workspace


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


class _ShownWatcher(QObject):
    """Calls `changed()` when a watched widget is shown or hidden (a bar above the canvas takes
    height from the docks beside it)."""

    def __init__(self, parent: QObject, changed) -> None:
        super().__init__(parent)
        self.changed = changed

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Show, QEvent.Type.Hide):
            self.changed()
        return False


class _AfterFirstPaint(QObject):
    """Calls `then()` once the window has painted for the first time (from the event loop, so
    the window is on screen first), and removes itself."""

    def __init__(self, window: QWidget, then: Callable[[], None]) -> None:
        super().__init__(window)
        self.then = then

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            QTimer.singleShot(0, self.then)
        return False


class WindowLayout:
    """Builds the window's frame and keeps its layout; mixed into MainWindow."""

    def _fit_to_screen(self) -> None:
        """1440×900 where it fits, else the screen's free area (a 1280×720 laptop included)."""
        screen = self.screen().availableGeometry() if self.screen() else None
        if screen is None or screen.width() < 400:
            self.resize(1440, 900)
            return
        self.resize(min(1440, screen.width()), min(900, screen.height()))

    # -------------------------------------------------------------- layout

    def _build_central(self) -> None:
        self._lazy: dict[str, Callable[[], None]] = {}
        self.installEventFilter(_AfterFirstPaint(self, self._after_first_paint))
        self.trust_banner = Banner("trustBanner", "#FFF4D6")
        self.trust_banner.add_button(
            "trustButton", translate("window_layout", "Trust and allow running"), self.trust
        )
        self.code_banner = Banner("codeBanner", "#E8F5E9")
        self.recovery_banner = Banner("recoveryBanner", "#E3F0FF")
        self.recovery_banner.add_button(
            "recoverButton", translate("window_layout", "Recover"), self.ask_recover
        )
        self.recovery_banner.add_button(
            "discardRecoveryButton", translate("window_layout", "Discard"), self.discard_recovery
        )
        self.start_page = StartPage()
        self.pages = QStackedWidget()
        self.pages.addWidget(self.start_page)
        self.pages.addWidget(self.view)
        # the start page's own minimum would count while the canvas shows (a stack's minimum is
        # its largest page's) and take that height from the docks; it has the window to itself
        self.pages.setMinimumHeight(160)
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self._bars_watcher = _ShownWatcher(self, self._layout_changed)
        for widget in (self.recovery_banner, self.trust_banner, self.code_banner, self.pages):
            layout.addWidget(widget)
            widget.installEventFilter(self._bars_watcher)
        self.setCentralWidget(central)

    def _dock(self, name: str, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        """The dock holds the panel in a DockScroll (studio/dock_scroll.py): find panels by
        objectName, not as `dock.widget()`."""
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(scrolled(widget))
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

    def add_lazy(self, name: str, build: Callable[[], None], *attributes: str) -> None:
        """A part of the window that `build()` makes (and its modules load) right after the
        window's first paint, or before when `build_lazy(name)` asks for it or code reads one
        of the window's `attributes` that `build` sets: what the first screen does not show
        does not delay it."""
        self._lazy[name] = build
        for attribute in attributes:
            self.__dict__.setdefault("_lazy_attributes", {})[attribute] = name

    def add_lazy_dock(self, name: str, title: str, build: Callable[[], QWidget],
                      area: Qt.DockWidgetArea, tab_with: str | None = None,
                      attribute: str | None = None) -> QDockWidget:  # fmt: skip
        """A dock like `add_dock`'s whose panel `build()` makes, as `add_lazy` says, or before
        when the dock is shown: a panel hidden or tabbed behind another at start does not
        delay the window."""
        dock = self.add_dock(name, title, QWidget(), area, tab_with)
        self.add_lazy(name, lambda: dock.setWidget(scrolled(build())), *filter(None, [attribute]))
        dock.visibilityChanged.connect(lambda shown: shown and self.build_lazy(name))
        return dock

    def _after_first_paint(self) -> None:
        thaw()  # what start-up froze goes back to the collector (studio/startup.py)
        if getattr(self, "_closed", False):
            return  # closed before its first paint was over: nothing will show them
        for name in list(self._lazy):
            self.build_lazy(name)

    def build_lazy(self, name: str) -> None:
        """Build a lazy part (a dock's panel) now (nothing when it is built or not lazy)."""
        build = self.__dict__.get("_lazy", {}).pop(name, None)
        if build is not None:
            build()

    def __getattr__(self, attribute: str):
        # reached only for an attribute not set yet: a lazy dock's builds its panel
        name = self.__dict__.get("_lazy_attributes", {}).pop(attribute, None)
        if name is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {attribute!r}")
        self.build_lazy(name)
        return getattr(self, attribute)

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
        widget.installEventFilter(self._bars_watcher)

    def _build_docks(self) -> None:
        self.palette = PalettePanel()
        self.inspector = InspectorPanel(self.editor)
        self.state_panel = StatePanel(self.editor)
        self.problems = ProblemsPanel()
        left, right, bottom = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea,
                               Qt.DockWidgetArea.BottomDockWidgetArea)  # fmt: skip
        self.docks = [
            self._dock("paletteDock", translate("window_layout", "Palette"), self.palette, left),
            self._dock(
                "inspectorDock", translate("window_layout", "Inspector"), self.inspector, right
            ),
            self._dock("stateDock", translate("window_layout", "State"), self.state_panel, right),
            self._dock(
                "problemsDock", translate("window_layout", "Problems"), self.problems, bottom
            ),
        ]  # where they go and how big: the workspace's (studio/workspaces.py)

    def _build_window_menus(self) -> None:
        """View → Panels (every dock, the run side's included), View → Workspace and Help;
        built once every dock exists."""
        panels = self.menus["&View"].addMenu(translate("window_layout", "&Panels"))
        panels.setObjectName("panelsMenu")
        for dock in self.docks:
            panels.addAction(dock.toggleViewAction())
        self._build_workspaces()
        add_language_menu(self)
        self.menus["&View"].addAction(
            self._action(
                "reset_layout", translate("window_layout", "&Reset panels"), self.reset_layout
            )
        )
        help_menu = self.menuBar().addMenu(translate("window_layout", "&Help"))
        help_menu.addAction(
            self._action(
                "shortcuts",
                translate("window_layout", "&Keyboard shortcuts"),
                self.show_shortcuts,
                "F1",
            )
        )
        help_menu.addAction(
            self._action(
                "about", translate("window_layout", "&About Superstep Studio"), self.show_about
            )
        )
        self._build_breakpoints_button()
        self._place_toolbars()
        self._cramped_timer = QTimer(self)
        self._cramped_timer.setSingleShot(True)
        self._cramped_timer.setInterval(120)
        self._cramped_timer.timeout.connect(self.refit_if_cramped)

    def _build_workspaces(self) -> None:
        """View → Workspace (`workspaceMenu`, Alt+1..3) and the main toolbar's
        `workspaceChooser`; studio/workspaces.py says what each one is."""
        self.workspaces = Workspaces(self)
        menu = self.menus["&View"].addMenu(translate("window_layout", "&Workspace"))
        menu.setObjectName("workspaceMenu")
        group = QActionGroup(self)
        self.workspace_chooser = QComboBox()
        self.workspace_chooser.setObjectName("workspaceChooser")
        self.workspace_chooser.setToolTip(
            translate("window_layout", "Workspace: where the panels are (View → Workspace)")
        )
        for number, ws in enumerate(WORKSPACES, start=1):
            action: QAction = self._action(f"workspace_{ws.name}", translate("workspaces", ws.text),
                                           lambda n=ws.name: self.choose_workspace(n),
                                           f"Alt+{number}")  # fmt: skip
            action.setCheckable(True)
            action.setToolTip(translate("workspaces", ws.tip))
            group.addAction(action)
            menu.addAction(action)
            self.workspace_chooser.addItem(
                translate("workspaces", ws.text).replace("&", ""), ws.name
            )
            self.workspace_chooser.setItemData(
                number - 1, translate("workspaces", ws.tip), Qt.ItemDataRole.ToolTipRole
            )
        self.workspace_chooser.activated.connect(
            lambda i: self.choose_workspace(self.workspace_chooser.itemData(i))
        )
        toolbar = self.findChild(QToolBar, "mainToolbar")
        toolbar.addSeparator()
        toolbar.addWidget(self.workspace_chooser)
        self._show_workspace()

    def _show_workspace(self) -> None:
        name = self.workspaces.current.name
        self.actions_by_name[f"workspace_{name}"].setChecked(True)
        self.workspace_chooser.setCurrentIndex(self.workspace_chooser.findData(name))

    def choose_workspace(self, name: str) -> None:
        """Arrange the docks as the workspace `name` wants, sized for the window as it is; on
        the start page, the editor opens in it."""
        ws = workspace(name)
        self.workspaces.current = ws
        self._show_workspace()
        if self.pages.currentWidget() is not self.view:
            self._editor_layout = None
            return
        whole = self.view.shows_all()
        self.workspaces.arrange(ws)
        self._fit_docks()
        if whole:  # a narrower canvas (Debug's wider docks) still shows all of the graph
            QTimer.singleShot(0, lambda: self.view.shows_all() or self.view.fit())

    def _fit_docks(self) -> None:
        """Size the docks now and once more when Qt has laid out the ones just shown; a hidden
        window is sized when it is first shown (Qt ignores sizes given to hidden docks)."""
        self._fit_pending = not self.isVisible()
        self.workspaces.fit()
        QTimer.singleShot(0, self.workspaces.fit)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if getattr(self, "_fit_pending", False) and self.pages.currentWidget() is self.view:
            self._fit_docks()

    def _place_toolbars(self) -> None:
        """Both toolbars on one row when they fit it, else the run toolbar on a row of its own
        (no button of it hides behind the toolbar's » extension)."""
        main = self.findChild(QToolBar, "mainToolbar")
        run = self.runner.toolbar
        wide = main.sizeHint().width() + run.sizeHint().width() + 24 <= self.width()
        if self.toolBarBreak(run) == wide:
            if wide:
                self.removeToolBarBreak(run)
            else:
                self.insertToolBarBreak(run)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if hasattr(self, "_cramped_timer"):
            self._place_toolbars()
        self._layout_changed()

    def _layout_changed(self) -> None:
        """The window or a bar above the canvas changed size: check the docks soon after."""
        if hasattr(self, "_cramped_timer"):
            self._cramped_timer.start()

    def refit_if_cramped(self) -> None:
        """After a resize (or a bar shown above the canvas): a dock shorter than its panel (its
        buttons behind a scroll bar) gets the workspace's sizes again; a layout that fits is
        the user's and left alone."""
        if self.pages.currentWidget() is self.view and self.workspaces.cramped():
            self.workspaces.fit()

    # -------------------------------------------------------------- pages

    def show_start(self) -> None:
        self.start_page.set_recent(files.recent_files())
        if self.pages.currentWidget() is self.view:
            self._editor_layout = self.saveState()
        self.pages.setCurrentWidget(self.start_page)
        for dock in self.docks:
            dock.hide()
        for bar in self.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly):
            bar.hide()  # a tabbed dock group's tab bar outlives its hidden docks (Qt leaves it)
        self.runner.toolbar.setEnabled(False)  # nothing to run on the start page

    def show_editor(self) -> None:
        came_from_start = self.pages.currentWidget() is not self.view
        self.pages.setCurrentWidget(self.view)
        if came_from_start:
            if self._editor_layout is None or not self.restoreState(self._editor_layout):
                self.workspaces.arrange(self.workspaces.current)
                self._fit_docks()
            else:
                self._layout_changed()  # a layout saved at another window size may be too short
        self.runner.toolbar.setEnabled(True)
        self.view.setFocus()

    # -------------------------------------------------------------- window layout and help

    def _settings(self) -> QSettings:
        return settings()

    def save_layout(self) -> None:
        """Window size, workspace and the docks, as the editor shows them, for the next start."""
        state = self.saveState() if self.pages.currentWidget() is self.view else self._editor_layout
        settings = self._settings()
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/workspace", self.workspaces.current.name)
        if state is not None:
            settings.setValue("window/state", state)
        else:
            settings.remove("window/state")
        settings.sync()

    def restore_layout(self) -> None:
        settings = self._settings()
        geometry, state = settings.value("window/geometry"), settings.value("window/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        self.workspaces.current = workspace(str(settings.value("window/workspace", "")))
        self._show_workspace()
        if state is not None:
            self._editor_layout = state

    def dock_named(self, name: str) -> QDockWidget:
        return next(d for d in self.docks if d.objectName() == name)

    def reset_layout(self) -> None:
        """The current workspace as it first was: every dock in its place, sized to fit."""
        if self.pages.currentWidget() is self.view:
            self.choose_workspace(self.workspaces.current.name)
        else:
            self._editor_layout = None

    def show_shortcuts(self) -> QDialog:
        return open_dialog(shortcuts_dialog(self, list(self.actions_by_name.values())))

    def show_about(self) -> QDialog:
        return open_dialog(about_dialog(self))
