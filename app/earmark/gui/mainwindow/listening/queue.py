"""The window's "Up next" commands: queueing, reordering, removing, moving through the queue, and going on to
the next episode when one ends (or fails, if the user wants)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QMainWindow

from earmark.core.db.database import Database
from earmark.core.db.items import items_by_ids
from earmark.core.db.queue import next_in_queue
from earmark.core.settings import get_setting
from earmark.gui.mainwindow.frame.actions import Actions
from earmark.gui.models.queue import ItemIdRole, QueueModel
from earmark.gui.operations.playback import (
    queue_add,
    queue_clear,
    queue_move,
    queue_remove,
    queue_reorder,
    read_queue,
)
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.queue import QueueView
from earmark.playback.progress import PlaybackSession
from earmark.playback.sleep_timer import SleepTimer


class QueueController(QObject):
    """Keeps ``model`` equal to the library's queue and runs the queue actions.

    ``selected_episodes()`` gives the ids the user selected in the item list; ``play(item_id)`` plays one.
    """

    def __init__(self, runner: TaskRunner, db: Database, session: PlaybackSession, actions: Actions,
                 view: QueueView, sleep: SleepTimer, selected_episodes: Callable[[], list[int]],
                 play: Callable[[int], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._db = db
        self._session = session
        self._sleep = sleep
        self.view = view
        self.model: QueueModel = view.list.model()  # type: ignore[assignment]
        self._selected = selected_episodes
        self._play = play
        self.model.reorder_requested.connect(lambda ids: self._write(queue_reorder, ids))
        a = actions
        a.queue_last.triggered.connect(lambda: self.add(next_up=False))
        a.queue_next.triggered.connect(lambda: self.add(next_up=True))
        a.queue_remove.triggered.connect(self.remove_selected)
        a.queue_up.triggered.connect(lambda: self.move(-1))
        a.queue_down.triggered.connect(lambda: self.move(1))
        a.queue_clear.triggered.connect(lambda: self._write(queue_clear))
        a.next_in_queue.triggered.connect(lambda: self.step(1))
        a.previous_in_queue.triggered.connect(lambda: self.step(-1))
        view.list.addAction(a.queue_remove)
        view.list.activated.connect(lambda index: self._play(int(index.data(ItemIdRole))))
        session.item_changed.connect(self.model.set_playing)
        session.item_finished.connect(self._on_finished)
        session.player.failed.connect(self._on_failed)
        self.reload()

    def reload(self) -> None:
        """Re-read the queue."""
        self._runner.read(read_queue, on_done=self.model.populate)

    def _write(self, operation: Callable[..., list[int]], *args: object, keep: int | None = None) -> None:
        def done(ids: list[int]) -> None:
            self.model.populate(ids)
            row = self.model.row_of(keep) if keep is not None else None
            if row is not None:
                self.view.list.setCurrentIndex(self.model.index(row))

        self._runner.write(operation, *args, on_done=done)

    def _current_id(self) -> int | None:
        item = self._session.item
        return item.id if item is not None else None

    def add(self, next_up: bool) -> None:
        """Queue the selected episodes last, or right after the one playing."""
        ids = self._selected()
        if ids:
            self._write(queue_add, ids, self._current_id(), next_up)

    def add_episodes(self, item_ids: list[int]) -> int:
        """Queue the episodes among ``item_ids`` last, in this order (a learning path), and start the first when
        nothing plays; returns how many were queued."""
        listed = items_by_ids(self._db, item_ids, full=False)
        episodes = [item_id for item_id in item_ids if item_id in listed and listed[item_id].kind == "episode"]
        play_first = self._session.item is None

        def done(ids: list[int]) -> None:
            self.model.populate(ids)
            if play_first:
                self._play(episodes[0])

        if episodes:
            self._runner.write(queue_add, episodes, self._current_id(), False, on_done=done)
        return len(episodes)

    @Slot()
    def remove_selected(self) -> None:
        """Take episodes off Up next, the one playing too (it plays on): those selected there (else its current
        row) when it has the focus, else the list's selected episodes that are queued."""
        if self.view.list.hasFocus():
            current = self.view.current_id()
            ids = self.view.selected_ids() or ([] if current is None else [current])
        else:
            ids = [item_id for item_id in self._selected() if item_id in self.model.ids]
        if ids:
            self._write(queue_remove, ids)
            return
        window = self.view.window()
        if isinstance(window, QMainWindow):
            window.statusBar().showMessage("Nothing selected is in Up next: select episodes there (Ctrl+U) or "
                                           "in the list, then Del.", 6000)

    def move(self, steps: int) -> None:
        """Move the queue's current episode up (-1) or down (1)."""
        item_id = self.view.current_id()
        if item_id is not None:
            self._write(queue_move, item_id, steps, keep=item_id)

    def step(self, direction: int) -> None:
        """Play the next (1) or previous (-1) episode of the queue."""
        target = next_in_queue(self._db, self._current_id(), direction)
        if target is not None:
            self._play(target)

    @Slot(int)
    def _on_finished(self, item_id: int) -> None:
        """An episode ended: it leaves the queue, and the next one plays unless the sleep timer or the
        ``playback.auto_advance`` setting says otherwise."""
        following = next_in_queue(self._db, item_id, 1)
        self._write(queue_remove, [item_id])
        if self._sleep.ends_here() or not get_setting(self._db, "playback.auto_advance"):
            return
        if following is not None:
            self._play(following)

    @Slot(str)
    def _on_failed(self, _message: str) -> None:
        current = self._current_id()
        if current is None or not get_setting(self._db, "playback.skip_on_error"):
            return
        following = next_in_queue(self._db, current, 1)
        if following is not None and following != current:
            self._play(following)
