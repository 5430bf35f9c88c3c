"""The Checkpoint diff dock: two checkpoints compared."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from engine.pregel.trace_format import short_version
from studio.i18n import translate
from studio.plain import plain_label, plain_tip
from studio.run.runner import is_internal
from studio.run.widgets import (
    INTERNAL,
    show,
    shown_or_dash,
    vbox,
)


class DiffPanel(QWidget):
    """Two checkpoints compared: channels changed (old → new, structurally), versions, each
    side's pending writes and next nodes."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("diffPanel")
        self.caption = plain_label(
            translate(
                "run.diff_panel", "Ctrl+click two checkpoints in Checkpoints to compare them."
            )
        )
        self.caption.setObjectName("diffCaption")
        self.caption.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setObjectName("checkpointDiff")
        self.tree.setHeaderLabels(
            [
                translate("run.diff_panel", "What"),
                translate("run.diff_panel", "Old"),
                translate("run.diff_panel", "New"),
            ]
        )
        self.tree.setColumnWidth(0, 220)
        self.tree.setColumnWidth(1, 260)
        self.tree.setUniformRowHeights(True)
        layout = vbox(self)
        layout.addWidget(self.caption)
        layout.addWidget(self.tree)
        self.diff: Any = None

    def _row(
        self, parent: Any, what: str, old: str = "", new: str = "", color: str | None = None
    ) -> QTreeWidgetItem:
        item = QTreeWidgetItem(parent, [what, old, new])
        for c, text in enumerate((what, old, new)):
            item.setToolTip(c, plain_tip(text))
        if color:
            for c in range(3):
                item.setForeground(c, QBrush(QColor(color)))
        return item

    def show_diff(self, diff: Any) -> None:
        self.diff = diff
        self.tree.clear()
        self.caption.setText(translate("run.diff_panel", "Step {old_step} ({value}) → step {new_step} ({value2}): {len} channel(s) differ, {unchanged} the same").format(old_step=diff.old_step, value=diff.old_id[-8:], new_step=diff.new_step, value2=diff.new_id[-8:], len=len(diff.channels), unchanged=diff.unchanged) + "".join(f"; {n}" for n in diff.notes))  # fmt: skip
        channels = self._row(
            self.tree,
            translate("run.diff_panel", "Channels changed ({len})").format(len=len(diff.channels)),
        )
        for c in sorted(diff.channels, key=lambda c: is_internal(c.channel)):  # state keys first
            old = shown_or_dash(c.old_value, 120) if c.old_has else "(empty)"
            new = shown_or_dash(c.new_value, 120) if c.new_has else "(empty)"
            color = "#2E7D32" if c.kind == "added" else "#C62828" if c.kind == "removed" else None
            versions = f"v{short_version(c.old_version)} → v{short_version(c.new_version)}"
            row = self._row(
                channels, f"{c.channel}  ({versions})", old, new, color
            )  # one row each: diffs are read in a short dock
            if is_internal(c.channel):
                row.setForeground(0, QBrush(INTERNAL))
            for part in (
                c.parts[1:] if len(c.parts) == 1 and c.parts[0].path == "(value)" else c.parts
            ):
                self._row(row, f"{part.path} {part.kind}", "" if part.kind == "added" else show(part.old, 100),
                          "" if part.kind == "removed" else show(part.new, 100))  # fmt: skip
        nxt = self._row(self.tree, translate("run.diff_panel", "Next nodes"), ", ".join(diff.old_next) or "(end)",
                        ", ".join(diff.new_next) or "(end)")  # fmt: skip
        nxt.setExpanded(True)
        writes = self._row(
            self.tree,
            translate("run.diff_panel", "Pending writes"),
            str(len(diff.old_writes)),
            str(len(diff.new_writes)),
        )
        for side, items in (("old", diff.old_writes), ("new", diff.new_writes)):
            for task_id, channel, value in items:
                text = f"{channel} = {show(value, 100)}"
                self._row(
                    writes,
                    f"task {task_id[:8]}",
                    text if side == "old" else "",
                    text if side == "new" else "",
                )
        self.tree.expandAll()

    def texts(self) -> list[str]:
        out: list[str] = []

        def walk(item: QTreeWidgetItem, depth: int) -> None:
            out.append("  " * depth + " | ".join(item.text(c) for c in range(3)))
            for i in range(item.childCount()):
                walk(item.child(i), depth + 1)

        for i in range(self.tree.topLevelItemCount()):
            walk(self.tree.topLevelItem(i), 0)
        return out
