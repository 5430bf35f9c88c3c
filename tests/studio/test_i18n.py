"""The studio in Chinese (Simplified) and English: every shown text marked for translation,
every marked text translated, the compiled .qm up to date, the language chosen from the locale
or View → Language and switched without a restart."""

from __future__ import annotations

import ast
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDockWidget, QLabel

from studio import i18n
from studio.i18n_build import release, update
from studio.lecture.course import COURSE
from tests.studio.test_lecture_course import next_phase
from tests.studio.test_run_steps import open_template

STUDIO = Path(i18n.__file__).resolve().parent
TS = i18n.ts_path("zh_CN")

QT_TEXT_CALLS = {
    "setText", "setWindowTitle", "setToolTip", "setPlaceholderText", "setStatusTip", "setTitle",
    "setWhatsThis", "addMenu", "addAction", "QAction", "QLabel", "QPushButton", "QCheckBox",
    "QRadioButton", "QGroupBox", "QToolButton", "QMenu", "QDockWidget", "QMessageBox", "addTab",
    "insertTab", "setTabText", "setTabToolTip", "information", "warning", "critical", "question",
    "about", "getText", "getItem", "getInt", "getOpenFileName", "getSaveFileName",
    "getExistingDirectory", "setHeaderLabels", "setHorizontalHeaderLabels",
    "setVerticalHeaderLabels", "showMessage", "addRow", "setLabelText", "setInformativeText",
    "setDetailedText", "addButton", "QTreeWidgetItem", "QListWidgetItem", "QTableWidgetItem",
    "QStandardItem", "setItemText", "addItem", "addItems", "setPrefix", "setSuffix",
    "setSpecialValueText", "setHtml", "setMarkdown", "setPlainText",
}  # fmt: skip
"""Qt's calls that put a text on screen: every argument is checked."""
STUDIO_TEXT_CALLS = {
    "_action": [1], "a": [1], "_dock": [1], "add_dock": [1], "_toggle": [2, 4],
    "plain_label": [0], "line_label": [0], "plain_tip": [0], "_button": [1], "add_button": [1],
    "_title": [0], "_line": [1], "_code": [1], "_entry": [3], "_column": [0], "_dialog": [2],
    "section": [0], "copy_entry": [1], "button": [1], "_say": [0], "say": [0],
    "Entry": [1], "_tool_button": [2, 3], "_text": [0], "_card": [2], "_beside": [1], "_below": [1], "note": [0, 1],
}  # fmt: skip
"""The studio's own helpers that show a text: which positional arguments are texts."""
NOT_UI = {"cli.py", "i18n.py", "i18n_build.py"}
"""The command line speaks English (its output is read by scripts too)."""


def _name(func: ast.expr) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


def _bare_texts(node: ast.AST) -> list[ast.AST]:
    """String literals and f-strings with words in them that reach the call unwrapped (a
    translate(...) call, or any other call, is not looked into; nor are comparisons, lambdas
    subscripts and dict keys, whose strings are keys)."""
    found: list[ast.AST] = []

    def walk(n: ast.AST) -> None:
        if isinstance(n, (ast.Call, ast.Compare, ast.Lambda)):
            return
        if isinstance(n, ast.Constant):
            if isinstance(n.value, str) and re.search(r"[A-Za-z]", n.value):
                found.append(n)
            return
        if isinstance(n, ast.JoinedStr):
            if any(isinstance(v, ast.Constant) and re.search(r"[A-Za-z]", v.value)
                   for v in n.values):  # fmt: skip
                found.append(n)
            return
        if isinstance(n, ast.IfExp):
            walk(n.body)
            walk(n.orelse)
            return
        if isinstance(n, ast.Subscript):
            walk(n.value)
            return
        if isinstance(n, ast.Dict):  # keys pick the text; the values are shown
            for value in n.values:
                walk(value)
            return
        for child in ast.iter_child_nodes(n):
            walk(child)

    walk(node)
    return found


def _modules():
    for path in sorted(STUDIO.rglob("*.py")):
        if path.name not in NOT_UI:
            yield path, ast.parse(path.read_text(encoding="utf-8"))


def unmarked_texts() -> list[str]:
    out = []
    for path, tree in _modules():
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            name = _name(call.func)
            if name in QT_TEXT_CALLS:
                args = [*call.args, *(k.value for k in call.keywords)]
            elif name in STUDIO_TEXT_CALLS:
                args = [a for i, a in enumerate(call.args) if i in STUDIO_TEXT_CALLS[name]]
                args += [k.value for k in call.keywords if k.arg in ("text", "title", "tip")]
            else:
                continue
            for arg in args:
                for text in _bare_texts(arg):
                    where = path.relative_to(STUDIO.parent)
                    out.append(f"{where}:{text.lineno}: {name}({ast.unparse(text)[:70]})")
    return out


