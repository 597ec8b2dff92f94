"""Filling the library from outside: a podcast by its URL (asking for a password when the feed needs one), the
sample library, links and files handed over by another launch, and what is dropped on the window."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlsplit

from PySide6.QtCore import QMimeData, QObject, QUrl, Slot
from PySide6.QtWidgets import QInputDialog, QMainWindow, QMessageBox

from earmark.core.articles.formats import HTML_SUFFIXES, MARKDOWN_SUFFIXES
from earmark.core.db.filters import ItemFilter
from earmark.core.errors import EarmarkError
from earmark.core.feeds.addresses import PageFeeds, candidates, read_address_in, subscription_at
from earmark.core.feeds.fetch import canonical_source
from earmark.core.feeds.identity import Subscription
from earmark.core.feeds.opml import OpmlDocument
from earmark.core.feeds.subscribe import NeedsCredentials, ReadFeed
from earmark.core.feeds.subscriptions import read_opml_file
from earmark.core.models import Changes, ItemKind
from earmark.core.plurals import counted
from earmark.core.sample import SampleData, read_sample
from earmark.core.urls import shown_address
from earmark.gui.mainwindow.frame.feedback import Feedback
from earmark.gui.mainwindow.library.discovery import DiscoveryController
from earmark.gui.mainwindow.library.feeds import FeedsController
from earmark.gui.mainwindow.reading.articles import ArticlesController
from earmark.gui.operations.library import Subscribed, note_feed_failure, store_sample_library, store_subscription
from earmark.gui.tasks import TaskRunner
from earmark.gui.tray import raise_window
from earmark.gui.views.credentials import CredentialsDialog
from earmark.gui.views.feed_choice import choose_feed
from earmark.gui.views.subscribe_question import ask_to_subscribe

ARTICLE_SUFFIXES = HTML_SUFFIXES | MARKDOWN_SUFFIXES | {".txt"}
FEED_SCHEMES = ("http", "https", "feed", "itpc", "pcast", "podcast")


class SubscribeController(QObject):
    """Subscribes and imports for the window ``parent``: feeds are fetched and parsed in the pool and stored by
    the writer; ``on_changes`` shows what came in, ``feedback`` says what went wrong."""

    def __init__(self, parent: QMainWindow, runner: TaskRunner, feeds: FeedsController, articles: ArticlesController,
                 feedback: Feedback, on_changes: Callable[[Changes], None],
                 show_source: Callable[[ItemFilter], None] = lambda _entry: None) -> None:
        super().__init__(parent)
        self._show_source = show_source  # selects a podcast subscribed to from outside
        self.question: QMessageBox | QInputDialog | None = None  # a question about a link, file or page
        self._parent = parent
        self._runner = runner
        self._feeds = feeds
        self._articles = articles
        self._feedback = feedback
        self._on_changes = on_changes
        self.discovery = DiscoveryController(parent, runner, self._take, self._show_podcast, self._already)

    @Slot()
    def add_podcast(self) -> None:
        """Add Podcast: one box that searches the directories by words or subscribes to an address (the dialog
        does not block the event loop: playback and refreshes go on while it is open)."""
        self.discovery.open()

    def _take(self, source: str, read: ReadFeed | NeedsCredentials) -> None:
        """A feed read in Add Podcast: stored and selected (a password asked for first when it needs one)."""
        if isinstance(read, ReadFeed):
            self._store_feed(source, read, select=True)
        else:
            self._on_feed_read(source, read, ask=False)

    def _show_podcast(self, source_id: int) -> None:
        self._show_source(ItemFilter(kind="episode", source_id=source_id))

    def subscribe(self, source: str, ask: bool = False) -> None:
        """Subscribe to ``source``: fetched and parsed in the pool, stored by the writer; errors in a dialog.
        With ``ask`` (a link from outside) the person sees what it is and says Subscribe first, and the new
        podcast is selected."""
        try:
            url = canonical_source(candidates(source)[0])  # an address without a scheme: over https first
        except EarmarkError as exc:
            self._failed(source, str(exc))
            return
        self._feedback.status(f"Reading {shown_address(url)}…", 0)  # a password typed in it is not shown
        self._runner.read(subscription_at, source, on_done=lambda known: self._subscribe_new(source, ask, known))

    def _subscribe_new(self, source: str, ask: bool, known: Subscription | None) -> None:
        if known is not None:  # its address written otherwise: nothing to read
            self._already(known)
            return
        self._read_feed(source, ask=ask)

    def _already(self, known: Subscription) -> None:
        """A podcast subscribed to already is selected, and the status bar says so."""
        self._typed = ""
        self._feedback.status(f"Already subscribed to {known.title}.", 10000)
        self._select(known.source_id, known.kind == "podcast")

    def _select(self, source_id: int, podcast: bool) -> None:
        kind: ItemKind = "episode" if podcast else "article"  # its sidebar entry's
        self._show_source(ItemFilter(kind=kind, source_id=source_id))

    def _read_feed(self, source: str, user: str | None = None, password: str | None = None, *,
                   ask: bool = False) -> None:
        """Read ``source`` in the pool: an address as people paste it (see core/feeds/addresses.py)."""
        self._runner.read(read_address_in, source, user, password,
                          on_done=lambda read: self._on_feed_read(source, read, ask),
                          on_error=lambda message: self._failed(source, message))

    def _on_feed_read(self, url: str, read: ReadFeed | NeedsCredentials | PageFeeds, ask: bool) -> None:
        if isinstance(read, PageFeeds):
            self._feedback.status("", 1)
            self.question = choose_feed(self._parent, read, lambda chosen: self._read_feed(chosen, ask=ask))
            return
        if isinstance(read, ReadFeed):
            if not ask:
                self._store_feed(url, read)
                return
            self._feedback.status("", 1)
            noun = ("episode", "episodes") if read.feed.kind == "podcast" else ("article", "articles")
            self.question = ask_to_subscribe(
                self._parent, "Subscribe", f"Subscribe to “{read.feed.title}”? It has "
                f"{counted(len(read.feed.entries), *noun)}.\n\n{read.url}", "&Subscribe",
                lambda: self._store_feed(url, read, select=True))
            return
        self._feedback.status(read.message, 10000)
        dialog = CredentialsDialog(read.url, self._parent)
        dialog.accepted.connect(lambda: self._read_feed(read.url, dialog.user, dialog.password, ask=ask))
        dialog.open()

    def _store_feed(self, url: str, read: ReadFeed, select: bool = False) -> None:
        def stored(done: Subscribed, note: str) -> None:
            self._typed = ""
            self._on_changes(replace(done.changes, message=done.changes.message + note))
            if select or done.already:
                self._select(done.source_id, read.feed.kind == "podcast")

        def store(kept: bool) -> None:
            note = "" if kept else (" Its password was not kept: no keyring runs, and passwords are not kept in the "
                                    "library file.")  # subscribed all the same
            self._runner.write(store_subscription, url, read if kept else replace(read, user=None, password=None),
                               on_done=lambda done: stored(done, note),
                               on_error=lambda message: self._failed(read.url, message))

        if read.user is not None:
            self._feeds.keyring.ensure(store)  # asks once per session when there is no keyring
        else:
            store(True)

    def _failed(self, source: str, message: str) -> None:
        self._runner.write(note_feed_failure, source, message, on_done=self._on_changes)
        self._feedback.show_error(message, title="Could not subscribe")

    @Slot()
    def load_sample(self) -> None:
        """Add the sample library in the background."""
        self._feedback.status("Loading the sample library…", 0)
        self._runner.compute(read_sample, on_done=self._store_sample)

    def _store_sample(self, sample: SampleData) -> None:
        self._runner.write(store_sample_library, sample, on_done=self._on_changes)

    # Handed over and dropped ----------------------------------------------------------------------------------

    @Slot(list)
    def open_arguments(self, arguments: list[str]) -> None:
        """Raise the window, then offer to subscribe to each feed URL and to import each .opml file in
        ``arguments`` (links and files opened from outside: each is asked about once)."""
        raise_window(self._parent)
        for argument in arguments:
            self.open_argument(argument)

    def open_argument(self, argument: str) -> None:
        """A feed URL (http(s), feed:, itpc:, podcast:) is offered for subscribing; an .opml file for
        importing; another file is read as a feed and offered."""
        if argument.lower().startswith("file:"):
            argument = QUrl(argument).toLocalFile()
        scheme = urlsplit(argument).scheme.lower()
        if scheme not in FEED_SCHEMES and Path(argument).suffix.lower() == ".opml":
            path = Path(argument)
            self._runner.compute(read_opml_file, path, on_done=lambda document: self._ask_import(path, document),
                                 on_error=lambda message: self._feedback.show_error(message, "Import failed"))
        elif argument.strip():
            self.subscribe(argument, ask=True)

    def _ask_import(self, path: Path, document: OpmlDocument) -> None:
        self.question = ask_to_subscribe(
            self._parent, "Import Subscriptions", f"Subscribe to the {counted(len(document.feeds), 'feed')} "
            f"of {path.name}?", "&Subscribe", lambda: self._feeds.import_opml(path))

    def open_dropped(self, mime: QMimeData) -> None:
        """Save dropped web pages and HTML, Markdown or text files as articles (a dropped feed's address
        subscribes); subscribe to dropped feed files and links; import dropped OPML files."""
        urls = mime.urls() if mime.hasUrls() else [QUrl(line.strip()) for line in mime.text().splitlines()]
        for url in urls:
            if url.isLocalFile():
                path = Path(url.toLocalFile())
                if path.suffix.lower() == ".opml":
                    self._feeds.import_opml(path)
                elif path.suffix.lower() in ARTICLE_SUFFIXES:
                    self._articles.add(str(path))
                else:
                    self.subscribe(str(path))
            elif url.scheme().lower() in ("http", "https"):
                self._articles.add(url.toString(), feeds=True)
            elif url.scheme().lower() in ("feed", "itpc", "pcast", "podcast"):
                self.subscribe(url.toString())
