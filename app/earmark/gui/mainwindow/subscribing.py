"""Filling the library from outside: a podcast by its URL (asking for a password when the feed needs one), the
sample library, links and files handed over by another launch, and what is dropped on the window."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlsplit

from PySide6.QtCore import QMimeData, QObject, QUrl, Slot
from PySide6.QtWidgets import QInputDialog, QMainWindow

from earmark.core.articles.formats import HTML_SUFFIXES, MARKDOWN_SUFFIXES
from earmark.core.errors import EarmarkError
from earmark.core.feeds.fetch import canonical_source
from earmark.core.feeds.subscribe import NeedsCredentials, ReadFeed, try_read_feed
from earmark.core.models import Changes
from earmark.core.sample import SampleData, read_sample
from earmark.core.urls import shown_address, split_userinfo
from earmark.gui.mainwindow.articles import ArticlesController
from earmark.gui.mainwindow.feedback import Feedback
from earmark.gui.mainwindow.feeds import FeedsController
from earmark.gui.operations.library import note_feed_failure, store_sample_library, store_subscription
from earmark.gui.tasks import TaskRunner
from earmark.gui.tray import raise_window
from earmark.gui.views.credentials import CredentialsDialog

ARTICLE_SUFFIXES = HTML_SUFFIXES | MARKDOWN_SUFFIXES | {".txt"}
FEED_SCHEMES = ("http", "https", "feed", "itpc", "pcast", "podcast")


class SubscribeController(QObject):
    """Subscribes and imports for the window ``parent``: feeds are fetched and parsed in the pool and stored by
    the writer; ``on_changes`` shows what came in, ``feedback`` says what went wrong."""

    def __init__(self, parent: QMainWindow, runner: TaskRunner, feeds: FeedsController, articles: ArticlesController,
                 feedback: Feedback, on_changes: Callable[[Changes], None]) -> None:
        super().__init__(parent)
        self._parent = parent
        self._runner = runner
        self._feeds = feeds
        self._articles = articles
        self._feedback = feedback
        self._on_changes = on_changes

    @Slot()
    def add_podcast(self) -> None:
        """Ask for a feed URL (or file path) and subscribe in the background."""
        url, ok = QInputDialog.getText(self._parent, "Add Podcast", "Feed URL or file:")
        if ok and url.strip():
            self.subscribe(url.strip())

    def subscribe(self, source: str) -> None:
        """Subscribe to ``source``: fetched and parsed in the pool, stored by the writer; errors in a dialog."""
        try:
            url = canonical_source(source)
        except EarmarkError as exc:
            self._failed(source, str(exc))
            return
        self._feedback.status(f"Reading {shown_address(url)}…", 0)  # a password typed in it is not shown
        self._read_feed(url)

    def _read_feed(self, url: str, user: str | None = None, password: str | None = None) -> None:
        self._runner.compute(try_read_feed, url, user, password, on_done=lambda read: self._on_feed_read(url, read),
                             on_error=lambda message: self._failed(url, message))

    def _on_feed_read(self, url: str, read: ReadFeed | NeedsCredentials) -> None:
        if isinstance(read, ReadFeed):
            self._store_feed(url, read)
            return
        self._feedback.status(read.message, 10000)
        dialog = CredentialsDialog(read.url, self._parent)
        dialog.accepted.connect(lambda: self._read_feed(read.url, dialog.user, dialog.password))
        dialog.open()

    def _store_feed(self, url: str, read: ReadFeed) -> None:
        def store(kept: bool) -> None:
            note = "" if kept else (" Its password was not kept: no keyring runs, and passwords are not kept in the "
                                    "library file.")  # subscribed all the same
            self._runner.write(store_subscription, url, read if kept else replace(read, user=None, password=None),
                               on_done=lambda changes: self._on_changes(replace(changes, message=changes.message
                                                                                + note)),
                               on_error=lambda message: self._failed(url, message))

        if read.user is not None:
            self._feeds.keyring.ensure(store)  # asks once per session when there is no keyring
        else:
            store(True)

    def _failed(self, url: str, message: str) -> None:
        self._runner.write(note_feed_failure, split_userinfo(url).url, message, on_done=self._on_changes)
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
        """Raise the window, then subscribe to each feed URL and import each .opml file in ``arguments``."""
        raise_window(self._parent)
        for argument in arguments:
            self.open_argument(argument)

    def open_argument(self, argument: str) -> None:
        """A feed URL (http(s), feed:, itpc:, podcast:) subscribes; an .opml file imports; another file is
        read as a feed."""
        if argument.lower().startswith("file:"):
            argument = QUrl(argument).toLocalFile()
        scheme = urlsplit(argument).scheme.lower()
        if scheme in FEED_SCHEMES:
            self.subscribe(argument)
        elif Path(argument).suffix.lower() == ".opml":
            self._feeds.import_opml(Path(argument))
        elif argument.strip():
            self.subscribe(argument)

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
