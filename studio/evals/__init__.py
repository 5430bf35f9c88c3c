"""Datasets and experiments in the studio (issue 29): the Datasets dock (`dock.py`) and its
tables (`tables.py`) over `graphspec.evals`."""

from __future__ import annotations

from typing import Any

from studio.i18n import translate


def install(window: Any) -> None:
    """The Datasets dock, tabbed with Problems. Its panel, and graphspec.evals with it, is made
    when the dock is first shown or `window.datasets_dock` is first read (issue 32.1)."""
    from PySide6.QtCore import Qt

    def build() -> Any:
        from studio.evals.dock import DatasetsDock

        window.datasets_dock = DatasetsDock(window)
        return window.datasets_dock.panel

    window.add_lazy_dock("datasetsDock", translate("evals.dock", "Datasets"), build, Qt.DockWidgetArea.BottomDockWidgetArea,
                         tab_with="problemsDock", attribute="datasets_dock")  # fmt: skip


__all__ = ["install"]
