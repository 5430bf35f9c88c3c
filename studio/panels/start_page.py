"""The start page (objectName `startPage`): new, open, the templates gallery and recent files.

The gallery (`templatesGallery`) lists the templates under section headers from basic to
advanced (`GROUPS`), each with a thumbnail of its graph (studio/panels/template_thumbnails.py)
and its description; a click on a template opens it as a new, untitled copy.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QIcon
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QVBoxLayout,
    QWidget,
)

from graphspec.templates import list_templates
from studio.i18n import QT_TRANSLATE_NOOP, translate
from studio.item_menu import Entries, Entry, copy_entry, item_menu
from studio.lecture.course import COURSE
from studio.panels.template_thumbnails import SIZE, ThumbnailQueue, placeholder
from studio.paths import icon
from studio.plain import plain_tip

GROUPS: list[tuple[str, tuple[str, ...]]] = [
    (
        QT_TRANSLATE_NOOP("panels.start_page", "First steps"),
        ("hello_world", "essay_writer", "router", "counter_loop"),
    ),
    (
        QT_TRANSLATE_NOOP("panels.start_page", "A short course: how a superstep works"),
        tuple(lesson.stem for lesson in COURSE),
    ),
    (QT_TRANSLATE_NOOP("panels.start_page", "Parallel work"), ("fanout_join", "map_reduce")),
    (
        QT_TRANSLATE_NOOP("panels.start_page", "Pauses, people and time travel"),
        ("approval", "time_travel"),
    ),
    (
        QT_TRANSLATE_NOOP("panels.start_page", "Control flow and reliability"),
        ("command_handoff", "flaky_retry"),
    ),
    ("Agents", ("react_agent", "agent_hitl", "agent_limits_pii", "agent_handoff")),
    (QT_TRANSLATE_NOOP("panels.start_page", "Graphs inside graphs"), ("subgraph",)),
]
"""The gallery's sections, basic to advanced, by template file stem; a template no section
names is listed under "More" at the end, so a new one is never hidden."""
TEMPLATE_ROLE = Qt.ItemDataRole.UserRole + 1
"""On template rows: the template's name (headers have none)."""


