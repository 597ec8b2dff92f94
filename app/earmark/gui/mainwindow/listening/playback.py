"""The window's playback commands: playing items with their podcast's settings, seeking, speed, volume,
chapters (fetching podcast:chapters once), voice boost and the sleep timer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtWidgets import QInputDialog

from earmark.core.chaptering.made import store_made_chapters
from earmark.core.chapters import chapters_url, fetch_chapters
from earmark.core.db.database import Database
from earmark.core.models import Changes, Chapter, Item
from earmark.core.settings import get_setting
from earmark.gui.mainwindow.frame.actions import Actions
from earmark.gui.mainwindow.listening.player_bar import PlayerBar
from earmark.gui.mainwindow.listening.speed_owner import speed_tip
from earmark.gui.operations.playback import (
    read_last_episode,
    read_play_context,
    store_fetched_chapters,
    store_prefs,
)
from earmark.gui.operations.records import store_setting
from earmark.gui.tasks import TaskRunner
from earmark.playback.progress import PlaybackSession, PlayContext
from earmark.playback.sleep_timer import SleepTimer

MINUTE = 60.0
VOLUME_STEP = 5


class PlaybackController(QObject):
    """Connects the playback actions to the session and remembers the user's speed, volume and voice boost
    (in the settings, or the playing podcast's own settings when it has its own speed)."""

    def __init__(self, runner: TaskRunner, db: Database, session: PlaybackSession, actions: Actions,
                 bar: PlayerBar, on_changes: Callable[[Changes], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._db = db
        self.session = session
        self._on_changes = on_changes
        self._bar = bar
        self.player = session.player
        self.sleep = SleepTimer(session, parent=self)
        self.sleep.changed.connect(bar.show_sleep)
        self.player.set_rate(float(get_setting(db, "playback.speed")))  # type: ignore[arg-type]
        self.player.set_volume(int(get_setting(db, "playback.volume")))  # type: ignore[call-overload]
        bar.time_left_at_speed = bool(get_setting(db, "playback.time_left_at_speed"))
        bar.show_speed(self.player.rate())
        bar.speed_chosen.connect(self._remember_speed)
        bar.volume_chosen.connect(lambda percent: self._runner.write(store_setting, "playback.volume", percent))
        bar.use_actions(actions.back_10, actions.forward_10, actions.next_in_queue)
        session.chapter_changed.connect(lambda index: bar.show_chapter(session.chapters, index))
        session.chapters_changed.connect(lambda chapters: bar.show_chapter(chapters, session.chapter))
        self.player.volume_changed.connect(lambda _volume, muted: actions.mute.setChecked(muted))
        bar.show_toggles([actions.skip_silence, actions.voice_boost])
        self._connect(actions)
        default_rate = float(get_setting(db, "playback.speed"))  # type: ignore[arg-type]
        runner.read(read_last_episode, default_rate, on_done=self._cue_last)

    def _connect(self, a: Actions) -> None:
        player, session = self.player, self.session
        a.play_pause.triggered.connect(player.toggle)
        a.back_10.triggered.connect(lambda: player.skip(-10.0))
        a.forward_10.triggered.connect(lambda: player.skip(10.0))
        a.skip_back.triggered.connect(lambda: player.skip(-self._setting_seconds("playback.skip_back")))
        a.skip_forward.triggered.connect(lambda: player.skip(self._setting_seconds("playback.skip_forward")))
        a.back_minute.triggered.connect(lambda: player.skip(-MINUTE))
        a.forward_minute.triggered.connect(lambda: player.skip(MINUTE))
        a.previous_chapter.triggered.connect(lambda: session.seek_chapter(-1))
        a.next_chapter.triggered.connect(lambda: session.seek_chapter(1))
        a.slower.triggered.connect(lambda: self._change_speed(-1))
        a.faster.triggered.connect(lambda: self._change_speed(1))
        a.normal_speed.triggered.connect(lambda: self._change_speed(0))
        a.mute.triggered.connect(lambda: player.set_muted(not player.muted()))
        a.volume_up.triggered.connect(lambda: self._change_volume(VOLUME_STEP))
        a.volume_down.triggered.connect(lambda: self._change_volume(-VOLUME_STEP))
        a.voice_boost.triggered.connect(self._toggle_voice_boost)
        a.sleep_15.triggered.connect(lambda: self.sleep.start_minutes(15))
        a.sleep_30.triggered.connect(lambda: self.sleep.start_minutes(30))
        a.sleep_minutes.triggered.connect(self._ask_sleep_minutes)
        a.sleep_episode.triggered.connect(self.sleep.at_end_of_episode)
        a.sleep_chapter.triggered.connect(self.sleep.at_end_of_chapter)
        a.sleep_off.triggered.connect(self.sleep.cancel)
        session.item_changed.connect(lambda _id: a.voice_boost.setChecked(session.prefs.voice_boost))
        session.item_changed.connect(lambda _id: self._say_whose_speed())
        self.player.rate_changed.connect(lambda _rate: self._say_whose_speed())

    def _ask_sleep_minutes(self) -> None:
        dialog = QInputDialog(self._bar.window())
        dialog.setObjectName("sleepMinutes")
        dialog.setWindowTitle("Sleep Timer")
        dialog.setLabelText("Pause playback after how many minutes?")
        dialog.setInputMode(QInputDialog.InputMode.IntInput)
        dialog.setIntRange(1, 600)
        dialog.setIntValue(45)
        dialog.intValueSelected.connect(self.sleep.start_minutes)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def _setting_seconds(self, key: str) -> float:
        return float(get_setting(self._db, key))  # type: ignore[arg-type]

    def play(self, item: Item, start: float | None = None) -> None:
        """Play ``item`` (from ``start`` seconds when given) with its podcast's settings, from its download
        when there is one; its podcast:chapters are fetched in the background the first time (without any, chapters
        are made from its transcript when it has one)."""
        if start is not None:
            item = replace(item, position=start, played=False)
        default_rate = float(get_setting(self._db, "playback.speed"))  # type: ignore[arg-type]
        context = read_play_context(self._db, item, default_rate)
        self.session.play_item(item, context)
        url = chapters_url(self._db, item.id)
        if url and not context.chapters:
            self._runner.compute(fetch_chapters, url, on_done=lambda chapters: self._chapters_fetched(item.id, url,
                                                                                                       chapters),
                                 on_error=lambda _message: None)  # chapters are a nicety: the media may have some
        elif not url and not context.chapters:  # a transcript stored before chapters were made from transcripts
            self._runner.write(store_made_chapters, item.id,
                               on_done=lambda made: self.session.set_chapters(item.id, made))

    def _cue_last(self, found: tuple[Item, PlayContext] | None) -> None:
        """The episode left part-way last time comes back paused there (unless something plays already)."""
        if found is not None and self.session.item is None:
            self.session.cue_item(*found)

    def _chapters_fetched(self, item_id: int, url: str, chapters: list[Chapter]) -> None:
        self.session.set_chapters(item_id, chapters)
        self._runner.write(store_fetched_chapters, item_id, url, chapters, on_done=self._on_changes)

    def _change_speed(self, steps: int) -> None:
        if steps:
            self.player.change_rate(steps)
        else:
            self.player.set_rate(1.0)
        self._remember_speed(self.player.rate())

    @Slot(float)
    def _remember_speed(self, rate: float) -> None:
        """A speed chosen while listening is the playing podcast's own (as podcast apps keep it); with nothing
        of a podcast loaded, it is the default (Settings ▸ Playback)."""
        item, prefs = self.session.item, self.session.prefs
        if item is not None and item.source_id is not None:
            prefs.speed = rate
            self._runner.write(store_prefs, item.source_id, replace(prefs))
        else:
            self._runner.write(store_setting, "playback.speed", rate)
        self._say_whose_speed()

    def _say_whose_speed(self) -> None:
        item, own = self.session.item, self.session.prefs.speed
        default = float(get_setting(self._db, "playback.speed"))  # type: ignore[arg-type]
        self._bar.speed.setToolTip(speed_tip(item.source or "" if item and item.source_id else None, own, default))

    def _change_volume(self, delta: int) -> None:
        if self.player.muted():
            self.player.set_muted(False)
        self.player.set_volume(self.player.volume() + delta)
        self._runner.write(store_setting, "playback.volume", self.player.volume())

    def _toggle_voice_boost(self) -> None:
        on = not self.player.voice_boost()
        self.player.set_voice_boost(on)
        item, prefs = self.session.item, self.session.prefs
        prefs.voice_boost = on
        if item is not None and item.source_id is not None:
            self._runner.write(store_prefs, item.source_id, replace(prefs))
