"""`superstep install-desktop` writes the XDG desktop entry and icon (a temporary data folder)."""

from __future__ import annotations

from pathlib import Path

from studio import desktop
from studio.cli import main


def test_install_desktop_writes_under_xdg_data_home(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(["install-desktop"]) == 0
    entry = tmp_path / "applications" / "superstep-studio.desktop"
    icon = tmp_path / "icons" / "hicolor" / "scalable" / "apps" / "superstep-studio.svg"
    assert capsys.readouterr().out.splitlines() == [f"wrote {entry}", f"wrote {icon}"]
    assert icon.read_text().startswith("<svg")
    lines = entry.read_text().splitlines()
    assert "Name=Superstep Studio" in lines
    assert [line for line in lines if line.startswith("Exec=")] == [
        "Exec=" + " ".join(desktop.launcher()) + " %f"
    ]


def test_without_a_superstep_script_the_entry_runs_the_module(tmp_path, monkeypatch):
    python = tmp_path / "my env" / "python"
    monkeypatch.setattr(desktop.sys, "executable", str(python))
    monkeypatch.setattr(desktop.shutil, "which", lambda name: None)
    assert desktop.launcher() == [str(python), "-m", "studio.cli", "studio"]
    (exec_line,) = [ln for ln in desktop.desktop_entry().splitlines() if ln.startswith("Exec=")]
    assert exec_line == f'Exec="{python}" -m studio.cli studio %f'  # the spec's quotes: a space
    assert Path(desktop.ICONS_DIR / "app.svg").is_file()
