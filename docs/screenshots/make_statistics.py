"""Take docs/screenshots/statistics-light.png and statistics-dark.png from the real window (run on a display):

    Xvfb -displayfd 1 -screen 0 1400x900x24 & DISPLAY=:N .venv/bin/python docs/screenshots/make_statistics.py

Uses a fresh library in a temporary folder: the sample library and a month of listening sessions (different
podcasts, speeds and silence skipped) written through the history's own function.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from take_screenshots import settle

from earmark.core.db.connection import open_library, write_transaction
from earmark.core.db.history import record_play
from earmark.core.sample import load_sample
from earmark.core.settings import set_setting
from earmark.gui.application import application, build
from earmark.gui.theme import Appearance

OUT = Path(__file__).resolve().parent


def fill(library: Path) -> None:
    """The sample library and a month of listening."""
    db = open_library(library)
    load_sample(db)
    set_setting(db, "feeds.refresh_on_start", False)
    episodes = [row[0] for row in db.execute("SELECT id FROM items WHERE kind = 'episode' ORDER BY id")]
    chance = random.Random(24)
    now = datetime.now(UTC).replace(hour=8, minute=0, second=0, microsecond=0)
    with write_transaction(db):
        for days_ago in range(29, -1, -1):
            if chance.random() < 0.2:
                continue  # a day without listening
            for session in range(chance.randint(1, 3)):
                item = chance.choice(episodes)
                db.execute("UPDATE items SET played = 0, position = 0 WHERE id = ?", [item])
                minutes = chance.randint(10, 55)
                record_play(db, item, minutes * 60.0, chance.random() < 0.4,
                            now=now - timedelta(days=days_ago, hours=-2 * session),
                            speed=chance.choice((1.0, 1.25, 1.5, 2.0)), silence_saved=minutes * chance.uniform(1, 4))
    db.close()


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="earmark-shots-"))
    os.environ["EARMARK_CONFIG"] = str(work / "earmark.conf")
    app = application()
    library = work / "library.db"
    fill(library)
    window = build(library, vlc_args=("--aout=dummy",)).window
    window.resize(1280, 800)
    window.show()
    settle(1.0)
    window.menu_actions.show_statistics.trigger()
    window.statistics.view.period.setCurrentIndex(1)  # Last 30 days
    settle(1.5)
    window.grab().save(str(OUT / "statistics-light.png"))
    Appearance.of(app).apply("dark", 0)
    settle(1.0)
    window.grab().save(str(OUT / "statistics-dark.png"))
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
