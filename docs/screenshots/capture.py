"""Take the screenshots of the first run, the settings dialog and the dark theme (docs/screenshots/*.png).

Run on a display, e.g.: xvfb-run -a -s "-screen 0 1500x900x24" .venv/bin/python docs/screenshots/capture.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtWidgets import QApplication

from earmark.core.db.connection import open_library
from earmark.core.sample import load_sample
from earmark.gui.application import application, build

HERE = Path(__file__).resolve().parent


def settle(seconds: float = 1.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.02)


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="earmark-shots-"))
    os.environ["EARMARK_CONFIG"] = str(work / "earmark.conf")
    app = application()
    app.setStyle("fusion")

    parts = build(work / "empty.db", vlc_args=("--aout=dummy",))
    parts.window.resize(1100, 700)
    parts.window.show()
    settle()
    parts.window.grab().save(str(HERE / "first-run.png"))
    parts.window.close()

    library = work / "sample.db"
    db = open_library(library)
    db.execute("INSERT INTO settings (key, value) VALUES ('feeds.refresh_on_start', 'false')")
    db.conn.commit()
    load_sample(db)
    db.close()
    parts = build(library, vlc_args=("--aout=dummy",))
    window = parts.window
    window.resize(1280, 800)
    window.show()
    settle()
    window.commands.show_settings.trigger()
    settle(0.5)
    dialog = window.desktop.settings_dialog
    assert dialog is not None
    dialog.tabs.setCurrentIndex(0)  # Playback
    settle(0.5)
    dialog.grab().save(str(HERE / "settings.png"))
    dialog.editors["appearance.theme"].set_value("dark")
    dialog.accept()
    settle()
    window.item_list.selectRow(2)
    settle()
    window.grab().save(str(HERE / "dark-theme.png"))
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
