"""Playback benchmark: Enter on an episode to VLC reporting Playing (local file), seek latency, and the CPU the
process uses while playing. The real main window runs offscreen on a fresh library; VLC plays to a dummy
audio output. Prints figures; asserts nothing."""

from __future__ import annotations

import argparse
import math
import os
import resource
import statistics
import struct
import sys
import tempfile
import time
import wave
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("EARMARK_VLC_ARGS", "--aout=dummy")

from PySide6.QtCore import QCoreApplication, QEventLoop, Qt, QTimer  # noqa: E402 - after the platform is chosen
from PySide6.QtTest import QTest  # noqa: E402

from earmark.core.db.connection import open_library  # noqa: E402
from earmark.core.feeds.subscribe import subscribe  # noqa: E402
from earmark.core.settings import set_setting  # noqa: E402
from earmark.gui.application import Parts, application, build  # noqa: E402
from earmark.playback.player import PlayerState  # noqa: E402
from earmark.playback.vlc_player import VlcPlayer  # noqa: E402

RATE = 22050


def write_wav(path: Path, seconds: float) -> None:
    """A 16-bit mono sine tone (a spoken-word episode's bitrate is of the same order)."""
    frame = [struct.pack("<h", int(6000 * math.sin(2 * math.pi * 220 * i / RATE))) for i in range(RATE)]
    second = b"".join(frame)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        for _ in range(int(seconds)):
            out.writeframes(second)


def make_library(folder: Path, episodes: int, seconds: float) -> Path:
    """A library with one podcast of ``episodes`` local WAV episodes."""
    items = []
    for number in range(episodes):
        audio = folder / f"episode-{number}.wav"
        write_wav(audio, seconds)
        items.append(f"<item><title>Episode {number}</title><guid>bench-{number}</guid>"
                     f"<pubDate>Mon, {20 - number % 20:02d} May 2024 10:00:00 +0000</pubDate>"
                     f'<enclosure url="{audio.name}" type="audio/wav" length="{audio.stat().st_size}"/></item>')
    feed = folder / "feed.xml"
    feed.write_text('<?xml version="1.0"?><rss version="2.0"><channel><title>Bench Cast</title>'
                    f"<link>https://example.invalid/</link><description>d</description>{''.join(items)}"
                    "</channel></rss>", encoding="utf-8")
    library = folder / "library.db"
    db = open_library(library)
    subscribe(db, str(feed))
    set_setting(db, "feeds.refresh_on_start", False)
    db.close()
    return library


def wait_for(condition: Callable[[], bool], timeout: float = 15.0) -> float:
    """Spin the event loop until ``condition()``; returns the seconds it took."""
    start = time.perf_counter()
    while not condition():
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 1)
        if time.perf_counter() - start > timeout:
            raise TimeoutError("the player did not get there in time")
    return time.perf_counter() - start


def enter_to_playing(parts: Parts, row: int) -> float:
    """Press Enter on ``row`` and time it until the player reports Playing (VLC's event, marshalled)."""
    window, player = parts.window, parts.session.player
    window.item_list.setCurrentIndex(window.items_model.index(row, 0))
    window.item_list.setFocus()
    start = time.perf_counter()
    QTest.keyClick(window.item_list, Qt.Key.Key_Return)
    wait_for(lambda: player.state == PlayerState.PLAYING)
    return time.perf_counter() - start


def seek_latency(player: VlcPlayer, target: float) -> float:
    """Seconds from seek() until VLC plays from there: its own clock (which jumps to the target at once) moves on
    past the target, so audio is being decoded from the new place."""
    start = time.perf_counter()
    player.seek(target)
    wait_for(lambda: target + 0.001 < player._player.get_time() / 1000 < target + 1.0)  # VLC's clock, not ours
    return time.perf_counter() - start


def run_event_loop(seconds: float) -> None:
    """Let the app run (event-driven, no polling) for ``seconds``."""
    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    loop.exec()


def cpu_while_playing(seconds: float) -> float:
    """Percent of one core this process used over ``seconds`` (the event loop running, nothing polling)."""
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    run_event_loop(seconds)
    after = resource.getrusage(resource.RUSAGE_SELF)
    wall = time.perf_counter() - start
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return 100.0 * used / wall


def idle_cpu(seconds: float) -> float:
    """The same measure with nothing playing, for comparison."""
    return cpu_while_playing(seconds)


def summary(values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return f"median {statistics.median(ms):6.1f} ms, min {min(ms):6.1f} ms, max {max(ms):6.1f} ms (n={len(ms)})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10, help="Enter-to-Playing runs after the first (default 10)")
    parser.add_argument("--seeks", type=int, default=20, help="seeks to time (default 20)")
    parser.add_argument("--cpu-seconds", type=float, default=10.0, help="seconds of playback to measure CPU over")
    args = parser.parse_args(argv)
    app = application()
    with tempfile.TemporaryDirectory(prefix="earmark-bench-") as tmp:
        library = make_library(Path(tmp), episodes=args.runs + 1, seconds=120)
        parts = build(library)
        window, player = parts.window, parts.session.player
        assert isinstance(player, VlcPlayer)
        window.show()
        wait_for(lambda: window.items_model.rowCount() == args.runs + 1)
        print(f"python    {sys.executable} ({sys.version.split()[0]}), QT_QPA_PLATFORM={os.environ['QT_QPA_PLATFORM']}")
        print(f"media     {args.runs + 1} local WAV episodes of 120 s (22.05 kHz mono); VLC audio to a dummy output")
        idle = idle_cpu(min(3.0, args.cpu_seconds))
        first = enter_to_playing(parts, 0)
        warm = [enter_to_playing(parts, row) for row in range(1, args.runs + 1)]
        print(f"Enter → Playing, first play (loads libVLC): {first * 1000:6.1f} ms")
        print(f"Enter → Playing, next episodes:             {summary(warm)}")
        targets = [(17.0 * n) % 110 + 2.0 for n in range(1, args.seeks + 1)]
        seeks = [seek_latency(player, target) for target in targets]
        print(f"seek latency (seek() → VLC's clock moving on from the target): {summary(seeks)}")
        player.seek(0.0)
        run_event_loop(1.0)
        playing = cpu_while_playing(args.cpu_seconds)
        print(f"CPU while playing at 1×: {playing:5.1f} % of one core over {args.cpu_seconds:g} s "
              f"(idle window: {idle:4.1f} %)")
        player.set_rate(2.0)
        fast = cpu_while_playing(args.cpu_seconds / 2)
        print(f"CPU while playing at 2×: {fast:5.1f} % of one core over {args.cpu_seconds / 2:g} s")
        window.close()
    app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main())
