"""The table of items: one row per episode or article, columns sized for reading, the match column while
searching (given a readable width in a narrow list: the columns least needed then step aside), a clickable header
that sorts, and a context menu of what applies to the selected items."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QModelIndex, Qt
from PySide6.QtGui import QAction, QPalette
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from earmark.gui.context_menu import keyboard_menu_point
from earmark.gui.models.items import (
    COL_DURATION,
    COL_MATCH,
    COL_PROGRESS,
    COL_PUBLISHED,
    COL_SOURCE,
    COL_TITLE,
    ItemListModel,
)
from earmark.gui.views.match_delegate import MatchDelegate

if TYPE_CHECKING:
    from PySide6.QtGui import QContextMenuEvent

ROW_HEIGHT = 26
WIDTHS = ((COL_SOURCE, 150), (COL_PUBLISHED, 90), (COL_DURATION, 70), (COL_PROGRESS, 90))
STEP_ASIDE = (COL_PROGRESS, COL_DURATION, COL_PUBLISHED)  # while searching in a narrow list, in this order
MATCH_CHARS = 32  # the width, in average characters, that the title and the match each get before they step aside


class ItemTable(QTableView):
    """Shows an ItemListModel; ``actions`` apply to its selected rows (their shortcuts work here). ``menu`` is its
    context menu (the right mouse button, the Menu key, Shift+F10): groups of (action, the kind of item it applies
    to, or "any"), each group shown when one of its actions applies to a selected item; ``article_names`` renames
    actions in it while only articles are selected (Play Selected opens an article)."""

    def __init__(self, model: ItemListModel, actions: Sequence[QAction], parent: QWidget | None = None,
                 menu: Sequence[Sequence[tuple[QAction, str]]] = (),
                 article_names: Mapping[QAction, str] | None = None) -> None:
        super().__init__(parent)
        self._item_model = model
        self._menu_groups = [list(group) for group in menu]
        self._article_names = dict(article_names or {})
        self._searching = False
        self._widths = {c: w for c, w in WIDTHS if c in STEP_ASIDE}  # their widths while shown (hidden: 0)
        self.setViewport(_viewport())
        self.setObjectName("itemList")
        self.setAccessibleName("Items")
        self.setModel(model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setShowGrid(False)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(ROW_HEIGHT)
        header = self.horizontalHeader()
        header.setSectionResizeMode(COL_TITLE, QHeaderView.ResizeMode.Stretch)
        for column, width in WIDTHS:
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(column, width)
        # While searching, the title and where it matched share what the other columns leave: no horizontal
        # scrollbar beside the docked panes at 1280 px.
        header.setSectionResizeMode(COL_MATCH, QHeaderView.ResizeMode.Stretch)
        self.setItemDelegateForColumn(COL_MATCH, MatchDelegate(self))
        header.setSectionHidden(COL_MATCH, True)
        header.setSortIndicatorShown(True)
        header.setSectionsClickable(True)
        for action in actions:
            self.addAction(action)

    def show_match(self, shown: bool) -> None:
        """Show the Match column (while searching), or hide it."""
        self._searching = shown
        self.horizontalHeader().setSectionHidden(COL_MATCH, not shown)
        self._fit_match()

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize:
            self._fit_match()
        return super().viewportEvent(event)

    def _fit_match(self) -> None:
        """While searching, the title and the match share what the other columns leave, each at least
        MATCH_CHARS wide when the list is wide enough for them: Progress, Duration, then Published step aside until
        it is (a 1024 px window left the match 90 px). They come back when the search ends or the list widens."""
        header = self.horizontalHeader()
        for column in STEP_ASIDE:
            if not header.isSectionHidden(column):
                self._widths[column] = header.sectionSize(column)
        wanted = 2 * self.fontMetrics().averageCharWidth() * MATCH_CHARS
        room = self.viewport().width() - sum(header.sectionSize(c) for c, _w in WIDTHS if c not in self._widths)
        aside: set[int] = set()
        if self._searching:
            shown = sum(self._widths.values())
            for column in STEP_ASIDE:
                if room - shown >= wanted:
                    break
                aside.add(column)
                shown -= self._widths[column]
        for column in STEP_ASIDE:
            if header.isSectionHidden(column) != (column in aside):
                header.setSectionHidden(column, column in aside)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802 - Qt's name
        """The menu of ``menu`` at the pointer, or (from the keyboard) at the current row."""
        from PySide6.QtWidgets import QMenu  # made on first use: the first frame shows no menu

        rows = self.selectionModel().selectedRows()
        kinds = {"any"} | {item.kind for index in rows if (item := self._item_model.item_at(index.row()))}
        groups = [kept for group in self._menu_groups if (kept := [a for a, applies in group if applies in kinds])]
        if not rows or not groups:
            return
        menu = QMenu(self)
        for number, group in enumerate(groups):
            if number:
                menu.addSeparator()
            for action in group:
                if kinds == {"any", "article"} and action in self._article_names:
                    menu.addAction(self._article_names[action], action.trigger)
                else:
                    menu.addAction(action)
        at = event.globalPos() if event.reason() == event.Reason.Mouse else self.mapToGlobal(keyboard_menu_point(self))
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(at)

    def moveCursor(self, action: QAbstractItemView.CursorAction, modifiers: Qt.KeyboardModifier) -> QModelIndex:
        """Home and End go to the first and the last item (a table's own go to the row's first and last cell,
        which in a list of whole rows does nothing a person can see)."""
        if action in (QAbstractItemView.CursorAction.MoveHome, QAbstractItemView.CursorAction.MoveEnd):
            modifiers |= Qt.KeyboardModifier.ControlModifier
        return super().moveCursor(action, modifiers)


def _viewport() -> QWidget:
    """A viewport as the table makes its own (same name, attributes and background), but made here: the first
    ``viewport()`` of the table's own, a QWidget Python has not seen, made PySide6 look through every widget class
    for its type, making each one's Python type and enums on the way (~5 ms of a start's first frame)."""
    viewport = QWidget()
    viewport.setObjectName("qt_scrollarea_viewport")
    viewport.setBackgroundRole(QPalette.ColorRole.Base)
    viewport.setAutoFillBackground(True)
    return viewport
