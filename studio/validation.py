"""Live validation: a moment after each edit, run graphspec.validator on a worker thread."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal

from graphspec.errors import Finding
from studio.document import GraphDocument
from studio.i18n import translate
from studio.workers import run_in_thread


class LiveValidator(QObject):
    """Validates the document's current spec after edits settle; stale results are dropped."""

    findings_ready = Signal(list)

    def __init__(self, document: GraphDocument, delay_ms: int = 200) -> None:
        super().__init__()
        self.document = document
        self.findings: list[Finding] = []
        self.busy = False
        self._generation = 0
        self._timer = QTimer(self, singleShot=True, interval=delay_ms, timeout=self.run_now)
        document.changed.connect(lambda _fields: self.schedule())
        document.reset.connect(self.schedule)

    def schedule(self) -> None:
        self.busy = True
        self._generation += 1
        self._timer.start()

    def run_now(self) -> None:
        generation = self._generation
        spec, base_dir = self.document.spec, self.document.base_dir
        drawn = self.document.code is not None  # compiled already: nothing a spec check adds
        # here, on the GUI thread, once a spec is open: the checks (agents, providers, networkx)
        # are not needed to draw the window, and a worker thread should not be the one to import
        from graphspec.validator import validate

        def work() -> list[Finding]:
            return [] if drawn else validate(spec, base_dir=base_dir)

        def done(findings, error) -> None:
            if generation != self._generation:
                return  # an edit came in meanwhile: its own run follows
            if error is not None:
                findings = [
                    Finding(
                        "$",
                        translate("validation", "validator failed: {error}").format(error=error),
                        code="validator",
                    )
                ]
            self.findings = findings
            self.busy = False
            self.findings_ready.emit(findings)

        run_in_thread(work, done)
