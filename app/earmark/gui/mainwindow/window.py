"""The main window: sidebar, item list, detail, notes and transcript panes and player bar, wired to the library
and player."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import sqlite_utils
from PySide6.QtCore import QItemSelection, QModelIndex, Qt, QTimer, QUrl, Slot
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QInputDialog,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from earmark.core.articles.formats import HTML_SUFFIXES, MARKDOWN_SUFFIXES
from earmark.core.chapters import cached_chapters
from earmark.core.db.downloads import get_download, newest_item_id
from earmark.core.db.items import get_item, items_by_ids
from earmark.core.db.queries import ItemFilter, fts_query
from earmark.core.errors import EarmarkError, NotFoundError
from earmark.core.feeds.fetch import canonical_source
from earmark.core.feeds.subscribe import NeedsCredentials, ReadFeed, try_read_feed
from earmark.core.models import Changes, Item, Note
from earmark.core.sample import SampleData, read_sample
from earmark.core.settings import get_setting
from earmark.gui.mainwindow.actions import MENUS, SPECS, Actions
from earmark.gui.mainwindow.articles import ArticlesController
from earmark.gui.mainwindow.backups import BackupsController
from earmark.gui.mainwindow.desktop import DesktopController
from earmark.gui.mainwindow.episodes import EpisodeController
from earmark.gui.mainwindow.feeds import FeedsController
from earmark.gui.mainwindow.graph import GraphController
from earmark.gui.mainwindow.help import HelpController
from earmark.gui.mainwindow.notes import NotesController
from earmark.gui.mainwindow.organize import OrganizeController
from earmark.gui.mainwindow.playback import PlaybackController
from earmark.gui.mainwindow.player_bar import PlayerBar
from earmark.gui.mainwindow.queue import QueueController
from earmark.gui.mainwindow.reading import ReadingController
from earmark.gui.mainwindow.sync import SyncController
from earmark.gui.models.items import (
    COL_DURATION,
    COL_MATCH,
    COL_PROGRESS,
    COL_PUBLISHED,
    COL_SOURCE,
    COL_TITLE,
    ItemListModel,
)
from earmark.gui.models.queue import QueueModel
from earmark.gui.models.sidebar import (
    CONTINUE_LISTENING,
    DOWNLOADED,
    GRAPH,
    NOTES,
    SUBSCRIPTIONS,
    FilterRole,
    SidebarData,
    SidebarModel,
    SmartListRole,
    read_sidebar,
)
from earmark.gui.mpris import Mpris
from earmark.gui.operations.library import (
    note_feed_failure,
    store_sample_library,
    store_subscription,
)
from earmark.gui.preferences import DesktopSettings, Preferences
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.cannot_save_banner import CannotSaveBanner
from earmark.gui.views.credentials import CredentialsDialog
from earmark.gui.views.detail import DetailPane
from earmark.gui.views.empty_library import EmptyLibraryView
from earmark.gui.views.filter_bar import FilterBar
from earmark.gui.views.match_delegate import MatchDelegate
from earmark.gui.views.queue import QueueView
from earmark.gui.views.recovery import RecoveryDialogs
from earmark.gui.views.subscriptions import SubscriptionsView
from earmark.playback.progress import PlaybackSession

SEARCH_DELAY_MS = 150
ARTICLE_SUFFIXES = HTML_SUFFIXES | MARKDOWN_SUFFIXES | {".txt"}


class MainWindow(QMainWindow):
    """The library window: shows the library, plays from it, and saves everything on close.

    ``read_only_reason`` (a sentence) opens it on a library that can only be read: it shows the library, says
    why nothing can be saved, and makes no automatic refreshes, downloads or backups.
    """

    def __init__(self, runner: TaskRunner, db: sqlite_utils.Database, session: PlaybackSession,
                 preferences: Preferences | None = None, parent: QWidget | None = None, *,
                 read_only_reason: str | None = None, dialogs: RecoveryDialogs | None = None) -> None:
        super().__init__(parent)
        self.read_only_reason = read_only_reason
        self._open_errors: set[str] = set()  # the sentences shown in an open dialog (each shown once at a time)
        self._release_library = False  # set by release_library(): close every connection on close
        title = f"Earmark — {runner.library_path.name}"
        self.setWindowTitle(title + (" (read-only)" if read_only_reason else ""))
        self.resize(1280, 800)
        self._runner = runner
        self._db = db
        self.session = session
        self.preferences = preferences or Preferences(db, runner, DesktopSettings(), self)
        self.commands = Actions(self, get_setting(db, "keyboard.shortcuts"))  # type: ignore[arg-type]
        self._select_after_load: int | None = None
        self._also_selected: list[int] = []  # the rest of a multi-selection, kept across a reload

        self.sidebar_model = SidebarModel(self)
        self.sidebar = QTreeView()
        self.sidebar.setObjectName("sidebar")
        self.sidebar.setAccessibleName("Library sections")
        self.sidebar.setHeaderHidden(True)
        self.sidebar.setModel(self.sidebar_model)
        self.sidebar.selectionModel().currentChanged.connect(self._on_section_changed)
        self.sidebar.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)  # F2 renames tags instead
        self.sidebar.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        for action in (self.commands.rename_tag, self.commands.colour_tag, self.commands.delete_entry):
            self.sidebar.addAction(action)

        self.items_model = ItemListModel(runner, db, self)
        self.items_model.loaded.connect(self._on_items_loaded)
        self.item_list = QTableView()
        self.item_list.setObjectName("itemList")
        self.item_list.setAccessibleName("Items")
        self.item_list.setModel(self.items_model)
        self.item_list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.item_list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.item_list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.item_list.setShowGrid(False)
        self.item_list.setAlternatingRowColors(True)
        self.item_list.setWordWrap(False)
        self.item_list.verticalHeader().hide()
        self.item_list.verticalHeader().setDefaultSectionSize(26)
        header = self.item_list.horizontalHeader()
        header.setSectionResizeMode(COL_TITLE, QHeaderView.ResizeMode.Stretch)
        for column, width in ((COL_SOURCE, 150), (COL_PUBLISHED, 90), (COL_DURATION, 70), (COL_PROGRESS, 90)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(column, width)
        self.item_list.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.item_list.doubleClicked.connect(lambda _index: self.play_selected())
        for action in (self.commands.play_selected, self.commands.edit_tags, self.commands.toggle_favourite,
                       self.commands.paste_link, self.commands.toggle_read, self.commands.toggle_archive):
            self.item_list.addAction(action)
        self.item_list.setItemDelegateForColumn(COL_MATCH, MatchDelegate(self.item_list))
        header.setSectionResizeMode(COL_MATCH, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(COL_MATCH, 320)
        header.setSectionHidden(COL_MATCH, True)
        header.setSortIndicatorShown(True)
        header.setSectionsClickable(True)
        header.sortIndicatorChanged.connect(self._on_header_sort)
        self.items_model.sort_changed.connect(self._on_sort_changed)

        self.feeds = FeedsController(self, runner, db, self.apply_changes, self.show_error,
                                     automatic=read_only_reason is None)
        self.backups = BackupsController(self, runner, db, dialogs or RecoveryDialogs(), self.show_error,
                                         read_only=read_only_reason is not None)
        self.sync = SyncController(self, runner, db, self.apply_changes,
                                   lambda sentence: self.statusBar().showMessage(sentence, 15000), self.feeds.keyring,
                                   self.preferences, automatic=read_only_reason is None)
        self.feeds.refreshed.connect(lambda _summary: self.sync.after_refresh())
        a = self.commands
        self.subscriptions = SubscriptionsView(self.feeds.sources_model,
                                               [a.refresh_selected, a.set_password, a.unsubscribe, a.refresh_all])
        self.subscriptions.table.doubleClicked.connect(lambda _index: self._refresh_selected())
        self.subscriptions.table.addAction(a.edit_tags)
        self.organize = OrganizeController(self, runner, db)
        self._base = ItemFilter()  # the sidebar's view (with its sort order); search and filter bar go on top
        self._smart_list: int | None = None
        self.empty_view = EmptyLibraryView()
        self.empty_view.load_sample_requested.connect(self.load_sample)
        self.empty_view.add_podcast_requested.connect(self.add_podcast)
        self.empty_view.import_opml_requested.connect(self.feeds.ask_import_opml)
        self.list_stack = QStackedWidget()
        self.list_stack.addWidget(self.item_list)
        self.list_stack.addWidget(self.empty_view)
        self.list_stack.addWidget(self.subscriptions)

        self.search = QLineEdit()
        self.search.setObjectName("search")
        self.search.setAccessibleName("Search")
        self.search.setPlaceholderText("Search titles, notes and articles  (Ctrl+F)")
        self.search.setClearButtonEnabled(True)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self._apply_search)
        self.search.textChanged.connect(self._search_timer.start)
        self.search.returnPressed.connect(self.focus_list)
        self.filter_bar = FilterBar(self.commands.save_search)
        self.filter_bar.changed.connect(self._compose_filter)

        self.detail = DetailPane()
        self.subscriptions.source_selected.connect(self.detail.show_source)
        self.detail.chapter_chosen.connect(self._play_chapter)
        self.notes = NotesController(self, runner, db, session, self.commands, self.selected_item,
                                     self.selected_item_ids, self._on_notes_changed, self.show_error)
        self.notes.view.note_selected.connect(self._on_note_selected)
        self.list_stack.addWidget(self.notes.view)
        self.reading = ReadingController(self, runner, db, self.commands)
        self.articles = ArticlesController(self, runner, self.commands)
        self.list_stack.addWidget(self.reading.reader)
        self.notes.pane.table.clicked.connect(
            lambda index: self._on_note_clicked(self.notes.pane.model.note_at(index.row())))
        self.graph = GraphController(self, runner, db, self.selected_item, self.show_in_library, self.open_item,
                                     self.queue_items, lambda message: self.statusBar().showMessage(message, 8000))
        self.list_stack.addWidget(self.graph.panel)
        for action in (self.commands.zoom_in, self.commands.zoom_out, self.commands.fit_graph):
            self.graph.panel.view.addAction(action)
        self.player_bar = PlayerBar(session.player)
        self.playback = PlaybackController(runner, db, session, self.commands, self.player_bar, self.apply_changes,
                                           self)
        self.queue_view = QueueView(QueueModel(db, self))
        self.queue = QueueController(runner, db, session, self.commands, self.queue_view, self.playback.sleep,
                                     self.selected_episode_ids, self.play_item_id, self)
        self.episodes = EpisodeController(self, runner, db, session, self.commands, self.selected_item_ids,
                                          self._selected_source_id, self.apply_changes)
        self.help = HelpController(self, runner, db, self.commands)
        self.mpris = Mpris(session, self, self.queue, parent=self)
        self.feeds.refresh_started.connect(self._note_refresh_start)
        self.feeds.refresher.feed_done.connect(self._auto_download)
        self._items_before_refresh = newest_item_id(db)

        middle = QWidget()
        middle_layout = QVBoxLayout(middle)
        middle_layout.setContentsMargins(0, 0, 0, 0)
        middle_layout.addWidget(self.search)
        middle_layout.addWidget(self.filter_bar)
        middle_layout.addWidget(self.list_stack, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.sidebar)
        self.splitter.addWidget(middle)
        self.item_side = QSplitter(Qt.Orientation.Vertical)
        self.item_side.setObjectName("itemSide")
        for pane in (self.detail, self.graph.related, self.notes.pane, self.notes.transcript, self.queue_view):
            self.item_side.addWidget(pane)
        self.item_side.setSizes([260, 130, 150, 200, 160])
        self.splitter.addWidget(self.item_side)
        self.splitter.setSizes([220, 640, 420])
        self.splitter.setCollapsible(0, False)
        self.sidebar.setMinimumWidth(160)
        self.splitter.setStretchFactor(1, 1)
        self.banner = CannotSaveBanner()
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.banner)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.player_bar)
        self.setCentralWidget(central)

        self.desktop = DesktopController(self, self.preferences)
        self.desktop.restore_layout()
        self.statusBar().addPermanentWidget(self.feeds.progress)
        self.setAcceptDrops(True)
        self._build_menus()
        self._connect_actions()
        session.item_changed.connect(self._on_playing_item)
        session.chapter_changed.connect(self._on_chapter)
        session.chapters_changed.connect(lambda _chapters: self._on_chapter(session.chapter))
        session.player.failed.connect(self._show_playback_error)
        runner.failed.connect(self.show_error)
        runner.cannot_save.connect(self._cannot_save)
        runner.saved.connect(self._saved)
        if read_only_reason:
            self.banner.show_problem(read_only_reason, permanent=True)
        self._base = self.organize.with_remembered_sort(ItemFilter(), None)
        self.items_model.set_filter(self._base, load=False)
        self._show_sort(self._base)
        self.reload()
        self.item_list.setFocus()
        self.graph.schedule_update()
        self.reading.restore()

    # Layout ---------------------------------------------------------------------------------------

    def _build_menus(self) -> None:
        menus = {name: self.menuBar().addMenu(title) for name, title in MENUS.items()}
        for spec in SPECS:
            if spec.name == "show_settings":
                menus[spec.menu].addSeparator()
            menus[spec.menu].addAction(self.commands.all[spec.name])

    def _connect_actions(self) -> None:
        a = self.commands
        a.add_podcast.triggered.connect(self.add_podcast)
        a.load_sample.triggered.connect(self.load_sample)
        a.import_opml.triggered.connect(self.feeds.ask_import_opml)
        a.export_opml.triggered.connect(self.feeds.ask_export_opml)
        a.refresh_all.triggered.connect(self.feeds.refresh_all)
        a.sync_now.triggered.connect(self.sync.sync_now)
        a.unsubscribe.triggered.connect(lambda: self.feeds.ask_unsubscribe(self._selected_source_ids()))
        a.refresh_selected.triggered.connect(self._refresh_selected)
        a.cancel_refresh.triggered.connect(self.feeds.cancel)
        a.set_password.triggered.connect(self._set_password)
        a.restore_backup.triggered.connect(self.backups.ask_restore)
        a.show_subscriptions.triggered.connect(self.show_subscriptions)
        a.quit.triggered.connect(self.close)
        a.play_selected.triggered.connect(self.play_selected)
        a.edit_tags.triggered.connect(self.organize.edit_tags)
        a.toggle_favourite.triggered.connect(self.organize.toggle_favourite)
        a.save_search.triggered.connect(self.organize.save_view)
        a.rename_tag.triggered.connect(self.organize.rename_tag)
        a.colour_tag.triggered.connect(self.organize.colour_tag)
        a.delete_entry.triggered.connect(self.organize.delete_entry)
        a.focus_search.triggered.connect(self._focus_search)
        a.focus_list.triggered.connect(self.focus_list)
        a.show_notes.triggered.connect(self.show_notes)
        a.show_settings.triggered.connect(self.desktop.show_settings)
        a.focus_queue.triggered.connect(self.queue_view.list.setFocus)
        a.continue_listening.triggered.connect(lambda: self._show_section(CONTINUE_LISTENING))
        a.downloaded.triggered.connect(lambda: self._show_section(DOWNLOADED))
        a.show_graph.triggered.connect(self.show_graph)
        a.show_learning_path.triggered.connect(self.show_learning_path)
        a.zoom_in.triggered.connect(self.graph.panel.view.zoom_in)
        a.zoom_out.triggered.connect(self.graph.panel.view.zoom_out)
        a.fit_graph.triggered.connect(self.graph.panel.view.fit)
        a.queue_path.triggered.connect(self.graph.queue_path)
        for action in a.all.values():
            if action.shortcutContext() != Qt.ShortcutContext.WidgetShortcut:
                self.addAction(action)

    # Loading --------------------------------------------------------------------------------------

    def reload(self) -> None:
        """Re-read the sidebar and the item list (the selected item stays selected)."""
        current = self.items_model.item_at(self.item_list.currentIndex().row())
        self._select_after_load = current.id if current is not None else None
        self._also_selected = self.selected_item_ids()
        self._reload_sidebar()
        self.items_model.reload()

    def _reload_sidebar(self) -> None:
        self._runner.read(read_sidebar, on_done=self._on_sidebar)

    def _on_sidebar(self, data: SidebarData) -> None:
        current = self.items_model.item_filter
        self.sidebar.selectionModel().blockSignals(True)
        self.sidebar_model.populate(data)
        self.sidebar.expandAll()
        shown = self.list_stack.currentWidget()
        views: dict[QWidget | None, str] = {self.subscriptions: SUBSCRIPTIONS, self.notes.view: NOTES,
                                            self.graph.panel: GRAPH}
        self.sidebar.setCurrentIndex(self.sidebar_model.index_for(views.get(shown, replace(current, text=""))))
        self.notes.set_choices([name for name, _count in data.tags], data.sources)
        self.graph.set_choices([name for name, _count in data.tags], data.sources)
        self.sidebar.selectionModel().blockSignals(False)
        self._update_empty_state()
        self.desktop.restore_view()

    def _update_empty_state(self) -> None:
        # Either read may come back first: the library is empty only when neither found anything.
        if self.list_stack.currentWidget() in (self.subscriptions, self.notes.view, self.graph.panel,
                                               self.reading.reader):
            return
        empty = self.sidebar_model.total == 0 and self.items_model.rowCount() == 0
        self.list_stack.setCurrentWidget(self.empty_view if empty else self.item_list)
        if empty:
            self.empty_view.sample_button.setFocus()

    @Slot()
    def _on_items_loaded(self) -> None:
        self._update_empty_state()
        target = self._select_after_load
        self._select_after_load = None
        row = self.items_model.row_of(target) if target is not None else None
        if row is None and self.items_model.rowCount() and not self.item_list.selectionModel().hasSelection():
            row = 0
        if row is not None:
            self.item_list.selectRow(row)
            self.item_list.scrollTo(self.items_model.index(row, 0))
        others, self._also_selected = self._also_selected, []
        selection = self.item_list.selectionModel()
        for item_id in others:
            other = self.items_model.row_of(item_id)
            if other is not None and other != row:
                selection.select(self.items_model.index(other, 0), selection.SelectionFlag.Select
                                 | selection.SelectionFlag.Rows)

    @Slot(QModelIndex, QModelIndex)
    def _on_section_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.reading.close_reader()
        flt = current.data(FilterRole)
        for bar in (self.search, self.filter_bar):  # the graph has its own find box and filters
            bar.setVisible(flt != GRAPH)
        if flt == SUBSCRIPTIONS:
            self.feeds.reload_sources()
            self.list_stack.setCurrentWidget(self.subscriptions)
            self.detail.show_source(self.subscriptions.current_source())
            return
        if flt == NOTES:
            self.notes.reload_view()
            self.list_stack.setCurrentWidget(self.notes.view)
            return
        if flt == GRAPH:
            self.list_stack.setCurrentWidget(self.graph.panel)
            self.graph.refresh(fit=True)
            return
        if not isinstance(flt, ItemFilter):
            return
        leaving_view = self.list_stack.currentWidget() in (self.subscriptions, self.notes.view, self.graph.panel)
        smart = current.data(SmartListRole)
        self._smart_list = smart if isinstance(smart, int) else None
        if self._smart_list is not None:  # a smart list brings its search text and filters along
            self.search.blockSignals(True)
            self.search.setText(flt.text)
            self.search.blockSignals(False)
            self.filter_bar.show_filter(flt)
        self._base = self.organize.with_remembered_sort(flt, self._smart_list)
        self._compose_filter()
        self._update_empty_state()
        if leaving_view:
            self._show_item(self.selected_item())

    @Slot()
    def _apply_search(self) -> None:
        self._compose_filter()

    @Slot()
    def _compose_filter(self) -> None:
        """The list shows the sidebar's view narrowed by the search text and the filter bar."""
        text = self.search.text().strip()
        flt = self.filter_bar.narrow(replace(self._base, text=text if fts_query(text) else ""))
        self.items_model.set_filter(flt)
        self._show_sort(flt)

    def _show_sort(self, flt: ItemFilter) -> None:
        header = self.item_list.horizontalHeader()
        header.setSectionHidden(COL_MATCH, not flt.text)
        indicator = self.items_model.sort_indicator()
        header.blockSignals(True)
        if indicator is None:
            header.setSortIndicator(COL_MATCH if flt.ranked else -1, Qt.SortOrder.AscendingOrder)
        else:
            header.setSortIndicator(*indicator)
        header.blockSignals(False)

    @Slot(int, Qt.SortOrder)
    def _on_header_sort(self, column: int, order: Qt.SortOrder) -> None:
        self.items_model.sort(column, order)

    def _on_sort_changed(self, flt: ItemFilter) -> None:
        self._base = replace(self._base, sort=flt.sort, reverse=flt.reverse)
        self.organize.remember_sort(self._base, self._smart_list, flt)
        self._show_sort(flt)

    def apply_changes(self, changes: Changes) -> None:
        """Show what an operation changed: reload when items came or went, else refresh those rows."""
        self.graph.library_changed(changes)
        if changes.structure:
            self.reload()
        else:
            self.items_model.refresh_items(changes.items)
            shown = self.detail.item_id
            if shown is not None and shown in changes.items:
                self._show_item(self.selected_item())
        if changes.message:
            self.statusBar().showMessage(changes.message, 8000)

    # Selection and playback --------------------------------------------------------------------------

    def selected_item_ids(self) -> list[int]:
        """The ids of the selected rows, in list order."""
        return [item.id for item in self._selected_items()]

    def selected_item(self) -> Item | None:
        """The item of the current row, read in full."""
        index = self.item_list.currentIndex()
        if not index.isValid():
            return None
        item = self.items_model.item_at(index.row())
        if item is None:
            return None
        try:
            return get_item(self._db, item.id)
        except NotFoundError:
            return None

    def selected_episode_ids(self) -> list[int]:
        """The selected episodes (articles left out), in list order."""
        return [item.id for item in self._selected_items() if item.kind == "episode"]

    def _selected_source_id(self) -> int | None:
        ids = self._selected_source_ids()
        return ids[0] if ids else None

    @Slot(QItemSelection, QItemSelection)
    def _on_selection_changed(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        self._show_item(self.selected_item())

    def _show_item(self, item: Item | None) -> None:
        """Show ``item`` with its chapters (the player's when it plays, else the cached ones), its download and
        its notes."""
        self.notes.show_item(item)
        if item is None:
            self.detail.show_item(None)
            return
        playing = self.session.item is not None and self.session.item.id == item.id
        chapters = self.session.chapters if playing else cached_chapters(self._db, item.id) or []
        self.detail.show_item(item, chapters, self.session.chapter if playing else -1,
                              get_download(self._db, item.id))
        self.graph.item_selected(item)

    def _on_notes_changed(self) -> None:
        self._reload_sidebar()
        self.reading.reload_highlights()

    def _on_note_clicked(self, note: Note | None) -> None:
        if note is not None:
            self.reading.show_highlight(note)

    def select_item(self, item_id: int) -> None:
        """Select the item in the list (once the list has it)."""
        row = self.items_model.row_of(item_id)
        if row is None:
            self._select_after_load = item_id
        else:
            self.item_list.selectRow(row)

    def _on_note_selected(self, note: Note | None) -> None:
        try:
            self._show_item(get_item(self._db, note.item_id) if note is not None else None)
        except NotFoundError:
            self._show_item(None)

    def _selected_items(self) -> list[Item]:
        rows = sorted({index.row() for index in self.item_list.selectionModel().selectedRows()})
        return [item for item in map(self.items_model.item_at, rows) if item is not None]

    @Slot(int)
    def _on_chapter(self, _index: int) -> None:
        playing = self.session.item
        if playing is not None and self.detail.item_id == playing.id:
            self._show_item(self.selected_item())

    @Slot(int)
    def _play_chapter(self, index: int) -> None:
        item = self.selected_item()
        if item is None:
            return
        playing = self.session.item is not None and self.session.item.id == item.id
        chapters = self.session.chapters if playing else cached_chapters(self._db, item.id) or []
        if not 0 <= index < len(chapters):
            return
        if playing:
            self.session.player.seek(chapters[index].start)
            self.session.player.play()
        else:
            self.playback.play(item, start=chapters[index].start)

    def play_item_id(self, item_id: int) -> None:
        """Play the item with this id (from the queue)."""
        try:
            self.playback.play(get_item(self._db, item_id))
        except NotFoundError as exc:
            self.show_error(str(exc))

    @Slot()
    def play_selected(self) -> None:
        """Play the selected episode from where it was left; open the selected article in the reader."""
        item = self.selected_item()
        if item is None:
            return
        if item.kind != "episode":
            self.reading.open_item(item)
            return
        self.playback.play(item)

    def _item_or_none(self, item_id: int) -> Item | None:
        try:
            return get_item(self._db, item_id)
        except NotFoundError:
            return None

    def show_in_library(self, item_id: int) -> None:
        """Select an item in the list (the whole library is shown when the current view does not hold it)."""
        row = self.items_model.row_of(item_id)
        if row is not None:
            self.item_list.selectRow(row)
            self.item_list.scrollTo(self.items_model.index(row, 0))
            return
        self._select_after_load = item_id
        self.search.blockSignals(True)
        self.search.clear()
        self.search.blockSignals(False)
        self.filter_bar.show_filter(ItemFilter())
        self._smart_list = None
        self._base = self.organize.with_remembered_sort(ItemFilter(), None)
        if self.list_stack.currentWidget() is self.item_list:
            self.sidebar.selectionModel().blockSignals(True)
            self.sidebar.setCurrentIndex(self.sidebar_model.index_for(ItemFilter()))
            self.sidebar.selectionModel().blockSignals(False)
        self._compose_filter()

    def open_item(self, item_id: int) -> None:
        """Play an episode (from where it was left); open an article in the reader (where it was left)."""
        item = self._item_or_none(item_id)
        if item is None:
            return
        if item.kind == "episode":
            self.playback.play(item)
        else:
            self.show_in_library(item_id)
            self.reading.open_item(item)

    def queue_items(self, item_ids: list[int]) -> None:
        """Add the episodes among ``item_ids`` to Up Next, in this order ("Queue This Path"); start playing
        when nothing plays."""
        episodes = [i for i, item in items_by_ids(self._db, item_ids, full=False).items() if item.kind == "episode"]
        episodes.sort(key=item_ids.index)
        if not episodes:
            self.statusBar().showMessage("The path holds no episodes to queue.", 6000)
            return
        self.queue.add_ids(episodes, play_first=self.session.item is None)
        self.statusBar().showMessage(f"Added {len(episodes)} episode(s) to Up Next, in learning order.", 8000)

    @Slot(int)
    def _on_playing_item(self, item_id: int) -> None:
        self.items_model.set_playing(item_id)
        item = self.session.item
        if item is not None:
            self.player_bar.set_title(f"{item.title} — {item.source or ''}")

    def _note_refresh_start(self) -> None:
        # The refresh process was just started: it stores nothing before its interpreter is up.
        self._items_before_refresh = newest_item_id(self._db)

    def _auto_download(self, outcome: dict[str, object]) -> None:
        source_id = outcome.get("source_id")
        if outcome.get("new") and isinstance(source_id, int):
            self.episodes.downloads.auto_download(source_id, self._items_before_refresh)

    def _show_section(self, flt: ItemFilter) -> None:
        self.sidebar.setCurrentIndex(self.sidebar_model.index_for(flt))
        self.focus_list()

    @Slot(str)
    def _show_playback_error(self, message: str) -> None:
        self.show_error(message, title="Playback problem")

    # Operations ---------------------------------------------------------------------------------------

    @Slot()
    def add_podcast(self) -> None:
        """Ask for a feed URL (or file path) and subscribe in the background."""
        url, ok = QInputDialog.getText(self, "Add Podcast", "Feed URL or file:")
        if ok and url.strip():
            self.subscribe(url.strip())

    def subscribe(self, source: str) -> None:
        """Subscribe to ``source``: fetched and parsed in the pool, stored by the writer; errors in a dialog."""
        try:
            url = canonical_source(source)
        except EarmarkError as exc:
            self._subscribe_failed(source, str(exc))
            return
        self.statusBar().showMessage(f"Reading {url}…")
        self._read_feed(url)

    def _read_feed(self, url: str, user: str | None = None, password: str | None = None) -> None:
        self._runner.compute(try_read_feed, url, user, password, on_done=lambda read: self._on_feed_read(url, read),
                             on_error=lambda message: self._subscribe_failed(url, message))

    def _on_feed_read(self, url: str, read: ReadFeed | NeedsCredentials) -> None:
        if isinstance(read, ReadFeed):
            self._store_feed(url, read)
            return
        self.statusBar().showMessage(read.message, 10000)
        dialog = CredentialsDialog(url, self)
        dialog.accepted.connect(lambda: self._read_feed(url, dialog.user, dialog.password))
        dialog.open()

    def _store_feed(self, url: str, read: ReadFeed) -> None:
        def store(kept: bool) -> None:
            note = "" if kept else (" Its password was not kept: no keyring runs, and passwords are not kept in the "
                                    "library file.")  # subscribed all the same
            self._runner.write(store_subscription, url, read if kept else replace(read, user=None, password=None),
                               on_done=lambda changes: self.apply_changes(
                                   replace(changes, message=changes.message + note)),
                               on_error=lambda message: self._subscribe_failed(url, message))

        if read.user is not None:
            self.feeds.keyring.ensure(store)  # asks once per session when there is no keyring
        else:
            store(True)

    def _subscribe_failed(self, url: str, message: str) -> None:
        self._runner.write(note_feed_failure, url, message, on_done=self.apply_changes)
        self.show_error(message, title="Could not subscribe")

    @Slot()
    def load_sample(self) -> None:
        """Add the sample library in the background."""
        self.statusBar().showMessage("Loading the sample library…")
        self._runner.compute(read_sample, on_done=self._store_sample)

    def _store_sample(self, sample: SampleData) -> None:
        self._runner.write(store_sample_library, sample, on_done=self._on_sample_loaded)

    def _on_sample_loaded(self, changes: Changes) -> None:
        self.apply_changes(changes)
        self.item_list.setFocus()

    @Slot(str)
    def show_error(self, message: str, title: str = "Earmark") -> None:
        """Tell the user what went wrong, in a dialog that does not block the event loop (a sentence already
        shown in an open dialog is not shown in a second one)."""
        self.statusBar().showMessage(message, 10000)
        if message in self._open_errors:
            return
        box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, self)
        box.setObjectName("errorDialog")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self._open_errors.add(message)
        box.finished.connect(lambda _result: self._open_errors.discard(message))
        box.open()

    @Slot(str)
    def _cannot_save(self, message: str) -> None:
        """The library is read-only or its disk is full: say so above the lists until a write succeeds again
        (not in a dialog per write: playback alone saves every few seconds)."""
        self.banner.show_problem(message)
        self.statusBar().showMessage(message, 10000)

    @Slot()
    def _saved(self) -> None:
        if self.banner.resolve():
            self.statusBar().showMessage("The library can be saved again.", 8000)

    def release_library(self) -> None:
        """Close the window and every connection to the library before returning (for a restore)."""
        self._release_library = True
        self.close()

    @Slot()
    def show_subscriptions(self) -> None:
        """Show every feed with its status, and put the keyboard there."""
        self.sidebar.setCurrentIndex(self.sidebar_model.index_for(SUBSCRIPTIONS))
        self.subscriptions.table.setFocus()

    @Slot()
    def show_graph(self) -> None:
        """Show the topic graph and put the keyboard there."""
        self.sidebar.setCurrentIndex(self.sidebar_model.index_for(GRAPH))
        self.graph.panel.view.setFocus()

    @Slot()
    def show_learning_path(self) -> None:
        """Show the learning path of the selected item in the graph."""
        self.graph.panel.set_mode("path")
        self.show_graph()

    @Slot()
    def show_notes(self) -> None:
        """Show every note (the Notes view), and put the keyboard in its filter."""
        self.sidebar.setCurrentIndex(self.sidebar_model.index_for(NOTES))
        self.notes.view.text.setFocus()

    def _selected_source_ids(self) -> list[int]:
        if self.list_stack.currentWidget() is self.subscriptions:
            return self.subscriptions.selected_source_ids()
        return list(dict.fromkeys(item.source_id for item in self._selected_items() if item.source_id))

    @Slot()
    def _refresh_selected(self) -> None:
        ids = self._selected_source_ids()
        if not ids:
            self.statusBar().showMessage("Select the feeds (or items of the feed) to refresh.", 6000)
        self.feeds.refresh_sources(ids)

    @Slot()
    def _set_password(self) -> None:
        ids = self._selected_source_ids()
        if len(ids) != 1:
            self.statusBar().showMessage("Select one feed to set its password.", 6000)
            return
        self.feeds.ask_credentials(ids[0])

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Accept links, .opml files, feed files and article files dropped on the window."""
        mime = event.mimeData()
        if mime.hasUrls() or mime.hasText():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        """Save dropped web pages and HTML, Markdown or text files as articles (a dropped feed's address
        subscribes); subscribe to dropped feed files and links; import dropped OPML files."""
        mime = event.mimeData()
        urls = mime.urls() if mime.hasUrls() else [QUrl(line.strip()) for line in mime.text().splitlines()]
        for url in urls:
            if url.isLocalFile():
                path = Path(url.toLocalFile())
                if path.suffix.lower() == ".opml":
                    self.feeds.import_opml(path)
                elif path.suffix.lower() in ARTICLE_SUFFIXES:
                    self.articles.add(str(path))
                else:
                    self.subscribe(str(path))
            elif url.scheme().lower() in ("http", "https"):
                self.articles.add(url.toString(), feeds=True)
            elif url.scheme().lower() in ("feed", "itpc", "pcast", "podcast"):
                self.subscribe(url.toString())
        event.acceptProposedAction()

    # Focus ----------------------------------------------------------------------------------------------

    @Slot()
    def focus_list(self) -> None:
        """Put the keyboard focus in the item list (leaving the reader)."""
        self.reading.close_reader()
        self.item_list.setFocus()

    def _focus_search(self) -> None:
        self.search.setFocus()
        self.search.selectAll()

    def open_arguments(self, arguments: list[str]) -> None:
        """Come to the front and open what another launch was given: feed URLs subscribe, .opml files import."""
        self.desktop.open_arguments(arguments)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Remember the layout, save the playing position, stop a refresh and downloads, finish queued writes,
        release the player and the library."""
        self.desktop.shutdown()
        self._search_timer.stop()  # a search typed just before closing must not start a read afterwards
        self.notes.shutdown()
        self.reading.shutdown()
        self.articles.shutdown()
        self.graph.shutdown()
        self.feeds.shutdown()
        self.sync.shutdown()
        self.backups.shutdown()
        self.mpris.unregister()
        self.episodes.downloads.shutdown()
        self.session.stop()
        self.session.player.shutdown()
        self._runner.shutdown(wait_for_reads=self._release_library)
        self._db.close()
        event.accept()

