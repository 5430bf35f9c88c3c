"""View → Language (`languageMenu`): follow the system, English or Chinese (Simplified); the
choice is kept in studio.ini and applied at once (studio.i18n.switch)."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QAction, QActionGroup

from studio import i18n
from studio.i18n import translate


def add_language_menu(window: Any) -> None:
    menu = window.menus["&View"].addMenu(translate("language_menu", "&Language"))
    menu.setObjectName("languageMenu")
    group = QActionGroup(window)
    saved = i18n.saved_setting()
    choices = [(i18n.SYSTEM, translate("language_menu", "Follow the system"))]
    choices += list(i18n.LANGUAGES.items())  # each named in itself, whatever the language
    for code, text in choices:
        action = QAction(text, window)
        action.setObjectName(f"language_{code or 'system'}")
        action.setCheckable(True)
        action.setChecked(code == saved)
        action.triggered.connect(lambda _=False, c=code: _choose(window, c))
        group.addAction(action)
        menu.addAction(action)
    window.language_menu = menu


def _choose(window: Any, code: str) -> None:
    from PySide6.QtCore import QLocale

    if code == i18n.SYSTEM:
        i18n.switch_to(i18n.SYSTEM, i18n.language_for("", QLocale.system().name()))
    else:
        i18n.switch_to(code, code)
    window.statusBar().showMessage(translate("language_menu", "Language: {name}").format(
        name=i18n.LANGUAGES[i18n.current()]), 4000)  # fmt: skip
