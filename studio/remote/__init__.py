"""Attach the studio to a LangGraph server (`langgraph dev`, `langgraph up`, a deployment) over
langgraph_sdk: the Server dock, wired into the main window through its dock API (`install`)."""

from __future__ import annotations

from typing import Any

from studio.i18n import translate


def install(window: Any) -> None:
    """The Server dock (bottom, tabbed with Problems) and File → Connect to server…"""
    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtGui import QAction

    def build() -> Any:  # when first shown (issue 32.1): the window draws without it
        from studio.remote.remote_dock import RemoteDock

        window.remote_panel = RemoteDock()
        return window.remote_panel

    bottom = Qt.DockWidgetArea.BottomDockWidgetArea
    dock = window.add_lazy_dock("remoteDock", translate("remote.__init__", "Server"), build, bottom, tab_with="problemsDock",
                                attribute="remote_panel")  # fmt: skip
    # not one of the editor's docks: opening a graph would show it, and the start page hide it,
    # but a server is looked at with or without a graph open; File → Connect to server… shows it
    window.docks.remove(dock)
    dock.hide()

    def show() -> None:
        dock.show()
        dock.raise_()
        QTimer.singleShot(0, window.refit_if_cramped)  # a layout of the user's may be too short
        window.remote_panel.url_edit.setFocus()
        window.remote_panel.url_edit.selectAll()

    action = QAction(translate("remote.__init__", "Connect to &server…"), window)
    action.setObjectName("connectServerAction")
    action.setToolTip(
        translate(
            "remote.__init__",
            "Attach to a LangGraph server: its assistants, threads and checkpoints",
        )
    )
    action.triggered.connect(show)
    menu = window.menus["&File"]
    quit_action = window.actions_by_name.get("quit")
    menu.insertAction(quit_action, action) if quit_action is not None else menu.addAction(action)
