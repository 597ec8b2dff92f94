"""Playing and opening items wherever they are chosen: Enter or a double click in the list, the queue, a node of
the graph, a row of the Related pane, an ``earmark:`` link opened outside (a note's timestamp), Return on a
highlight in the notes; and showing an item in the list."""

from __future__ import annotations

from PySide6.QtCore import QObject, Slot

from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import get_item
from earmark.core.errors import NotFoundError
from earmark.core.models import Note
from earmark.core.notes.moment_links import find_moment, is_moment_link
from earmark.gui.mainwindow.frame.feedback import Feedback
from earmark.gui.mainwindow.listening.playback import PlaybackController
from earmark.gui.mainwindow.navigation.item_list import ListController
from earmark.gui.mainwindow.navigation.navigator import Navigator
from earmark.gui.mainwindow.places import LIST, Place
from earmark.gui.mainwindow.reading.reading import ReadingController
from earmark.gui.tasks import TaskRunner


class ItemOpener(QObject):
    """Plays episodes with ``playback`` and opens articles in the reader of ``reading``; shows items in the list
    of ``lists`` (``navigator`` says whether the list is what shows)."""

    def __init__(self, db: Database, playback: PlaybackController, reading: ReadingController,
                 lists: ListController, navigator: Navigator, feedback: Feedback, runner: TaskRunner,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._db = db
        self._runner = runner
        self._playback = playback
        self._reading = reading
        self._lists = lists
        self._navigator = navigator
        self._feedback = feedback

    @Slot()
    def play_selected(self) -> None:
        """Play the selected episode from where it was left (a search result matched in its transcript: from
        where the words are said); open the selected article in the reader."""
        item = self._lists.selected_item()
        if item is None:
            return
        if item.kind != "episode":
            self._reading.open_item(item)
            return
        self._playback.play(item, self._lists.selected_moment())

    def play_item_id(self, item_id: int) -> None:
        """Play the item with this id (from the queue)."""
        try:
            self._playback.play(get_item(self._db, item_id))
        except NotFoundError as exc:
            self._feedback.show_error(str(exc))

    def open_item(self, item_id: int, passage: str = "") -> None:
        """Play an episode (from where it was left); open an article in the reader (where it was left, or at
        ``passage``, its words)."""
        try:
            item = get_item(self._db, item_id)
        except NotFoundError:
            return
        if item.kind == "episode":
            self._playback.play(item)
        else:
            self.show_in_library(item_id)
            self._reading.open_item(item, passage)

    def show_highlight(self, note: Note) -> None:
        """Bring a highlight into view in the reader, as a click on it in the notes pane does; the article opened
        at it when it is not the one being read."""
        if self._reading.reading and self._reading.reader.item_id == note.item_id:
            self._reading.show_highlight(note)
        else:
            self.open_item(note.item_id, note.quote)

    def open_moments(self, arguments: list[str]) -> list[str]:
        """Open the ``earmark:`` links among ``arguments``; the others are returned (feeds and files to open)."""
        for link in filter(is_moment_link, arguments):
            self.open_moment(link)
        return [argument for argument in arguments if not is_moment_link(argument)]

    def open_moment(self, url: str) -> None:
        """Open an ``earmark:`` link's item (found off the UI thread: by a key, over the whole library), shown
        in the list: an episode plays from the link's moment, an article opens in the reader."""
        self._runner.read(find_moment, url, on_done=lambda found: self._open_at(*found),
                          on_error=lambda message: self._feedback.show_error(message, "Link not opened"))

    def _open_at(self, item_id: int, seconds: float | None) -> None:
        self.show_in_library(item_id)
        try:
            item = get_item(self._db, item_id)
        except NotFoundError as exc:
            self._feedback.show_error(str(exc), "Link not opened")
            return
        if item.kind == "episode":
            self._playback.play(item, seconds)
        else:
            self._reading.open_item(item)

    def show_in_library(self, item_id: int) -> None:
        """Select an item in the list (the whole library is listed when the entry shown does not hold it)."""
        if self._lists.reveal(item_id):
            return
        place = Place(LIST, ItemFilter(), selected=item_id)
        if self._navigator.current.view == LIST:
            self._navigator.go(place, focus=False)
        else:
            self._lists.enter(place)  # the list under the graph or the reader follows, unseen