class StartPage(QWidget):
    new_requested = Signal()
    open_requested = Signal()
    path_chosen = Signal(Path, bool)
    """A template (True: bundled, so trusted) or a recent file (False) was picked."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("startPage")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(48, 36, 48, 36)
        title = QLabel(translate("panels.start_page", "Superstep Studio"))
        font = QFont()
        font.setPointSize(22)
        font.setBold(True)
        title.setFont(font)
        outer.addWidget(title)
        outer.addWidget(
            QLabel(
                translate(
                    "panels.start_page",
                    "Draw, run and understand LangGraph-style agent workflows — offline.",
                )
            )
        )
        buttons = QHBoxLayout()
        for name, text, signal in (("newButton", translate("panels.start_page", "New graph"), self.new_requested),
                                   ("openButton", translate("panels.start_page", "Open…"), self.open_requested)):  # fmt: skip
            button = QPushButton(text)
            button.setObjectName(name)
            button.clicked.connect(signal.emit)
            buttons.addWidget(button)
        buttons.addStretch()
        outer.addLayout(buttons)
        columns = QHBoxLayout()
        self._gallery = gallery = self._list("templatesGallery")
        self.recent = self._list("recentFiles")
        columns.addLayout(self._column(translate("panels.start_page", "Templates"), gallery), 2)
        columns.addLayout(
            self._column(translate("panels.start_page", "Recent files"), self.recent), 1
        )
        outer.addLayout(columns, 1)
        gallery.setIconSize(SIZE)
        gallery.setItemDelegate(GalleryDelegate(gallery))
        gallery.setMouseTracking(True)  # hover highlight on the cards
        gallery.viewport().setCursor(Qt.CursorShape.PointingHandCursor)
        self._thumbnails: ThumbnailQueue | None = None
        """Made with the cards, when the page first shows or its gallery is first read."""
        self._by_name: dict = {}
        # one click opens (a card, as on most start pages); Enter too. A click on a platform
        # that activates on single clicks sends both signals: `_opening` keeps it to one open.
        self._opening = False
        gallery.itemClicked.connect(lambda i: self._chosen(i, True))
        gallery.itemActivated.connect(lambda i: self._chosen(i, True))
        self.recent.itemActivated.connect(lambda i: self._chosen(i, False))
        item_menu(gallery, lambda index: self._path_menu(gallery, index, True))
        item_menu(self.recent, lambda index: self._path_menu(self.recent, index, False))

    @property
    def gallery(self) -> QListWidget:
        """The templates, as cards under section headers (filled when first read or shown)."""
        self._fill()
        return self._gallery

    @property
    def thumbnails(self) -> ThumbnailQueue:
        self._fill()
        return self._thumbnails

    def _fill(self) -> None:
        """The cards, once: reading every template and its cached thumbnail is work a studio
        opened on a graph never needs before its first paint (issue 32.1)."""
        if self._thumbnails is not None:
            return
        self._thumbnails = ThumbnailQueue(self)
        self._by_name = {t.name: t for t in _templates()}
        for title, templates in grouped(list(self._by_name.values())):
            self._gallery.addItem(_header(title))
            for template in templates:
                self._gallery.addItem(self._template_item(template))

    def showEvent(self, event) -> None:
        self._fill()
        super().showEvent(event)

    def _path_menu(self, view: QListWidget, index, bundled: bool) -> Entries:
        item = view.itemFromIndex(index)
        path = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if not path:
            return []
        text = (
            translate("panels.start_page", "Open as an untitled copy")
            if bundled
            else translate("panels.start_page", "Open")
        )
        return [Entry("openPathAction", text, lambda: self._chosen(item, bundled)),
                copy_entry("copyPathAction", translate("panels.start_page", "Copy path"), path)]  # fmt: skip

    def _template_item(self, template) -> QListWidgetItem:
        item = QListWidgetItem(placeholder(), "")
        self._say_template(item, template)
        item.setData(Qt.ItemDataRole.UserRole, str(template.path))
        item.setData(TEMPLATE_ROLE, template.name)
        self._thumbnails.request(template.path, item.setIcon)
        return item

    def _say_template(self, item: QListWidgetItem, template) -> None:
        title, description = template_text(template)
        item.setText(f"{title}\n{description}")
        item.setToolTip(plain_tip(description))

    def changeEvent(self, event) -> None:
        """Another language (View → Language): the cards tell their templates in it; the
        headers and buttons are redone by studio.retranslate."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.LanguageChange and self._thumbnails is not None:
            for item in self.template_items():
                self._say_template(item, self._by_name[item.data(TEMPLATE_ROLE)])

    def template_items(self) -> list[QListWidgetItem]:
        """The gallery's template rows in order (the section headers left out)."""
        items = (self.gallery.item(i) for i in range(self.gallery.count()))
        return [i for i in items if i.data(TEMPLATE_ROLE)]

    def template_item(self, name: str) -> QListWidgetItem | None:
        return next((i for i in self.template_items() if i.data(TEMPLATE_ROLE) == name), None)

    def _list(self, name: str) -> QListWidget:
        widget = QListWidget()
        widget.setObjectName(name)
        widget.setWordWrap(True)
        widget.setIconSize(QSize(28, 28))
        widget.setSpacing(3)
        widget.setTextElideMode(Qt.TextElideMode.ElideRight)
        return widget

    def _column(self, title: str, widget: QWidget) -> QVBoxLayout:
        layout = QVBoxLayout()
        label = QLabel(title)
        font = QFont()
        font.setBold(True)
        font.setPointSize(12)
        label.setFont(font)
        layout.addWidget(label)
        layout.addWidget(widget, 1)
        return layout

    def set_recent(self, paths: list[Path]) -> None:
        self.recent.clear()
        for path in paths:
            item = QListWidgetItem(icon("function"), f"{path.name}\n{path.parent}")
            item.setData(Qt.ItemDataRole.UserRole, str(path))
            self.recent.addItem(item)
        if not paths:
            item = QListWidgetItem(translate("panels.start_page", "No recent files yet"))
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.recent.addItem(item)

    def _chosen(self, item: QListWidgetItem, bundled: bool) -> None:
        path = item.data(Qt.ItemDataRole.UserRole)
        if path and not self._opening:
            self._opening = True
            QTimer.singleShot(0, self._opened)  # after this click's other signal, if any
            self.path_chosen.emit(Path(path), bundled)

    def _opened(self) -> None:
        self._opening = False


