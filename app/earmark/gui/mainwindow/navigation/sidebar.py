"""The window's sidebar: its rows read in the background, the row of the place shown highlighted, and the row a
person chooses (by click or by keys) announced as a place to go to."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from PySide6.QtCore import QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QAction, QStandardItem
from PySide6.QtWidgets import QAbstractItemView, QApplication, QTreeView

from earmark.core.db.filters import ItemFilter
from earmark.gui.mainwindow.places import LIST, Place, entry_place
from earmark.gui.models.sidebar import ShowsRole, SidebarData, SidebarModel, SmartListRole, read_sidebar
from earmark.gui.tasks import TaskRunner

BROWSE, CLICK, ACTIVATE = "browse", "click", "activate"  # how a row was chosen: arrow keys, mouse, Enter


class SidebarController(QObject):
    """Owns the sidebar's view and model. Signals: ``chosen(object, str)`` with the Place of a row the user chose
    (again) and how: BROWSE (moved to it with the arrow keys), CLICK or ACTIVATE (Enter, a double click);
    ``loaded(object)`` with the SidebarData after each reload."""

    chosen = Signal(object, str)
    loaded = Signal(object)

    def __init__(self, runner: TaskRunner, actions: Sequence[QAction], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._quiet = False
        self.populated = False
        self.data: SidebarData | None = None  # what the last reload read
        self.model = SidebarModel(self)
        self.view = QTreeView()
        self.view.setObjectName("sidebar")
        self.view.setAccessibleName("Library sections")
        self.view.setHeaderHidden(True)
        self.view.setModel(self.model)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)  # F2 renames tags instead
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        for action in actions:
            self.view.addAction(action)
        self.view.setMinimumWidth(160)
        self.view.setIndentation(12)  # names keep their room beside the scroll bar a long list of tags brings
        self.view.selectionModel().currentChanged.connect(lambda current, _previous: self._choose(
            current, CLICK if QApplication.mouseButtons() != Qt.MouseButton.NoButton else BROWSE))
        self.view.clicked.connect(lambda index: self._choose(index, CLICK))  # the highlighted row switches too
        self.view.activated.connect(lambda index: self._choose(index, ACTIVATE))
        self._collapsed: list[object] = []  # the headings the user closed, kept closed when the rows are made anew
        self.view.collapsed.connect(lambda index: self._remember(index, collapsed=True))
        self.view.expanded.connect(lambda index: self._remember(index, collapsed=False))

    @property
    def total(self) -> int:
        """How many items the library held at the last reload."""
        return self.model.total

    def reload(self) -> None:
        """Read the rows and counts again in the background."""
        self._runner.read(read_sidebar, on_done=self._on_read)

    def _on_read(self, data: SidebarData) -> None:
        self._quiet = True
        try:
            if self.model.populate(data):  # rows made anew: open, but for the headings the user closed
                self.view.expandAll()
                for item in self._rows():
                    if _heading_key(item.index()) in self._collapsed:
                        self.view.collapse(item.index())
        finally:
            self._quiet = False
        self.populated, self.data = True, data
        self.loaded.emit(data)

    def _remember(self, index: QModelIndex, collapsed: bool) -> None:
        key = _heading_key(index)
        if self._quiet or collapsed == (key in self._collapsed):
            return
        if collapsed:
            self._collapsed.append(key)
        else:
            self._collapsed.remove(key)

    def _choose(self, index: QModelIndex, how: str) -> None:
        place = place_at(index)
        if place is not None and not self._quiet:
            self.chosen.emit(place, how)

    def select(self, place: Place) -> None:
        """Highlight the row of ``place`` (none when it has no row) without announcing a choice."""
        row = self._row(place)
        self._quiet = True
        try:
            self.view.setCurrentIndex(row if row is not None else QModelIndex())
        finally:
            self._quiet = False

    def resolve(self, place: Place) -> Place | None:
        """``place`` as its row offers it now (a smart list with its filter), None when the row is gone."""
        row = self._row(place)
        return place_at(row) if row is not None else None

    def current_place(self) -> Place | None:
        """The place of the highlighted row."""
        return place_at(self.view.currentIndex())

    def _row(self, place: Place) -> QModelIndex | None:
        for item in self._rows():
            if place.view == LIST and place.smart_list is not None:
                if item.data(SmartListRole) == place.smart_list:
                    return item.index()
            elif place.view == LIST:
                if item.data(ShowsRole) == place.entry and item.data(SmartListRole) is None:
                    return item.index()
            elif item.data(ShowsRole) == place.view:
                return item.index()
        return None

    def _rows(self) -> Iterator[QStandardItem]:
        pending = [self.model.invisibleRootItem()]
        while pending:
            parent = pending.pop(0)
            for row in range(parent.rowCount()):
                child = parent.child(row)
                yield child
                pending.append(child)


def place_at(index: QModelIndex) -> Place | None:
    """The place a sidebar row shows (None for a heading)."""
    if not index.isValid():
        return None
    flt = index.data(ShowsRole)
    if isinstance(flt, ItemFilter):
        smart = index.data(SmartListRole)
        return entry_place(flt, smart if isinstance(smart, int) else None)
    if isinstance(flt, str):
        return Place(flt)
    return None


def _heading_key(index: QModelIndex) -> object:
    """What tells a heading from the others whatever its count: its filter, or its name when it has none."""
    flt = index.data(ShowsRole)
    return flt if flt is not None else str(index.data()).split(" (")[0]
