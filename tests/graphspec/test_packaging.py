"""The wheel carries the templates and the icons: an installed (non-editable) copy lists, runs
and draws them without the repository's templates/ and assets/ folders."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from graphspec.templates import SOURCE_TEMPLATES, TEMPLATES_DIR
from tests.graphspec.helpers import TEMPLATE_NAMES

ROOT = Path(__file__).resolve().parents[2]


def test_a_source_checkout_reads_the_templates_folder():
    assert TEMPLATES_DIR == SOURCE_TEMPLATES == ROOT / "templates"


@pytest.fixture(scope="module")
def installed_wheel(tmp_path_factory) -> Path:
    """The project built as a wheel (pyproject alone) and unpacked into a folder of its own."""
    tmp = tmp_path_factory.mktemp("wheel")
    build = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "-q",
        "-w",
        str(tmp / "dist"),
        str(ROOT),
    ]
    subprocess.run(build, check=True, capture_output=True)
    (wheel,) = (tmp / "dist").glob("superstep_studio-*.whl")
    lib = tmp / "lib"
    install = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--no-deps",
        "-q",
        "--target",
        str(lib),
        str(wheel),
    ]
    subprocess.run(install, check=True, capture_output=True)
    return lib


def _run(lib: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess:
    # PYTHONPATH puts the unpacked wheel before the editable install's path to the source tree
    env = {**os.environ, "PYTHONPATH": str(lib), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, *argv], cwd=cwd, env=env, capture_output=True, text=True)


def test_the_wheel_carries_templates_schema_and_icons(installed_wheel):
    lib = installed_wheel
    shipped = sorted(p.stem for p in (lib / "graphspec" / "templates_data").glob("*.json"))
    assert shipped == TEMPLATE_NAMES
    assert (lib / "graphspec" / "schema.json").is_file()
    assert {p.name for p in (lib / "studio" / "assets" / "icons").glob("*.svg")} >= {
        "agent.svg",
        "app.svg",
    }


def test_the_installed_copy_lists_and_runs_its_own_templates(installed_wheel, tmp_path):
    lib = installed_wheel
    where = _run(lib, "-c", "import graphspec.templates as t; print(t.TEMPLATES_DIR)", cwd=tmp_path)
    assert where.stdout.strip() == str(lib / "graphspec" / "templates_data"), where.stderr
    listed = _run(lib, "-m", "studio.cli", "templates", cwd=tmp_path)
    assert [line.split()[0] for line in listed.stdout.splitlines()] == TEMPLATE_NAMES
    ran = _run(lib, "-m", "studio.cli", "run", "hello_world", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr


def test_the_installed_studio_opens_a_template_with_its_icons(installed_wheel, tmp_path):
    lib = installed_wheel
    icons = _run(lib, "-c", "import studio.paths as p; print(p.icon_path('agent'))", cwd=tmp_path)
    assert icons.stdout.strip() == str(lib / "studio" / "assets" / "icons" / "agent.svg"), (
        icons.stderr
    )
    shot = tmp_path / "shot.png"
    opened = _run(
        lib,
        "-m",
        "studio.cli",
        "studio",
        "router",
        "--screenshot",
        str(shot),
        "--quit",
        cwd=tmp_path,
    )
    assert opened.returncode == 0, opened.stderr
    assert shot.stat().st_size > 10_000


def test_the_wheel_entry_point_runs_installed_and_says_its_version(installed_wheel, tmp_path):
    """What `pipx install` or `pip install` runs: the console script `superstep = studio.cli:main`."""
    lib = installed_wheel
    (info,) = lib.glob("superstep_studio-*.dist-info")
    assert "superstep = studio.cli:main" in (info / "entry_points.txt").read_text()
    version = info.name.removeprefix("superstep_studio-").removesuffix(".dist-info")
    by_module = _run(lib, "-m", "studio.cli", "--version", cwd=tmp_path)
    assert by_module.stdout == f"superstep {version}\n", by_module.stderr
    script = lib / "bin" / "superstep"  # the launcher pip wrote for the entry point
    assert _run(lib, str(script), "--version", cwd=tmp_path).stdout == f"superstep {version}\n"
    listed = _run(lib, str(script), "templates", cwd=tmp_path)
    assert [line.split()[0] for line in listed.stdout.splitlines()] == TEMPLATE_NAMES


def test_the_installed_copy_writes_its_desktop_entry_and_icon(installed_wheel, tmp_path):
    lib, home = installed_wheel, tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k != "XDG_DATA_HOME"}
    done = subprocess.run([sys.executable, "-m", "studio.cli", "install-desktop"], cwd=tmp_path,
                          env={**env, "HOME": str(home), "PYTHONPATH": str(lib)},
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    share = home / ".local" / "share"
    entry = (share / "applications" / "superstep-studio.desktop").read_text().splitlines()
    assert (
        entry[0] == "[Desktop Entry]"
        and "Type=Application" in entry
        and "Icon=superstep-studio" in entry
    )
    (exec_line,) = [line for line in entry if line.startswith("Exec=")]
    assert Path(exec_line.removeprefix("Exec=").split()[0]).is_file() and exec_line.endswith(
        " studio %f"
    )
    icon = share / "icons" / "hicolor" / "scalable" / "apps" / "superstep-studio.svg"
    assert icon.read_bytes() == (lib / "studio" / "assets" / "icons" / "app.svg").read_bytes()
