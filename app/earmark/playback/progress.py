"""Keeping an item's playback position: every few seconds while playing, and on every pause, seek, stop,
switch and quit. Saving is delegated (the GUI hands it to the library's writer). The session also applies a
podcast's playback settings and follows the episode's chapters."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field

from PySide6.QtCore import QElapsedTimer, QObject, Signal, Slot

from earmark.core.audio.silence import Span, skipped
from earmark.core.chapters import chapter_index
from earmark.core.models import Chapter, Item, PodcastPrefs, ProgressUpdate
from earmark.core.records import record
from earmark.playback.player import Player, PlayerState
from earmark.playback.problems import Problem, Trouble
from earmark.playback.silence_skipper import SilenceSkipper

SAVE_INTERVAL_SECONDS = 5.0


@record
class PlayContext:
    """How to play an item: a downloaded file to play instead of the stream, the podcast's settings, the
    speed to use, the chapters already known (podcast:chapters, cached) and its silences when analysed."""

    local_uri: str | None = None
    prefs: PodcastPrefs = field(default_factory=PodcastPrefs)
    rate: float | None = None
    chapters: list[Chapter] = field(default_factory=list)
    silences: list[Span] | None = None  # the episode's silent spans (None: not analysed yet)


class PlaybackSession(QObject):
    """Plays library items on a Player and keeps their positions.

    Signals: ``item_changed(int)`` when another item starts, ``item_finished(int)`` when an item played to
    its end (or into its podcast's skipped outro), ``chapters_changed(list)``, ``chapter_changed(int)`` (the
    index of the chapter playing, -1 for none), ``skip_silence_changed(str)`` (the level, chosen while playing).
    """

    item_changed = Signal(int)
    item_finished = Signal(int)
    chapters_changed = Signal(list)
    chapter_changed = Signal(int)
    skip_silence_changed = Signal(str)

    def __init__(self, player: Player, save: Callable[[ProgressUpdate], None],
                 save_interval: float = SAVE_INTERVAL_SECONDS, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.player = player
        self._save_interval_ms = int(save_interval * 1000)
        self._save = save
        self._item: Item | None = None
        self._prefs = PodcastPrefs()
        self._chapters: list[Chapter] = []
        self._chapter = -1
        self._finished = False  # the item reached its end (or its skipped outro): nothing more to save
        self._started_at = 0.0  # where the item was loaded
        self._since_save = QElapsedTimer()
        self.skipper = SilenceSkipper(player, self)
        self._silences: list[Span] = []
        self.silences_known = False  # the loaded item's silences were analysed (maybe to none)
        player.position_changed.connect(self._on_position)
        player.state_changed.connect(self._on_state)
        player.seeked.connect(self._on_seeked)
        player.ended.connect(self._on_ended)
        player.problem_reported.connect(self._on_problem)
        player.chapters_found.connect(self._on_media_chapters)

    @property
    def item(self) -> Item | None:
        """The item loaded in the player."""
        return self._item

    @property
    def prefs(self) -> PodcastPrefs:
        """The playback settings of the loaded item's podcast."""
        return self._prefs

    @property
    def chapters(self) -> list[Chapter]:
        """The chapters of the loaded item (podcast:chapters when known, else those in the media)."""
        return self._chapters

    @property
    def chapter(self) -> int:
        """The index of the chapter playing (-1: none)."""
        return self._chapter

    def play_item(self, item: Item, context: PlayContext | None = None) -> None:
        """Start ``item`` where the user left it (from the start when it was played to the end), from its
        downloaded file when there is one, with its podcast's settings."""
        context = context or PlayContext()
        if item.enclosure_url is None:
            self.player.refuse(Trouble.NO_AUDIO, item.title)
            return
        if self._item is not None and self._item.id == item.id and not self._finished and self.player.state in (
            PlayerState.PLAYING, PlayerState.PAUSED, PlayerState.LOADING
        ):
            self.player.play()
            return
        start = self._take(item, context)
        self.player.load(context.local_uri or item.enclosure_url, start, title=item.title)

    def cue_item(self, item: Item, context: PlayContext | None = None) -> None:
        """Make ``item`` the one loaded, paused where the user left it, its media opened only when it plays (the
        last episode, after a restart)."""
        context = context or PlayContext()
        if item.enclosure_url is None or item.played:
            return
        start = self._take(item, context)
        self.player.cue(context.local_uri or item.enclosure_url, start, title=item.title, length=item.duration)

    def _take(self, item: Item, context: PlayContext) -> float:
        """Make ``item`` the one loaded, with ``context``'s settings; returns where it starts."""
        self.save_now()
        self._item = item
        self._finished = False
        self._prefs = context.prefs
        self._set_chapters(context.chapters)
        self._silences = context.silences or []
        self.silences_known = context.silences is not None
        self.skipper.set_skips(skipped(self._silences, self._prefs.skip_silence))
        start = 0.0 if item.played else item.position
        if start < self._prefs.skip_intro:
            start = self._prefs.skip_intro
        self._since_save.start()
        self.item_changed.emit(item.id)
        self.player.set_voice_boost(self._prefs.voice_boost)
        if context.rate is not None:
            self.player.set_rate(context.rate)
        self._started_at = start
        return start

    def stop(self) -> None:
        """Save the position, then stop the player and forget the item."""
        self.save_now()
        self.player.stop()
        self._item = None
        self._set_chapters([])

    def save_now(self) -> None:
        """Save the current item's position (call before switching and on quit).

        Only a playing or paused player knows a position worth keeping: loading, stopped, failed and ended
        players report 0 (an ended item was saved when it ended)."""
        if self._saving() and self.player.state in (PlayerState.PLAYING, PlayerState.PAUSED) and not self.player.cued:
            self._store(self.player.position(), ended=False)

    def _saving(self) -> bool:
        return self._item is not None and not self._finished

    def set_chapters(self, item_id: int, chapters: list[Chapter]) -> None:
        """Use these chapters (fetched podcast:chapters) if ``item_id`` is still the item loaded."""
        if self._item is not None and self._item.id == item_id and chapters:
            self._set_chapters(chapters)

    def set_silences(self, item_id: int, spans: list[Span]) -> None:
        """Use these silent spans (just analysed) if ``item_id`` is still the item loaded."""
        if self._item is not None and self._item.id == item_id:
            self._silences = list(spans)
            self.silences_known = True
            self.skipper.set_skips(skipped(self._silences, self._prefs.skip_silence))

    def set_skip_silence(self, level: str) -> None:
        """Skip silence at ``level`` (off, mild or strong) from now on."""
        self._prefs.skip_silence = level
        self.skipper.set_skips(skipped(self._silences, level))
        self.skip_silence_changed.emit(level)

    def seek_chapter(self, step: int) -> None:
        """Jump to the next (``step`` 1) or previous (-1) chapter. Going back more than 3 s into a chapter
        returns to its start first, as players do."""
        if not self._chapters or self._item is None:
            return
        position = self.player.position()
        current = chapter_index(self._chapters, position)
        if step < 0 and current is not None and position - self._chapters[current].start > 3.0:
            target = current
        else:
            target = (current if current is not None else -1) + step
        if 0 <= target < len(self._chapters):
            self.player.seek(self._chapters[target].start)

    def _set_chapters(self, chapters: list[Chapter]) -> None:
        self._chapters = list(chapters)
        self._chapter = -1
        self.chapters_changed.emit(self._chapters)
        self._follow_chapter(self.player.position() if self._item else 0.0)

    def _follow_chapter(self, position: float) -> None:
        index = chapter_index(self._chapters, position)
        current = -1 if index is None else index
        if current != self._chapter:
            self._chapter = current
            self.chapter_changed.emit(current)

    def _store(self, position: float, ended: bool) -> None:
        assert self._item is not None
        self._item.position = 0.0 if ended else position
        self._item.played = self._item.played or ended
        self._save(ProgressUpdate(self._item.id, position, self.player.duration(), ended, speed=self.player.rate(),
                                  silence_saved=self.skipper.take_saved()))
        self._since_save.start()

    @Slot(float)
    def _on_position(self, position: float) -> None:
        if self._item is None:
            return
        self._follow_chapter(position)
        if self.player.state != PlayerState.PLAYING or self._finished:
            return
        duration = self.player.duration()
        if self._prefs.skip_outro > 0 and duration and position >= duration - self._prefs.skip_outro:
            self._finished = True  # first: pausing reports the position again
            self.player.pause()
            self._finish()
            return
        if self._since_save.elapsed() >= self._save_interval_ms:
            self._store(position, ended=False)

    @Slot(str)
    def _on_state(self, state: str) -> None:
        if state == PlayerState.PLAYING:
            self._finished = False  # played again after its end
        elif state == PlayerState.PAUSED and self._saving() and not self.player.cued:  # cued: nothing new
            self._store(self.player.position(), ended=False)

    @Slot(float)
    def _on_seeked(self, position: float) -> None:
        if self._saving() and self.player.state in (PlayerState.PLAYING, PlayerState.PAUSED):
            self._store(position, ended=False)

    @Slot(object)
    def _on_problem(self, problem: Problem) -> None:
        """Playback stopped part-way (a stream cut or stalled): keep where it stopped, not played."""
        if self._saving() and abs(problem.position - self._started_at) > 0.5:
            self._started_at = problem.position
            self._store(problem.position, ended=False)

    @Slot()
    def _on_ended(self) -> None:
        if self._saving():
            self._finish()

    def _finish(self) -> None:
        assert self._item is not None
        self._store(self.player.duration() or self.player.position(), ended=True)
        self._finished = True
        self.item_finished.emit(self._item.id)

    @Slot(list)
    def _on_media_chapters(self, chapters: list[Chapter]) -> None:
        if not self._chapters or all(chapter.source == "made" for chapter in self._chapters):  # a file's win
            self._set_chapters(chapters)
