"""The library watch reports what other processes change (a terminal, cron), not what the window's own children
write (issue 35 §1: a relation pass's writes made the window read everything again, which hid a missing recount);
an item, source or note another process adds while a child of the window runs is still reported."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QProcess
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.feeds.subscribe import subscribe
from earmark.gui.child_process import earmark_process
from earmark.gui.library_watch import LibraryWatch
from earmark.gui.tasks import TaskRunner
from helpers.crash import app_env, earmark
from helpers.podcast import Episode, write_podcast

POLL_MS = 50
POLLS = 10 * POLL_MS  # long enough for several questions


@pytest.fixture
def item_id(library_path: Path, tmp_path: Path) -> int:
    db = open_library(library_path)
    subscribe(db, str(write_podcast(tmp_path / "cast", [Episode("One", 1.0)])))
    found = int(db.execute("SELECT id FROM items").fetchone()[0])
    db.close()
    return found


@pytest.fixture
def reported(qtbot: QtBot, library_path: Path, item_id: int) -> Iterator[list[str]]:
    """What the watch reported, one "changed" each time."""
    runner = TaskRunner(library_path)
    watch = LibraryWatch(runner, interval_ms=POLL_MS)
    seen: list[str] = []
    watch.changed_elsewhere.connect(lambda: seen.append("changed"))
    qtbot.wait(POLLS)
    yield seen
    runner.shutdown()


def child(library_path: Path, *args: str) -> QProcess:
    """An ``earmark`` command started as the window starts its children (not yet told to end)."""
    process = earmark_process(None, library_path, list(args))  # type: ignore[arg-type]
    environment = process.processEnvironment()
    for name, value in app_env().items():
        environment.insert(name, value)
    process.setProcessEnvironment(environment)
    process.start()
    assert process.waitForStarted(10_000)
    return process


def test_a_childs_writes_are_not_reported_another_processes_are(
        qtbot: QtBot, library_path: Path, item_id: int, reported: list[str]) -> None:
    tagging = child(library_path, "tag", str(item_id), "mine")
    assert tagging.waitForFinished(60_000) and tagging.exitCode() == 0
    qtbot.wait(POLLS)
    assert reported == []

    assert earmark(library_path, "tag", str(item_id), "theirs").returncode == 0  # from a terminal
    qtbot.waitUntil(lambda: reported == ["changed"], timeout=5000)


def test_a_note_added_elsewhere_while_a_child_runs_is_reported(
        qtbot: QtBot, library_path: Path, item_id: int, reported: list[str]) -> None:
    waiting = child(library_path, "set-credentials", "1", "someone")  # waits for the password on its input
    try:
        assert earmark(library_path, "note", str(item_id), "from a terminal").returncode == 0
        qtbot.waitUntil(lambda: reported == ["changed"], timeout=5000)
    finally:
        waiting.closeWriteChannel()
        assert waiting.waitForFinished(60_000)
