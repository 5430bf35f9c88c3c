"""Named workspace layouts: Design, Debug and Teach (View → Workspace, Alt+1..3, and the main
toolbar's `workspaceChooser`). A workspace says where every dock goes (tab groups per side),
which docks are in front and how wide the side columns are; the heights are measured, not
guessed: each tab group gets at least the full minimum height of the tallest panel it holds,
so whichever tab is raised, its buttons are on screen without scrolling (1280×720 and up).
Only sizes left over are shared by the workspace's weights.

No layout knowledge lives elsewhere: the run side, the chat, the Server and Tests docks are
placed here by objectName once every dock exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QScrollArea, QTabBar

from studio.i18n import QT_TRANSLATE_NOOP

Groups = tuple[tuple[str, ...], ...]
"""Tab groups along one side (top to bottom at the left and right, left to right below);
each group's first dock is its head, the others are tabbed with it."""

LEFT, RIGHT, BOTTOM = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea,
                       Qt.DockWidgetArea.BottomDockWidgetArea)  # fmt: skip
VERTICAL, HORIZONTAL = Qt.Orientation.Vertical, Qt.Orientation.Horizontal
DIRECT = Qt.FindChildOption.FindDirectChildrenOnly
SLACK = 12
"""Pixels of the separators between stacked docks, left out of a column's share."""


@dataclass(frozen=True)
class Workspace:
    name: str
    text: str
    tip: str
    left: Groups
    right: Groups
    bottom: Groups
    front: tuple[str, ...]
    """Raised in their group (the others stay behind their tab)."""
    hidden: tuple[str, ...] = ()
    """Placed (View → Panels shows them there) but closed."""
    left_width: int = 200
    left_weights: tuple[float, ...] = (1.0, 1.0)
    """How the left column's height left over after each group's minimum is shared."""
    right_width: int = 400
    right_weights: tuple[float, ...] = (1.0, 1.0)
    """How the right column's height left over after each group's minimum is shared."""
    bottom_share: float = 0.25
    """Of the window's height, the bottom row's when that is more than its panels need."""
    bottom_weights: tuple[float, ...] = (1.0, 1.0)

    def groups(self) -> list[tuple[Qt.DockWidgetArea, Groups]]:
        return [(LEFT, self.left), (RIGHT, self.right), (BOTTOM, self.bottom)]


WORKSPACES = (
    Workspace(
        "design", QT_TRANSLATE_NOOP("workspaces", "&Design"), QT_TRANSLATE_NOOP("workspaces", "Drawing a graph: palette, inspector and state large; problems "
        "and the trace below"),
        left=(("paletteDock",), ("runInputDock", "threadsDock")),
        right=(("inspectorDock", "chatDock", "deepAgentDock", "channelsDock"),
               ("stateDock", "historyDock")),
        # the trace, the widest reader, on its own beside the problems
        bottom=(("problemsDock", "testsDock", "eventsDock", "remoteDock"),
                ("traceDock", "timelineDock", "diffDock", "breakpointsDock")),
        front=("paletteDock", "runInputDock", "inspectorDock", "stateDock", "problemsDock",
               "traceDock"),
        # the palette's node kinds and note all in view at 1280×720, the run input whole
        left_width=190, left_weights=(6.0, 1.0), right_width=400, right_weights=(1.6, 1.0),
        bottom_share=0.2, bottom_weights=(1.0, 1.4),
    ),
    Workspace(
        "debug", QT_TRANSLATE_NOOP("workspaces", "De&bug"), QT_TRANSLATE_NOOP("workspaces", "Running and time travel: channels, checkpoints, trace and events large"),
        left=(("runInputDock", "paletteDock"), ("threadsDock",)),
        right=(("channelsDock", "inspectorDock", "deepAgentDock", "chatDock"),
               ("historyDock", "stateDock")),
        bottom=(("traceDock", "timelineDock", "diffDock", "breakpointsDock"),
                ("eventsDock", "problemsDock", "testsDock", "remoteDock")),
        front=("runInputDock", "threadsDock", "channelsDock", "historyDock", "traceDock",
               "eventsDock"),
        left_width=220, right_width=460, right_weights=(1.0, 1.3), bottom_share=0.3,
        bottom_weights=(1.2, 1.0),
    ),
    Workspace(
        "teach", QT_TRANSLATE_NOOP("workspaces", "&Teach"), QT_TRANSLATE_NOOP("workspaces", "Showing a run: the canvas largest, channels and checkpoints beside "
        "it, the trace below; the palette closed"),
        left=(("paletteDock",),),
        right=(("channelsDock", "inspectorDock", "stateDock", "chatDock", "deepAgentDock"),
               ("historyDock", "runInputDock", "threadsDock")),
        bottom=(("traceDock", "timelineDock", "diffDock", "breakpointsDock"),
                ("eventsDock", "problemsDock", "testsDock", "remoteDock")),
        front=("channelsDock", "historyDock", "traceDock", "eventsDock"),
        hidden=("paletteDock",),
        right_width=420, right_weights=(1.0, 1.0), bottom_share=0.26, bottom_weights=(1.6, 1.0),
    ),
)  # fmt: skip
DEFAULT = "design"


