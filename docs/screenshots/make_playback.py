"""Take docs/screenshots/player-queue.png and command-palette.png from the real window (run under Xvfb):

    xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python docs/screenshots/make_playback.py

Needs sox (chaptered FLAC episodes). Uses a fresh library in a temporary folder: the sample library plus a small
demo podcast whose episodes carry chapters.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QItemSelectionModel
from PySide6.QtGui import QGuiApplication
from take_screenshots import settle, until

from earmark.core.db.connection import open_library
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import list_items
from earmark.core.db.queue import enqueue
from earmark.core.feeds.subscribe import subscribe
from earmark.core.sample import load_sample
from earmark.core.settings import set_setting
from earmark.gui.application import application, build
from earmark.playback.player import PlayerState

OUT = Path(__file__).resolve().parent
CHAPTERS = [(0, "Cold open"), (95, "Why chapters matter"), (410, "Listener questions"), (980, "Keyboard habits"),
            (1500, "What's next")]


def chaptered_episode(path: Path, seconds: int) -> None:
    comments = []
    for number, (start, title) in enumerate(CHAPTERS, start=1):
        clock = f"{start // 3600:02d}:{start % 3600 // 60:02d}:{start % 60:02d}.000"
        comments += ["--add-comment", f"CHAPTER{number:03d}={clock}",
                     "--add-comment", f"CHAPTER{number:03d}NAME={title}"]
    subprocess.run(["sox", "-n", "-r", "8000", "-c", "1", *comments, str(path), "synth", str(seconds), "sine", "300",
                    "vol", "0.2"], check=True)


def demo_feed(folder: Path) -> Path:
    titles = ["Listening at speed without losing the thread", "A tour of podcast chapters"]
    items = []
    for number, title in enumerate(titles):
        audio = folder / f"demo-{number}.flac"
        chaptered_episode(audio, 1800)
        items.append(f"<item><title>{title}</title><guid>demo-{number}</guid>"
                     f"<pubDate>Mon, {25 - number:02d} Nov 2024 10:00:00 +0000</pubDate>"
                     "<description>How we listen: speed, chapters, and a queue that keeps going.</description>"
                     f'<enclosure url="{audio.name}" type="audio/flac" length="{audio.stat().st_size}"/></item>')
    feed = folder / "demo.xml"
    feed.write_text('<?xml version="1.0"?><rss version="2.0"><channel><title>Earmark Demo Hour</title>'
                    "<link>https://example.invalid/</link><description>Demo</description>"
                    f"{''.join(items)}</channel></rss>", encoding="utf-8")
    return feed


def main() -> int:
    application()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        library = folder / "library.db"
        db = open_library(library)
        load_sample(db)
        subscribe(db, str(demo_feed(folder)))
        set_setting(db, "feeds.refresh_on_start", False)
        set_setting(db, "playback.speed", 1.25)
        episodes = [i.id for i in list_items(db, ItemFilter(kind="episode"))]
        enqueue(db, episodes[1:2] + episodes[3:8])
        db.close()
        parts = build(library, vlc_args=("--aout=dummy",))
        window = parts.window
        window.resize(1380, 860)
        window.show()
        until(lambda: window.items_model.rowCount() > 50)
        window.item_list.setCurrentIndex(window.items_model.index(0, 0))
        window.item_list.selectionModel().select(window.items_model.index(0, 0),
                                                 QItemSelectionModel.SelectionFlag.ClearAndSelect
                                                 | QItemSelectionModel.SelectionFlag.Rows)
        window.play_selected()
        until(lambda: parts.session.player.state == PlayerState.PLAYING and len(parts.session.chapters) == 5)
        parts.session.player.seek(1005.0)
        window.menu_actions.sleep_30.trigger()
        settle(1.5)
        window.queue_view.list.setCurrentIndex(window.queue.model.index(1))
        window.item_list.setFocus()
        settle(0.5)
        window.grab().save(str(OUT / "player-queue.png"))
        window.help.open_palette()
        palette = window.help.palette
        assert palette is not None
        palette.search.setText("next")
        settle(0.8)
        screen = QGuiApplication.primaryScreen()
        frame = window.frameGeometry()
        screen.grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height()).save(
            str(OUT / "command-palette.png"))
        palette.reject()
        window.close()
    print(f"wrote {OUT / 'player-queue.png'} and {OUT / 'command-palette.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
