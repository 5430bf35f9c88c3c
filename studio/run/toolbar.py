"""The run toolbar: run, step, continue, stop, the thread selector, new thread, durability,
and the status and progress in the status bar."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLabel, QProgressBar, QPushButton, QStyle, QToolBar

from studio.i18n import translate
from studio.run.runner import DURABILITIES


class RunToolbar:
    """Mixed into RunController: builds its toolbar (the slots are the controller's)."""

    def _tool_button(
        self, bar: QToolBar, name: str, text: str, tip: str, slot, icon=None
    ) -> QPushButton:
        button = QPushButton(text)
        if icon is not None:
            button.setIcon(self.window.style().standardIcon(icon))
        button.setObjectName(name)
        button.setToolTip(tip)
        button.clicked.connect(lambda _=False: slot())
        bar.addWidget(button)
        return button

    def _build_toolbar(self) -> None:
        bar = self.window.addToolBar("Run")
        bar.setObjectName("runToolbar")
        self.toolbar = bar
        sp = QStyle.StandardPixmap
        self.run_button = self._tool_button(bar, "runButton", translate("run.toolbar", "Run"), translate("run.toolbar", "Start a run with the input and run it to the end (F5)"),
                                       self.run, sp.SP_MediaPlay)  # fmt: skip
        self.step_button = self._tool_button(bar, "stepButton", translate("run.toolbar", "Step"), translate("run.toolbar", "Run one superstep (F10)"), self.step,
                                        sp.SP_MediaSkipForward)  # fmt: skip
        self.continue_button = self._tool_button(bar, "continueButton", translate("run.toolbar", "Continue"),
                                            translate("run.toolbar", "Run the paused run (or a breakpoint) to the end"), self.carry_on,
                                            sp.SP_MediaSeekForward)  # fmt: skip
        self.stop_button = self._tool_button(bar, "stopButton", translate("run.toolbar", "Stop"), translate("run.toolbar", "Stop after the current superstep"), self.stop,
                                        sp.SP_MediaStop)  # fmt: skip
        self.run_button.setShortcut("F5")
        self.step_button.setShortcut("F10")
        bar.addSeparator()
        bar.addWidget(QLabel(translate("run.toolbar", " Thread ")))
        # not editable: an editable combo sends `activated` when it loses focus, which once
        # restarted a paused run on every Step after "New thread"
        self.thread_selector = QComboBox()
        self.thread_selector.setObjectName("threadSelector")
        self.thread_selector.setMinimumWidth(120)
        self.thread_selector.setToolTip(
            translate(
                "run.toolbar", "The thread runs write checkpoints to; pick one to see its history"
            )
        )
        bar.addWidget(self.thread_selector)
        self._tool_button(
            bar,
            "newThreadButton",
            translate("run.toolbar", "New thread"),
            translate("run.toolbar", "A fresh thread with no history"),
            self.new_thread,
        )
        bar.addWidget(QLabel(translate("run.toolbar", " Durability ")))
        self.durability = QComboBox()
        self.durability.setObjectName("durabilityChooser")
        self.durability.addItems(list(DURABILITIES))
        self.durability.setToolTip(translate("run.toolbar", "When checkpoints are saved: async (beside the next step), sync (before "
                                   "the next step), exit (once, when the run ends)"))  # fmt: skip
        bar.addWidget(self.durability)
        self.progress = QProgressBar()
        self.progress.setObjectName("runProgress")
        self.progress.setMaximumWidth(110)
        self.progress.setMaximumHeight(14)
        self.progress.setTextVisible(False)
        self.status = QLabel(translate("run.toolbar", "Ready to run"))
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # node names and errors, never HTML
        self.status.setObjectName("runStatus")
        self.window.statusBar().addPermanentWidget(self.status)
        self.window.statusBar().addPermanentWidget(self.progress)