def marked_texts() -> set[tuple[str, str]]:
    """(context, source) of every translate(...) and QT_TRANSLATE_NOOP(...) with literal
    arguments in studio/: what lupdate extracts."""
    out = set()
    for _path, tree in _modules():
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            if _name(call.func) in ("translate", "QT_TRANSLATE_NOOP") and len(call.args) == 2:
                context, text = call.args
                if isinstance(context, ast.Constant) and isinstance(text, ast.Constant):
                    out.add((context.value, text.value))
    return out


def translations() -> dict[tuple[str, str], str | None]:
    """The .ts's (context, source) -> its finished translation (None when unfinished)."""
    out = {}
    for context in ET.parse(TS).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            done = translation is not None and translation.get("type") is None
            out[(name, message.findtext("source"))] = translation.text if done else None
    return out


def test_every_shown_text_is_marked_for_translation():
    assert unmarked_texts() == []


def test_the_scan_finds_a_bare_text(tmp_path, monkeypatch):
    """The check itself: a label given a plain literal or an f-string is reported."""
    module = tmp_path / "studio" / "panel.py"
    module.parent.mkdir()
    module.write_text('def f(w, n):\n    w.setText("Hello there")\n    w.setToolTip(f"{n} items")\n'
                      '    w.setText(translate("panel", "Fine"))\n')  # fmt: skip
    monkeypatch.setattr(f"{__name__}.STUDIO", module.parent)
    assert [line.split(": ", 1)[1] for line in unmarked_texts()] == [
        "setText('Hello there')", "setToolTip(f'{n} items')"]  # fmt: skip


def test_every_marked_text_has_a_chinese_translation():
    done = translations()
    missing = sorted(key for key in marked_texts() if done.get(key) is None)
    assert missing == [], "run `python -m studio.i18n`, then translate the new texts in the .ts"


def test_translations_keep_the_placeholders_and_the_english_names():
    """A translation with another {name} would fail in .format(); LangGraph's terms keep
    their English name beside the Chinese, as the design documents write them."""
    fields = re.compile(r"(?<!\{)\{([^{}]*)\}(?!\})")
    for (context, source), text in translations().items():
        if text is None:
            continue
        assert sorted(fields.findall(text)) == sorted(fields.findall(source)), (context, source)
        assert source.count("&") == 0 or "&" in text, ("mnemonic lost", context, source)
        for term in ("superstep", "checkpoint", "reducer", "namespace"):
            if re.search(rf"\b{term}s?\b", source) and term in source.lower():
                assert term in text.lower() or term.title() in text, (term, context, source)


def test_the_compiled_translation_is_the_ts(tmp_path):
    """The shipped .qm is what lrelease makes of the .ts (a fresh install gets it as is)."""
    fresh = tmp_path / "fresh.qm"
    release(TS, fresh)
    assert fresh.read_bytes() == i18n.qm_path("zh_CN").read_bytes(), "run `python -m studio.i18n`"


def test_the_ts_is_what_lupdate_finds(tmp_path):
    """No text in the .ts that the code no longer has, none in the code that it lacks."""
    copy = tmp_path / TS.name
    copy.write_bytes(TS.read_bytes())
    update(copy, "zh_CN")
    assert copy.read_text(encoding="utf-8") == TS.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("setting", "locale", "language"),
    [("", "C", "en"), ("", "en_US", "en"), ("", "zh_CN", "zh_CN"), ("", "zh_TW", "zh_CN"),
     ("en", "zh_CN", "en"), ("zh_CN", "C", "zh_CN"), ("klingon", "C", "en")],
)  # fmt: skip
def test_the_language_follows_the_setting_then_the_locale(setting, locale, language):
    assert i18n.language_for(setting, locale) == language


@pytest.fixture
def english_after():
    yield
    i18n.install("en")


def _menu_titles(win) -> list[str]:
    return [a.text() for a in win.menuBar().actions()]


def test_view_language_switches_the_window_without_a_restart(qtbot, window, english_after):
    win = window
    assert _menu_titles(win)[:3] == ["&File", "&Edit", "&View"]
    assert QCoreApplication.translate("main_window", "&File") == "&File"
    menu = win.findChild(type(win.menus["&View"]), "languageMenu")
    assert menu is not None and menu.menuAction() in win.menus["&View"].actions()
    chinese = next(a for a in menu.actions() if a.objectName() == "language_zh_CN")
    chinese.trigger()
    assert i18n.current() == "zh_CN"
    assert _menu_titles(win)[:3] == ["文件(&F)", "编辑(&E)", "视图(&V)"]
    assert win.actions_by_name["save"].text() == "保存(&S)"
    assert win.findChild(QDockWidget, "inspectorDock").windowTitle() == "检查器"
    assert menu.title() == "语言(&L)"
    assert win.menus["&View"] is win.menus[i18n.QT_TRANSLATE_NOOP("main_window", "&View")]
    english = next(a for a in menu.actions() if a.objectName() == "language_en")
    english.trigger()
    assert _menu_titles(win)[:3] == ["&File", "&Edit", "&View"]
    assert win.findChild(QDockWidget, "inspectorDock").windowTitle() == "Inspector"


