"""`superstep install-desktop`: the Linux desktop entry and icon, for the user's app menu.

Writes `$XDG_DATA_HOME/applications/superstep-studio.desktop` (default ~/.local/share) from the
packaged `assets/superstep-studio.desktop`, with `Exec` pointing at this installation's
`superstep` (a pipx or virtualenv install is not on every desktop session's PATH), and the app
icon to `icons/hicolor/scalable/apps/superstep-studio.svg`. No Qt is needed.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

from studio.paths import ASSETS_DIR, ICONS_DIR

APP_ID = "superstep-studio"


def data_home() -> Path:
    """The XDG data folder: $XDG_DATA_HOME, else ~/.local/share."""
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def launcher() -> list[str]:
    """The command that starts this installation's studio."""
    script = Path(sys.executable).with_name("superstep")
    found = str(script) if script.is_file() else shutil.which("superstep")
    return [found, "studio"] if found else [sys.executable, "-m", "studio.cli", "studio"]


def _quote(arg: str) -> str:
    """An Exec argument as the Desktop Entry spec quotes it (double quotes, not a shell's)."""
    if not re.search(r"[\s\"'\\><~|&;$*?#()`%]", arg):
        return arg
    quoted = '"' + re.sub(r'(["`$\\])', r"\\\1", arg).replace("%", "%%") + '"'
    return quoted.replace("\\", "\\\\")  # a string value's own escaping comes on top


def desktop_entry() -> str:
    """The packaged entry with this installation's launcher in `Exec`."""
    exec_line = " ".join(_quote(part) for part in launcher()) + " %f"
    lines = (ASSETS_DIR / f"{APP_ID}.desktop").read_text(encoding="utf-8").splitlines()
    return "".join(f"Exec={exec_line}\n" if ln.startswith("Exec=") else f"{ln}\n" for ln in lines)


def install(home: Path | None = None) -> list[Path]:
    """Write the entry and the icon under `home` (the XDG data folder); returns both paths."""
    home = home or data_home()
    entry = home / "applications" / f"{APP_ID}.desktop"
    icon = home / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"
    for path in (entry, icon):
        path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(ICONS_DIR / "app.svg", icon)
    entry.write_text(desktop_entry(), encoding="utf-8")
    return [entry, icon]


__all__ = ["APP_ID", "data_home", "desktop_entry", "install", "launcher"]
