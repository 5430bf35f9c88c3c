"""A checkpoint's state in a window of its own (objectName `checkpointStateDialog`): the
Checkpoints dock at 1280×720 shows two lines of its state editor, so a designer double-clicking
a checkpoint (or picking Edit its state…) edits the whole state here and forks from it."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QDialogButtonBox, QLabel, QWidget

from studio.i18n import translate
from studio.panels.code_editor import CodeDialog


class ForkDialog(CodeDialog):
    """The state as JSON, big; `Fork with edited state` hands the text to `fork`, which says
    why it cannot fork (the dialog stays open showing it) or "" (it forked: the dialog closes)."""

    def __init__(self, title: str, text: str, fork: Callable[[str], str], parent: QWidget) -> None:
        super().__init__("json", text, parent)
        self.setObjectName("checkpointStateDialog")
        self.setWindowTitle(title)
        self.editor.setObjectName("checkpointStateEditor")
        self._fork = fork
        buttons = self.findChild(QDialogButtonBox)
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText(translate("run.fork_dialog", "Fork with edited state"))
        ok.setObjectName("checkpointStateFork")
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setObjectName(
            "checkpointStateCancel"
        )
        self.status = self.findChild(QLabel, "popOutStatus")
        self.resize(560, 420)  # inside a 1280×720 window, the canvas still beside it

    def accept(self) -> None:
        why = self._fork(self.editor.toPlainText())
        if why:
            self.status.setText(why)
            return
        super().accept()
