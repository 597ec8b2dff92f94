"""The window's article saving: by address, paste, drop or file, the links of an item, reading-list imports and
exports, and the queue of pages fetched in the background."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QInputDialog, QWidget

from earmark.core.models import Changes, Item
from earmark.core.plurals import counted
from earmark.core.records import record
from earmark.gui.mainwindow.frame.actions import Actions
from earmark.gui.mainwindow.frame.feedback import Feedback
from earmark.gui.mainwindow.reading.reading import ReadingController
from earmark.gui.tasks import TaskRunner

if TYPE_CHECKING:
    from earmark.core.articles.capture import FeedLink
    from earmark.core.articles.imports import ReadingList
    from earmark.core.articles.links import Link
    from earmark.core.articles.store import ArticleData

# Fetching, extraction, the importers and the Add Links dialog load when first used: start-up does not need them.
FETCHING_AT_ONCE = 2  # pages fetched together: the pool stays free for the window's own reads


@record(frozen=True)
class _Job:
    """A page to fetch and store: its address, the title to give it, whether a feed is welcome instead."""

    source: str
    title: str | None = None
    feeds: bool = False


class ArticlesController(QObject):
    """Saves articles: pages are fetched and read in the pool, FETCHING_AT_ONCE at a time, and stored by the
    writer; ``on_changes`` shows what changed, ``subscribe(url)`` takes a feed's address found instead of a page,
    ``reading`` tells which article is read (dialogs open over ``parent``)."""

    def __init__(self, parent: QWidget, runner: TaskRunner, actions: Actions, reading: ReadingController,
                 feedback: Feedback, on_changes: Callable[[Changes], None], subscribe: Callable[[str], None]) -> None:
        super().__init__(parent)
        self._parent = parent
        self._runner = runner
        self._reading = reading
        self._feedback = feedback
        self._on_changes = on_changes
        self._subscribe = subscribe
        self._queue: deque[_Job] = deque()
        self._running = 0
        self._done = 0
        actions.add_article.triggered.connect(self.ask_add_article)
        actions.paste_link.triggered.connect(self.paste)
        actions.add_links.triggered.connect(self.ask_add_links)
        actions.import_reading_list.triggered.connect(self.ask_import)
        actions.export_reading_list.triggered.connect(self.ask_export)
        actions.fetch_again.triggered.connect(self.fetch_again)

    def _status(self, message: str, msecs: int = 8000) -> None:
        self._feedback.status(message, msecs)

    # Adding ------------------------------------------------------------------------------------------------

    def ask_add_article(self) -> None:
        """Ask for a web address or a file, and save it as an article in the background."""
        dialog = QInputDialog(self._parent)
        dialog.setObjectName("addArticleDialog")
        dialog.setWindowTitle("Add Article")
        dialog.setLabelText("Web address of the article, or a file (HTML, Markdown, text):")
        dialog.textValueSelected.connect(lambda text: self.add(text.strip()) if text.strip() else None)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def paste(self) -> None:
        """Ctrl+V on the list: add each web address (or file) on the clipboard; a feed's address subscribes."""
        from earmark.core.articles.links import is_web

        lines = [line.strip() for line in QApplication.clipboard().text().splitlines() if line.strip()]
        sources = [s for s in lines if is_web(s) or (not s.startswith("-") and Path(s).expanduser().is_file())]
        if not sources:
            self._status("The clipboard holds no web address or file to add.")
            return
        for source in sources:
            self.add(source, feeds=True)

    def add(self, source: str, title: str | None = None, feeds: bool = False) -> None:
        """Fetch (or read) ``source`` and save it; with ``feeds``, a feed's address is subscribed to instead."""
        self._queue.append(_Job(source, title, feeds))
        self._next()

    def _next(self) -> None:
        from earmark.core.articles.capture import capture

        while self._running < FETCHING_AT_ONCE and self._queue:
            job = self._queue.popleft()
            self._running += 1
            self._status(f"Fetching {job.source}…" if not self._queue else
                         f"Fetching pages: {self._done} done, {self._running + len(self._queue)} to go…", 0)
            self._runner.compute(capture, job.source, job.title, job.feeds,
                                 on_done=self._on_captured, on_error=self._on_capture_failed)

    def _on_captured(self, result: ArticleData | FeedLink) -> None:
        from earmark.core.articles.capture import FeedLink
        from earmark.gui.operations.articles import store_captured

        self._running -= 1
        self._done += 1
        if isinstance(result, FeedLink):
            self._subscribe(result.url)
        else:
            self._runner.write(store_captured, result, on_done=self._on_stored)
        self._next()

    def _on_stored(self, changes: Changes) -> None:
        self._on_changes(changes)
        self._reading.article_changed(changes.items)
        if not self._queue and not self._running:
            self._done = 0

    def _on_capture_failed(self, message: str) -> None:
        self._running -= 1
        self._feedback.show_error(message, title="Could not add the article")
        self._next()

    def fetch_again(self) -> None:
        """Fetch the pages of the article being read (or of the selected articles) again."""
        articles = [item for item in self._reading.items_in_view() if item.kind == "article" and item.url]
        if not articles:
            self._status("Select saved articles to fetch their pages again.")
        for item in articles:
            self.add(item.url or "")

    def shutdown(self) -> None:
        """Drop the pages not fetched yet (the window is closing)."""
        self._queue.clear()

    # The links of an item ------------------------------------------------------------------------------------

    def ask_add_links(self) -> None:
        """Add Links from This Item…: choose among the links of the current item's text or show notes."""
        from earmark.core.articles.links import item_links

        item = self._reading.item_in_view()
        if item is None:
            self._status("Select an article or an episode whose links you want to save.")
            return
        self._runner.read(item_links, item.id, on_done=lambda links: self._choose_links(item, links))

    def _choose_links(self, item: Item, links: list[Link]) -> None:
        from earmark.gui.views.add_links import AddLinksDialog

        if not links:
            self._status(f"“{item.title}” has no links to add.")
            return
        dialog = AddLinksDialog(item.title, links, self._parent)
        dialog.chosen.connect(lambda chosen: self.save_links(item.title, chosen))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def save_links(self, origin: str, links: list[Link]) -> None:
        """Save links as articles at once, titled by their text, then fetch their pages in the background."""
        from earmark.gui.operations.articles import store_links

        def saved(changes: Changes) -> None:
            self._on_changes(changes)
            for link in links:
                self.add(link.url, link.text)

        self._runner.write(store_links, [(link.url, link.text) for link in links], origin, on_done=saved,
                           on_error=lambda message: self._feedback.show_error(message, title="Could not add links"))

    # Reading lists -------------------------------------------------------------------------------------------

    def ask_import(self) -> None:
        """Import a reading list (Pocket, Instapaper, Wallabag, a list of addresses); its pages are fetched after."""
        name, _filter = QFileDialog.getOpenFileName(
            self._parent, "Import Reading List", str(Path.home()),
            "Reading lists (*.html *.htm *.csv *.json *.txt);;All files (*)")
        if name:
            self.import_file(Path(name))

    def import_file(self, path: Path) -> None:
        """Read and store a reading-list file in the background, then fetch the pages of the new articles."""
        from earmark.core.articles.imports import read_reading_list
        from earmark.gui.operations.articles import store_reading_list

        def stored(result: tuple[Changes, list[str]]) -> None:
            changes, to_fetch = result
            self._on_changes(changes)
            for url in to_fetch:
                self.add(url)

        def failed(message: str) -> None:
            self._feedback.show_error(message, title="Could not import the reading list")

        def read(found: ReadingList) -> None:
            if found.skipped:
                self._status(f"{counted(len(found.skipped), 'line')} left out: {found.skipped[0]}", 15000)
            self._runner.write(store_reading_list, found, on_done=stored, on_error=failed)

        self._runner.compute(read_reading_list, path, on_done=read, on_error=failed)

    def ask_export(self) -> None:
        """Export the reading list as CSV or JSON (by the name's extension)."""
        name, _filter = QFileDialog.getSaveFileName(self._parent, "Export Reading List",
                                                    str(Path.home() / "reading-list.csv"),
                                                    "CSV (*.csv);;JSON (*.json)")
        if name:
            self.export_file(Path(name))

    def export_file(self, path: Path) -> None:
        """Write the reading list to ``path`` in the background: JSON for a ``.json`` name, else CSV."""
        from earmark.core.articles.export import export_reading_list

        fmt = "json" if path.suffix.lower() == ".json" else "csv"
        self._runner.read(export_reading_list, fmt, path, on_done=self._status,
                          on_error=lambda message: self._feedback.show_error(message, title="Export failed"))
