"""The window's organising work: the tag editor, favourites, renaming and colouring tags, and smart lists."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QColorDialog, QDialog, QInputDialog, QWidget

from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import items_by_ids
from earmark.core.db.tags import tag_names, tags_for_sources
from earmark.core.models import Changes
from earmark.core.plurals import counted
from earmark.gui.mainwindow.frame.feedback import Feedback
from earmark.gui.mainwindow.navigation.selection import Selection
from earmark.gui.mainwindow.navigation.sidebar import SidebarController
from earmark.gui.models.sidebar import SmartListRole, TagRole
from earmark.gui.operations.organize import (
    colour_tag,
    delete_tag_everywhere,
    forget_smart_list,
    mark_favourite,
    rename_tag_everywhere,
    retag_items,
    retag_source,
    save_view,
)
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.tag_editor import TagEditor


def _open(dialog: QDialog) -> None:
    """Show a window-modal dialog without blocking the event loop; it is deleted once closed."""
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()


class OrganizeController(QObject):
    """Runs the organising actions on what ``selection`` holds and on the sidebar's highlighted tag or smart
    list; ``shown_filter()`` is what the item list shows (saved as a smart list), ``on_changes`` shows what
    changed; dialogs open over ``parent``."""

    def __init__(self, parent: QWidget, runner: TaskRunner, db: Database, selection: Selection,
                 sidebar: SidebarController, shown_filter: Callable[[], ItemFilter],
                 on_changes: Callable[[Changes], None], feedback: Feedback) -> None:
        super().__init__(parent)
        self._parent = parent
        self._runner = runner
        self._db = db
        self._selection = selection
        self._sidebar = sidebar
        self._shown_filter = shown_filter
        self._on_changes = on_changes
        self._feedback = feedback

    def _done(self) -> Callable[[Changes], None]:
        return self._on_changes

    # Tags on items and feeds -----------------------------------------------------------------------

    def edit_tags(self) -> None:
        """T: edit the tags of the selected items, or of the selected feeds in Subscriptions."""
        if self._selection.in_subscriptions():
            self._edit_source_tags(self._selection.selected_source_ids())
            return
        ids = self._selection.selected_item_ids()
        if not ids:
            self._feedback.status("Select the items to tag first.", 5000)
            return
        tag_sets = [set(item.tags) for item in items_by_ids(self._db, ids, full=False).values()]
        shared = sorted(set.intersection(*tag_sets)) if tag_sets else []
        partial = sorted(set.union(*tag_sets) - set(shared)) if tag_sets else []
        what = "the selected item" if len(ids) == 1 else counted(len(ids), "item")
        editor = TagEditor(what, shared, partial, tag_names(self._db), self._parent)
        editor.accepted.connect(lambda: self._runner.write(retag_items, ids, *editor.changes(),
                                                           on_done=self._done()))
        _open(editor)

    def _edit_source_tags(self, source_ids: list[int]) -> None:
        if len(source_ids) != 1:
            self._feedback.status("Select one feed to tag.", 5000)
            return
        source_id = source_ids[0]
        shared = tags_for_sources(self._db).get(source_id, [])
        editor = TagEditor("the feed (its items carry them)", shared, [], tag_names(self._db), self._parent)
        editor.accepted.connect(lambda: self._runner.write(retag_source, source_id, *editor.changes(),
                                                           on_done=self._done()))
        _open(editor)

    def toggle_favourite(self) -> None:
        """Mark the selected items as favourites, or unmark them when they all are."""
        ids = self._selection.selected_item_ids()
        if not ids:
            return
        favourites = {row[0] for row in self._db.execute(
            f"SELECT id FROM items WHERE favourite AND id IN ({','.join('?' * len(ids))})", ids)}
        self._runner.write(mark_favourite, ids, len(favourites) < len(ids), on_done=self._done())

    # Sidebar entries ----------------------------------------------------------------------------------

    def _sidebar_tag(self) -> str | None:
        value = self._sidebar.view.currentIndex().data(TagRole)
        return value if isinstance(value, str) else None

    def _sidebar_smart_list(self) -> int | None:
        value = self._sidebar.view.currentIndex().data(SmartListRole)
        return value if isinstance(value, int) else None

    def rename_tag(self) -> None:
        """F2 on a tag in the sidebar: rename it (onto an existing tag: merge)."""
        tag = self._sidebar_tag()
        if tag is None:
            self._feedback.status("Select a tag in the sidebar to rename it.", 5000)
            return
        dialog = QInputDialog(self._parent)
        dialog.setObjectName("renameTagDialog")
        dialog.setWindowTitle("Rename Tag")
        dialog.setLabelText(f"New name for “{tag}” (an existing tag's name merges the two):")
        dialog.setTextValue(tag)
        dialog.textValueSelected.connect(
            lambda new: self._runner.write(rename_tag_everywhere, tag, new, on_done=self._done())
            if new.strip() and new.strip() != tag else None)
        _open(dialog)

    def colour_tag(self) -> None:
        """Choose the colour of the tag selected in the sidebar."""
        tag = self._sidebar_tag()
        if tag is None:
            self._feedback.status("Select a tag in the sidebar to colour it.", 5000)
            return
        dialog = QColorDialog(self._parent)
        dialog.setObjectName("tagColourDialog")
        dialog.colorSelected.connect(
            lambda colour: self._runner.write(colour_tag, tag, QColor(colour).name(), on_done=self._done()))
        _open(dialog)

    def delete_entry(self) -> None:
        """Delete on the sidebar: remove the selected tag from everything, or delete the smart list."""
        tag, smart = self._sidebar_tag(), self._sidebar_smart_list()
        if tag is not None:
            self._runner.write(delete_tag_everywhere, tag, on_done=self._done())
        elif smart is not None:
            self._runner.write(forget_smart_list, smart, on_done=self._done())

    # Smart lists -------------------------------------------------------------------------

    def save_view(self) -> None:
        """Save the current search, filters and order as a smart list."""
        flt = self._shown_filter()
        dialog = QInputDialog(self._parent)
        dialog.setObjectName("saveSearchDialog")
        dialog.setWindowTitle("Save as Smart List")
        dialog.setLabelText("Name of the smart list:")
        dialog.setTextValue(flt.text.strip() or flt.tag or "")
        dialog.textValueSelected.connect(
            lambda name: self._runner.write(save_view, name, flt, on_done=self._done()) if name.strip() else None)
        _open(dialog)
