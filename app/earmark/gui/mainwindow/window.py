"""The main window: sidebar, the central views, the panes beside the item and the player bar, built from the
window's controllers and wired to the library and the player."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QMainWindow, QSplitter, QVBoxLayout, QWidget

from earmark.core.models import Changes
from earmark.core.settings import get_setting
from earmark.gui.mainwindow.frame.actions import GO_TO, MENUS, SPECS, Actions
from earmark.gui.mainwindow.frame.feedback import Feedback
from earmark.gui.mainwindow.frame.first_paint import after_first_paint
from earmark.gui.mainwindow.frame.layout_memory import WindowLayout, restore_layout, size_first_window
from earmark.gui.mainwindow.frame.quit_watchdog import QuitWatchdog
from earmark.gui.mainwindow.frame.window_events import WindowEvents
from earmark.gui.mainwindow.navigation.item_list import ListController
from earmark.gui.mainwindow.navigation.navigator import Navigator
from earmark.gui.mainwindow.navigation.plain_view import PlainView
from earmark.gui.mainwindow.navigation.sidebar import SidebarController
from earmark.gui.mainwindow.places import ASK, GRAPH, LIST, NOTES, READER, STATISTICS, SUBSCRIPTIONS, Place, entry_place
from earmark.gui.models.sidebar import SidebarData
from earmark.gui.preferences import DesktopSettings, Preferences

if TYPE_CHECKING:
    from earmark.core.db.database import Database
    from earmark.gui.tasks import TaskRunner
    from earmark.gui.views.recovery import RecoveryDialogs
    from earmark.playback.progress import PlaybackSession


class MainWindow(QMainWindow):
    """The library window: shows the library, plays from it (``make_session`` makes the player once the window is
    whole), and saves everything on close. ``read_only_reason`` (a sentence) opens it on a library that can only be
    read: it shows the library, says why nothing can be saved, and makes no automatic refreshes, downloads or
    backups. ``list_first`` (a start not minimised): the frame, menus, sidebar and list now, the rest after."""

    def __init__(self, runner: TaskRunner, db: Database, make_session: Callable[[], PlaybackSession],
                 preferences: Preferences | None = None, parent: QWidget | None = None, *,
                 read_only_reason: str | None = None, dialogs: RecoveryDialogs | None = None,
                 list_first: bool = False) -> None:
        super().__init__(parent)
        self.read_only_reason = read_only_reason
        self._release_library = False  # set by release_library(): close every connection on close
        self._restored = False  # the place of the last visit is shown once the sidebar first filled
        self._waiting: list[Callable[[], object]] | None = []  # for the whole window; None once it is built
        self.quit_watchdog = QuitWatchdog()  # enabled by the real app (gui.application.run)
        self.setWindowTitle(f"Earmark — {runner.library_path.name}" + (" (read-only)" if read_only_reason else ""))
        size_first_window(self)
        self._runner, self._db, self._make_session = runner, db, make_session
        self.preferences = preferences or Preferences(db, runner, DesktopSettings(), self)
        self.menu_actions = a = Actions(self, get_setting(db, "keyboard.shortcuts"))  # type: ignore[arg-type]
        self.feedback = Feedback(self)
        self.banner = self.feedback.banner
        self.sidebar = SidebarController(runner, [a.rename_tag, a.colour_tag, a.delete_entry], self)
        self.sidebar_tree, self.sidebar_model = self.sidebar.view, self.sidebar.model
        self.navigator = Navigator(self.sidebar, self)
        self.lists = ListController(runner, db, a, lambda: self.sidebar.total, self)
        self.items_model, self.item_list, self.search = self.lists.model, self.lists.table, self.lists.search
        self.filter_bar, self.empty_view = self.lists.filter_bar, self.lists.welcome
        self._frame()
        self._build_menus()  # in the first frame, as the sidebar's entries: nothing moves when the rest comes
        self.sidebar.reload()
        self._layout = WindowLayout(self, (self.splitter,), self.item_list.horizontalHeader())
        if list_first and not self.preferences.value("appearance.start_minimised"):
            restore_layout(self._layout, self.preferences)  # the first frame shows as the window was left
            self.show()
            after_first_paint(self.lists, lambda: self._build_rest(dialogs))
        else:
            self._build_rest(dialogs)

    # Building -----------------------------------------------------------------------------------------

    def _frame(self) -> None:
        self.navigator.add(LIST, self.lists, self.lists.page, self.lists.welcome)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.sidebar_tree)
        self.splitter.addWidget(self.navigator.stack)
        self.splitter.setSizes([205, 685])  # "Subscriptions (12 failing)" whole; the views keep their room
        self.navigator.stack.setMinimumWidth(600)  # the views' controls wrap or clip, the docks keep their room
        self.splitter.setCollapsible(0, False)
        self.splitter.setStretchFactor(1, 1)
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.banner)
        layout.addWidget(self.splitter, 1)
        self.setCentralWidget(central)

    def when_built(self, then: Callable[[], object]) -> None:
        """Run ``then`` once the whole window is built (now when it is)."""
        if self._waiting is None:
            then()
        else:
            self._waiting.append(then)

    def _build_rest(self, dialogs: RecoveryDialogs | None = None) -> None:
        """Everything beyond the list (views, panes, player bar, menus, wiring); then the first place shown."""
        from earmark.gui.mainwindow import parts as p

        self.session = self._make_session()  # the player: not needed before the first frame
        runner, db, session, a = self._runner, self._db, self.session, self.menu_actions
        self.window_events = WindowEvents(self, self.navigator.back, self.navigator.forward)  # see app_filter.py
        automatic = self.read_only_reason is None  # a library that can only be read is not changed by itself
        self.feeds = p.FeedsController(self, runner, db, self.apply_changes, self.feedback.show_error,
                                       self.feedback.show_note, lambda: self.selection.selected_source_ids(),
                                       automatic=automatic)
        self.backups = p.BackupsController(self, runner, db, dialogs or p.RecoveryDialogs(), self.feedback.show_error,
                                           read_only=not automatic, refreshed=self.feeds.refreshed)
        self.sync = p.SyncController(self, runner, db, self.apply_changes, lambda sentence: self.feedback.status(
            sentence, 15000), self.feeds.keyring, self.preferences, automatic=automatic)
        self.feeds.refreshed.connect(lambda _summary: self.sync.after_refresh())
        self.subscriptions = p.SubscriptionsView(self.feeds.sources_model,
                                                 [a.refresh_selected, a.set_password, a.unsubscribe, a.refresh_all])
        self.selection = p.Selection(self.lists, self.subscriptions, lambda: self.navigator.current.view)
        self.organize = p.OrganizeController(self, runner, db, self.selection, self.sidebar,
                                             lambda: self.items_model.item_filter, self.apply_changes, self.feedback)
        self.detail = p.DetailPane()
        self.notes = p.NotesController(self, runner, db, session, a, self.selection.selected_item,
                                       self.selection.selected_item_ids, self._on_notes_changed,
                                       self.feedback.show_error)
        self.reading = p.ReadingController(self, runner, db, a, self.notes, self.selection, self.feedback,
                                           (self.navigator.go, self.navigator.replace_dead_end), self.apply_changes)
        self.articles = p.ArticlesController(self, runner, a, self.reading, self.feedback, self.apply_changes,
                                             lambda url: self.subscribing.subscribe(url))
        self.subscribing = p.SubscribeController(self, runner, self.feeds, self.articles, self.feedback,
                                                 self.apply_changes,
                                                 lambda entry: self.navigator.go_once_listed(entry_place(entry)))
        self.graph = p.GraphController(self, runner, db, self.selection.selected_item,
                                       lambda item_id: self.opener.show_in_library(item_id),
                                       lambda item_id: self.opener.open_item(item_id),
                                       lambda ids: self.queue.add_episodes(ids), self.feedback.status)
        self.player_bar = p.PlayerBar(session.player)
        p.dialog_when_needed(session.player, self.feedback.show_error)  # other failures: the player bar says them
        self.playback = p.PlaybackController(runner, db, session, a, self.player_bar, self.apply_changes, self)
        self.silence = p.SilenceController(runner, session, a, self.feedback.status, self)
        self.opener = p.ItemOpener(db, self.playback, self.reading, self.lists, self.navigator, self.feedback, runner,
                                   self)
        self.queue_view = p.QueueView(p.QueueModel(db, self))
        self.queue = p.QueueController(runner, db, session, a, self.queue_view, self.playback.sleep,
                                       self.selection.selected_episode_ids, self.opener.play_item_id, self)
        self.episodes = p.EpisodeController(self, runner, db, session, a, self.selection.selected_item_ids,
                                            self.selection.selected_source_id, self.apply_changes)
        self.transcription = p.TranscriptionController(self, runner, a, self.selection.selected_episode_ids,
                                                       self.selection.selected_source_id, self.apply_changes,
                                                       self.feedback.show_error)
        self.transcription.connect_to(self.episodes.downloads.changed, self.notes.transcript_changed)
        self.episodes.downloads.changed.connect(self.notes.transcript_changed)  # downloaded: Transcribe is offered
        p.LibraryWatch(runner, self).changed_elsewhere.connect(lambda: self.apply_changes(Changes(structure=True)))
        self.help = p.HelpController(self, runner, db, a, lambda key: self.desktop.show_setting(key))
        self.statistics = p.StatisticsController(runner)
        self.ask = p.AskController(runner, self.notes.play_at, self.opener, self.notes.show_note,
                                   self.detail.show_passage, self)
        self.mpris = p.Mpris(session, self, self.queue, parent=self,
                             artwork=lambda item_id: p.artwork_url(db, item_id))
        self.panes = p.ItemPanes(db, session, self.selection, self.detail, self.notes, self.graph, self.playback,
                                 self.feedback.show_error, self)
        p.SearchKeys(self.search, self.item_list, self.items_model, self.lists.apply_search,
                     lambda: self.panes.show(None))
        self._add_views()
        self.docks = p.PaneDocks(self, [
            p.Pane("details", "Details", self.detail), p.Pane("notes", "Notes", self.notes.pane),
            p.Pane("transcript", "Transcript", self.notes.transcript),
            p.Pane("related", "Related", self.graph.related), p.Pane("queue", "Up Next", self.queue_view)])
        self.addToolBar(Qt.ToolBarArea.BottomToolBarArea, p.player_tool_bar(self.player_bar))
        self.desktop = p.DesktopController(self._layout, self.preferences, a, p.Followers(
            self.feeds, session, self.player_bar, self.reading, self.feedback))
        self.desktop.restore_layout()
        self.docks.restore(self.preferences.value("window.docks"))
        self.statusBar().addPermanentWidget(self.feeds.progress)
        self.setAcceptDrops(True)
        self._connect_actions()
        self._connect_parts()
        self.covers = p.WindowCovers(self, runner, self)  # after the actions: its Esc follows the navigator's
        p.make_readable(self)
        self.announcer = p.Announcer(self.player_bar, session.player, self.playback.sleep)
        self.focus_chain = p.pane_keys(self, a, self.navigator, {
            "details": self.detail, "related": self.graph.related, "notes": self.notes.pane,
            "transcript": self.notes.transcript, "queue": self.queue_view, "player": self.player_bar,
            "sidebar": self.sidebar_tree})
        if self.read_only_reason:
            self.banner.show_problem(self.read_only_reason, permanent=True)
        self.navigator.start()
        if self.sidebar.data is not None:  # read before the rest was built: its place shown now
            self._on_sidebar(self.sidebar.data)
        self.item_list.setFocus()
        self.graph.schedule_update()
        waiting, self._waiting = self._waiting or [], None
        for then in waiting:
            then()

    def _add_views(self) -> None:
        nav, a = self.navigator, self.menu_actions
        nav.add(SUBSCRIPTIONS, PlainView(SUBSCRIPTIONS, self.subscriptions, self.subscriptions.table,
                                         self._enter_subscriptions), self.subscriptions)
        nav.add(NOTES, PlainView(NOTES, self.notes.view, self.notes.view.text, self.notes.reload_view,
                                 find=self.notes.view.text), self.notes.view)
        nav.add(GRAPH, self.graph, self.graph.panel)
        nav.add(READER, self.reading, self.reading.reader)
        nav.add(STATISTICS, self.statistics, self.statistics.view)
        nav.add(ASK, self.ask, self.ask.view)
        self.graph.panel.view.addActions([a.zoom_in, a.zoom_out, a.fit_graph])
        self.subscriptions.table.addAction(a.edit_tags)

    def _build_menus(self) -> None:
        menus = {name: self.menuBar().addMenu(title) for name, title in MENUS.items()}
        for spec in SPECS:
            if spec.name == "show_settings":
                menus[spec.menu].addSeparator()
            menus[spec.menu].addAction(self.menu_actions.all[spec.name])

    def _connect_actions(self) -> None:
        a, nav = self.menu_actions, self.navigator
        a.add_podcast.triggered.connect(self.subscribing.add_podcast)
        a.load_sample.triggered.connect(self.subscribing.load_sample)
        a.import_opml.triggered.connect(self.feeds.ask_import_opml)
        a.export_opml.triggered.connect(self.feeds.ask_export_opml)
        a.refresh_all.triggered.connect(self.feeds.refresh_all)
        a.sync_now.triggered.connect(self.sync.sync_now)
        a.unsubscribe.triggered.connect(lambda: self.feeds.ask_unsubscribe(self.selection.selected_source_ids()))
        a.refresh_selected.triggered.connect(self.feeds.refresh_selected)
        self.feeds.use_cancel_action(a.cancel_refresh)
        a.set_password.triggered.connect(self.feeds.ask_credentials_of_selected)
        a.restore_backup.triggered.connect(self.backups.ask_restore)
        a.quit.triggered.connect(self.quit_earmark)
        a.play_selected.triggered.connect(self.opener.play_selected)
        a.edit_tags.triggered.connect(self.organize.edit_tags)
        a.toggle_favourite.triggered.connect(self.organize.toggle_favourite)
        a.save_search.triggered.connect(self.organize.save_view)
        a.rename_tag.triggered.connect(self.organize.rename_tag)
        a.colour_tag.triggered.connect(self.organize.colour_tag)
        a.delete_entry.triggered.connect(self.organize.delete_entry)
        a.show_settings.triggered.connect(self.desktop.show_settings)
        a.focus_search.triggered.connect(nav.find)
        a.focus_list.triggered.connect(nav.to_list)
        a.go_back.triggered.connect(nav.back)
        a.go_forward.triggered.connect(nav.forward)
        for go in GO_TO:
            a.all[go.name].triggered.connect(lambda _checked=False, place=go.place: nav.go(place))
        self.docks.connect_view_menu({"details": a.show_details_pane, "related": a.show_related_pane,
                                      "notes": a.show_notes_pane, "transcript": a.show_transcript_pane,
                                      "queue": a.show_queue_pane}, a.reset_layout)
        a.zoom_in.triggered.connect(self.graph.panel.view.zoom_in)
        a.zoom_out.triggered.connect(self.graph.panel.view.zoom_out)
        a.fit_graph.triggered.connect(self.graph.panel.view.fit)
        a.queue_path.triggered.connect(self.graph.queue_path)
        for action in a.all.values():
            if action.shortcutContext() != Qt.ShortcutContext.WidgetShortcut:
                self.addAction(action)

    def _connect_parts(self) -> None:
        session, nav = self.session, self.navigator
        self.sidebar.chosen.connect(nav.sidebar_chose)
        self.sidebar.loaded.connect(self._on_sidebar)
        self.lists.shown_widget_changed.connect(nav.shown_widget_changed)
        self.lists.table.selectionModel().selectionChanged.connect(lambda _new, _old: self.panes.show_selected())
        self.lists.table.doubleClicked.connect(lambda _index: self.opener.play_selected())
        self.lists.welcome.load_sample_requested.connect(self.subscribing.load_sample)
        self.lists.welcome.add_podcast_requested.connect(self.subscribing.add_podcast)
        self.lists.welcome.import_opml_requested.connect(self.feeds.ask_import_opml)
        nav.moved.connect(self._on_moved)
        nav.history_changed.connect(lambda back, _forward: self.menu_actions.go_back.setEnabled(back))
        nav.history_changed.connect(lambda _back, forward: self.menu_actions.go_forward.setEnabled(forward))
        self.subscriptions.table.doubleClicked.connect(lambda _index: self.feeds.refresh_selected())
        self.subscriptions.source_selected.connect(self.detail.show_source)
        self.notes.pane.table.clicked.connect(
            lambda index: self._show_highlight(self.notes.pane.model.note_at(index.row())))
        self.notes.highlight_chosen.connect(self.opener.show_highlight)
        self.feeds.refresh_started.connect(self.episodes.refresh_started)
        self.graph.wait_for_refreshes(self.feeds.refresh_started, self.feeds.refreshed)
        self.ask.wait_for_refreshes(self.feeds.refresh_started, self.feeds.refreshed)
        self.feeds.refresher.feed_done.connect(self.episodes.feed_refreshed)
        session.item_changed.connect(self._on_playing_item)
        self._runner.failed.connect(self.feedback.show_error)
        self._runner.cannot_save.connect(self.feedback.cannot_save)
        self._runner.saved.connect(self.feedback.saved)

    # Views and loading -------------------------------------------------------------------------------------

    def _enter_subscriptions(self) -> None:
        self.feeds.reload_sources()
        self.detail.show_source(self.subscriptions.current_source())

    def _on_moved(self, place: Place) -> None:
        """The details pane gives the reader its room; elsewhere it shows the list's item again (not a feed's)."""
        self.docks.give_room("details", place.view == READER)
        if place.view != READER:
            self.panes.show_selected()

    def _on_sidebar(self, data: SidebarData) -> None:
        tags = [name for name, _count in data.tags]
        self.notes.set_choices(tags, data.sources)
        self.graph.set_choices(tags, data.sources)
        self.lists.library_counted()
        self.navigator.sidebar_reloaded()
        if not self._restored:  # the first time: the view of the last visit, unless the library is empty
            self._restored = True
            if data.total:
                self.navigator.restore(str(self.preferences.value("window.view")))
                self.reading.restore()

    def apply_changes(self, changes: Changes) -> None:
        """Show what an operation changed: the sidebar counts again when items came or went or their state changed,
        the list is read again when they came or went or a state that decides what it lists changed (else the
        changed rows are drawn again)."""
        self.graph.library_changed(changes)
        self.ask.library_changed(changes)
        if changes.structure or changes.states:
            self.sidebar.reload()
        if changes.structure or changes.states & self.items_model.item_filter.reads():
            self.lists.reload()
        else:
            self.items_model.refresh_items(changes.items)
        self.queue.model.refresh_items(changes.items)  # Up next shows the items as the list does
        self.panes.follow(changes)
        if changes.message:
            self.feedback.status(changes.message, 8000)

    def _on_notes_changed(self) -> None:
        self.sidebar.reload()
        self.ask.schedule_indexing()  # notes are passages too
        self.reading.reload_highlights()

    def _show_highlight(self, note: object) -> None:
        if note is not None:
            self.reading.show_highlight(note)  # type: ignore[arg-type]

    # Playing ------------------------------------------------------------------------------------------

    @Slot(int)
    def _on_playing_item(self, item_id: int) -> None:
        self.items_model.set_playing(item_id)
        item = self.session.item
        if item is not None:
            self.player_bar.set_title(f"{item.title} — {item.source or ''}")

    # Feeds ------------------------------------------------------------------------------------------------

    def open_arguments(self, arguments: list[str]) -> None:
        """Come to the front and open what another launch was given: feed URLs subscribe, .opml files import,
        ``earmark:`` links open their item at their moment."""
        self.subscribing.open_arguments(self.opener.open_moments(arguments))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Accept links, .opml files, feed files and article files dropped on the window."""
        mime = event.mimeData()
        if mime.hasUrls() or mime.hasText():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        """Articles, feeds and subscription lists dropped on the window are added (see SubscribeController)."""
        self.subscribing.open_dropped(event.mimeData())
        event.acceptProposedAction()

    # Closing ----------------------------------------------------------------------------------------------

    def quit_earmark(self) -> None:
        """Close the window for good (not into the tray)."""
        self.desktop.quitting = True
        self.close()

    def release_library(self) -> None:
        """Close the window and every connection to the library before returning (for a restore)."""
        self._release_library = True
        self.quit_earmark()

    def closeEvent(self, event: QCloseEvent) -> None:
        """Save the position, remember the layout and view, stop all work, release the library (or only hide)."""
        if self._waiting is not None:  # closed in the moment before it was whole: it closes once it is
            self.when_built(self.close)
            event.ignore()
            return
        if self.desktop.hide_to_tray():  # close to tray is on
            event.ignore()
            return
        self.quit_watchdog.arm()  # in the real app, a closing that hangs ends the process (see quit_watchdog.py)
        self.session.stop()  # first: the place in the episode is saved whatever hangs below, and the sound stops
        self.preferences.set_value("window.docks", self.docks.state())
        self.preferences.set_value("window.view", self.navigator.key())
        for stop in (self.desktop.shutdown, self.window_events.shutdown, self.focus_chain.shutdown,
                     self.lists.shutdown,  # a search typed just before closing must not start a read afterwards
                     self.notes.shutdown, self.reading.shutdown, self.articles.shutdown, self.graph.shutdown,
                     self.feeds.shutdown, self.sync.shutdown, self.backups.shutdown, self.mpris.unregister,
                     self.episodes.downloads.shutdown, self.transcription.shutdown, self.ask.shutdown,
                     self.session.player.shutdown):
            stop()
        self._runner.shutdown(wait_for_reads=self._release_library)
        self._db.close()
        if self._release_library:  # the process goes on: a restore, then a new window
            self.quit_watchdog.disarm()
        event.accept()
