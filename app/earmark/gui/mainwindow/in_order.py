"""Playing a list of items one after another: the stand-in for the playback queue (issue 4) that "Queue This
Path" feeds until the queue exists. Articles on the list are skipped (there is nothing to play)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Slot

from earmark.core.models import Item
from earmark.playback.progress import PlaybackSession


class InOrderPlayer(QObject):
    """Plays ``items`` in order on ``session``: the next starts when one ends, until the list is done or
    something else is played. ``load(id)`` reads an item (None when it is gone)."""

    def __init__(self, session: PlaybackSession, load: Callable[[int], Item | None], parent: QObject | None = None
                 ) -> None:
        super().__init__(parent)
        self._session = session
        self._load = load
        self._waiting: list[int] = []
        self._playing: int | None = None
        session.player.ended.connect(self._next)
        session.item_changed.connect(self._on_item_changed)

    @property
    def waiting(self) -> list[int]:
        """The ids still to play after the current one."""
        return list(self._waiting)

    def play(self, item_ids: list[int]) -> None:
        """Start the first playable item of ``item_ids``; the others follow."""
        self._waiting = list(item_ids)
        self._playing = None
        self._next()

    @Slot()
    def _next(self) -> None:
        while self._waiting:
            item = self._load(self._waiting.pop(0))
            if item is not None and item.kind == "episode" and item.enclosure_url:
                self._playing = item.id
                self._session.play_item(item)
                return
        self._playing = None

    @Slot(int)
    def _on_item_changed(self, item_id: int) -> None:
        if item_id != self._playing:  # the user played something else: the list is dropped
            self._waiting = []
            self._playing = None
