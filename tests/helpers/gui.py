"""The real window for GUI and journey tests: ``launch()`` starts the app's window on the test's library (with
real VLC playing to a dummy output), shown, active and with its sidebar filled; ``sample`` fills the library
with the sample library first."""

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.sample import load_sample
from earmark.core.settings import set_setting
from earmark.gui.application import Parts, build

Launch = Callable[..., Parts]  # launch() opens the test's library; launch(path) another one
SAMPLE_ITEMS = 54  # episodes and articles in the sample library


@pytest.fixture
def sample(library_path: Path) -> None:
    """The library holds the sample library (no refresh on start: nothing is fetched)."""
    db = open_library(library_path)
    load_sample(db)
    set_setting(db, "feeds.refresh_on_start", False)
    db.close()


@pytest.fixture
def launch(qtbot: QtBot, library_path: Path) -> Iterator[Launch]:
    """Start the app's window on ``library_path``, or on the library given (call it after preparing the
    library)."""
    started: list[Parts] = []

    def start(path: Path | None = None) -> Parts:
        parts = build(path or library_path, vlc_args=("--aout=dummy",))
        qtbot.addWidget(parts.window)
        parts.window.show()
        qtbot.waitExposed(parts.window)
        parts.window.activateWindow()  # window shortcuts need the active window (an earlier test's may linger)
        qtbot.waitUntil(parts.window.isActiveWindow, timeout=5000)
        qtbot.waitUntil(lambda: parts.window.sidebar_model.rowCount() > 0, timeout=5000)
        started.append(parts)
        return parts

    yield start
    for parts in started:
        if parts.window.isVisible():
            parts.window.close()
