"""Covers put into the window's parts once it is built: the list (a setting), the sidebar's podcasts and sites,
the details pane, the player bar, the Subscriptions view and the Podcasts view (Go ▸ My Podcasts); a refresh
asks the servers again about covers not checked for a day."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, QSize, QTimer
from PySide6.QtGui import QIcon

from earmark.core.db.covers import covers_due
from earmark.core.db.items import get_item
from earmark.core.models import Item, Source
from earmark.gui.covers.cache import CoverCache
from earmark.gui.covers.podcasts import PodcastsController
from earmark.gui.mainwindow.listening.player_bar import PLAYER_COVER
from earmark.gui.mainwindow.places import PODCASTS

if TYPE_CHECKING:
    from earmark.gui.mainwindow.frame.actions import Actions
    from earmark.gui.mainwindow.frame.desktop import DesktopController
    from earmark.gui.mainwindow.library.feeds import FeedsController
    from earmark.gui.mainwindow.library.subscribing import SubscribeController
    from earmark.gui.mainwindow.listening.player_bar import PlayerBar
    from earmark.gui.mainwindow.navigation.navigator import Navigator
    from earmark.gui.mainwindow.navigation.sidebar import SidebarController
    from earmark.gui.models.items import ItemListModel
    from earmark.gui.preferences import Preferences
    from earmark.gui.tasks import TaskRunner
    from earmark.gui.views.detail import DetailPane
    from earmark.gui.views.subscriptions import SubscriptionsView
    from earmark.playback.progress import PlaybackSession

SIDEBAR_COVER = 18  # logical pixels
LIST_SETTING = "appearance.list_covers"


class CoveredWindow(Protocol):
    """The parts of the main window that show covers (the window is not imported: it builds WindowCovers)."""

    read_only_reason: str | None
    preferences: Preferences
    items_model: ItemListModel
    sidebar: SidebarController
    detail: DetailPane
    feeds: FeedsController
    subscribing: SubscribeController
    subscriptions: SubscriptionsView
    session: PlaybackSession
    player_bar: PlayerBar
    navigator: Navigator
    menu_actions: Actions
    desktop: DesktopController


class WindowCovers(QObject):
    """The window's cover cache and the parts that show covers (``podcasts`` is the Podcasts view)."""

    def __init__(self, window: CoveredWindow, runner: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._window, self._runner = window, runner
        self.cache = CoverCache(runner, self, fetch=window.read_only_reason is None)
        self._playing: Item | None = None
        self._show_list_covers()
        window.preferences.changed.connect(self._on_setting)
        self._sidebar_timer = QTimer(self)
        self._sidebar_timer.setSingleShot(True)
        self._sidebar_timer.setInterval(60)
        self._sidebar_timer.timeout.connect(self._repaint_sidebar)
        self._sidebar_waits: set[str] = set()  # the covers the sidebar shows a placeholder for
        self._cover_sidebar()
        window.detail.use_covers(self.cache)
        window.feeds.sources_model.use_covers(self.cache)
        window.subscribing.discovery.covers = self.cache  # Add Podcast's results and preview
        window.subscriptions.table.setIconSize(QSize(20, 20))
        window.session.item_changed.connect(self._on_playing)
        self.cache.changed.connect(self._on_cover)
        nav = window.navigator
        self.podcasts = PodcastsController(runner, self.cache, nav.go, lambda: nav.current)
        nav.add(PODCASTS, self.podcasts, self.podcasts.view)
        window.menu_actions.focus_list.triggered.connect(self.podcasts.escape)  # after the navigator's own Esc
        window.feeds.refreshed.connect(lambda _summary: self._after_refresh())
        self._news: set[int] = set()  # the sources that brought new items in the refresh under way
        window.feeds.refresh_started.connect(self._news.clear)
        window.feeds.refresher.feed_done.connect(self._on_feed_done)
        window.desktop.news_icon = self._news_icon

    def _show_list_covers(self) -> None:
        shown = bool(self._window.preferences.value(LIST_SETTING))
        self._window.items_model.show_covers(self.cache if shown else None)

    def _on_setting(self, key: str) -> None:
        if key == LIST_SETTING:
            self._show_list_covers()

    def _cover_sidebar(self) -> None:
        panel = self._window.sidebar
        panel.view.setIconSize(QSize(SIDEBAR_COVER, SIDEBAR_COVER))
        panel.model.cover = self._sidebar_icon
        self._repaint_sidebar()

    def _sidebar_icon(self, source: Source) -> tuple[object, Callable[[], QIcon]]:
        shown = self.cache.has(source.image_url, SIDEBAR_COVER)
        if not shown and source.image_url:
            self._sidebar_waits.add(source.image_url)
        key = (source.image_url, source.title, shown)
        return key, partial(self.cache.icon, source.image_url, source.title, SIDEBAR_COVER)

    def _repaint_sidebar(self) -> None:
        """The sidebar's rows again from what it last read (the same rows: their icons change in place)."""
        panel = self._window.sidebar
        if panel.data is not None:
            panel.model.populate(panel.data)

    def _on_cover(self, url: str) -> None:
        # Only a cover the sidebar waits for: the list's covers, read as its rows are scrolled to, arrive one by one
        # and each made the sidebar rebuild its rows (149 times in one scroll of the list, ~12 ms each).
        if url in self._sidebar_waits and self.cache.has(url, SIDEBAR_COVER):
            self._sidebar_waits.discard(url)
            self._sidebar_timer.start()
        if self._playing is not None and self._playing.image_url == url:
            self._show_playing()

    def _on_playing(self, item_id: int) -> None:
        if not item_id:
            self._playing = None
            self._window.player_bar.show_cover(None)
            return
        self._runner.read(get_item, item_id, on_done=self._now_playing, on_error=lambda _message: None)

    def _now_playing(self, item: Item) -> None:
        session_item = self._window.session.item
        if session_item is not None and session_item.id == item.id:
            self._playing = item
            self._show_playing()

    def _show_playing(self) -> None:
        item = self._playing
        if item is not None:
            self._window.player_bar.show_cover(
                self.cache.pixmap(item.image_url, item.source or item.title, PLAYER_COVER), item.source or item.title)

    def _on_feed_done(self, message: dict[str, object]) -> None:
        if message.get("new") and isinstance(message.get("source_id"), int):
            self._news.add(int(message["source_id"]))  # type: ignore[call-overload]  # checked just above

    def _news_icon(self) -> QIcon | None:
        """The cover of the one podcast that brought news (None for several: Earmark's own icon says it)."""
        data = self._window.sidebar.data
        if len(self._news) != 1 or data is None:
            return None
        [source_id] = self._news
        source = next((source for source in data.sources if source.id == source_id), None)
        cover = self.cache.largest(source.image_url) if source is not None else None
        return QIcon(cover) if cover is not None else None

    def _after_refresh(self) -> None:
        self.podcasts.reload()
        self._runner.read(covers_due, on_done=self.cache.revalidate)
