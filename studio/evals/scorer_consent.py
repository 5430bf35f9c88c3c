"""Consent to run a dataset's `python:` scorers: code, asked for as code is (the spec's own
trust covers them; otherwise a prompt naming each file). Kept for the session, per file
content: a file changed since asks again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from graphspec.trust import digest
from studio.i18n import translate


class ScorerConsent:
    def __init__(self) -> None:
        self.agreed: set[tuple[Path, str]] = set()
        self.prompt: QMessageBox | None = None

    @staticmethod
    def _key(path: Path) -> tuple[Path, str] | None:
        try:
            return path, digest(path.read_bytes())
        except OSError:
            return None  # a missing file runs nothing; the scorer says it is missing

    def unasked(self, files: list[Path]) -> list[Path]:
        return [f for f in files if (key := self._key(f)) is not None and key not in self.agreed]

    def ask(self, parent: QWidget, files: list[Path], then: Callable[[], None]) -> QMessageBox:
        """A non-blocking Run / Cancel prompt; on Run, consent is kept and `then` runs."""
        names = "\n".join(str(f) for f in files)
        box = QMessageBox(QMessageBox.Icon.Warning, translate("evals.scorer_consent", "Run the scorers' Python code?"),
                          translate("evals.scorer_consent", "This dataset's scorers run Python code from:\n{names}").format(names=names),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                          parent)  # fmt: skip
        box.setObjectName("scorerTrustPrompt")
        box.setTextFormat(Qt.TextFormat.PlainText)  # file names, never HTML
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)

        def answered(button) -> None:
            if box.standardButton(button) == QMessageBox.StandardButton.Yes:
                self.agreed.update(k for f in files if (k := self._key(f)) is not None)
                then()

        box.buttonClicked.connect(answered)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        self.prompt = box
        return box
