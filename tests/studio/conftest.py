"""Studio fixtures: a main window whose own files live in a temporary folder."""

from __future__ import annotations

import pytest

import studio  # noqa: F401  (loads the spec models before Qt; see studio/__init__.py)


@pytest.fixture
def home(tmp_path, monkeypatch):
    folder = tmp_path / "studio-home"
    monkeypatch.setenv("SUPERSTEP_STUDIO_HOME", str(folder))
    return folder


@pytest.fixture
def window(qtbot, home):
    from studio.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    qtbot.waitExposed(win)
    return win


def settle(qtbot, win) -> None:
    """Wait for live validation to finish."""
    qtbot.waitUntil(lambda: not win.validator.busy, timeout=5000)
