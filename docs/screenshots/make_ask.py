"""Make docs/screenshots/ask.png: the Ask view on the sample library (one episode given a transcript of its clip),
a question typed, the answers with the question's words in bold, the first one at the moment it is said.

Run under a display (the default sentence model's test copy is used when installed: pip install --no-deps
wordllama):
    Xvfb -displayfd 1 -screen 0 1500x900x24 & DISPLAY=:N .venv/bin/python docs/screenshots/make_ask.py
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit, QListView
from take_screenshots import settle, until

from earmark.core.db.connection import open_library
from earmark.core.db.transcripts import store_transcript
from earmark.core.models import Cue, Transcript
from earmark.core.sample import load_sample
from earmark.core.settings import set_setting
from earmark.gui.application import application, build

if TYPE_CHECKING:
    from earmark.core.db.database import Database
    from earmark.gui.mainwindow.window import MainWindow

OUT = Path(__file__).resolve().parent / "ask.png"
EPISODE = "All about NVIDIA GPUs"
SAID = [Cue(0.0, 3.0, "Welcome back to the show."), Cue(3.0, 6.0, "Today it is all about graphics cards."),
        Cue(6.0, 9.0, "Tensor cores multiply small matrices in a single step.")]
QUESTION = "what do tensor cores do on a GPU"


def model_setting(work: Path) -> str:
    """The sentence test model as a model folder, or off."""
    try:
        sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
        from ask import static_test_model

        return str(static_test_model(work / "model"))
    except (ImportError, SystemExit):
        return "off"


def sample_episode(prefix: str, model: Callable[[Path], str]) -> tuple[Path, Database, int]:
    """The sample library in a new work folder (the window's default layout, not this user's), Ask given the
    model ``model(work)`` names: its file, open, and the id of EPISODE."""
    work = Path(tempfile.mkdtemp(prefix=prefix))
    os.environ["EARMARK_CONFIG"] = str(work / "earmark.conf")
    library = work / "library.db"
    db = open_library(library)
    load_sample(db)
    set_setting(db, "feeds.refresh_on_start", False)
    set_setting(db, "ask.model", model(work))
    return library, db, db.execute("SELECT id FROM items WHERE title = ?", [EPISODE]).fetchone()[0]


def shown_window(library: Path, width: int, height: int) -> MainWindow:
    """The window on ``library`` at that size, shown (Fusion, as the other pictures)."""
    application().setStyle("fusion")
    window = build(library, vlc_args=("--aout=dummy",)).window
    window.resize(width, height)
    window.show()
    return window


def main() -> int:
    library, db, item_id = sample_episode("earmark-ask-", model_setting)
    store_transcript(db, item_id, "generated:tiny.en", Transcript(SAID, "generated"))
    db.close()
    window = shown_window(library, 1280, 800)
    until(lambda: window.sidebar_model.rowCount() > 0, 300.0)
    window.menu_actions.show_ask.trigger()
    field = window.findChild(QLineEdit, "askQuestion")
    answers = window.findChild(QListView, "askAnswers")
    until(field.isVisible, 300.0)
    QTest.keyClicks(field, QUESTION)
    until(lambda: answers.model().rowCount() > 3, 300.0)
    QTest.keyClick(field, Qt.Key.Key_Down)
    settle(0.5)
    window.grab().save(str(OUT))
    window.close()
    print(f"Wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
