"""The run diff, side by side: for each superstep the tasks of the old and the new run, what
their tasks wrote and how the state after it differs; the path of each run on top. Steps that
differ are tinted and open; the same ones are listed closed."""

from __future__ import annotations

from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QSizePolicy, QTreeWidget, QTreeWidgetItem, QWidget

from studio.i18n import translate
from studio.plain import plain_label, plain_tip
from studio.replay.run_diff import RunDiff, path_text
from studio.run.diff_panel import DiffPanel
from studio.run.widgets import CHANGED, show, vbox


class RunDiffPanel(QWidget):
    """Two runs compared superstep by superstep (a RunDiff)."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("runDiffPanel")
        self.caption = plain_label(
            translate(
                "replay.run_diff_panel",
                "Replay a thread, or run a saved test, to compare two runs.",
            )
        )
        self.caption.setObjectName("runDiffCaption")
        # one line, cut at the edge (the whole text is its tooltip): a short dock stays short
        self.caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.tree = QTreeWidget()
        self.tree.setObjectName("runDiff")
        self.tree.setHeaderLabels(
            [
                translate("replay.run_diff_panel", "Step"),
                translate("replay.run_diff_panel", "Old"),
                translate("replay.run_diff_panel", "New"),
            ]
        )
        self.tree.setColumnWidth(0, 280)
        self.tree.setColumnWidth(1, 280)
        layout = vbox(self)
        layout.addWidget(self.caption)
        layout.addWidget(self.tree)
        self.diff: RunDiff | None = None

    def _row(self, parent, what: str, old: str = "", new: str = "", tint: bool = False):
        item = QTreeWidgetItem(parent, [what, old, new])
        for c, text in enumerate((what, old, new)):
            item.setToolTip(c, plain_tip(text))
        if tint:
            for c in range(3):
                item.setBackground(c, QBrush(CHANGED))
        return item

    def show_diff(self, diff: RunDiff) -> None:
        self.diff = diff
        self.tree.clear()
        changed = diff.changed_steps
        text = f"{diff.old_name} (old) → {diff.new_name} (new): " + (
            translate("replay.run_diff_panel", "the same in every step")
            if diff.same
            else f"{len(changed)} step(s) differ"
        )
        self.caption.setText(text)
        self.caption.setToolTip(plain_tip(text))
        self._row(self.tree, "Path", path_text(diff.old_path), path_text(diff.new_path),
                  diff.old_path != diff.new_path)  # fmt: skip
        for step in diff.steps:
            row = self._row(self.tree, f"Step {step.step}", step.old_text, step.new_text,
                            not step.same)  # fmt: skip
            for writes in step.writes:
                for part in writes.parts:
                    self._part(row, f"{writes.name} wrote {part.path}".rstrip(), part)
            for part in step.state:
                self._part(row, f"state {part.path}", part)
            row.setExpanded(not step.same)
        if diff.final:
            final = self._row(
                self.tree, translate("replay.run_diff_panel", "Final state"), "", "", True
            )
            for part in diff.final:
                self._part(final, part.path or "(value)", part)
            final.setExpanded(True)

    def _part(self, parent, what: str, part) -> None:
        old = "" if part.kind == "added" else show(part.old, 100)
        new = "" if part.kind == "removed" else show(part.new, 100)
        self._row(parent, what, old, new)

    def clear(self) -> None:
        self.diff = None
        self.tree.clear()

    texts = DiffPanel.texts  # each row as "what | old | new", indented by depth (for tests)
