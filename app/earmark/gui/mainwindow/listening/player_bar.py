"""The player bar: what plays and its chapter; back 10 s, play/pause, forward 10 s and next in Up next; position,
elapsed/remaining, speed, voice boost and a volume slider; the sleep timer, and the player's state and failures
(player_status.py). It sits in a tool bar along the window's bottom edge, under the docked panes too."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QAction, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSlider,
    QStyle,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from earmark.core.models import Chapter
from earmark.core.timefmt import format_clock
from earmark.gui.mainwindow.listening.player_status import PlayerStatus
from earmark.gui.tinted_icons import tinted_icon
from earmark.playback.player import Player, PlayerState

PLAYER_COVER = 48  # logical pixels
SPEEDS = (0.5, 0.75, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0)


class PlayerBar(QWidget):
    """Observes a Player and drives it from its controls. The slider's unit is tenths of a second.

    Signals: ``speed_chosen(float)`` when the user picks a speed, ``volume_chosen(int)`` when they move the volume
    slider (both already applied to the player).
    """

    speed_chosen = Signal(float)
    volume_chosen = Signal(int)

    def __init__(self, player: Player, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("playerBar")
        self._player = player
        self._dragging = False
        self.time_left_at_speed = True
        self.title = QLabel("Nothing playing")
        self.title.setObjectName("playerTitle")
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.chapter = QLabel()
        self.chapter.setObjectName("playerChapter")
        self.chapter.hide()
        for label in (self.title, self.chapter):  # a long title is cut at the window's edge, never widens it
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.sleep = QLabel()
        self.sleep.setObjectName("playerSleep")
        self.sleep.hide()
        self.status = PlayerStatus(player)
        self.message = self.status.message
        self.play_button = QToolButton()
        self.play_button.setAccessibleName("Play or pause")
        self.play_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.play_button.clicked.connect(player.toggle)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setAccessibleName("Position")
        self.slider.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.slider.setEnabled(False)
        self.slider.sliderPressed.connect(self._on_pressed)
        self.slider.sliderReleased.connect(self._on_released)
        self.elapsed = QLabel("0:00")
        self.remaining = QLabel("")
        for label in (self.elapsed, self.remaining):
            label.setObjectName("playerTime")
        self.speed = QComboBox()
        self.speed.setAccessibleName("Playback speed")
        self.speed.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        for value in SPEEDS:
            self.speed.addItem(f"{value:g}×", value)
        self.speed.setCurrentIndex(SPEEDS.index(1.0))
        self.speed.activated.connect(self._on_speed_chosen)
        self.volume = QLabel()
        self.volume.setObjectName("playerVolume")
        self.volume_slider = QSlider(Qt.Orientation.Horizontal)
        self.volume_slider.setObjectName("playerVolumeSlider")
        self.volume_slider.setAccessibleName("Volume")
        self.volume_slider.setToolTip("Volume (Ctrl+Up / Ctrl+Down; M mutes)")
        self.volume_slider.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.volume_slider.setRange(0, 100)
        self.volume_slider.setFixedWidth(90)
        self.volume_slider.valueChanged.connect(self._on_volume_moved)
        self.buttons: dict[str, QToolButton] = {}
        self.cover = QLabel()  # the cover of what plays (show_cover), hidden while nothing does
        self.cover.setObjectName("playerCover")
        self.cover.setFixedSize(PLAYER_COVER, PLAYER_COVER)
        self.cover.hide()

        self.toggles = QHBoxLayout()  # Skip Silence and Voice Boost, on or off (show_toggles)
        top = QHBoxLayout()
        top.setSpacing(12)
        top.addWidget(self.title, 1)
        top.addWidget(self.status.state)
        top.addWidget(self.sleep)
        top.addLayout(self.toggles)
        self._controls = controls = QHBoxLayout()
        controls.addWidget(self.play_button)
        controls.addWidget(self.elapsed)
        controls.addWidget(self.slider, 1)
        controls.addWidget(self.remaining)
        controls.addWidget(self.speed)
        controls.addWidget(self.volume)
        controls.addWidget(self.volume_slider)
        outer = QHBoxLayout(self)
        outer.setContentsMargins(8, 4, 8, 6)
        outer.addWidget(self.cover)
        layout = QVBoxLayout()
        outer.addLayout(layout, 1)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self.chapter)
        layout.addWidget(self.status)
        layout.addLayout(controls)

        player.state_changed.connect(self._on_state)
        player.position_changed.connect(self._on_position)
        player.duration_changed.connect(self._on_duration)
        player.rate_changed.connect(self.show_speed)
        player.volume_changed.connect(self._on_volume)
        self._on_state(str(player.state))
        self._on_volume(player.volume(), player.muted())

    def show_toggles(self, actions: list[QAction]) -> None:
        """A check box for each checkable action, beside the state: it reads as a switch, on or off, and turns
        the action on or off (the action's own changes show in it)."""
        for action in actions:
            box = QCheckBox(action.text().replace("&", ""))
            box.setAccessibleName(box.text())
            box.setObjectName(f"toggle_{action.objectName()}")
            box.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            box.setToolTip(tool_tip(action))
            box.setChecked(action.isChecked())
            box.clicked.connect(lambda _checked, action=action: action.trigger())
            action.toggled.connect(box.setChecked)
            self.toggles.addWidget(box)

    def show_speed(self, rate: float) -> None:
        """Show ``rate`` in the speed box (added to the choices if it is not one of them)."""
        index = self.speed.findData(rate)
        if index < 0:
            self.speed.addItem(f"{rate:g}×", rate)
            index = self.speed.count() - 1
        self.speed.setCurrentIndex(index)
        self._on_position(self._player.position())

    def _on_speed_chosen(self, index: int) -> None:
        rate = float(self.speed.itemData(index))
        self._player.set_rate(rate)
        self.speed_chosen.emit(rate)

    def set_title(self, title: str) -> None:
        """Show what is loaded."""
        self.title.setText(title)
        self.title.setToolTip(title)

    def show_cover(self, cover: QPixmap | None, name: str = "") -> None:
        """Show the cover of what plays (None hides it); ``name`` is what a screen reader says of it."""
        if cover is None:
            self.cover.hide()
            return
        self.cover.setPixmap(cover)
        self.cover.setAccessibleName(f"Cover of {name}" if name else "Cover")
        self.cover.show()

    def show_chapter(self, chapters: list[Chapter], index: int) -> None:
        """Show the chapter playing ("Chapter 2/7: Title", "· made by Earmark" after chapters it made from the
        transcript), or nothing."""
        if not 0 <= index < len(chapters):
            self.chapter.hide()
            return
        made = " · made by Earmark" if chapters[index].source == "made" else ""
        self.chapter.setText(f"Chapter {index + 1}/{len(chapters)}: {chapters[index].title}{made}")
        self.chapter.show()

    @Slot(str)
    def show_sleep(self, text: str) -> None:
        """Show the sleep timer's state ("" hides it)."""
        self.sleep.setText(f"☾ {text}" if text else "")
        self.sleep.setVisible(bool(text))

    def use_actions(self, back: QAction, forward: QAction, next_up: QAction) -> None:
        """Buttons for the window's actions (back 10 s and forward 10 s beside play/pause, next in Up next after
        them), each named and with its shortcut in its tooltip."""
        for at, (name, action, icon) in enumerate((
                ("back", back, QStyle.StandardPixmap.SP_MediaSeekBackward),
                ("forward", forward, QStyle.StandardPixmap.SP_MediaSeekForward),
                ("next", next_up, QStyle.StandardPixmap.SP_MediaSkipForward))):
            button = QToolButton()
            button.setObjectName(f"player{name.title()}")
            button.setDefaultAction(action)
            button.setIcon(tinted_icon(icon))
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setAccessibleName(action.text().replace("&", ""))
            button.setToolTip(tool_tip(action))
            self._controls.insertWidget((0, 2, 3)[at], button)
            self.buttons[name] = button

    @Slot(int, bool)
    def _on_volume(self, percent: int, muted: bool) -> None:
        self.volume.setText("Muted" if muted else f"Vol {percent}%")
        self.volume_slider.blockSignals(True)
        self.volume_slider.setValue(percent)
        self.volume_slider.blockSignals(False)

    def _on_volume_moved(self, percent: int) -> None:
        self._player.set_volume(percent)
        self.volume_chosen.emit(percent)

    @Slot(str)
    def _on_state(self, state: str) -> None:
        playing = state in (PlayerState.PLAYING, PlayerState.LOADING)
        icon = QStyle.StandardPixmap.SP_MediaPause if playing else QStyle.StandardPixmap.SP_MediaPlay
        self.play_button.setIcon(tinted_icon(icon))
        self.play_button.setToolTip("Pause (Space, K)" if playing else "Play (Space, K)")
        self.slider.setEnabled(state in (PlayerState.PLAYING, PlayerState.PAUSED))
        if state == PlayerState.ENDED and (duration := self._player.duration()):
            self._on_position(duration)  # played to its end: not the last position reported before it

    @Slot(float)
    def _on_duration(self, seconds: float) -> None:
        self.slider.setRange(0, int(seconds * 10))
        self._on_position(self._player.position())

    @Slot(float)
    def _on_position(self, seconds: float) -> None:
        duration = self._player.duration()
        self.elapsed.setText(format_clock(seconds))
        left = max(0.0, duration - seconds) if duration else None
        if left is not None and self.time_left_at_speed:
            left /= self._player.rate()
        self.remaining.setText("" if left is None else "-" + format_clock(left))
        if not self._dragging:
            self.slider.setValue(int(seconds * 10))

    def _on_pressed(self) -> None:
        self._dragging = True

    def _on_released(self) -> None:
        self._dragging = False
        self._player.seek(self.slider.value() / 10)


def tool_tip(action: QAction) -> str:
    """An action's text with its shortcuts: "Back 10 Seconds (J, Left)"."""
    keys = ", ".join(key.toString() for key in action.shortcuts())
    return action.text().replace("&", "") + (f" ({keys})" if keys else "")


def player_tool_bar(bar: PlayerBar) -> QToolBar:
    """A fixed tool bar holding ``bar``, for the bottom edge of a main window (beneath the docks too)."""
    tools = QToolBar("Player")
    tools.setObjectName("playerToolBar")
    tools.setMovable(False)
    tools.setFloatable(False)
    tools.toggleViewAction().setVisible(False)  # the player is not something to lose from the window
    tools.addWidget(bar)
    for more in tools.findChildren(QToolButton, "qt_toolbar_ext_button"):  # Qt's », shown when the bar is cut
        more.setAccessibleName("More player controls")
        more.setAccessibleDescription("Shows the player controls the window is too narrow for")
    bar.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
    return tools
