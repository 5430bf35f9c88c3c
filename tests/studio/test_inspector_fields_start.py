"""A one-line inspector field holding more than its width shows the start of its text: the
graph's description at 1280×720 read "chain: write an essay on a topic, then score it." with
its first words scrolled out of view (the cursor was put at the end)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLineEdit

from tests.studio.test_run_steps import open_template
from tests.studio.test_workspaces_fit import sized

pytestmark = pytest.mark.gui


def test_a_long_description_shows_its_first_words(qtbot, window):
    win = sized(qtbot, window, (1280, 720))
    open_template(qtbot, win, "essay_writer")
    field = win.findChild(QLineEdit, "inspector_description")
    qtbot.waitUntil(field.isVisible)
    assert field.fontMetrics().horizontalAdvance(field.text()) > field.width()  # longer than it
    assert field.cursorPosition() == 0
    assert field.cursorRect().left() < field.fontMetrics().averageCharWidth() * 2  # at its start