def test_the_choice_is_kept_for_the_next_start(qtbot, home, english_after):
    """View → Language is saved in studio.ini; the next window opens in it."""
    from studio.main_window import MainWindow

    first = MainWindow()
    qtbot.addWidget(first)
    next(a for a in first.language_menu.actions() if a.objectName() == "language_zh_CN").trigger()
    first.close()
    i18n.install("en")
    assert i18n.install_chosen() == "zh_CN"
    second = MainWindow()
    qtbot.addWidget(second)
    assert _menu_titles(second)[0] == "文件(&F)"
    checked = [a.objectName() for a in second.language_menu.actions() if a.isChecked()]
    assert checked == ["language_zh_CN"]


def test_a_lesson_in_chinese_keeps_the_langgraph_names(qtbot, window, english_after):
    """The lecture panel shows the lesson's Chinese text, with 超步 (superstep) and the other
    terms as the design documents write them, and the phases in Chinese."""
    win = window
    i18n.switch_to("zh_CN", "zh_CN")
    open_template(qtbot, win, "lesson_06_reducer")
    win.actions_by_name["lecture_mode"].trigger()
    qtbot.wait(50)
    title = win.findChild(QLabel, "lectureLessonTitle").text()
    text = win.findChild(QLabel, "lectureLessonText").text()
    assert title.startswith("第 6 课")
    assert "归约器 (reducer)" in text and "超步 (superstep)" in text
    assert win.findChild(QLabel, "lecturePhaseTitle").text() == "尚无超步 (superstep)"
    next_phase(qtbot, win, "plan", 0)
    assert win.lecture.player.phase.title == "第 0 步 · 计划 (Plan)"
    phase_title = win.findChild(QLabel, "lecturePhaseTitle")
    assert phase_title.text() == "第 0 步 · 计划 (Plan)"
    english = next(a for a in win.language_menu.actions() if a.objectName() == "language_en")
    english.trigger()  # the phase on screen is told again in English
    qtbot.waitUntil(lambda: phase_title.text() == "Step 0 · Plan", timeout=3000)
    assert "runs" in win.findChild(QLabel, "lecturePhaseText").text()
    assert win.findChild(QLabel, "lectureLessonTitle").text().startswith("Lesson 6")
    win.actions_by_name["lecture_mode"].trigger()


def test_every_lesson_has_its_chinese_text():
    done = translations()
    for lesson in COURSE:
        for text in (lesson.title, lesson.text):
            chinese = done.get(("lecture.course", text))
            assert chinese and re.search(r"[\u4e00-\u9fff]", chinese), lesson.stem


def test_the_start_page_tells_its_templates_in_the_language_chosen(qtbot, window, english_after):
    """The gallery's cards (titles and descriptions from the templates' JSON) follow a switch."""
    card = window.start_page.template_item("hello_world")
    assert card.text().startswith("Hello world\nOne step turns a name into a greeting")
    i18n.switch_to("zh_CN", "zh_CN")
    qtbot.waitUntil(lambda: "一步把名字变成问候语" in card.text(), timeout=3000)
    header = window.start_page.gallery.item(0).text()
    assert header == "入门"
    i18n.switch_to("en", "en")
    qtbot.waitUntil(lambda: card.text().startswith("Hello world\nOne step"), timeout=3000)
    assert window.start_page.gallery.item(0).text() == "First steps"


def test_the_trace_in_chinese_opens_the_newest_step_as_in_english(qtbot, window, english_after):
    """The trace's rows speak Chinese; the newest step still unfolds its plan, the tasks' writes,
    the retries and its barrier (the panel no longer reads English labels to choose them)."""
    from studio.run.panels import TracePanel
    from tests.studio.test_run_steps import click, idle

    i18n.switch_to("zh_CN", "zh_CN")
    open_template(qtbot, window, "flaky_retry")
    click(qtbot, window, "runButton")
    idle(qtbot, window)
    panel = window.findChild(TracePanel, "tracePanel")
    text = "\n".join(panel.texts())
    assert "call_service 第 1 次尝试失败" in text and "call_service 写入" in text
    last = panel.model.top[-1]
    assert last.label.startswith("第 ")
    opened = [c.label for c in last.children if panel.tree.isExpanded(panel.model.index_of(c))]
    assert "计划 (Plan)" in opened and "屏障 (Barrier)" in opened


def test_no_text_is_translated_at_import():
    """A translate(...) run when its module loads (at module level, in a class body, as a
    default argument) keeps the language of that moment: tables use QT_TRANSLATE_NOOP."""
    early = []
    for path, tree in _modules():
        late: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                body = node.body if isinstance(node.body, list) else [node.body]
                late |= {id(n) for part in body for n in ast.walk(part)}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and _name(node.func) == "translate"
                and id(node) not in late
            ):
                early.append(f"{path.relative_to(STUDIO.parent)}:{node.lineno}")
    assert early == []
