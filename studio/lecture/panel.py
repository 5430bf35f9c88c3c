"""The lecture panel (objectName `lecturePanel`): the lesson's explanation, the phase on screen
in words, the player's controls and the exports.

objectNames: `lectureLessonTitle`, `lectureLessonText`, `lecturePhaseTitle`,
`lecturePhaseText`, `lecturePlayButton`, `lecturePauseButton`, `lectureNextButton`,
`lectureSpeed` (a slider, tenths of 1×) with `lectureSpeedLabel`, `lectureExportStepButton`,
`lectureExportPhasesButton`.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from studio.i18n import translate
from studio.lecture.phases import Phase


def _label(name: str, wrap: bool = True) -> QLabel:
    label = QLabel()
    label.setObjectName(name)
    label.setTextFormat(Qt.TextFormat.PlainText)  # node names and values, never HTML
    label.setWordWrap(wrap)
    label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    return label


class LecturePanel(QWidget):
    play_requested = Signal()
    pause_requested = Signal()
    next_requested = Signal()
    speed_changed = Signal(float)
    export_step_requested = Signal()
    export_phases_requested = Signal()
    language_changed = Signal()
    """View → Language: the phases are told again in the new language."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("lecturePanel")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        self.lesson_title = _label("lectureLessonTitle")
        self.lesson_text = _label("lectureLessonText")
        self.phase_title = _label("lecturePhaseTitle")
        self.phase_text = _label("lecturePhaseText")
        body = QWidget()
        column = QVBoxLayout(body)
        column.setContentsMargins(0, 0, 0, 0)
        for widget in (self.lesson_title, self.lesson_text):
            column.addWidget(widget)
        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        column.addWidget(line)
        column.addWidget(self.phase_title)
        column.addWidget(self.phase_text)
        column.addStretch()
        scroll = QScrollArea()
        scroll.setObjectName("lectureScroll")
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(body)
        layout.addWidget(scroll, 1)
        controls = QHBoxLayout()
        self.buttons: dict[str, QPushButton] = {}
        for name, text, signal in (("lecturePlayButton", translate("lecture.panel", "▶ Play"), self.play_requested),
                                   ("lecturePauseButton", translate("lecture.panel", "❚❚ Pause"), self.pause_requested),
                                   ("lectureNextButton", translate("lecture.panel", "Next phase ▸"), self.next_requested)):  # fmt: skip
            controls.addWidget(self._button(name, text, signal))
        layout.addLayout(controls)
        speed = QHBoxLayout()
        self.speed_label = _label("lectureSpeedLabel", wrap=False)
        self.speed = QSlider(Qt.Orientation.Horizontal)
        self.speed.setObjectName("lectureSpeed")
        self.speed.setRange(2, 40)  # 0.2× to 4×
        self.speed.valueChanged.connect(self._speed_moved)
        self.speed.setValue(10)
        speed.addWidget(self.speed_label)
        speed.addWidget(self.speed, 1)
        layout.addLayout(speed)
        exports = QHBoxLayout()
        exports.addWidget(self._button("lectureExportStepButton", translate("lecture.panel", "Export step…"),
                                       self.export_step_requested))  # fmt: skip
        exports.addWidget(self._button("lectureExportPhasesButton", translate("lecture.panel", "Export phases…"),
                                       self.export_phases_requested))  # fmt: skip
        layout.addLayout(exports)
        self.show_phase(None)

    def _button(self, name: str, text: str, signal) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(name)
        button.clicked.connect(lambda _=False: signal.emit())
        self.buttons[name] = button
        return button

    def _speed_moved(self, value: int) -> None:
        self.speed_label.setText(
            translate("lecture.panel", "Speed {value:g}×").format(value=value / 10)
        )
        self.speed_changed.emit(value / 10)

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.LanguageChange:
            self.language_changed.emit()

    def show_lesson(self, title: str, text: str) -> None:
        self.lesson_title.setText(title)
        self.lesson_text.setText(text)

    def show_phase(self, phase: Phase | None) -> None:
        if phase is None:
            self.phase_title.setText(translate("lecture.panel", "No superstep yet"))
            self.phase_text.setText(translate("lecture.panel", "Play (or Next phase) runs the graph one superstep at a "
                                    "time: plan, execute, barrier."))  # fmt: skip
            return
        self.phase_title.setText(phase.title)
        # a break allowed after each hyphen: a namespace's task id (`shout:7123-61c6-…`) has
        # none where a digit follows, and one unbroken id would widen the label past the dock
        lines = (line.replace("-", "-\u200b") for line in phase.lines[:12])
        self.phase_text.setText("\n".join(f"• {line}" for line in lines))

    def show_ended(self, last: Phase) -> None:
        """A run made before lecture mode: where it ended, and that Next walks it from the start."""
        self.phase_title.setText(
            translate("lecture.panel", "Ended at {title}").format(title=last.title)
        )
        lines = [f"• {line}" for line in last.lines[:10]]
        lines.append(
            translate(
                "lecture.panel", "Next phase (Page Down) walks this run from its first phase."
            )
        )
        self.phase_text.setText("\n".join(lines))

    def set_playing(self, playing: bool) -> None:
        self.buttons["lecturePlayButton"].setEnabled(not playing)
        self.buttons["lecturePauseButton"].setEnabled(playing)
