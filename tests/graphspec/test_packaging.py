"""The templates ship as package data: an installed (non-editable) copy lists and runs them
without the repository's templates/ folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from graphspec.templates import SOURCE_TEMPLATES, TEMPLATES_DIR
from tests.graphspec.helpers import TEMPLATE_NAMES

ROOT = Path(__file__).resolve().parents[2]


def test_a_source_checkout_reads_the_templates_folder():
    assert TEMPLATES_DIR == SOURCE_TEMPLATES == ROOT / "templates"


def test_the_built_package_carries_the_templates(tmp_path):
    lib = tmp_path / "lib"
    build = [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(lib)]
    subprocess.run(build, cwd=ROOT, check=True, capture_output=True)
    shipped = sorted(p.stem for p in (lib / "graphspec" / "templates_data").glob("*.json"))
    assert shipped == TEMPLATE_NAMES
    assert (lib / "graphspec" / "schema.json").is_file()
    # the built copy, imported from elsewhere, lists its own templates and runs one by name
    env = {**os.environ, "PYTHONPATH": str(lib)}
    where = subprocess.run(
        [sys.executable, "-c", "import graphspec.templates as t; print(t.TEMPLATES_DIR)"],
        cwd=tmp_path, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    assert where.stdout.strip() == str(lib / "graphspec" / "templates_data")
    listed = subprocess.run(
        [sys.executable, "-m", "graphspec.cli", "templates"],
        cwd=tmp_path, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    assert [line.split()[0] for line in listed.stdout.splitlines()] == TEMPLATE_NAMES
    ran = subprocess.run(
        [sys.executable, "-m", "graphspec.cli", "run", "hello_world"],
        cwd=tmp_path, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