def workspace(name: str) -> Workspace:
    return next((w for w in WORKSPACES if w.name == name), WORKSPACES[0])


def panel_min_height(dock: QDockWidget) -> int:
    """The height the dock needs so that its panel does not scroll: the panel's own minimum
    (a DockScroll reports a capped one), plus the dock's title bar and frame."""
    holder = dock.widget()
    if holder is None:
        return 0
    panel = holder.widget() if type(holder).__name__ == "DockScroll" else holder
    full = panel.minimumSizeHint().height() if not isinstance(panel, QScrollArea) else 0
    reported = holder.minimumSizeHint().height()
    return dock.minimumSizeHint().height() - reported + max(full, reported)


def panel_min_width(dock: QDockWidget) -> int:
    return dock.minimumSizeHint().width()


def share(total: int, needs: list[int], weights: list[float]) -> list[int]:
    """`total` split so each part gets its need, and what is left over by weight."""
    extra = max(0, total - sum(needs))
    weight = sum(weights) or 1.0
    return [need + int(extra * w / weight) for need, w in zip(needs, weights, strict=True)]


class Workspaces:
    """The window's docks arranged as a workspace, and sized to it."""

    def __init__(self, window: Any) -> None:
        self.window = window
        self.current = workspace(DEFAULT)

    def dock(self, name: str) -> QDockWidget | None:
        return self.window.findChild(QDockWidget, name)

    def _group_docks(self, group: tuple[str, ...]) -> list[QDockWidget]:
        return [d for name in group if (d := self.dock(name)) is not None]

    def arrange(self, ws: Workspace, show: bool = True) -> None:
        """Put every dock where `ws` wants it; show the editor's docks (unless `show` is off:
        the start page keeps them closed), raise the front ones. A dock that is not one of the
        editor's (the Server dock) keeps its visibility."""
        win = self.window
        self.current = ws
        was_shown = {d.objectName(): d.isVisible() for d in win.findChildren(QDockWidget)}
        placed: list[tuple[QDockWidget, list[QDockWidget]]] = []
        for area, groups in ws.groups():
            orientation = HORIZONTAL if area == BOTTOM else VERTICAL
            previous = None
            for group in groups:
                docks = self._group_docks(group)
                if not docks:
                    continue
                for dock in docks:
                    win.removeDockWidget(dock)
                head = docks[0]
                if previous is None:
                    win.addDockWidget(area, head, orientation)
                else:  # split first: a tabbed dock does not split
                    win.splitDockWidget(previous, head, orientation)
                previous = head
                placed.append((head, docks[1:]))
        for head, others in placed:
            for other in others:
                win.tabifyDockWidget(head, other)
        editor_docks = set(win.docks)
        for head, others in placed:
            for dock in (head, *others):
                if dock in editor_docks:
                    dock.setVisible(show and dock.objectName() not in ws.hidden)
                else:
                    dock.setVisible(was_shown.get(dock.objectName(), False))
        for name in ws.front:
            if (dock := self.dock(name)) is not None and dock.isVisible():
                dock.raise_()

    def _shown_heads(self, groups: Groups) -> list[tuple[QDockWidget, list[QDockWidget]]]:
        """Each group with a dock on screen: that dock (the one to resize) and the group's docks."""
        found = []
        for group in groups:
            docks = self._group_docks(group)
            shown = [d for d in docks if d.isVisible() and not d.isFloating()]
            if shown:
                front = next((d for d in shown if not d.visibleRegion().isEmpty()), shown[0])
                found.append((front, docks))
        return found

    def _tab_bar(self, front: QDockWidget) -> int:
        """The height of the tab bar under a tab group (resizeDocks sizes the group with it)."""
        if not any(d.isVisible() for d in self.window.tabifiedDockWidgets(front)):
            return 0
        bars = [b for b in self.window.findChildren(QTabBar, options=DIRECT) if b.isVisible()]
        return max((b.height() for b in bars), default=QTabBar().sizeHint().height())

    def _column_need(self, groups: Groups) -> int:
        """The height a side column needs for every panel of its groups to fit unscrolled."""
        heads = self._shown_heads(groups)
        return sum(max(panel_min_height(d) for d in docks) + self._tab_bar(f) for f, docks in heads)

    def fit(self) -> None:
        """Size the columns and rows of the current workspace for the window as it is now."""
        win, ws = self.window, self.current
        for area, width in ((LEFT, ws.left_width), (RIGHT, ws.right_width)):
            heads = self._shown_heads(dict(ws.groups())[area])
            if heads:
                need = max(panel_min_width(d) for _, docks in heads for d in docks)
                win.resizeDocks([heads[0][0]], [max(width, need)], HORIZONTAL)
        bottom = self._shown_heads(ws.bottom)
        if bottom:
            need = max(panel_min_height(d) + self._tab_bar(f) for f, docks in bottom for d in docks)
            # the bottom row's share, but never what the side columns or the canvas need
            front = bottom[0][0]
            room = win.centralWidget().height() + front.height() + self._tab_bar(front)
            above = max(win.centralWidget().minimumSizeHint().height(),
                        self._column_need(ws.left), self._column_need(ws.right))  # fmt: skip
            height = max(need, min(int(win.height() * ws.bottom_share), room - above - SLACK))
            win.resizeDocks([f for f, _ in bottom], [height] * len(bottom), VERTICAL)
            total = sum(f.width() for f, _ in bottom)
            needs = [max(panel_min_width(d) for d in docks) for _, docks in bottom]
            weights = list(ws.bottom_weights[: len(bottom)])
            weights += [1.0] * (len(bottom) - len(weights))
            win.resizeDocks([f for f, _ in bottom], share(total, needs, weights), HORIZONTAL)
        for area, weights in ((RIGHT, ws.right_weights), (LEFT, ws.left_weights)):
            heads = self._shown_heads(dict(ws.groups())[area])
            if len(heads) < 2:
                continue
            bars = [self._tab_bar(f) for f, _ in heads]
            total = sum(f.height() + bar for (f, _), bar in zip(heads, bars, strict=True))
            needs = [max(panel_min_height(d) for d in docks) + bar
                     for (_, docks), bar in zip(heads, bars, strict=True)]  # fmt: skip
            weights = list(weights[: len(heads)]) + [1.0] * (len(heads) - len(weights))
            win.resizeDocks([f for f, _ in heads], share(total, needs, weights), VERTICAL)

    def cramped(self) -> bool:
        """Some dock on screen is shorter than its panel (it would scroll)."""
        return any(
            d.isVisible() and not d.visibleRegion().isEmpty() and d.height() < panel_min_height(d)
            for d in self.window.findChildren(QDockWidget)
            if not d.isFloating() and d.objectName() != "lectureDock"
        )
