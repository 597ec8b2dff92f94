"""The item list view: the search box and filter bar over the items of the sidebar entry shown, the welcome
screen while the library is empty, each view's order remembered, and the selection kept across reloads."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QModelIndex, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QLineEdit, QVBoxLayout, QWidget

from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter, fts_query
from earmark.core.db.items import get_item
from earmark.core.errors import NotFoundError
from earmark.core.models import Item
from earmark.gui.mainwindow.frame.actions import Actions
from earmark.gui.mainwindow.navigation.sorts import SortMemory
from earmark.gui.mainwindow.places import LIST, Place
from earmark.gui.models.items import COL_MATCH, ItemListModel
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.empty_library import EmptyLibraryView
from earmark.gui.views.filter_bar import FilterBar
from earmark.gui.views.item_table import ItemTable

SEARCH_DELAY_MS = 150


class ListController(QObject):
    """The list as a view the navigator shows (``widget``, ``enter``, ``here``, ``leave``, ``focus``,
    ``find_field``); ``library_total()`` says how many items the library holds (0: the welcome screen shows).

    Signal: ``shown_widget_changed()`` when the welcome screen gives way to the list, or back.
    """

    shown_widget_changed = Signal()

    def __init__(self, runner: TaskRunner, db: Database, actions: Actions,
                 library_total: Callable[[], int], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._db = db
        self._library_total = library_total
        self._sorts = SortMemory(runner, db)
        self._entry = ItemFilter()  # the sidebar entry shown (a smart list's filter for a smart list)
        self._smart_list: int | None = None
        self._base = self._sorts.applied(ItemFilter(), None)  # the entry in its order; search and bar go on top
        self._select_after_load: int | None = None
        self._also_selected: list[int] = []  # the rest of a multi-selection, kept across a reload
        self._reading = False  # a reload is on its way: a row the user picks meanwhile is the one kept
        self._empty = False
        self.model = ItemListModel(runner, db, self)
        self.model.loaded.connect(self._on_loaded)
        self.model.sort_changed.connect(self._on_sort_changed)
        a, episode, article = actions, "episode", "article"
        self.table = ItemTable(self.model, [a.play_selected, a.edit_tags, a.toggle_favourite, a.paste_link,
                                            a.toggle_read, a.toggle_archive],
                               menu=[[(a.play_selected, "any"), (a.queue_next, episode), (a.queue_last, episode)],
                                     [(a.mark_played, episode), (a.mark_unplayed, episode), (a.download, episode)],
                                     [(a.toggle_read, article), (a.toggle_archive, article)],
                                     [(a.edit_tags, "any"), (a.toggle_favourite, "any")]],
                               article_names={a.play_selected: "&Open in the Reader"})
        self.table.horizontalHeader().sortIndicatorChanged.connect(self.model.sort)
        self.search = QLineEdit()
        self.search.setObjectName("search")
        self.search.setAccessibleName("Search")
        self.search.setPlaceholderText("Search titles, notes and articles  (Ctrl+F)")
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self._compose)
        self.search.textChanged.connect(self._search_timer.start)
        self.search.returnPressed.connect(self._search_now)
        self.filter_bar = FilterBar(actions.save_search)
        self.filter_bar.changed.connect(self._compose)
        self.welcome = EmptyLibraryView()
        self.page = QWidget()
        self.page.setObjectName("listPage")
        layout = QVBoxLayout(self.page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.search)
        layout.addWidget(self.filter_bar)
        layout.addWidget(self.table, 1)
        self.model.set_filter(self._base, load=False)
        self._show_sort(self._base)
        self.table.selectionModel().currentChanged.connect(self._on_current_moved)
        self.reload()  # read while the rest of the window is built: its first page is what a start shows first

    # The view, as the navigator drives it ------------------------------------------------------------------

    def widget(self) -> QWidget:
        """The welcome screen while the library is empty, else the list with its bars."""
        return self.welcome if self._empty else self.page

    def enter(self, place: Place) -> None:
        """Show the items of ``place``'s entry narrowed by its search text and filters."""
        self._entry, self._smart_list = place.entry or ItemFilter(), place.smart_list
        self._search_timer.stop()
        self.search.blockSignals(True)
        self.search.setText(place.text)
        self.search.blockSignals(False)
        self.filter_bar.show_filter(place.narrowed or ItemFilter())
        self._base = self._sorts.applied(self._entry, self._smart_list)
        if place.selected is not None:
            self._select_after_load = place.selected
        self._compose()

    def here(self) -> Place:
        """The entry shown, with the search text, the filter bar and the selected item."""
        narrowed = self.filter_bar.narrow(ItemFilter())
        current = self.model.item_at(self.table.currentIndex().row())
        return Place(LIST, self._entry, self._smart_list, text=self.search.text(),
                     narrowed=None if narrowed == ItemFilter() else narrowed,
                     selected=current.id if current is not None else None)

    def leave(self) -> None:
        """A search typed just before leaving still applies."""
        self.apply_search()

    def apply_search(self) -> None:
        """A search typed but not yet applied (the box waits for a pause in typing) applies now."""
        if self._search_timer.isActive():
            self._search_timer.stop()
            self._compose()

    def _search_now(self) -> None:
        """Return in the search box: into the results of what was typed, not of what was typed before."""
        self.apply_search()
        self.table.setFocus()

    def shutdown(self) -> None:
        """Start no search any more (the window is closing: a date field left by closing says it was edited)."""
        self._search_timer.stop()
        self.filter_bar.blockSignals(True)

    def focus(self) -> None:
        """The keyboard to the list (to the sample button on the welcome screen)."""
        (self.welcome.sample_button if self._empty else self.table).setFocus()

    def find_field(self) -> QWidget:
        """The search box."""
        return self.search

    # Filtering and order ------------------------------------------------------------------------------------

    def _compose(self) -> None:
        """The list shows the entry narrowed by the search text and the filter bar (read again only when that
        changed; else the item to select is selected at once)."""
        text = self.search.text().strip()
        flt = self.filter_bar.narrow(replace(self._base, text=text if fts_query(text) else ""))
        if flt != self.model.item_filter:
            if self._select_after_load is None and self.model.item_filter.text and not flt.text:
                # a search cleared: the item selected in the results stays selected in the whole list
                current = self.model.item_at(self.table.currentIndex().row())
                self._select_after_load = current.id if current is not None else None
            self._reading = True
            self.model.set_filter(flt)
        elif self._select_after_load is not None:
            self._on_loaded()
        self._show_sort(flt)

    def _show_sort(self, flt: ItemFilter) -> None:
        header = self.table.horizontalHeader()
        self.table.show_match(bool(flt.text))
        indicator = self.model.sort_indicator()
        header.blockSignals(True)
        if indicator is None:
            header.setSortIndicator(COL_MATCH if flt.ranked else -1, Qt.SortOrder.AscendingOrder)
        else:
            header.setSortIndicator(*indicator)
        header.blockSignals(False)

    def _on_sort_changed(self, flt: ItemFilter) -> None:
        self._base = replace(self._base, sort=flt.sort, reverse=flt.reverse)
        self._sorts.remember(self._entry, self._smart_list, flt)
        self._show_sort(flt)

    # Loading -----------------------------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the list again (the selected items stay selected)."""
        current = self.model.item_at(self.table.currentIndex().row())
        self._select_after_load = current.id if current is not None else None
        self._also_selected = self.selected_item_ids()
        self._reading = True
        self.model.reload()

    def _on_current_moved(self, current: QModelIndex, _previous: QModelIndex) -> None:
        """While a reload is on its way, the row the user moves to (Home, a click) is the one selected after it,
        not the one selected when it was asked for (a late reload took Home back)."""
        item = self.model.item_at(current.row()) if current.isValid() else None
        if self._reading and item is not None:
            self._select_after_load, self._also_selected = item.id, []

    def library_counted(self) -> None:
        """The library's item count was read again: the welcome screen shows while both reads found nothing."""
        empty = self._library_total() == 0 and self.model.rowCount() == 0
        if empty != self._empty:
            self._empty = empty
            self.shown_widget_changed.emit()

    def _on_loaded(self) -> None:
        self._reading = False
        self.filter_bar.add_icons()  # once the whole list is read: after a start's first frame (see add_icons)
        self.search.setClearButtonEnabled(True)  # ~3 ms the first time (its icon): also after the first frame
        self.library_counted()
        target, self._select_after_load = self._select_after_load, None
        row = self.model.row_of(target) if target is not None else None
        if row is None and self.model.rowCount() and not self.table.selectionModel().hasSelection():
            row = 0
        if row is not None:
            self.table.selectRow(row)
            self.table.scrollTo(self.model.index(row, 0))
        others, self._also_selected = self._also_selected, []
        selection = self.table.selectionModel()
        for item_id in others:
            other = self.model.row_of(item_id)
            if other is not None and other != row:
                selection.select(self.model.index(other, 0), selection.SelectionFlag.Select
                                 | selection.SelectionFlag.Rows)

    # The selection -----------------------------------------------------------------------------------------

    def selected_items(self) -> list[Item]:
        """The selected rows' items (as listed), in list order."""
        rows = sorted({index.row() for index in self.table.selectionModel().selectedRows()})
        return [item for item in map(self.model.item_at, rows) if item is not None]

    def selected_item_ids(self) -> list[int]:
        """The ids of the selected rows, in list order."""
        return [item.id for item in self.selected_items()]

    def selected_episode_ids(self) -> list[int]:
        """The selected episodes (articles left out), in list order."""
        return [item.id for item in self.selected_items() if item.kind == "episode"]

    def selected_item(self) -> Item | None:
        """The item of the current row, read in full."""
        listed = self.model.item_at(self.table.currentIndex().row())
        if listed is None:
            return None
        try:
            return get_item(self._db, listed.id)
        except NotFoundError:
            return None

    def selected_moment(self) -> float | None:
        """Where the current row's search match is said, when it matched in the episode's transcript."""
        return self.model.moment(self.table.currentIndex().row())

    def select_item(self, item_id: int) -> None:
        """Select the item now when listed, else once the list has loaded."""
        row = self.model.row_of(item_id)
        if row is None:
            self._select_after_load = item_id
        else:
            self.table.selectRow(row)

    def reveal(self, item_id: int) -> bool:
        """Select and show the item when the list holds it; False when it does not."""
        row = self.model.row_of(item_id)
        if row is None:
            return False
        self.table.selectRow(row)
        self.table.scrollTo(self.model.index(row, 0))
        return True
