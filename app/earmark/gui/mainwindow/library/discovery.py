"""Add Podcast's work: searching each chosen directory in its own worker (results shown as each answers, a
failing or slow one said in a sentence), Popular lists, previews (the feed read off the UI thread), and handing a
read feed over to be stored."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QWidget

from earmark.core.db.database import Database
from earmark.core.directory.client import Category
from earmark.core.directory.configured import (
    DirectorySpec,
    directory_specs,
    keep_podcastindex_key,
    open_directory,
    popular_in,
    search_directory,
)
from earmark.core.directory.results import DirectoryResult
from earmark.core.directory.subscribed import subscribed_keys
from earmark.core.feeds.addresses import PageFeeds, looks_like_address, read_address, read_address_in, subscription_at
from earmark.core.feeds.identity import KnownFeeds, Subscription
from earmark.core.feeds.subscribe import NeedsCredentials, ReadFeed
from earmark.core.plurals import counted
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.add_podcast import AddPodcastDialog
from earmark.gui.views.directory_key import PodcastIndexKeyDialog

if TYPE_CHECKING:
    from earmark.gui.covers.cache import CoverCache

SLOW_MS = 4000  # a directory that has not answered by then is said to be slow (the others show meanwhile)
POPULAR_LIMIT = 50
Setup = tuple[list[DirectorySpec], KnownFeeds]


def setup(db: Database) -> Setup:
    """The chosen directories (with the Podcast Index secret, from the keyring) and what the subscriptions are
    known by."""
    return directory_specs(db), subscribed_keys(db)


class DiscoveryController(QObject):
    """Runs the Add Podcast dialog of ``parent``. ``take(source, read)`` stores a feed read from an address or a
    preview (asking for a password when it needs one) and selects it; ``show_source(id)`` selects a podcast that
    is subscribed already."""

    def __init__(self, parent: QWidget, runner: TaskRunner, take: Callable[[str, ReadFeed | NeedsCredentials], None],
                 show_source: Callable[[int], None], already: Callable[[Subscription], None]) -> None:
        super().__init__(parent)
        self._parent, self._runner, self._take, self._show_source = parent, runner, take, show_source
        self._already = already
        self.dialog: AddPodcastDialog | None = None
        self._specs: list[DirectorySpec] = []
        self._asking = 0  # the search under way: answers of an older one are dropped
        self._waiting: list[str] = []  # the directories that have not answered it yet
        self._failures: list[str] = []
        self._previewed: tuple[DirectoryResult, ReadFeed] | None = None
        self._row = -1  # the result previewed
        self._previews = 0  # counts previews: a feed read for an earlier one is dropped
        self.typed = ""  # an address that could not be added comes back with the next Ctrl+N
        self.covers: CoverCache | None = None  # the window's, once its covers are wired (gui/covers/wiring.py)

    def open(self) -> AddPodcastDialog:
        """Show the dialog (without blocking the event loop); nothing is sent anywhere until Enter."""
        if self.dialog is not None:
            self.dialog.raise_()
            self.dialog.activateWindow()
            return self.dialog
        dialog = self.dialog = AddPodcastDialog(self._parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(self._closed)
        dialog.submitted.connect(self._submitted)
        dialog.preview_requested.connect(self._preview)
        dialog.subscribe_requested.connect(self._subscribe)
        dialog.popular_requested.connect(self._popular)
        dialog.key_requested.connect(self._ask_key)
        if self.covers is not None:
            dialog.use_covers(self.covers)
        dialog.field.setText(self.typed)
        dialog.field.selectAll()
        dialog.open()
        self._runner.read(setup, on_done=self._set_up, on_error=dialog.say)
        return dialog

    def _closed(self) -> None:
        self.dialog = None
        self._asking += 1

    def _set_up(self, found: Setup) -> None:
        if self.dialog is None:
            return
        self._specs, self.dialog.model.library = found
        popular = [(s.name, c.code, f"{s.label}: {c.name}") for s in self._specs for c in _categories(s)]
        self.dialog.set_services([s.label for s in self._specs], popular)

    def _ask_key(self) -> None:
        """The Podcast Index key and secret: kept (the secret in the keyring), then searches ask it too."""
        if self.dialog is None:
            return
        known = next((s.key for s in self._specs if s.name == "podcastindex"), "")
        ask = PodcastIndexKeyDialog(known, self.dialog)
        ask.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        ask.accepted.connect(lambda: self._runner.write(
            keep_podcastindex_key, ask.key, ask.secret, on_done=lambda _none: self._key_kept(),
            on_error=lambda message: self.dialog.say(message) if self.dialog is not None else None))
        ask.open()

    def _key_kept(self) -> None:
        if self.dialog is not None:
            self.dialog.say("Podcast Index's key is kept: searches ask it too.")
            self.dialog.field.setFocus()
            self._runner.read(setup, on_done=self._set_up)

    def _submitted(self, text: str) -> None:
        if not text or self.dialog is None:
            return
        if looks_like_address(text):
            self.typed = text
            self.dialog.say(f"Reading {text}…")
            self._runner.read(subscription_at, text, on_done=lambda known: self._read_unless_known(text, known),
                              on_error=lambda message: self._address_failed(text, message))
        elif not self._specs:
            self.dialog.say("No directory is chosen to search (Settings ▸ Directories); type a feed's address.")
        else:
            self._ask([(s, search_directory, (s, text)) for s in self._specs], f"for “{text}”")

    def _popular(self, name: str, category: str) -> None:
        spec = next((s for s in self._specs if s.name == name), None)
        if spec is not None:
            self._ask([(spec, popular_in, (spec, category, POPULAR_LIMIT))], "in the list")

    def _ask(self, tasks: list[tuple[DirectorySpec, Callable[..., list[DirectoryResult]], tuple[object, ...]]],
             what: str) -> None:
        """Each directory in its own worker; results merged into the list as each answers."""
        assert self.dialog is not None
        self._asking += 1
        asking = self._asking
        self._waiting, self._failures = [spec.label for spec, _fn, _args in tasks], []
        self.dialog.model.clear()
        self._report(what)
        for spec, fn, args in tasks:
            answer = self._answer_to(asking, spec, what)
            self._runner.compute(fn, *args, on_done=answer, on_error=answer)
        QTimer.singleShot(SLOW_MS, self.dialog, lambda: self._report(what, slow=True) if asking == self._asking
                          else None)

    def _answer_to(self, asking: int, spec: DirectorySpec,
                   what: str) -> Callable[[list[DirectoryResult] | str], None]:
        """What takes ``spec``'s answer (its results, or the sentence saying why there are none)."""
        def answered(found: list[DirectoryResult] | str) -> None:
            self._answered(asking, spec, found, what)
        return answered

    def _answered(self, asking: int, spec: DirectorySpec, found: list[DirectoryResult] | str, what: str) -> None:
        if asking != self._asking or self.dialog is None:
            return
        self._waiting.remove(spec.label)
        if isinstance(found, str):
            self._failures.append(found)
        else:
            self.dialog.model.add(found)
        self._report(what)

    def _report(self, what: str, slow: bool = False) -> None:
        """One sentence on the search: how many found, who is still asked (or slow), what failed."""
        if self.dialog is None:
            return
        shown = self.dialog.model.rowCount()
        parts = [f"{counted(shown, 'podcast')} found {what}." if shown or not self._waiting else ""]
        if self._waiting:
            waiting = " and ".join(self._waiting)
            parts.append(f"{waiting} {'is' if len(self._waiting) == 1 else 'are'} slow to answer…" if slow
                         else f"Asking {waiting}…")
        self.dialog.say(" ".join(p for p in [*parts, *self._failures] if p))

    def _read_unless_known(self, text: str, known: Subscription | None) -> None:
        """A podcast subscribed to by this address, however written, is selected without reading its feed."""
        if self.dialog is None:
            return
        if known is not None:
            self.typed = ""
            self.dialog.accept()
            self._already(known)
            return
        self._runner.read(read_address_in, text, on_done=lambda read: self._address_read(text, read),
                          on_error=lambda message: self._address_failed(text, message))

    def _address_read(self, text: str, read: ReadFeed | NeedsCredentials | PageFeeds) -> None:
        if self.dialog is None:
            return
        if isinstance(read, PageFeeds):
            self._asking += 1
            self.dialog.model.clear()
            self.dialog.model.add([DirectoryResult(c.title, c.url, "web page", description=c.kind)
                                   for c in read.feeds])
            self.dialog.say(f"{read.page} names {counted(len(read.feeds), 'feed')}: choose one (Down, then Enter).")
            return
        self.typed = ""
        self.dialog.accept()
        self._take(text, read)

    def _address_failed(self, text: str, message: str) -> None:
        if self.dialog is not None and self.dialog.field.text().strip() == text:
            self.dialog.address_failed(message)

    def _preview(self, row: int) -> None:
        dialog = self.dialog
        if dialog is None or not 0 <= row < len(dialog.model.results):
            return
        result = dialog.model.results[row]
        self._previewed, self._row = None, row
        self._previews += 1
        preview = self._previews
        dialog.preview.show_result(result, dialog.model.source_of(row) is not None)
        dialog.show_preview_page()
        self._runner.compute(read_address, result.feed_url,
                             on_done=lambda read: self._previewing(preview, result, read),
                             on_error=lambda message: self._preview_failed(preview, message))

    def _previewing(self, preview: int, result: DirectoryResult,
                    read: ReadFeed | NeedsCredentials | PageFeeds) -> None:
        if self.dialog is None or preview != self._previews:
            return
        if not isinstance(read, ReadFeed):
            self._preview_failed(preview, f"{result.feed_url} is not a feed Earmark can preview: it needs a "
                                          "password or names several feeds.")
            return
        self._previewed = (result, read)
        self.dialog.preview.show_feed(read, self.dialog.model.source_of(self._row) is not None)

    def _preview_failed(self, preview: int, message: str) -> None:
        if self.dialog is not None and preview == self._previews:
            self.dialog.preview.show_failure(message)

    def _subscribe(self) -> None:
        dialog = self.dialog
        if dialog is None:
            return
        source = dialog.model.source_of(self._row)
        if source is not None:
            dialog.accept()
            self._show_source(source)
        elif self._previewed is not None:
            result, read = self._previewed
            dialog.accept()
            self._take(result.feed_url, read)


def _categories(spec: DirectorySpec) -> tuple[Category, ...]:
    """The categories of a directory's Popular lists (none: it has no Popular list)."""
    return open_directory(spec).categories
