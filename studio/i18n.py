"""The studio's languages: English (the source texts) and Chinese (Simplified), from Qt's
translation files (assets/i18n/superstep_LANG.ts, compiled to .qm by `python -m studio.i18n`).

Every user-visible text goes through `translate(context, text)`, spelled so that
`pyside6-lupdate` finds it. The language is the user's choice (View → Language, kept in
studio.ini) or else the system locale's; anything but Chinese is English. Switching installs
another QTranslator; `studio.retranslate` then redoes the texts already on screen."""

from __future__ import annotations

import sys
from pathlib import Path

from studio.paths import ASSETS_DIR

I18N_DIR = ASSETS_DIR / "i18n"
LANGUAGES = {"en": "English", "zh_CN": "中文（简体）"}
"""Language code -> its name in itself (the menu shows each in its own language)."""
SYSTEM = ""
"""The setting's value for "follow the system locale"."""
SETTING = "language"

_seen: dict[str, tuple[str, str]] = {}
"""A translation already handed out -> its (context, source): how a text on screen is found
again when the language changes."""
_installed: list = []
_current = "en"


def translate(context: str, text: str) -> str:
    """`text` in the current language. Without Qt loaded (the no-Qt modules used headless),
    the English source."""
    qt = sys.modules.get("PySide6.QtCore")
    result = qt.QCoreApplication.translate(context, text) if qt is not None else text
    if result:
        _seen[result] = (context, text)
    return result


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 (the name lupdate reads)
    """Marks a text kept in a table for translation where it is shown (`translate(context, t)`
    with the same context); returns it unchanged."""
    return text


def source_of(shown: str) -> tuple[str, str] | None:
    """The (context, source) a text on screen was translated from, if it came from here."""
    return _seen.get(shown)


def current() -> str:
    return _current


def qm_path(language: str) -> Path:
    return I18N_DIR / f"superstep_{language}.qm"


def ts_path(language: str) -> Path:
    return I18N_DIR / f"superstep_{language}.ts"


def language_for(setting: str, locale_name: str) -> str:
    """The language to use: the setting when it names one, else the locale's (`zh_TW` and the
    other Chinese locales read Simplified too; `C`, `en_US`, anything else: English)."""
    if setting in LANGUAGES:
        return setting
    return "zh_CN" if locale_name.lower().startswith("zh") else "en"


def install(language: str) -> str:
    """Make `language` the application's: our translator and Qt's own (its dialogs' buttons),
    replacing the ones installed before. Qt sends every widget a LanguageChange event."""
    global _current
    from PySide6.QtCore import QCoreApplication, QLibraryInfo, QTranslator

    app = QCoreApplication.instance()
    language = language if language in LANGUAGES else "en"
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    if language != "en":
        qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        for name, folder in (
            (f"superstep_{language}", str(I18N_DIR)),
            (f"qtbase_{language}", qt_dir),
        ):
            translator = QTranslator(app)
            if translator.load(name, folder):
                app.installTranslator(translator)
                _installed.append(translator)
    _current = language
    return language


def saved_setting() -> str:
    from studio.paths import settings

    return str(settings().value(SETTING, SYSTEM) or SYSTEM)


def install_chosen() -> str:
    """At start: the saved choice, else the system locale's language."""
    from PySide6.QtCore import QLocale

    return install(language_for(saved_setting(), QLocale.system().name()))


def switch_to(setting: str, language: str) -> str:
    """View → Language: keep the choice (`setting`: a language or SYSTEM), install `language`
    and redo the texts on screen."""
    from studio.paths import settings
    from studio.retranslate import retranslate_all

    settings().setValue(SETTING, setting)
    chosen = install(language)
    retranslate_all()
    return chosen


if __name__ == "__main__":  # python -m studio.i18n: refresh the .ts from the sources, compile
    from studio.i18n_build import main

    raise SystemExit(main())
