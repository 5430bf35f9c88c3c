"""Record and replay in the studio: the run diff, saved tests and the panels that show them."""

from __future__ import annotations

from typing import Any


def install(window: Any) -> None:
    """The Tests dock (tabbed with Problems) and recording of the window's runs: the dock
    (`window.replay_dock`, with the saved tests' and recordings' modules) is made right after
    the window's first paint, or before when shown or read: no run starts before (issue 32.1).
    `window.calls_relay` passes on its recorded calls from the start."""
    from PySide6.QtCore import Qt

    from studio.i18n import translate
    from studio.replay.calls_relay import CallsRelay

    window.calls_relay = CallsRelay(window)

    def build() -> Any:
        from studio.replay.dock import ReplayDock

        window.replay_dock = ReplayDock(window)
        window.replay_dock.call_recorded.connect(window.calls_relay.recorded)
        return window.replay_dock.panel

    window.add_lazy_dock("testsDock", translate("replay.dock", "Tests"), build, Qt.DockWidgetArea.BottomDockWidgetArea,
                         tab_with="problemsDock", attribute="replay_dock")  # fmt: skip


__all__ = ["install"]
