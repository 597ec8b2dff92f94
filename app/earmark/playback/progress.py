"""Keeping an item's playback position: every few seconds while playing, and on every pause, stop,
switch and quit. Saving is delegated (the GUI hands it to the library's writer)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QElapsedTimer, QObject, Signal, Slot

from earmark.core.models import Item, ProgressUpdate
from earmark.playback.player import Player, PlayerState

SAVE_INTERVAL_SECONDS = 5.0


class PlaybackSession(QObject):
    """Plays library items on a Player and keeps their positions.

    Signal: ``item_changed(int)`` when another item starts.
    """

    item_changed = Signal(int)

    def __init__(self, player: Player, save: Callable[[ProgressUpdate], None],
                 save_interval: float = SAVE_INTERVAL_SECONDS, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.player = player
        self._save_interval_ms = int(save_interval * 1000)
        self._save = save
        self._item: Item | None = None
        self._since_save = QElapsedTimer()
        player.position_changed.connect(self._on_position)
        player.state_changed.connect(self._on_state)
        player.ended.connect(self._on_ended)

    @property
    def item(self) -> Item | None:
        """The item loaded in the player."""
        return self._item

    def play_item(self, item: Item) -> None:
        """Start ``item`` where the user left it (from the start when it was played to the end)."""
        if item.enclosure_url is None:
            self.player.failed.emit(f"“{item.title}” has no audio to play.")
            return
        if self._item is not None and self._item.id == item.id and self.player.state in (
            PlayerState.PLAYING, PlayerState.PAUSED, PlayerState.LOADING
        ):
            self.player.play()
            return
        self.save_now()
        self._item = item
        start = 0.0 if item.played else item.position
        self._since_save.start()
        self.item_changed.emit(item.id)
        self.player.load(item.enclosure_url, start)

    def stop(self) -> None:
        """Save the position, then stop the player and forget the item."""
        self.save_now()
        self.player.stop()
        self._item = None

    def save_now(self) -> None:
        """Save the current item's position (call before switching and on quit).

        Only a playing or paused player knows a position worth keeping: loading, stopped, failed and ended
        players report 0 (an ended item was saved when it ended)."""
        if self._item is not None and self.player.state in (PlayerState.PLAYING, PlayerState.PAUSED):
            self._store(self.player.position(), ended=False)

    def _store(self, position: float, ended: bool) -> None:
        assert self._item is not None
        self._item.position = 0.0 if ended else position
        self._item.played = self._item.played or ended
        self._save(ProgressUpdate(self._item.id, position, self.player.duration(), ended))
        self._since_save.start()

    @Slot(float)
    def _on_position(self, position: float) -> None:
        if (self._item is not None and self.player.state == PlayerState.PLAYING
                and self._since_save.elapsed() >= self._save_interval_ms):
            self._store(position, ended=False)

    @Slot(str)
    def _on_state(self, state: str) -> None:
        if state == PlayerState.PAUSED and self._item is not None:
            self._store(self.player.position(), ended=False)

    @Slot()
    def _on_ended(self) -> None:
        if self._item is not None:
            self._store(self.player.duration() or self.player.position(), ended=True)
