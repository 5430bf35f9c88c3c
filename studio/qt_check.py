"""Before Qt starts: can its platform plugin load here? If not, one line saying what to install.

Qt aborts the process (no exception to catch) when its platform plugin cannot load, with a long
message that does not name the system package. So `superstep studio` asks first: `ldd` lists the
shared libraries the Qt libraries and the plugin (xcb on an X11 desktop) cannot find, and each
soname maps to the Debian/Ubuntu package the README lists. Imports no Qt.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

DEBIAN_PACKAGES = {
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libOpenGL.so.0": "libopengl0",
    "libdbus-1.so.3": "libdbus-1-3",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    # pulled in by the packages above, named in case one is missing on its own
    **{
        f"libxcb-{n}.so.{v}": f"libxcb-{n}{v}"
        for n, v in (
            ("glx", 0),
            ("randr", 0),
            ("render", 0),
            ("shm", 0),
            ("sync", 1),
            ("util", 1),
            ("xfixes", 0),
            ("xinerama", 0),
            ("xinput", 0),
        )
    },
}
"""Shared library (soname) Qt's wheel needs from the system -> the Debian package holding it."""

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)


def _qt_dir() -> Path | None:
    spec = importlib.util.find_spec("PySide6")  # finds the package without importing Qt
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "Qt"


def platform_name() -> str:
    """The platform plugin Qt will pick: QT_QPA_PLATFORM, else wayland or xcb by the session."""
    chosen = os.environ.get("QT_QPA_PLATFORM", "").split(":")[0].split(";")[0]
    if chosen:
        return chosen
    return "wayland" if os.environ.get("WAYLAND_DISPLAY") else "xcb"


def needed_files(qt: Path, platform: str) -> list[Path]:
    """The Qt libraries the studio loads and the platform plugin with its own Qt library."""
    files = [qt / "lib" / f"libQt6{m}.so.6" for m in ("Core", "Gui", "Widgets", "Svg")]
    files.append(qt / "plugins" / "platforms" / f"libq{platform}.so")
    if platform == "xcb":
        files.append(qt / "lib" / "libQt6XcbQpa.so.6")
    return [f for f in files if f.is_file()]


def _ldd(files: list[Path]) -> str:
    ldd = shutil.which("ldd")
    if ldd is None or not files:
        return ""
    done = subprocess.run([ldd, *map(str, files)], capture_output=True, text=True, timeout=20)
    return done.stdout


def missing_libraries(platform: str | None = None) -> list[str]:
    """The sonames Qt (and the platform plugin) need and the system lacks, sorted; [] if none,
    off Linux, or when it cannot tell (no ldd, no PySide6)."""
    qt = _qt_dir()
    if not sys.platform.startswith("linux") or qt is None:
        return []
    found = _NOT_FOUND.findall(_ldd(needed_files(qt, platform or platform_name())))
    return sorted(set(found))


def install_command(sonames: list[str]) -> str | None:
    """`apt-get install` of the packages holding `sonames`, or None where there is no apt."""
    if shutil.which("apt-get") is None:
        return None
    packages = sorted({DEBIAN_PACKAGES.get(s, "") for s in sonames} - {""})
    if not packages:
        return None
    sudo = "" if hasattr(os, "geteuid") and os.geteuid() == 0 else "sudo "
    return f"{sudo}apt-get install {' '.join(packages)}"


def problem(*, picture_only: bool = False) -> str | None:
    """One line saying why Qt cannot start here and what to install, or None when it can.
    `picture_only` (--screenshot): without a display the studio renders offscreen instead."""
    platform = platform_name()
    no_display = sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    if platform == "xcb" and no_display:
        if not picture_only:
            return ("no display to open a window on (DISPLAY is not set): run it in a desktop "
                    "session, or with --screenshot PNG (rendered offscreen)")  # fmt: skip
        platform = "offscreen"  # as studio.app.run picks
    return libraries_problem(missing_libraries(platform), platform)


def libraries_problem(sonames: list[str], platform: str) -> str | None:
    if not sonames:
        return None
    command = install_command(sonames)
    fix = (
        f"install them with: {command}"
        if command
        else "install the system packages that provide them"
    )
    return f"Qt's {platform} platform plugin cannot load: missing {', '.join(sonames)}; {fix}"


def import_problem(exc: ImportError) -> str | None:
    """The same line for a Qt import that failed on a missing shared library, else None."""
    match = re.search(r"(lib[\w.+-]+\.so[.\d]*): cannot open shared object file", str(exc))
    return libraries_problem([match.group(1)], platform_name()) if match else None


__all__ = ["DEBIAN_PACKAGES", "import_problem", "install_command", "missing_libraries", "problem"]
