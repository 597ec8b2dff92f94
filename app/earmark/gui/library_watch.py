"""Noticing a library changed by another process (``earmark subscribe`` in a terminal, a cron refresh): the
writer's connection asks SQLite's ``PRAGMA data_version`` every few seconds, which changes only when another
connection committed (this process writes through that very connection).

What the window's own ``earmark`` children commit (relation passes, refreshes, syncs, transcriptions) is not
reported: the code that started them shows what they changed, so a recount this window forgot shows as missing at
once (a relation pass used to follow most changes, and the reload its writes caused hid a missing recount). A
commit seen while a child ran may still be another process's: it is reported when the newest item, source or note
moved (what a subscription, a refresh or a note from a terminal adds); another process's other changes made while
a child of the window ran show with the next change reported."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from earmark.core.db.database import Database
from earmark.core.records import record
from earmark.gui.child_process import Children, children
from earmark.gui.tasks import TaskRunner

POLL_MS = 2000


@record(frozen=True)
class Seen:
    """What one question found: SQLite's count of other connections' commits, as this connection sees it, and the
    newest item, source and note (read by their keys: microseconds)."""

    version: int
    newest: tuple[int | None, ...]


def look(db: Database) -> Seen:
    """What the library shows of other connections' work now."""
    version = int(db.execute("PRAGMA data_version").fetchone()[0])
    newest = db.execute("SELECT (SELECT max(id) FROM items), (SELECT max(id) FROM sources), "
                        "(SELECT max(id) FROM notes)").fetchone()
    return Seen(version, tuple(newest))


class LibraryWatch(QObject):
    """Polls the library in the runner's writer thread (the GUI thread never waits for it).

    Signal: ``changed_elsewhere()`` when another process, not a child of this one, changed the library.
    """

    changed_elsewhere = Signal()

    def __init__(self, runner: TaskRunner, parent: QObject | None = None, interval_ms: int = POLL_MS) -> None:
        super().__init__(parent)
        self._runner = runner
        self._seen: Seen | None = None
        self._asking = False
        self._asked: Children | None = None  # the children when the question in flight was asked
        self._since = children()  # the children when the question last answered was asked
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._ask)
        self._timer.start()
        self._ask()

    @Slot()
    def _ask(self) -> None:
        if self._asking:  # a long write holds the writer: one question at a time
            return
        try:
            self._runner.on_writer(look, on_done=self._answered, on_error=self._unanswered)
        except RuntimeError:  # the runner was shut down (the window is closing)
            self._timer.stop()
            return
        self._asking = True
        self._asked = children()

    def _answered(self, seen: Seen) -> None:
        self._asking = False
        before, self._seen = self._seen, seen
        ours = self._since.running > 0 or children() != self._since  # a child ran since the last question
        self._since = self._asked or children()
        if before is not None and seen.version != before.version and (not ours or seen.newest != before.newest):
            self.changed_elsewhere.emit()

    def _unanswered(self, _message: str) -> None:
        self._asking = False  # asked again at the next tick; a question is not worth a dialog
