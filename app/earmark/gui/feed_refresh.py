"""Feed refreshes in a child process (``earmark refresh --jsonl``), reported through signals.

A separate process keeps hundreds of fetches and parses off this process's GIL entirely, so the window
never stalls; the child writes to the library in short transactions of its own, as a cron job would.
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from earmark.core.records import record
from earmark.gui.child_command import ChildCommand

KILL_AFTER_MS = 5000  # a cancelled refresh finishes the feeds in flight; after this it is killed
QUIT_KILL_AFTER_MS = 500  # on quit it is killed sooner: each feed is stored in a transaction of its own


@record
class RefreshSummary:
    """How a refresh ended: feeds checked, what they brought, and the sentences to show."""

    total: int = 0
    checked: int = 0
    new: int = 0
    failed: int = 0
    cancelled: bool = False
    error: str | None = None  # the refresh could not run at all
    importing: bool = False  # an OPML import rather than a refresh
    already_subscribed: int = 0  # of an import's feeds, those subscribed before it
    notes: list[str] = field(default_factory=list)  # what the command said on the side (skipped outlines…)


class FeedRefresh(ChildCommand):
    """Starts and watches one refresh at a time.

    Signals: ``started(int)`` with the number of feeds, ``feed_done(dict)`` per feed (the ``refresh --json``
    object), ``finished(RefreshSummary)``.
    """

    started = Signal(int)
    feed_done = Signal(dict)
    finished = Signal(object)

    def __init__(self, library_path: Path, parent: QObject | None = None) -> None:
        super().__init__(library_path, parent)
        self._summary = RefreshSummary()

    def refresh(self, source_ids: list[int] | None = None, every: bool = False) -> bool:
        """Refresh the given sources (even if backing off), every feed (``every``), or every due feed; False
        when one is running."""
        args = ["refresh", "--jsonl", "--background", *(["--all"] if every else [])]
        for source_id in source_ids or []:
            args += ["--source", str(source_id)]
        return self._start(args)

    def import_opml(self, path: Path) -> bool:
        """Subscribe to every feed of an OPML file and fetch them; False when a refresh is running."""
        started = self._start(["import-opml", str(path), "--jsonl", "--background"])
        self._summary.importing = started
        return started

    def cancel(self) -> None:
        """Start no more feeds; those in flight finish and are stored."""
        if self.is_running():
            self._summary.cancelled = True
            process = self._stop(KILL_AFTER_MS, wait=False)
            QTimer.singleShot(KILL_AFTER_MS, self,
                              lambda: process.kill() if process is not None and self._process is process else None)

    def shutdown(self) -> None:
        """Stop a running refresh on quit, killing it (with its parsing processes) if it has not ended within
        QUIT_KILL_AFTER_MS: quitting never waits for the network, and what was stored stays stored."""
        if self.is_running():
            self._summary.cancelled = True
            self._stop(QUIT_KILL_AFTER_MS, wait=True, group=True)

    def _start(self, args: list[str]) -> bool:
        if self.is_running():
            return False
        self._summary = RefreshSummary()
        return self._run(args)

    def _message(self, message: dict[str, object]) -> None:
        if "total" in message and "status" not in message:  # the first line (an import's has its counts too)
            self._summary.total = int(message["total"])  # type: ignore[call-overload]  # the command's number
            before = message.get("already_subscribed") or 0
            self._summary.already_subscribed = int(before)  # type: ignore[call-overload]  # the command's number
            self.started.emit(self._summary.total)
            return
        self._summary.checked += 1
        self._summary.new += int(message.get("new") or 0)  # type: ignore[call-overload]  # the command's number
        self._summary.failed += message.get("status") in ("error", "gone")
        self.feed_done.emit(message)

    def _ended(self, exit_code: int, errors: list[str]) -> None:
        if exit_code != 0 and not self._summary.cancelled:
            self._summary.error = errors[-1] if errors else (f"The {self._pass_name()} stopped unexpectedly "
                                                             f"(exit code {exit_code}).")
            errors = errors[:-1]
        self._summary.notes = errors

    def _not_started(self, sentence: str) -> None:
        self._summary.error = f"The {self._pass_name()} could not start: {sentence}."

    def _pass_name(self) -> str:
        return "import" if self._summary.importing else "refresh"

    def _done(self) -> None:
        self.finished.emit(self._summary)
