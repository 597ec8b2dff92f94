"""Take every screenshot of the docs (docs/screenshots/VIEW-THEME.png) from the real window on a real X server.

    .venv/bin/python docs/screenshots/take_screenshots.py [--out FOLDER] [--theme light|dark]

Starts Xvfb (``-displayfd``: a free display, whoever else runs one) with a 1280×800 screen, then for each theme
starts the app's window in a process of its own on the sample library (with a podcast whose episodes have
chapters, a highlight in an article, Up next filled and a feed that fails), walks it as a person would (the
window's own actions and keys) and grabs the screen at each view: welcome, list, playing with chapters, reader
with a highlight, graph, learning path, all notes, subscriptions with a failing feed, My Podcasts (covers and
placeholders), settings, the shortcuts overlay. Needs Xvfb and sox (packaging/install-system-deps installs both).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
WIDTH, HEIGHT = 1280, 800
THEMES = ("light", "dark")
ARTICLE = "PyTorch Shanghai Meetup Notes"
CHAPTERED = "A tour of podcast chapters"
FAILING_FEED = "http://127.0.0.1:9/retired-show.xml"  # port 9 (discard): nothing answers there


# The outer process: Xvfb, then one window process per theme ----------------------------------------------------

def start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    """A private X server of WIDTH×HEIGHT and its display name."""
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", f"{WIDTH}x{HEIGHT}x24", "-nolisten",
                               "tcp"], pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        server.kill()
        raise SystemExit("Xvfb did not start")
    return server, f":{number}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="where the PNG files go (default: beside this script)")
    parser.add_argument("--theme", choices=THEMES, action="append", help="only this theme (repeatable)")
    parser.add_argument("--window", choices=THEMES, help=argparse.SUPPRESS)  # the window process, per theme
    parser.add_argument("--demo", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.window:
        return shoot(args.window, args.out, args.demo)
    sys.path.insert(0, str(HERE))
    from make_playback import demo_feed  # the chaptered podcast the player screenshots use (sox)

    server, display = start_xvfb()
    try:
        with tempfile.TemporaryDirectory(prefix="earmark-shots-") as work:
            feed = demo_feed(Path(work))
            for theme in args.theme or THEMES:
                env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb",
                       "EARMARK_CONFIG": str(Path(work) / f"{theme}.conf"),
                       "EARMARK_COVERS": str(Path(work) / "covers")}  # the sample's covers, not the user's cache
                env.pop("WAYLAND_DISPLAY", None)
                subprocess.run([sys.executable, __file__, "--window", theme, "--out", str(args.out), "--demo",
                                str(feed)], env=env, check=True, timeout=300)
    finally:
        server.terminate()
        server.wait()
    return 0


# The window process ------------------------------------------------------------------------------------------

def shoot(theme: str, out: Path, demo: Path) -> int:
    """Walk the window in ``theme`` and save each view as out/VIEW-THEME.png."""
    from PySide6.QtGui import QGuiApplication

    from earmark.gui.application import application
    from earmark.gui.preferences import DesktopSettings

    DesktopSettings().set_value("appearance.theme", theme)
    application()
    work = Path(tempfile.mkdtemp(prefix="earmark-window-"))

    def save(view: str) -> None:
        settle(0.6)
        QGuiApplication.primaryScreen().grabWindow(0).save(str(out / f"{view}-{theme}.png"))
        print(f"wrote {out / f'{view}-{theme}.png'}", flush=True)

    window = open_window(work / "empty.db")
    save("welcome")
    window.close()
    window = open_window(sample_library(work / "library.db", demo))
    walk(window, save)
    window.close()
    return 0


def sample_library(library: Path, demo: Path) -> Path:
    """The sample library, the chaptered podcast, a highlight with its note, Up next and a failing feed."""
    from earmark.core.articles.highlights import highlight_text
    from earmark.core.db.connection import open_library
    from earmark.core.db.filters import ItemFilter
    from earmark.core.db.items import list_items
    from earmark.core.db.queue import enqueue
    from earmark.core.db.sources import record_failure
    from earmark.core.feeds.subscribe import subscribe
    from earmark.core.feeds.subscriptions import record_subscription
    from earmark.core.sample import load_sample
    from earmark.core.settings import set_setting

    db = open_library(library)
    load_sample(db)
    subscribe(db, str(demo))
    article = next(i for i in list_items(db, ItemFilter(kind="article")) if i.title == ARTICLE)
    highlight_text(db, article.id, "Senior PyTorch developers from Intel and Huawei spoke about their experience",
                   "Ask them about the XPU backend.")
    episodes = [i.id for i in list_items(db, ItemFilter(kind="episode"))]
    enqueue(db, episodes[2:7])
    record_subscription(db, FAILING_FEED, "Retired Show")
    record_failure(db, FAILING_FEED, f"{FAILING_FEED} could not be reached: the connection was refused.")
    set_setting(db, "feeds.refresh_on_start", False)
    set_setting(db, "backups.keep", 0)  # no "Backed up the library to /tmp/…" in the pictures' status bar
    db.close()
    return library


def open_window(library: Path):  # noqa: ANN201 - a MainWindow (imported late: the outer process has no Qt)
    """The app's window on ``library``, at the screen's size."""
    from earmark.gui.application import build

    window = build(library, vlc_args=("--aout=dummy",)).window
    window.move(0, 0)
    window.resize(WIDTH, HEIGHT)
    window.show()
    window.activateWindow()
    until(lambda: window.sidebar_model.rowCount() > 0)
    settle(1.0)
    return window


def walk(window, save: Callable[[str], None]) -> None:  # noqa: ANN001 - a MainWindow
    """Each view in turn, reached as a person does."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from earmark.playback.player import PlayerState

    def row_of(title: str) -> int:
        model = window.item_list.model()
        return next(r for r in range(model.rowCount()) if model.index(r, 0).data() == title)

    def select(title: str) -> None:
        window.item_list.setFocus()
        window.item_list.selectRow(row_of(title))
        settle(0.3)

    def key(key: Qt.Key, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
        QTest.keyClick(window.focusWidget() or window, key, modifiers)

    until(lambda: window.item_list.model().rowCount() > 50)
    select("Inductor - IR")
    save("list")
    select(CHAPTERED)
    key(Qt.Key.Key_Return)  # plays it
    session = window.session
    until(lambda: session.player.state == PlayerState.PLAYING and len(session.chapters) == 5)
    session.player.seek(1005.0)
    window.menu_actions.sleep_30.trigger()
    save("playing")
    session.player.pause()
    select(ARTICLE)
    key(Qt.Key.Key_Return)  # opens the reader
    settle(1.5)
    save("reader")
    key(Qt.Key.Key_Escape)
    window.menu_actions.show_graph.trigger()
    settle(4.0)  # the layout is worked out in the background
    window.menu_actions.fit_graph.trigger()  # every node in view, as the Fit button does
    save("graph")
    key(Qt.Key.Key_Escape)
    select("Min-cut partitioner")  # a path whose steps name the concepts they explain
    window.menu_actions.show_learning_path.trigger()
    settle(3.0)
    window.menu_actions.fit_graph.trigger()
    save("learning-path")
    key(Qt.Key.Key_Escape)
    window.menu_actions.show_notes.trigger()
    save("notes")
    window.menu_actions.show_subscriptions.trigger()
    save("subscriptions")
    key(Qt.Key.Key_Escape)
    window.menu_actions.show_podcasts.trigger()  # My Podcasts: covers, placeholders, unplayed counts
    settle(1.5)
    save("podcasts")
    key(Qt.Key.Key_Escape)
    window.menu_actions.show_settings.trigger()
    save("settings")
    close_dialogs()
    window.menu_actions.cheat_sheet.trigger()
    save("shortcuts")
    close_dialogs()


def close_dialogs() -> None:
    from PySide6.QtWidgets import QApplication, QDialog

    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, QDialog) and widget.isVisible():
            widget.reject()
    settle(0.3)


def settle(seconds: float) -> None:
    until(lambda: False, seconds, fail=False)


def until(condition: Callable[[], bool], seconds: float = 20.0, fail: bool = True) -> None:
    """Run the event loop until ``condition()`` holds (or ``seconds`` pass)."""
    from PySide6.QtCore import QCoreApplication, QEventLoop

    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            if fail:
                raise TimeoutError("the window did not get there")
            return
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
        time.sleep(0.01)


if __name__ == "__main__":
    sys.exit(main())
