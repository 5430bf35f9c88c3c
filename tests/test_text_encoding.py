"""Every text file the app reads or writes names its encoding.

Without one, Python uses the locale's: cp1252 on most Windows machines, so a spec, a recording
or a test holding Chinese text is written unreadable there, or not at all (UnicodeEncodeError),
while Linux and macOS (UTF-8 locales) never show it. (The tests' own fixtures are ASCII.)
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("engine", "graphspec", "studio", "bench")
# langchain's FilesystemFileSearchMiddleware reads files with the locale's encoding; ours, its
# mirror, reads them as langchain does
AS_LANGCHAIN = {("engine/agents/middleware/file_search.py", "read_text")}


def _mode(call: ast.Call) -> str:
    if len(call.args) > 1 and isinstance(call.args[1], ast.Constant):
        return str(call.args[1].value)
    for kw in call.keywords:
        if kw.arg == "mode" and isinstance(kw.value, ast.Constant):
            return str(kw.value.value)
    return "r"


def _unnamed_encodings(path: Path) -> list[str]:
    found = []
    for call in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(call, ast.Call) or any(kw.arg == "encoding" for kw in call.keywords):
            continue
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in ("read_text", "write_text"):
            what = func.attr
        elif isinstance(func, ast.Name) and func.id == "open" and "b" not in _mode(call):
            what = "open"
        else:
            continue
        where = path.relative_to(ROOT).as_posix()
        if (where, what) not in AS_LANGCHAIN:
            found.append(f"{where}:{call.lineno} {what}")
    return found


def test_text_files_are_opened_with_an_encoding():
    files = [path for folder in FOLDERS for path in sorted((ROOT / folder).rglob("*.py"))]
    assert len(files) > 300
    assert [spot for path in files for spot in _unnamed_encodings(path)] == []
