"""The window-import probe: Python loads this module at start in the ``earmark`` window that bench/window_import.py
starts on an OPML file (the bench puts this folder first on PYTHONPATH). When the window asks whether to subscribe
to the file's feeds, the probe waits WINDOW_IMPORT_SETTLE seconds (a person reading the question; default 1),
presses Subscribe, and reports on standard output (``WINDOW-IMPORT {json}``) the clock at the press and at the end
of the import (the window's ``refreshed`` signal, which puts "Imported: …" in its status bar), then quits. It
changes nothing else in the program.
"""

from __future__ import annotations

import json
import os
import time

MARKER = "WINDOW-IMPORT "
SETTLE = float(os.environ.get("WINDOW_IMPORT_SETTLE", "1"))


def _report(**record: object) -> None:
    os.write(1, (MARKER + json.dumps(record) + "\n").encode())


def _start() -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMainWindow, QMessageBox

    def question() -> QMessageBox | None:
        shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]
        return shown[0] if shown else None

    def press() -> None:
        box = question()
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMainWindow)]
        if box is None or not windows:
            _report(error="the window did not ask about the file")
            QApplication.quit()
            return
        window = windows[0]
        [subscribe] = [b for b in box.buttons() if b.text().replace("&", "") == "Subscribe"]

        def ended(summary: object) -> None:
            at = time.time()

            def said() -> None:  # the status bar's sentence, set just after the signal
                _report(pressed=pressed, ended=at, status=window.statusBar().currentMessage(),
                        new=getattr(summary, "new", None), checked=getattr(summary, "checked", None))
                QApplication.quit()

            QTimer.singleShot(0, said)

        window.feeds.refreshed.connect(ended)  # type: ignore[attr-defined]
        pressed = time.time()
        subscribe.click()

    def wait_for_question() -> None:
        if question() is None:
            QTimer.singleShot(50, wait_for_question)
        else:
            QTimer.singleShot(int(SETTLE * 1000), press)

    QTimer.singleShot(0, wait_for_question)


def _hook() -> None:
    """Start watching once the program's QApplication runs its event loop."""
    from PySide6.QtWidgets import QApplication

    original = QApplication.exec

    def exec_(*_args: object) -> int:
        _start()
        return original()

    QApplication.exec = exec_  # type: ignore[method-assign]


if os.environ.get("WINDOW_IMPORT_PROBE"):  # Qt loaded at once: the start of the window is not what is timed
    _hook()
