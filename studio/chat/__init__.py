"""The chat view of a thread and the model providers' settings, wired into the main window
through its dock API (`install`)."""

from __future__ import annotations

from typing import Any

from studio.i18n import translate


def install(window: Any) -> None:
    """The Chat dock (tabbed with the inspector), View → Chat view / Graph view, and
    Edit → Model providers… The panel (`window.chat_panel`), with langchain-core's messages, is
    made right after the window's first paint, or before when the dock is shown or the
    attribute read (issue 32.1)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QAction, QKeySequence

    def build() -> Any:
        from studio.chat.chat_panel import ChatPanel

        window.chat_panel = ChatPanel(window.runner)
        return window.chat_panel

    dock = window.add_lazy_dock("chatDock", translate("chat.__init__", "Chat"), build, Qt.DockWidgetArea.RightDockWidgetArea,
                                tab_with="inspectorDock", attribute="chat_panel")  # fmt: skip

    def chat_view() -> None:
        dock.show()
        dock.raise_()
        window.chat_panel.input.setFocus()

    def provider_settings() -> None:
        from studio.chat.provider_dialog import ProviderSettingsDialog

        ProviderSettingsDialog(window).exec()

    def graph_view() -> None:
        window.view.setFocus()
        if (inspector := window.dock("inspectorDock")) is not None:
            inspector.raise_()

    for name, text, slot, keys in (("chat_view", translate("chat.__init__", "&Chat view"), chat_view, "Ctrl+Shift+C"),
                                   ("graph_view", translate("chat.__init__", "&Graph view"), graph_view, "Ctrl+Shift+G")):  # fmt: skip
        action = QAction(text, window)
        action.setObjectName(f"{name}Action")
        action.setShortcut(QKeySequence(keys))
        action.triggered.connect(slot)
        window.menus["&View"].addAction(action)
    settings = QAction(translate("chat.__init__", "Model &providers…"), window)
    settings.setObjectName("providerSettingsAction")
    settings.triggered.connect(provider_settings)
    window.menus["&Edit"].addSeparator()
    window.menus["&Edit"].addAction(settings)
