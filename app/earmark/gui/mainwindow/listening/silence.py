"""Skip Silence in the window: the action and the player bar's button switch it for the playing podcast (off, or
mild when switched on; the podcast's settings choose strong), and an episode played with it on is analysed once
in the background (its downloaded file, else its stream) before the first silence can be skipped."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QObject

from earmark.core.audio.silence import Span
from earmark.core.db.database import Database
from earmark.core.db.silences import store_silences
from earmark.core.models import Changes
from earmark.gui.mainwindow.frame.actions import Actions
from earmark.gui.operations.playback import store_prefs
from earmark.gui.tasks import TaskRunner
from earmark.playback.progress import PlaybackSession

SWITCHED_ON = "mild"


def _analyse_item(db: Database, item_id: int) -> tuple[list[Span], float]:
    from earmark.core.audio.analyse import analyse_source, episode_source  # numpy and PyAV: not at start-up

    return analyse_source(episode_source(db, item_id))


def _store(db: Database, item_id: int, spans: list[Span], duration: float | None,
           error: str | None) -> Changes:
    store_silences(db, item_id, spans, duration, error)
    return Changes()


class SilenceController(QObject):
    """Keeps Skip Silence, the playing podcast's setting and the analysis of the playing episode in step."""

    def __init__(self, runner: TaskRunner, session: PlaybackSession, actions: Actions,
                 status: Callable[[str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._session = session
        self._action = actions.skip_silence
        self._status = status
        self._analysing: set[int] = set()
        self._action.triggered.connect(self._toggle)
        session.item_changed.connect(lambda _id: self._follow(session.prefs.skip_silence))
        session.skip_silence_changed.connect(self._follow)

    def _toggle(self) -> None:
        level = SWITCHED_ON if self._session.prefs.skip_silence == "off" else "off"
        self._session.set_skip_silence(level)
        item = self._session.item
        if item is not None and item.source_id is not None:
            self._runner.write(store_prefs, item.source_id, replace(self._session.prefs))

    def _follow(self, level: str) -> None:
        self._action.setChecked(level != "off")
        item = self._session.item
        if level == "off" or item is None or self._session.silences_known or item.id in self._analysing:
            return
        self._analysing.add(item.id)
        self._status("Finding the silences of this episode…")
        self._runner.read(_analyse_item, item.id, on_done=lambda found: self._analysed(item.id, *found),
                          on_error=lambda message: self._failed(item.id, message))

    def _analysed(self, item_id: int, spans: list[Span], duration: float) -> None:
        self._analysing.discard(item_id)
        self._session.set_silences(item_id, spans)
        self._runner.write(_store, item_id, spans, duration, None)

    def _failed(self, item_id: int, message: str) -> None:
        self._analysing.discard(item_id)
        self._status(f"Silence cannot be skipped in this episode: {message}")
        self._runner.write(_store, item_id, [], None, message)