def grouped(templates: list) -> list[tuple[str, list]]:
    """`templates` under GROUPS' headers in the table's order; the rest under "More"."""
    by_name = {t.name: t for t in templates}
    out = [(title, [by_name[n] for n in names if n in by_name]) for title, names in GROUPS]
    named = {n for _, names in GROUPS for n in names}
    out.append(
        (
            QT_TRANSLATE_NOOP("panels.start_page", "More"),
            [t for t in templates if t.name not in named],
        )
    )
    return [(title, found) for title, found in out if found]


def _header(title: str) -> QListWidgetItem:
    item = QListWidgetItem(translate("panels.start_page", title))
    item.setFlags(Qt.ItemFlag.NoItemFlags)  # not selectable, not clickable
    return item


class GalleryDelegate(QStyledItemDelegate):
    """Template rows as cards (thumbnail, bold title, grey wrapped description); headers as
    small grey capitals over a rule."""

    PAD = 6

    def sizeHint(self, option, index) -> QSize:
        if not index.data(TEMPLATE_ROLE):
            return QSize(option.rect.width(), 36)
        return QSize(option.rect.width(), SIZE.height() + 2 * self.PAD)

    def paint(self, painter, option, index) -> None:
        painter.save()
        rect, pad = option.rect, self.PAD
        title, _, description = (index.data(Qt.ItemDataRole.DisplayRole) or "").partition("\n")
        font = QFont(option.font)
        if not index.data(TEMPLATE_ROLE):
            font.setBold(True)
            font.setCapitalization(QFont.Capitalization.AllUppercase)
            font.setPointSizeF(font.pointSizeF() * 0.85)
            painter.setFont(font)
            painter.setPen(QColor("#6B7280"))
            painter.drawText(
                rect.adjusted(pad, 12, -pad, -4),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                title,
            )
            painter.setPen(QColor("#E2E5EA"))
            painter.drawLine(rect.left() + pad, rect.bottom(), rect.right() - pad, rect.bottom())
            painter.restore()
            return
        if option.state & QStyle.StateFlag.State_Selected:
            painter.fillRect(rect, QColor("#E3F0FF"))
        elif option.state & QStyle.StateFlag.State_MouseOver:
            painter.fillRect(rect, QColor("#F3F6FA"))
        thumb = QRect(rect.left() + pad, rect.top() + pad, SIZE.width(), SIZE.height())
        icon = index.data(Qt.ItemDataRole.DecorationRole)
        if isinstance(icon, QIcon):
            icon.paint(painter, thumb)
        painter.setPen(QColor("#D0D4DB"))
        painter.drawRect(thumb.adjusted(0, 0, -1, -1))
        text = QRect(
            thumb.right() + 14, thumb.top(), rect.right() - thumb.right() - 14 - pad, thumb.height()
        )
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QColor("#1F2933"))
        line = painter.fontMetrics().height()
        painter.drawText(text, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, title)
        font.setBold(False)
        painter.setFont(font)
        painter.setPen(QColor("#4B5563"))
        painter.drawText(
            text.adjusted(0, line + 3, 0, 0),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap,
            description,
        )
        painter.restore()


def template_text(template) -> tuple[str, str]:
    """A bundled template's title and description in the current language (studio.i18n_build
    puts them in the .ts under the context "templates")."""
    return translate("templates", template.title), translate("templates", template.description)


def _templates() -> list:
    try:
        return list_templates()
    except Exception:  # a broken template must not stop the app from starting
        return []
