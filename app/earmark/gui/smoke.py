"""``earmark --smoke-test``: the real window, a sample episode played through VLC, the position saved."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QDeadlineTimer, QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

from earmark.core.db.connection import open_library
from earmark.core.db.items import get_item
from earmark.core.errors import EarmarkError
from earmark.gui.application import Parts, application, build
from earmark.playback.player import PlayerState

PLAY_SECONDS = 1.2


class SmokeTestError(Exception):
    """A step of the smoke test did not happen."""


def wait_for(condition: Callable[[], bool], seconds: float, what: str, errors: list[str]) -> None:
    """Run the event loop until ``condition()`` holds; SmokeTestError naming ``what`` on time-out, or
    as soon as an error is reported into ``errors``."""
    deadline = QDeadlineTimer(int(seconds * 1000))
    loop = QEventLoop()
    while not condition():
        if errors:
            raise SmokeTestError(f"{errors[0]} (while waiting for {what})")
        if deadline.hasExpired():
            raise SmokeTestError(f"timed out after {seconds:g} s waiting for {what}")
        QTimer.singleShot(20, loop.quit)
        loop.exec()


def run_smoke_test(library: Path) -> int:
    """Run every step; print what failed and return 1, or return 0."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    application()
    try:
        parts = build(library, vlc_args=("--aout=dummy",))
    except EarmarkError as exc:
        print(f"smoke test failed: {exc}", file=sys.stderr)
        return 1
    try:
        item_id = _play_an_episode(parts)
        position = _close_and_read_position(parts, library, item_id)
    except (SmokeTestError, EarmarkError) as exc:
        print(f"smoke test failed: {exc}", file=sys.stderr)
        parts.window.close()
        return 1
    print(f"smoke test passed: episode {item_id} played through VLC, position {position:.1f} s saved")
    return 0


def _play_an_episode(parts: Parts) -> int:
    window, player = parts.window, parts.session.player
    errors: list[str] = []
    parts.runner.failed.connect(errors.append)
    player.failed.connect(errors.append)

    def wait(condition: Callable[[], bool], seconds: float, what: str) -> None:
        wait_for(condition, seconds, what, errors)

    window.show()
    wait(lambda: window.sidebar_model.rowCount() > 0, 10, "the library to load")
    if window.sidebar_model.total == 0:
        print("library empty: loading the sample library")
        window.menu_actions.load_sample.trigger()
        wait(lambda: window.sidebar_model.total > 0, 60, "the sample library to load")
    wait(lambda: window.items_model.rowCount() > 0, 10, "the item list to fill")
    row = next((r for r in range(window.items_model.rowCount())
                if (item := window.items_model.item_at(r)) is not None and item.enclosure_url), None)
    if row is None:
        raise SmokeTestError("the library has no playable episode")
    window.item_list.selectRow(row)
    window.menu_actions.play_selected.trigger()
    wait(lambda: player.state == PlayerState.PLAYING, 15, "VLC to start playing")
    start = player.position()
    wait(lambda: player.position() >= start + PLAY_SECONDS or player.state != PlayerState.PLAYING,
             PLAY_SECONDS + 10, "the position to advance")
    if player.state != PlayerState.PLAYING:
        raise SmokeTestError(f"playback stopped early ({player.state})")
    session_item = parts.session.item
    assert session_item is not None
    return session_item.id


def _close_and_read_position(parts: Parts, library: Path, item_id: int) -> float:
    parts.window.close()
    QApplication.processEvents()
    db = open_library(library)
    try:
        item = get_item(db, item_id)
    finally:
        db.close()
    if item.position <= 0 or item.last_played is None:
        raise SmokeTestError(f"the position was not saved (stored position {item.position})")
    return item.position
