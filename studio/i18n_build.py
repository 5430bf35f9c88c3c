"""Refresh the translation sources and compile them: `python -m studio.i18n`.

`pyside6-lupdate` reads every `translate("context", "text")` and `QT_TRANSLATE_NOOP(...)` in
studio/ into assets/i18n/superstep_LANG.ts (new texts come in unfinished, texts gone from the
code are dropped); `pyside6-lrelease` compiles each .ts to the .qm the studio loads. Both .ts
and .qm are committed, so an installed wheel needs no Qt tools; tests/studio/test_i18n.py
checks the .qm is the compiled .ts."""

from __future__ import annotations

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from studio.i18n import I18N_DIR, LANGUAGES, qm_path, ts_path

STUDIO_DIR = Path(__file__).resolve().parent
TEMPLATES = "templates"


def tool(name: str) -> str:
    """A PySide6 tool: beside this Python (a virtualenv's bin/) or on PATH."""
    beside = Path(sys.executable).with_name(name)
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} not found: install PySide6 (it ships the Qt translation tools)")
    return found


def sources() -> list[str]:
    return sorted(str(p) for p in STUDIO_DIR.rglob("*.py") if p.name != "cli.py")


def lupdate(ts: Path, language: str) -> None:
    subprocess.run([tool("pyside6-lupdate"), *sources(), "-locations", "none", "-no-obsolete",
                    "-target-language", language, "-ts", str(ts)],
                   check=True, capture_output=True)  # fmt: skip


def template_texts() -> list[str]:
    """The bundled templates' titles and descriptions: the start page's gallery shows them.
    They live in JSON, which lupdate does not read."""
    from graphspec.templates import list_templates

    texts = [t for template in list_templates() for t in (template.title, template.description)]
    return list(dict.fromkeys(t for t in texts if t))


def add_context(ts: Path, context: str, texts: list[str], known: dict[str, ET.Element]) -> None:
    """Put `texts` in `ts` under `context` (as lupdate writes a context), keeping the
    translations `known` from before; lupdate dropped them, not finding them in the code."""
    tree = ET.parse(ts)
    root = tree.getroot()
    for old in [c for c in root.iter("context") if c.findtext("name") == context]:
        root.remove(old)
    element = ET.SubElement(root, "context")
    ET.SubElement(element, "name").text = context
    for text in texts:
        message = ET.SubElement(element, "message")
        ET.SubElement(message, "source").text = text
        if text in known:
            message.append(known[text])
        else:
            ET.SubElement(message, "translation", type="unfinished")
    ET.indent(tree, space="    ")
    body = ET.tostring(root, encoding="unicode")
    ts.write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n", encoding="utf-8"
    )


def update(ts: Path, language: str) -> None:
    """lupdate over studio/, then the templates' texts (context `templates`)."""
    known = {}
    if ts.exists():
        for context in ET.parse(ts).getroot().iter("context"):
            if context.findtext("name") == TEMPLATES:
                known = {
                    m.findtext("source"): m.find("translation") for m in context.iter("message")
                }
    lupdate(ts, language)
    add_context(ts, TEMPLATES, template_texts(), known)


def release(ts: Path, qm: Path) -> None:
    subprocess.run([tool("pyside6-lrelease"), "-silent", str(ts), "-qm", str(qm)], check=True)


def main() -> int:
    I18N_DIR.mkdir(parents=True, exist_ok=True)
    for language in LANGUAGES:
        if language != "en":  # English is the source text
            update(ts_path(language), language)
            release(ts_path(language), qm_path(language))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
