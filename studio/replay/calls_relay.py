"""The window's recorded calls as one signal, there from the start: the timeline follows them
while the Tests dock (whose recorder notes them) is made after the first paint."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal


class CallsRelay(QObject):
    recorded = Signal(object)  # a RecordedCall, from the Tests dock's `call_recorded`
