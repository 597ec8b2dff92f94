"""Make docs/screenshots/ask-note.png and ask-show-notes.png: Enter on an answer of Ask that is a note (the keyboard
on it in its episode's Notes pane, in front) and on one from an episode's show notes (its details at the paragraph,
selected), on the sample library, words alone.

Run under a display (the size is the window's; the default is a 1366×768 screen's):
    Xvfb -displayfd 1 -screen 0 1500x900x24 & DISPLAY=:N .venv/bin/python docs/screenshots/make_ask_opens.py \
        [WIDTHxHEIGHT [FOLDER]]
"""

from __future__ import annotations

import sys
from pathlib import Path

from make_ask import sample_episode, shown_window
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit, QListView
from take_screenshots import settle, until

from earmark.core.db.notes import add_note
from earmark.gui.models.answers import AnswerRole

HERE = Path(__file__).resolve().parent
NOTES = ["Start here: what a streaming multiprocessor is.", "Memory coalescing, with the picture of the rows.",
         "The warp scheduler hides memory latency when occupancy is high enough.", "Ask about tensor cores later."]
SHOTS = (("ask-note.png", "warp scheduler occupancy", "note"),
         ("ask-show-notes.png", "global GPU flag default device", "show_notes"))


def main(size: str = "1366x768", folder: str = str(HERE)) -> int:
    width, height = (int(n) for n in size.split("x"))
    library, db, item_id = sample_episode("earmark-ask-opens-", lambda _work: "off")
    for at, text in enumerate(NOTES):
        add_note(db, item_id, text, at=float(at * 120))
    db.close()
    window = shown_window(library, width, height)
    window.activateWindow()  # the keyboard's frame shows where the focus went
    until(lambda: window.sidebar_model.rowCount() > 0, 120.0)
    field = window.findChild(QLineEdit, "askQuestion")
    answers = window.findChild(QListView, "askAnswers")
    assert field is not None and answers is not None

    def first_source() -> str:
        model = answers.model()
        return str(model.index(0, 0).data(AnswerRole).source) if model.rowCount() else ""

    for name, question, source in SHOTS:
        window.menu_actions.show_related_pane.trigger()  # the Notes pane behind Related, as it may be
        window.menu_actions.all["show_ask"].trigger()
        until(field.isVisible, 120.0)
        field.selectAll()
        QTest.keyClicks(field, question)
        until(lambda wanted=source: first_source() == wanted, 120.0)
        QTest.keyClick(field, Qt.Key.Key_Down)
        QTest.keyClick(answers, Qt.Key.Key_Return)
        settle(0.8)
        window.grab().save(str(Path(folder) / name))
        print(f"Wrote {Path(folder) / name}")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
