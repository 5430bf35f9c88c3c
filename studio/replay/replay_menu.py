"""The Tests dock's Replay button: a menu with the two replays and how they answer calls (a
changed call: use the recording, call live or stop; tools: served or run live)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu, QToolButton

from studio.i18n import QT_TRANSLATE_NOOP, translate

ON_CHANGE = ((QT_TRANSLATE_NOOP("replay.replay_menu", "Changed call: use the recording"), "recorded"), (QT_TRANSLATE_NOOP("replay.replay_menu", "Changed call: call it live"), "live"),
             (QT_TRANSLATE_NOOP("replay.replay_menu", "Changed call: stop the replay"), "fail"))  # fmt: skip
"""The replay policy for a call whose input changed since the recording, as the menu offers it."""


class ReplayMenu(QToolButton):
    """Replay ▾: `replay_requested(from_picked)` when one of the replays is chosen."""

    replay_requested = Signal(bool)

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("replayMenu")
        self.setText(translate("replay.replay_menu", "Replay"))
        self.setToolTip(translate("replay.replay_menu", "Run the current thread again on a new thread, its recorded model and "
                        "tool calls served instead of new ones, and compare the two runs"))  # fmt: skip
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self)
        menu.setObjectName("replayMenuItems")
        self.actions_by_name: dict[str, QAction] = {}
        self._add(
            menu,
            "replayThread",
            translate("replay.replay_menu", "Replay thread"),
            lambda: self.replay_requested.emit(False),
        )
        self._add(menu, "replayFrom", translate("replay.replay_menu", "Replay from the picked checkpoint"),
                  lambda: self.replay_requested.emit(True))  # fmt: skip
        menu.addSeparator()
        group = QActionGroup(self)
        for i, (text, policy) in enumerate(ON_CHANGE):
            action = self._add(
                menu, f"onChange_{policy}", translate("replay.replay_menu", text), None
            )
            action.setCheckable(True)
            action.setChecked(i == 0)
            group.addAction(action)
        menu.addSeparator()
        self.tools_live = self._add(menu, "toolsLive", translate("replay.replay_menu", "Run tools live (serve model calls only)"),
                                    None)  # fmt: skip
        self.tools_live.setCheckable(True)
        self.setMenu(menu)

    def _add(self, menu: QMenu, name: str, text: str, slot) -> QAction:
        action = menu.addAction(text)
        action.setObjectName(f"{name}Action")
        if slot is not None:
            action.triggered.connect(slot)
        self.actions_by_name[name] = action
        return action

    @property
    def policy(self) -> str:
        return next(p for _, p in ON_CHANGE if self.actions_by_name[f"onChange_{p}"].isChecked())

    @property
    def serve(self) -> tuple[str, ...]:
        return ("model",) if self.tools_live.isChecked() else ("model", "tool")
