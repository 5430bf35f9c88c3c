"""engine/ is Qt-free: it imports with PySide6 absent and no file under it imports Qt."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
QT = r"(?:PySide6|qasync|shiboken6)\b"
QT_IMPORT = re.compile(rf"^\s*(?:from\s+{QT}|import\s+(?:.*[\s,])?{QT})", re.MULTILINE)


def test_engine_imports_without_pyside6():
    code = (
        "import sys; sys.modules['PySide6'] = None; "
        "import engine, engine.graph, engine.pregel, engine.checkpoint.memory, "
        "engine.pregel.trace_format"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr


def test_no_qt_import_under_engine():
    files = sorted((ROOT / "engine").rglob("*.py"))
    assert files
    offenders = [
        f"{path.relative_to(ROOT)}: {m.group(0).strip()}"
        for path in files
        for m in QT_IMPORT.finditer(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


STUDIO_IMPORT = re.compile(r"^\s*(?:from\s+studio\b|import\s+studio\b)", re.MULTILINE)


def test_dependencies_point_one_way():
    # studio -> spec -> engine: neither engine nor spec names the studio (or Qt)
    offenders = [
        f"{path.relative_to(ROOT)}: {m.group(0).strip()}"
        for package in ("engine", "graphspec")
        for path in sorted((ROOT / package).rglob("*.py"))
        for pattern in (STUDIO_IMPORT, QT_IMPORT)
        for m in pattern.finditer(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
