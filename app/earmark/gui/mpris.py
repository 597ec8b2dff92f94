"""MPRIS 2 on the D-Bus session bus, so media keys and the desktop's media controls show and drive Earmark."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import ClassInfo, Property, QObject, Signal, Slot
from PySide6.QtDBus import QDBusAbstractAdaptor, QDBusConnection, QDBusMessage, QDBusObjectPath
from PySide6.QtWidgets import QWidget

from earmark.core.artwork import cached_artwork
from earmark.core.errors import EarmarkError
from earmark.playback.player import MAX_RATE, MIN_RATE, PlayerState
from earmark.playback.progress import PlaybackSession

log = logging.getLogger(__name__)
SERVICE = "org.mpris.MediaPlayer2.earmark"
PATH = "/org/mpris/MediaPlayer2"
PLAYER_INTERFACE = "org.mpris.MediaPlayer2.Player"
MICRO = 1_000_000


class Stepper(Protocol):
    """Something that plays the next (1) or previous (-1) episode: the queue."""

    def step(self, direction: int) -> None:
        """Play the episode ``direction`` places away."""


_STATUS = {PlayerState.PLAYING: "Playing", PlayerState.PAUSED: "Paused", PlayerState.LOADING: "Playing"}


@ClassInfo({"D-Bus Interface": "org.mpris.MediaPlayer2"})  # type: ignore[call-arg]  # PySide stub: ClassInfo takes a dict
class RootAdaptor(QDBusAbstractAdaptor):  # type: ignore[operator]  # PySide stub: ClassInfo decorates
    """org.mpris.MediaPlayer2: who we are; Raise shows the window, Quit closes it."""

    def __init__(self, holder: QObject, window: QWidget) -> None:
        super().__init__(holder)
        self._window = window

    @Property(str)
    def Identity(self) -> str:
        return "Earmark"

    @Property(str)
    def DesktopEntry(self) -> str:
        return "earmark"

    @Property(bool)
    def CanQuit(self) -> bool:
        return True

    @Property(bool)
    def CanRaise(self) -> bool:
        return True

    @Property(bool)
    def HasTrackList(self) -> bool:
        return False

    @Property("QStringList")  # type: ignore[arg-type]  # a Qt type name: D-Bus "as"
    def SupportedUriSchemes(self) -> list[str]:
        return []

    @Property("QStringList")  # type: ignore[arg-type]  # a Qt type name: D-Bus "as"
    def SupportedMimeTypes(self) -> list[str]:
        return []

    @Slot()
    def Raise(self) -> None:
        self._window.show()
        self._window.raise_()
        self._window.activateWindow()

    @Slot()
    def Quit(self) -> None:
        getattr(self._window, "quit_earmark", self._window.close)()  # for good, not into the tray


@ClassInfo({"D-Bus Interface": PLAYER_INTERFACE})  # type: ignore[call-arg]  # PySide stub: ClassInfo takes a dict
class PlayerAdaptor(QDBusAbstractAdaptor):  # type: ignore[operator]  # PySide stub: ClassInfo decorates
    """org.mpris.MediaPlayer2.Player over a PlaybackSession. Positions are in microseconds.

    Signal (D-Bus): ``Seeked(x)`` after every seek.
    """

    Seeked = Signal("qlonglong")  # type: ignore[arg-type]  # a Qt type name: D-Bus "x"

    def __init__(self, holder: QObject, session: PlaybackSession, step: Stepper) -> None:
        super().__init__(holder)
        self._session = session
        self._player = session.player
        self._step = step
        self.art: str | None = None  # the file:// address of the playing item's cover, once cached
        self.stopped = False  # Stop pauses (the place is kept) and says "Stopped" until playing again
        self.status_changed: Callable[[], None] = lambda: None  # announces PlaybackStatus (set by Mpris)
        self.setAutoRelaySignals(True)

    @Property(str)
    def PlaybackStatus(self) -> str:
        if self.stopped and self._player.state != PlayerState.PLAYING:
            return "Stopped"
        return _STATUS.get(self._player.state, "Stopped")

    @Property("QVariantMap")  # type: ignore[arg-type]  # a Qt type name: D-Bus "a{sv}"
    def Metadata(self) -> dict[str, object]:
        item = self._session.item
        if item is None:
            return {"mpris:trackid": QDBusObjectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack")}
        metadata: dict[str, object] = {
            "mpris:trackid": QDBusObjectPath(f"/org/earmark/item/{item.id}"),
            "xesam:title": item.title,
            "xesam:album": item.source or "",
            "xesam:artist": [item.source or ""],
        }
        duration = self._player.duration() or item.duration
        if duration:
            metadata["mpris:length"] = int(duration * MICRO)
        if item.enclosure_url:
            metadata["xesam:url"] = item.enclosure_url
        if self.art:
            metadata["mpris:artUrl"] = self.art
        return metadata

    @Property("qlonglong")  # type: ignore[arg-type]  # a Qt type name: D-Bus "x"
    def Position(self) -> int:
        return int(self._player.position() * MICRO)

    def _get_rate(self) -> float:
        return self._player.rate()

    def _set_rate(self, rate: float) -> None:
        self._player.set_rate(rate)

    Rate = Property(float, _get_rate, _set_rate)

    def _get_volume(self) -> float:
        return self._player.volume() / 100.0

    def _set_volume(self, volume: float) -> None:
        self._player.set_volume(round(volume * 100))

    Volume = Property(float, _get_volume, _set_volume)

    @Property(float)
    def MinimumRate(self) -> float:
        return MIN_RATE

    @Property(float)
    def MaximumRate(self) -> float:
        return MAX_RATE

    @Property(bool)
    def CanGoNext(self) -> bool:
        return True

    @Property(bool)
    def CanGoPrevious(self) -> bool:
        return True

    @Property(bool)
    def CanPlay(self) -> bool:
        return self._player.uri is not None

    @Property(bool)
    def CanPause(self) -> bool:
        return self._player.uri is not None

    @Property(bool)
    def CanSeek(self) -> bool:
        return self._player.uri is not None

    @Property(bool)
    def CanControl(self) -> bool:
        return True

    @Slot()
    def Play(self) -> None:
        if self._player.state != PlayerState.PLAYING:
            self._player.play()

    @Slot()
    def Pause(self) -> None:
        self._player.pause()

    @Slot()
    def PlayPause(self) -> None:
        self._player.toggle()

    @Slot()
    def Stop(self) -> None:
        self.stopped = True
        if self._player.state == PlayerState.PAUSED:
            self.status_changed()  # pausing a paused player announces nothing
        self._player.pause()

    @Slot()
    def Next(self) -> None:
        self._step.step(1)

    @Slot()
    def Previous(self) -> None:
        self._step.step(-1)

    @Slot("qlonglong")
    def Seek(self, offset: int) -> None:
        self._player.skip(offset / MICRO)

    @Slot(QDBusObjectPath, "qlonglong")
    def SetPosition(self, track: QDBusObjectPath, position: int) -> None:
        item = self._session.item
        if item is not None and track.path() == f"/org/earmark/item/{item.id}" and position >= 0:
            self._player.seek(position / MICRO)


class Mpris(QObject):
    """Registers Earmark as an MPRIS player on ``bus`` (the session bus by default) and announces changes
    with PropertiesChanged. Does nothing when no bus is reachable. ``artwork`` gives an item's image address;
    the image is fetched once into the cache (off the UI thread) and shown as ``mpris:artUrl``."""

    _art_cached = Signal(int, str)  # item id, file:// address (from the fetching thread)

    def __init__(self, session: PlaybackSession, window: QWidget, step: Stepper,
                 bus: QDBusConnection | None = None, parent: QObject | None = None, *,
                 artwork: Callable[[int], str | None] = lambda _item_id: None) -> None:
        super().__init__(parent)
        self._bus = bus if bus is not None else QDBusConnection.sessionBus()
        self._session = session
        self._artwork = artwork
        self._art_cached.connect(self._on_art_cached)
        self.root = RootAdaptor(self, window)
        self.player = PlayerAdaptor(self, session, step)
        self.player.status_changed = lambda: self._changed(["PlaybackStatus"])
        self.registered = False
        if not self._bus.isConnected():
            return
        if not self._bus.registerObject(PATH, self, QDBusConnection.RegisterOption.ExportAdaptors):
            log.warning("MPRIS: could not register %s: %s", PATH, self._bus.lastError().message())
            return
        if not self._bus.registerService(SERVICE):
            log.info("MPRIS: %s is taken (another Earmark runs)", SERVICE)
            self._bus.unregisterObject(PATH)
            return
        self.registered = True
        player = session.player
        player.state_changed.connect(lambda _state: self._changed(["PlaybackStatus", "CanPlay", "CanPause",
                                                                   "CanSeek"]))
        player.rate_changed.connect(lambda _rate: self._changed(["Rate"]))
        player.volume_changed.connect(lambda _volume, _muted: self._changed(["Volume"]))
        player.duration_changed.connect(lambda _duration: self._changed(["Metadata"]))
        session.item_changed.connect(self._on_item_changed)
        player.state_changed.connect(self._on_state)
        player.seeked.connect(lambda seconds: self.player.Seeked.emit(int(seconds * MICRO)))

    def _on_state(self, state: str) -> None:
        if state == PlayerState.PLAYING and self.player.stopped:
            self.player.stopped = False
            self._changed(["PlaybackStatus"])

    def _on_item_changed(self, item_id: int) -> None:
        self.player.art = None
        self._changed(["Metadata"])
        url = self._artwork(item_id) if item_id else None
        if url:
            threading.Thread(target=self._cache_art, args=(item_id, url), daemon=True,
                             name="mpris-artwork").start()

    def _cache_art(self, item_id: int, url: str) -> None:
        """Fetch the cover into the cache (a thread of its own: covers are small, plays are rare)."""
        try:
            self._art_cached.emit(item_id, cached_artwork(url).as_uri())
        except EarmarkError as exc:
            log.info("MPRIS: no cover art: %s", exc)

    @Slot(int, str)
    def _on_art_cached(self, item_id: int, uri: str) -> None:
        item = self._session.item
        if item is not None and item.id == item_id:
            self.player.art = uri
            self._changed(["Metadata"])

    def _changed(self, names: list[str]) -> None:
        values = {name: getattr(self.player, name) for name in names}
        message = QDBusMessage.createSignal(PATH, "org.freedesktop.DBus.Properties", "PropertiesChanged")
        message.setArguments([PLAYER_INTERFACE, values, []])
        self._bus.send(message)

    def unregister(self) -> None:
        """Leave the bus (on quit)."""
        if self.registered:
            self._bus.unregisterService(SERVICE)
            self._bus.unregisterObject(PATH)
            self.registered = False
