"""Opening a script runs its code (graphspec.program_script): its top-level code, then its
`if __name__ == "__main__":` block, and some never end: a server, an endless loop. After a
moment a dialog says which part is still running and how many graphs it has run so far, and
offers to stop it and open those. With nobody there to answer, it is stopped after a while
instead of waiting for ever."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QProgressDialog

from graphspec.program_script import STOPPED, STUCK, TOP_LEVEL
from studio.i18n import translate

SHOW_AFTER = 1.0
"""Seconds before the dialog shows: most blocks end sooner, and the window is not repainted
until then."""
UNATTENDED_LIMIT = 60.0
"""Seconds a block may run when nobody is there to stop it (`superstep studio --quit`, a
screenshot): then it is stopped, as the user would have."""


class MainBlockWait:
    """program_script's KeepWaiting for the studio: answers False once the user stops the code
    running, or, `attended=False`, once it has run UNATTENDED_LIMIT seconds."""

    def __init__(self, window: Any, path: Path, *, attended: bool = True) -> None:
        self._window, self._path, self._attended = window, path, attended
        self._started = time.monotonic()
        self._dialog: QProgressDialog | None = None

    def __call__(self, graphs: int, part: str) -> bool:
        waited = time.monotonic() - self._started
        if not self._attended:
            return waited < UNATTENDED_LIMIT
        if self._dialog is None:
            if waited < SHOW_AFTER:
                return True
            self._dialog = self._open()
        text = (
            translate("main_block_wait", "Running {name}'s top-level code...\n"
                      "Graphs it has run so far: {count}")
            if part == TOP_LEVEL
            else translate("main_block_wait", 'Running {name}\'s if __name__ == "__main__" '
                           "block...\nGraphs it has run so far: {count}")
        )  # fmt: skip
        self._dialog.setLabelText(text.format(name=self._path.name, count=graphs))
        QApplication.processEvents()  # paint, and hear the button
        return not self._dialog.wasCanceled()

    def _open(self) -> QProgressDialog:
        dialog = QProgressDialog(self._window)
        dialog.setObjectName("mainBlockProgress")
        dialog.setWindowTitle(translate("main_block_wait", "Opening {name}").format(name=self._path.name))  # fmt: skip
        dialog.setCancelButtonText(translate("main_block_wait", "Stop it and open what it ran"))
        dialog.setRange(0, 0)  # no end known: a busy bar
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setAutoReset(False)
        dialog.setAutoClose(False)
        dialog.setMinimumDuration(0)
        dialog.show()
        return dialog

    def close(self) -> None:
        if self._dialog is not None:
            self._dialog.close()
            self._dialog.deleteLater()
            self._dialog = None


def stopped_text(stopped: str) -> str:
    """How a block ended early, in the user's language where the words are ours."""
    if stopped == STOPPED:
        return translate("main_block_wait", "it was still running and was stopped")
    if stopped == STUCK:
        return translate("main_block_wait", "it was still running and could not be stopped")
    return stopped


__all__ = ["SHOW_AFTER", "UNATTENDED_LIMIT", "MainBlockWait", "stopped_text"]
