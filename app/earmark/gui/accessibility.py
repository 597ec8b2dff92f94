"""What a screen reader says about the window: a name and a description for every control (the panes say what
they hold and which keys work there; icon-only buttons and menus get names too), and announcements of what
changes out of sight: playing or paused, the speed, mute, the sleep timer."""

from __future__ import annotations

import re

from PySide6.QtCore import QObject
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QMainWindow,
    QMenu,
    QProgressBar,
    QTextEdit,
    QToolButton,
    QWidget,
)

from earmark.playback.player import Player, PlayerState
from earmark.playback.sleep_timer import SleepTimer

# The panes by object name: what each holds and the keys that work there (docs/keyboard.md).
DESCRIPTIONS = {
    "itemList": "Episodes and articles. Enter plays or opens, Q adds to Up next, Tab goes to the next pane, "
                "Ctrl+1 comes back here.",
    "search": "Type to search titles, notes and articles; Down goes to the results, Esc clears the search.",
    "detailPane": "The details of the selected item. Ctrl+2 comes here.",
    "relatedList": "Items related to the selected one, with the reasons. Enter opens one; Ctrl+3 comes here.",
    "itemNotes": "Your notes on the selected item. Enter plays the episode from a note's time (on a highlight: shows "
                 "it in the reader), F2 edits a note, Delete removes it; Ctrl+4 comes here.",
    "transcriptLines": "The episode's transcript; Enter plays from a line. Ctrl+5 comes here.",
    "queueList": "The episodes to play next. Delete removes one, Alt+Up and Alt+Down move it; Ctrl+6 comes here.",
    "sidebar": "Library sections, podcasts, tags and smart lists. Enter shows one in the list; Ctrl+8 comes here.",
    "graphView": "The topic graph. The arrow keys move between items, Enter opens one, letters find by title.",
    "allNotes": "Every note in the library. Enter plays the episode from a note's time (on a highlight: opens the "
                "article at it), F2 edits a note, Delete removes it.",
    "notesFilter": "Type to filter the notes by their text; Down or Enter goes to the notes.",
    "subscriptionsTable": "Your subscriptions with their status. Shift+F5 refreshes the selected feeds.",
    "reader": "The article. The arrow keys scroll, H highlights the words selected; Esc goes back to the list.",
    "graphFind": "Type a title; Enter selects that item in the graph, a second Enter opens it.",
    "graphMode": "What the graph shows: the whole library, the selected item's neighbourhood or its learning path.",
    "graphDepth": "How many steps of relations the neighbourhood reaches.",
    "queuePath": "Adds the learning path's episodes to Up next in learning order.",
    "graphTag": "Shows only the items with this tag.",
    "graphSource": "Shows only the items of this podcast or site.",
    "graphKind": "Shows episodes, articles or both.",
    "graphMinWeight": "Hides relations weaker than this.",
    "graphTopics": "Shows the topics as nodes of their own.",
    "graphColour": "What the nodes' colours stand for.",
}
# Controls without an object name, by the name they are read by.
BY_NAME = {
    "Fit": "Shows every node of the graph (0).",
    "Export": "Saves the graph as a picture (PNG or SVG) or as GraphML.",
    "Try again": "Looks for the episode's transcript again.",
    "Retry": "Plays the episode again from where it stopped.",
    "Cancel the refresh": "Stops refreshing the feeds; what was fetched is kept.",
    "★ Favourites": "Lists only your favourites.",
    "Position": "Where the episode is; Left and Right skip, Shift with them a minute.",
    "Play or pause": "Plays or pauses (Space or K).",
    "Playback speed": "Slower with [, faster with ], normal with Backspace.",
    "Scroll Left": "Shows the tabs further left.",  # a tab bar's arrows (panes tabbed together)
    "Scroll Right": "Shows the tabs further right.",
}
NAMED_KINDS = (QAbstractButton, QLineEdit, QAbstractSpinBox, QComboBox, QAbstractSlider, QAbstractItemView,
               QTextEdit, QProgressBar)
TICK = re.compile(r"^Sleep in \d+:\d\d$")  # the sleep timer's countdown: shown, not said every second


def make_readable(window: QMainWindow) -> None:
    """Name and describe every control of ``window`` that lacks a name or a description (call again after
    building more of it: what is set is kept)."""
    for menu in window.findChildren(QMenu):
        if not menu.accessibleName():
            menu.setAccessibleName(menu.title().replace("&", ""))
    for widget in window.findChildren(QWidget):
        if isinstance(widget, NAMED_KINDS):
            _name(widget)


def _name(widget: QWidget) -> None:
    described = DESCRIPTIONS.get(widget.objectName()) or BY_NAME.get(widget.accessibleName()) \
        or BY_NAME.get(_text(widget))
    if described and not widget.accessibleDescription():
        widget.setAccessibleDescription(described)
    owner = widget.parentWidget()
    if isinstance(widget, QToolButton) and isinstance(owner, QLineEdit) and not widget.accessibleName():
        field = owner.accessibleName() or owner.placeholderText() or "the field"
        widget.setAccessibleName(f"Clear {field[0].lower()}{field[1:]}")  # a line edit's clear button
        widget.setAccessibleDescription("Empties the field")
        return
    if not widget.accessibleName():
        text = widget.toolTip() or widget.statusTip() or (widget.placeholderText() if isinstance(widget, QLineEdit)
                                                           else "")
        if text:
            widget.setAccessibleName(re.sub(r"<[^>]+>", "", text).strip())
    if isinstance(widget, QComboBox) and not widget.accessibleDescription() and widget.accessibleName():
        # a combo box is read by its current choice: the description says what the choice is about
        widget.setAccessibleDescription(widget.accessibleName())
    if not widget.accessibleDescription() and widget.toolTip():
        widget.setAccessibleDescription(re.sub(r"<[^>]+>", "", widget.toolTip()).strip())


def _text(widget: QWidget) -> str:
    return widget.text() if isinstance(widget, QAbstractButton) else ""


class Announcer(QObject):
    """Says through ``speaker``'s accessible object what the player and the sleep timer do."""

    def __init__(self, speaker: QWidget, player: Player, sleep: SleepTimer) -> None:
        super().__init__(speaker)
        self._speaker = speaker
        self._player = player
        self._state = str(player.state)
        self._sleeping = False
        player.state_changed.connect(self._on_state)
        player.rate_changed.connect(lambda rate: self.say(f"Speed {rate:g}×"))
        player.volume_changed.connect(self._on_volume)
        self._muted = player.muted()
        sleep.changed.connect(self._on_sleep)
        sleep.fired.connect(lambda: self.say("The sleep timer paused playback"))

    def say(self, text: str) -> None:
        """Announce ``text`` (a screen reader reads it when it is free)."""
        QAccessible.updateAccessibility(QAccessibleAnnouncementEvent(self._speaker, text))

    def _on_state(self, state: str) -> None:
        if state == self._state:
            return
        self._state = state
        spoken = {PlayerState.PLAYING: "Playing", PlayerState.PAUSED: "Paused", PlayerState.ENDED: "Finished",
                  PlayerState.STOPPED: "Stopped"}.get(PlayerState(state))
        if spoken:
            self.say(spoken)

    def _on_volume(self, percent: int, muted: bool) -> None:
        if muted != self._muted:
            self._muted = muted
            self.say("Muted" if muted else f"Sound on, volume {percent}%")

    def _on_sleep(self, text: str) -> None:
        if not text:
            if self._sleeping:
                self.say("Sleep timer off")
            self._sleeping = False
        elif not TICK.match(text):
            self._sleeping = True
            self.say(text)
