"""Drive the real app code in a process of its own, printing each thing it got done, until it is killed (or told to
stop). For the kill -9 and two-process tests.

Usage:
  python crash_driver.py notes LIBRARY ITEM_ID PREFIX
      runs ``earmark note ITEM_ID "PREFIX n"`` (the command line's own main) for n = 0, 1, 2…, printing
      ``kept PREFIX n`` after each that exited 0: that note was committed.
  python crash_driver.py window LIBRARY ITEM_ID SECONDS
      opens the main window offscreen and, for SECONDS, saves playback progress and takes notes through its
      writer as fast as they complete, printing ``saved N`` / ``noted N`` as each is stored and ``error MESSAGE``
      for anything the window would tell the user; then ``done SAVES NOTES ERRORS`` and quits.
"""

from __future__ import annotations

import io
import os
import sys
from contextlib import redirect_stdout
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def notes(library: str, item_id: str, prefix: str) -> int:
    from earmark.cli import main

    number = 0
    while True:
        text = f"{prefix} {number}"
        with redirect_stdout(io.StringIO()):
            code = main(["--library", library, "note", item_id, text])
        if code == 0:
            print(f"kept {text}", flush=True)
        number += 1


def window(library: str, item_id: str, seconds: str) -> int:
    from PySide6.QtCore import QTimer

    from earmark.core.models import ProgressUpdate
    from earmark.core.notes.transcripts import take_note
    from earmark.gui.application import application, build
    from earmark.gui.operations.records import store_progress

    app = application()
    parts = build(Path(library), vlc_args=("--aout=dummy",))
    runner, item = parts.runner, int(item_id)
    counts = {"saved": 0, "noted": 0, "errors": 0}

    def error(message: str) -> None:
        counts["errors"] += 1
        print(f"error {message}", flush=True)

    runner.failed.connect(error)
    runner.cannot_save.connect(error)
    parts.window.statusBar().messageChanged.connect(
        lambda text: error(text) if "locked" in text or "busy" in text else None)

    def save() -> None:
        position = float(counts["saved"] % 3000)
        runner.write(store_progress, ProgressUpdate(item, position), on_done=lambda _c: done("saved"),
                     on_error=error)

    def note() -> None:
        runner.write(take_note, item, f"window note {counts['noted']}", None, on_done=lambda _n: done("noted"),
                     on_error=error)

    def done(kind: str) -> None:
        counts[kind] += 1
        print(f"{kind} {counts[kind]}", flush=True)
        if not stopping:
            (save if kind == "saved" else note)()

    stopping = False

    def stop() -> None:
        nonlocal stopping
        stopping = True
        print(f"done {counts['saved']} {counts['noted']} {counts['errors']}", flush=True)
        parts.window.close()
        app.quit()

    parts.window.show()
    save()
    note()
    QTimer.singleShot(int(float(seconds) * 1000), stop)
    return app.exec()


if __name__ == "__main__":
    command, *rest = sys.argv[1:]
    sys.exit({"notes": notes, "window": window}[command](*rest))
