"""The Podcasts view as the navigator drives it: its tiles read in a worker each time it is entered; Enter opens
a podcast's episodes in the list, and Esc there comes back to the grid."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QWidget

from earmark.core.db.filters import ItemFilter
from earmark.core.db.podcast_grid import podcast_tiles
from earmark.gui.covers.cache import CoverCache
from earmark.gui.covers.podcasts_model import PodcastGridModel
from earmark.gui.covers.podcasts_view import PodcastsView
from earmark.gui.mainwindow.places import PODCASTS, Place, entry_place
from earmark.gui.tasks import TaskRunner


class PodcastsController:
    """Owns the Podcasts view. ``go`` shows a place (the navigator's), ``current`` tells the place shown."""

    def __init__(self, runner: TaskRunner, covers: CoverCache, go: Callable[[Place], None],
                 current: Callable[[], Place]) -> None:
        self._runner = runner
        self._go = go
        self._current = current
        self.model = PodcastGridModel(covers)
        self.view = PodcastsView(self.model)
        self.view.opened.connect(self.open_podcast)
        self._opened: Place | None = None  # the list of a podcast opened from the grid, while it shows
        self._shown = False

    def widget(self) -> QWidget:
        """The view's widget."""
        return self.view

    def enter(self, _place: Place) -> None:
        """Read the podcasts and their counts."""
        self._shown = True
        self.reload()

    def reload(self) -> None:
        """Read the tiles again (while the view shows)."""
        if self._shown:
            self._runner.read(podcast_tiles, on_done=self._show)

    def _show(self, tiles: list[object]) -> None:
        if self._shown:
            self.view.keep_current()
            self.model.populate(tiles)  # type: ignore[arg-type]  # podcast_tiles' list of PodcastTile

    def open_podcast(self, source_id: int) -> None:
        """Show the podcast's episodes in the list."""
        self._opened = entry_place(ItemFilter(kind="episode", source_id=source_id))
        self._go(self._opened)

    def escape(self) -> None:
        """Esc in the list of a podcast opened from the grid: back to the grid (called after the list's own Esc)."""
        if self._opened is not None and self._current() == self._opened:
            self._opened = None
            self._go(Place(PODCASTS))

    def here(self) -> Place:
        """The view."""
        return Place(PODCASTS)

    def leave(self) -> None:
        """The tiles are not read while the view is hidden."""
        self._shown = False
        self.view.keep_current()

    def focus(self) -> None:
        """The keyboard to the grid."""
        self.view.grid.setFocus()

    def find_field(self) -> QWidget | None:
        """No search box: Ctrl+F searches the list."""
        return None
