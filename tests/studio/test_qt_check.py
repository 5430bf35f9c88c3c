"""`superstep studio` where Qt's platform plugin cannot load: one line naming the missing
libraries and the apt command, instead of Qt's abort. The machine is faked (ldd's report, the
environment), never broken."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from studio import qt_check
from studio.cli import main

ROOT = Path(__file__).resolve().parents[2]

FAKE_LDD = """\
/x/PySide6/Qt/plugins/platforms/libqxcb.so:
\tlinux-vdso.so.1 (0x00007ffd)
\tlibQt6XcbQpa.so.6 => /x/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f)
\tlibxcb-cursor.so.0 => not found
\tlibxkbcommon-x11.so.0 => not found
/x/PySide6/Qt/lib/libQt6XcbQpa.so.6:
\tlibxcb-cursor.so.0 => not found
\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x00007f)
"""


@pytest.fixture
def x11_desktop(monkeypatch):
    """An X11 session as a user (not root) on a Debian machine, with ldd's report faked."""
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(qt_check.os, "geteuid", lambda: 1000)
    real_which = qt_check.shutil.which
    monkeypatch.setattr(qt_check.shutil, "which",
                        lambda name: "/usr/bin/apt-get" if name == "apt-get" else real_which(name))  # fmt: skip
    asked: list[list[Path]] = []
    monkeypatch.setattr(qt_check, "_ldd", lambda files: asked.append(files) or FAKE_LDD)
    return asked


def test_missing_xcb_libraries_are_one_line_with_the_apt_command(x11_desktop, capsys):
    assert main(["studio", "router"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "superstep studio: Qt's xcb platform plugin cannot load: missing libxcb-cursor.so.0, "
        "libxkbcommon-x11.so.0; install them with: sudo apt-get install libxcb-cursor0 "
        "libxkbcommon-x11-0\n"
    )
    [files] = x11_desktop
    assert {"libqxcb.so", "libQt6XcbQpa.so.6", "libQt6Gui.so.6"} <= {f.name for f in files}


def test_without_apt_it_names_the_libraries_only(x11_desktop, monkeypatch):
    monkeypatch.setattr(qt_check.shutil, "which", lambda name: None)
    line = qt_check.problem()
    assert line.endswith("missing libxcb-cursor.so.0, libxkbcommon-x11.so.0; install the system "
                         "packages that provide them")  # fmt: skip


def test_a_qt_import_failing_on_a_library_says_the_same(x11_desktop):
    exc = ImportError("libEGL.so.1: cannot open shared object file: No such file or directory")
    assert qt_check.import_problem(exc).endswith("sudo apt-get install libegl1")
    assert qt_check.import_problem(ImportError("No module named 'qasync'")) is None


def test_no_display_is_one_line_and_a_screenshot_goes_offscreen(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.setattr(qt_check.sys, "platform", "linux")
    assert "DISPLAY is not set" in qt_check.problem()
    monkeypatch.setattr(
        qt_check, "missing_libraries", lambda platform: [] if platform == "offscreen" else ["x"]
    )
    assert qt_check.problem(picture_only=True) is None


def test_this_machine_renders_offscreen(monkeypatch):
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert qt_check.problem(picture_only=True) is None


def _readme_apt_packages() -> set[str]:
    text = (ROOT / "README.md").read_text()
    line = re.search(r"Debian/Ubuntu: `sudo apt-get install ([^`]*)`", text, re.S)
    return set(line.group(1).split()) - {"fonts-dejavu-core"}


def test_the_readme_lists_what_the_check_can_name():
    """Every library package the README tells a Debian user to install is one the check maps a
    missing library to, and each soname the xcb plugin links from those families is mapped."""
    assert _readme_apt_packages() <= set(qt_check.DEBIAN_PACKAGES.values())
    ci = (ROOT / ".ci" / "run").read_text()
    assert all(package in ci for package in _readme_apt_packages())
    qt = qt_check._qt_dir()
    if qt is None or qt_check.shutil.which("ldd") is None:
        pytest.skip("needs PySide6 and ldd")
    report = qt_check._ldd(qt_check.needed_files(qt, "xcb"))
    linked = set(
        re.findall(r"^\s*(lib(?:xcb-|xkbcommon|EGL|GL\.|fontconfig|dbus)\S*)", report, re.M)
    )
    assert linked and linked <= set(qt_check.DEBIAN_PACKAGES)
