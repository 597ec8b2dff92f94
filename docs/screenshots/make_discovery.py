"""Add Podcast's screenshots: a search's results (find-THEME.png) and a podcast's preview (find-preview-THEME.png).

    .venv/bin/python docs/screenshots/make_discovery.py [--out FOLDER] [--theme light|dark]

The directories are the tests' local server (tests/helpers/directory_server.py) and the previewed feed is the
sample podcast's, served on 127.0.0.1: nothing is asked of the real services. Xvfb as in take_screenshots.py.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlsplit

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1] / "tests")]

from take_screenshots import HEIGHT, THEMES, WIDTH, settle, start_xvfb, until  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("--theme", choices=THEMES, action="append")
    parser.add_argument("--window", choices=THEMES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.window:
        return shoot(args.window, args.out)
    server, display = start_xvfb()
    try:
        with tempfile.TemporaryDirectory(prefix="earmark-shots-") as work:
            for theme in args.theme or THEMES:
                env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb",
                       "EARMARK_CONFIG": str(Path(work) / f"{theme}.conf")}
                env.pop("WAYLAND_DISPLAY", None)
                subprocess.run([sys.executable, __file__, "--window", theme, "--out", str(args.out)], env=env,
                               check=True, timeout=300)
    finally:
        server.terminate()
        server.wait()
    return 0


def shoot(theme: str, out: Path) -> int:
    """Search for "pytorch" in Add Podcast, then preview the first podcast found."""
    from PySide6.QtGui import QGuiApplication

    from earmark.core.db.connection import open_library
    from earmark.core.sample import FEED_COVER, read_sample
    from earmark.core.settings import set_setting
    from earmark.gui.application import application, build
    from earmark.gui.models.directory_results import RESULT_COVER
    from earmark.gui.preferences import DesktopSettings
    from earmark.gui.views.podcast_preview import PREVIEW_COVER
    from helpers.directory_server import DirectoryServer
    from helpers.feed_server import FeedServer

    DesktopSettings().set_value("appearance.theme", theme)
    application()
    sample = Path(unquote(urlsplit(read_sample().feed_url).path))
    work = Path(tempfile.mkdtemp(prefix="earmark-window-"))
    with FeedServer(sample.parent) as feeds, DirectoryServer(catalogue(feeds.url(sample.name), feeds.url(
            f"covers/{FEED_COVER}"))) as directories:
        db = open_library(work / "library.db")
        for key, value in {**directories.settings(), "directory.gpodder": True, "directory.fyyd": True,
                           "feeds.refresh_on_start": False, "backups.keep": 0}.items():
            set_setting(db, key, value)
        db.close()
        window = build(work / "library.db", vlc_args=("--aout=dummy",)).window
        window.move(0, 0)
        window.resize(WIDTH, HEIGHT)
        window.show()
        window.activateWindow()
        settle(1.0)
        window.subscribing.add_podcast()
        dialog = window.subscribing.discovery.dialog
        until(lambda: "Searches go to" in dialog.services.text())
        dialog.field.setText("pytorch")
        dialog.field.returnPressed.emit()
        until(lambda: "found" in dialog.message.text() and "Asking" not in dialog.message.text())
        covers = window.covers.cache
        until(lambda: covers.has(dialog.model.results[0].image, RESULT_COVER))  # the others: their initials
        dialog.results.setFocus()
        dialog.results.setCurrentIndex(dialog.model.index(0))
        save(QGuiApplication, out / f"find-{theme}.png")
        dialog.results.activated.emit(dialog.model.index(0))
        until(lambda: dialog.preview.episodes.rowCount() > 0)
        until(lambda: covers.has(dialog.model.results[0].image, PREVIEW_COVER))
        save(QGuiApplication, out / f"find-preview-{theme}.png")
    return 0


def save(gui: type, path: Path) -> None:
    settle(0.6)
    gui.primaryScreen().grabWindow(0).save(str(path))  # type: ignore[attr-defined]
    print(f"wrote {path}", flush=True)


def catalogue(sample_feed: str, sample_cover: str) -> list:
    """What the directories list: the sample podcast (previewed, with its cover) and a few more (none)."""
    from helpers.directory_server import Listing

    return [
        Listing("PyTorch Developer Podcast", sample_feed, author="Edward Yang, Team PyTorch", episodes=83,
                itunes_id=1566080008, description="Short episodes on the internals of PyTorch.", image=sample_cover),
        Listing("PyTorch Lightning Talks", "https://talks.example.org/lightning.xml", author="Lightning Community",
                episodes=24, latest=1709290800, only_in=("gpodder", "fyyd")),
        Listing("Tensors and Tea", "https://tea.example.net/feed", author="A. Reader", episodes=131,
                latest=1714989600, description="PyTorch and JAX tips over a cup of tea."),
        Listing("Compilers for Machine Learning (PyTorch 2)", "https://ml-compilers.example.com/rss",
                author="Graph Capture Collective", episodes=12, latest=1701428400, only_in=("apple",)),
    ]


if __name__ == "__main__":
    sys.exit(main())
