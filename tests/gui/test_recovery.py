"""The window and an unusable, read-only or full library: the start-up dialog (open another library, restore a
backup, quit) with real broken files, File → Restore from Backup…, and the read-only window that says why
nothing can be saved. The user's answers come from a stand-in for the dialogs; the dialogs themselves are
checked too."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from earmark.core.db.backup_files import backups_folder
from earmark.core.db.backups import Backup, list_backups, make_backup
from earmark.core.db.connection import open_library
from earmark.core.db.notes import add_note, list_notes
from earmark.gui.application import Launcher, Parts
from earmark.gui.mainwindow.window import MainWindow
from earmark.gui.operations.records import store_progress
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.recovery import OPEN_ANOTHER, QUIT, RESTORE, RecoveryDialogs, startup_problem_box
from earmark.playback.progress import PlaybackSession
from earmark.playback.vlc_player import VlcPlayer
from helpers.storage import fill, remount_read_only, remount_writable, small_disk


class StandIn(RecoveryDialogs):
    """Answers the recovery dialogs from a script, and records what they were told."""

    def __init__(self, choices: list[str], library: Path | None = None, backup: Path | None = None) -> None:
        self.choices = choices
        self.library = library
        self.backup = backup
        self.problems: list[str] = []
        self.reports: list[tuple[str, str]] = []
        self.confirmed: list[dict[str, int]] = []

    def startup_problem(self, library: Path, message: str) -> str:
        self.problems.append(message)
        return self.choices.pop(0) if self.choices else QUIT

    def choose_library(self, library: Path) -> Path | None:
        return self.library

    def choose_backup(self, parent: QWidget | None, library: Path, backups: list[Backup]) -> Path | None:
        return self.backup or (backups[0].path if backups else None)

    def confirm_restore(self, parent: QWidget | None, library: Path, backup: Path, counts: dict[str, int]) -> bool:
        self.confirmed.append(counts)
        return True

    def report(self, parent: QWidget | None, title: str, message: str) -> None:
        self.reports.append((title, message))


BROKEN = b"SQLite format 3\x00" + random.Random(7).randbytes(8192)


@pytest.fixture
def opened(qtbot: QtBot) -> Iterator[list[Parts]]:
    """Windows the test opened, closed at its end."""
    windows: list[Parts] = []
    yield windows
    for parts in windows:
        if parts.window.isVisible():
            parts.window.close()


def _show(qtbot: QtBot, launcher: Launcher, opened: list[Parts]) -> Parts:
    parts = launcher.open()
    assert parts is not None
    opened.append(parts)
    qtbot.addWidget(parts.window)
    parts.window.show()
    qtbot.waitExposed(parts.window)
    return parts


def _library_with_note(path: Path, text: str) -> None:
    db = open_library(path)
    db.execute("INSERT INTO items (kind, identity, title, added) VALUES ('article', 'a', 'An article', '2024-01-01')")
    add_note(db, 1, text)
    db.close()


def _note_texts(path: Path) -> list[str]:
    db = open_library(path)
    try:
        return [note.text for note in list_notes(db)]
    finally:
        db.close()


def _titles(parts: Parts) -> list[str]:
    model = parts.window.items_model
    return [item.title for item in (model.item_at(row) for row in range(model.rowCount())) if item]


# The start-up dialog -----------------------------------------------------------------------------------------


def test_the_start_up_dialog_offers_three_ways_on_and_each_button_answers(qtbot: QtBot, library_path: Path) -> None:
    box = startup_problem_box(library_path, "The library is damaged.")
    qtbot.addWidget(box)
    assert sorted(button.text() for button in box.buttons()) == ["Open Another Library…", "Quit", "Restore a Backup…"]
    assert "stays as it is" in box.informativeText()
    for choice in (OPEN_ANOTHER, RESTORE, QUIT):
        def click(wanted: str = choice) -> None:
            shown = QApplication.activeModalWidget()
            assert isinstance(shown, QMessageBox) and shown.objectName() == "startupProblem"
            next(b for b in shown.buttons() if b.property("choice") == wanted).click()

        QTimer.singleShot(50, click)
        assert RecoveryDialogs().startup_problem(library_path, "The library is damaged.") == choice


def test_a_broken_library_is_left_alone_and_another_one_opens(qtbot: QtBot, tmp_path: Path, library_path: Path,
                                                              opened: list[Parts]) -> None:
    library_path.write_bytes(BROKEN)
    other = tmp_path / "other.db"
    _library_with_note(other, "from the other library")
    dialogs = StandIn([OPEN_ANOTHER], library=other)
    parts = _show(qtbot, Launcher(library_path, dialogs, ("--aout=dummy",)), opened)
    assert len(dialogs.problems) == 1 and str(library_path) in dialogs.problems[0]
    qtbot.waitUntil(lambda: _titles(parts) == ["An article"], timeout=5000)
    assert parts.window.windowTitle() == "Earmark — other.db"
    assert library_path.read_bytes() == BROKEN
    assert sorted(p.name for p in library_path.parent.iterdir() if p.name.startswith("library")) == ["library.db"]


def test_quitting_at_the_start_up_dialog_touches_nothing(qtbot: QtBot, library_path: Path) -> None:
    library_path.write_bytes(BROKEN)
    assert Launcher(library_path, StandIn([QUIT])).open() is None
    assert library_path.read_bytes() == BROKEN


@pytest.mark.parametrize("damage", ["mangled", "truncated"])
def test_a_damaged_library_is_moved_aside_and_its_backup_restored(qtbot: QtBot, library_path: Path,
                                                                  opened: list[Parts], damage: str) -> None:
    _library_with_note(library_path, "backed up")
    make_backup(library_path)
    db = open_library(library_path)
    for number in range(300):
        add_note(db, 1, f"then lost to the damage {number} " + "x" * 200)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    whole = library_path.read_bytes()
    broken = BROKEN if damage == "mangled" else whole[: len(whole) // 2]  # the disk mangled it, or a copy stopped
    library_path.write_bytes(broken)
    dialogs = StandIn([RESTORE])
    parts = _show(qtbot, Launcher(library_path, dialogs, ("--aout=dummy",)), opened)
    assert "damaged" in dialogs.problems[0] or "not an Earmark library" in dialogs.problems[0]
    qtbot.waitUntil(lambda: _titles(parts) == ["An article"], timeout=5000)
    assert dialogs.reports[0][0] == "Backup restored"
    aside = next(b for b in list_backups(library_path) if b.kind == "before-restore")
    assert aside.path.read_bytes() == broken  # kept as it was, for whoever wants to dig into it
    assert _note_texts(library_path) == ["backed up"]


# File → Restore from Backup… ---------------------------------------------------------------------------------


def test_restore_from_backup_in_the_file_menu_swaps_the_window_and_keeps_the_library_aside(
        qtbot: QtBot, library_path: Path, opened: list[Parts]) -> None:
    _library_with_note(library_path, "in the backup")
    backup = make_backup(library_path)
    db = open_library(library_path)
    add_note(db, 1, "written since")
    db.close()
    dialogs = StandIn([], backup=backup.path)
    launcher = Launcher(library_path, dialogs, ("--aout=dummy",))
    first = _show(qtbot, launcher, opened)
    hung: list[float] = []
    first.window.quit_watchdog.enable(0.5, lambda seconds, _thread: hung.append(seconds))  # as in the real app
    qtbot.waitUntil(lambda: _titles(first) == ["An article"], timeout=5000)
    assert "Restore from Backup…" in [a.text().replace("&", "") for a in first.window.menuBar().actions()[0].menu()
                                      .actions()]
    first.window.menu_actions.restore_backup.trigger()
    qtbot.waitUntil(lambda: launcher.parts is not None and launcher.parts is not first, timeout=10000)
    second = launcher.parts
    assert second is not None
    opened.append(second)
    qtbot.addWidget(second.window)
    assert not first.window.isVisible() and second.window.isVisible()
    assert dialogs.confirmed == [{"items": 1, "notes": 1, "sources": 0}]
    assert _note_texts(library_path) == ["in the backup"]
    aside = next(b for b in list_backups(library_path) if b.kind == "before-restore")
    assert _note_texts(aside.path) == ["written since", "in the backup"]  # newest first
    qtbot.waitUntil(lambda: _titles(second) == ["An article"], timeout=5000)
    qtbot.wait(1000)
    assert hung == [] and not first.window.quit_watchdog.armed  # the process goes on: closing for a restore


def test_a_restore_while_another_program_has_the_library_open_is_refused_and_the_window_comes_back(
        qtbot: QtBot, library_path: Path, opened: list[Parts]) -> None:
    _library_with_note(library_path, "in the backup")
    backup = make_backup(library_path)
    db = open_library(library_path)
    add_note(db, 1, "written since")
    db.close()
    script = ("import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1]); c.execute('SELECT 1 FROM notes')"
              ".fetchall(); print('open', flush=True); time.sleep(60)")
    cron = subprocess.Popen([sys.executable, "-c", script, str(library_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert cron.stdout is not None and cron.stdout.readline() == "open\n"
        dialogs = StandIn([], backup=backup.path)
        launcher = Launcher(library_path, dialogs, ("--aout=dummy",))
        first = _show(qtbot, launcher, opened)
        first.window.menu_actions.restore_backup.trigger()
        qtbot.waitUntil(lambda: launcher.parts is not None and launcher.parts is not first, timeout=10000)
    finally:
        cron.kill()
        cron.wait()
        assert cron.stdout is not None
        cron.stdout.close()
    second = launcher.parts
    assert second is not None
    opened.append(second)
    qtbot.addWidget(second.window)
    assert dialogs.reports[0][0] == "The backup was not restored" and "open in another program" in dialogs.reports[0][1]
    assert second.window.isVisible()
    assert _note_texts(library_path) == ["written since", "in the backup"]  # untouched
    assert [b.kind for b in list_backups(library_path)] == ["manual"]


def test_the_window_makes_the_daily_backup_after_it_opens(qtbot: QtBot, library_path: Path,
                                                          opened: list[Parts]) -> None:
    _library_with_note(library_path, "daily")
    parts = _show(qtbot, Launcher(library_path, StandIn([]), ("--aout=dummy",)), opened)
    with qtbot.waitSignal(parts.window.backups.backed_up, timeout=10000) as made:
        pass
    assert made.args is not None and made.args[0].kind == "daily"
    assert [b.kind for b in list_backups(library_path)] == ["daily"]
    assert list(backups_folder(library_path).iterdir()) == [made.args[0].path]


def test_the_daily_backup_never_hides_what_the_status_bar_says(qtbot: QtBot, library_path: Path,
                                                               opened: list[Parts]) -> None:
    """A routine backup made while a message of the user's own action shows (it hid "Exported 1 note…")."""
    _library_with_note(library_path, "daily")
    parts = _show(qtbot, Launcher(library_path, StandIn([]), ("--aout=dummy",)), opened)
    parts.window.statusBar().showMessage("Exported 1 note to notes.md.", 60000)
    with qtbot.waitSignal(parts.window.backups.backed_up, timeout=10000):
        pass
    assert parts.window.statusBar().currentMessage() == "Exported 1 note to notes.md."


def test_damage_inside_the_file_is_found_by_the_daily_backup_and_said_in_a_dialog(
        qtbot: QtBot, library_path: Path, opened: list[Parts]) -> None:
    _library_with_note(library_path, "first")
    db = open_library(library_path)
    for number in range(400):
        add_note(db, 1, f"note {number} " + "y" * 300)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = db.execute("PRAGMA page_size").fetchone()[0]
    notes = [row[0] for row in db.execute("SELECT pageno FROM dbstat WHERE name = 'notes' AND pagetype = 'leaf'")]
    db.close()
    with library_path.open("r+b") as handle:  # the header and the schema stay readable: the window opens
        for number in notes:  # the notes' pages, whatever the page size
            offset = (number - 1) * page
            handle.seek(offset)
            handle.write(random.Random(offset).randbytes(min(page, 4096)))
    parts = _show(qtbot, Launcher(library_path, StandIn([]), ("--aout=dummy",)), opened)
    # Reading the damaged pages says so at once; the daily backup's check says it too, and keeps no damaged copy.
    qtbot.waitUntil(lambda: any("earlier backups were kept" in box.text() for box in _error_dialogs()),
                    timeout=15000)
    for box in _error_dialogs():
        assert "damaged" in box.text() and "Restore from Backup" in box.text()
        box.close()
    assert list_backups(library_path) == []
    parts.window.close()


# Read-only and full ------------------------------------------------------------------------------------------


def _error_dialogs() -> list[QMessageBox]:
    return [w for w in QApplication.topLevelWidgets()
            if isinstance(w, QMessageBox) and w.isVisible() and w.objectName() == "errorDialog"]


def _check_read_only_window(qtbot: QtBot, parts: Parts, why: str) -> None:
    window = parts.window
    assert window.windowTitle().endswith("(read-only)")
    assert window.banner.isVisible() and why in window.banner.text()
    qtbot.waitUntil(lambda: _titles(parts) == ["An article"], timeout=5000)
    window.item_list.selectRow(0)
    with qtbot.waitSignal(parts.runner.cannot_save, timeout=10000):
        window.organize.toggle_favourite()  # a write: refused, said once in the banner, no dialog
    qtbot.waitUntil(lambda: _titles(parts) == ["An article"], timeout=5000)
    window.item_list.selectRow(0)  # a reload may have come in between: select the item again
    with qtbot.waitSignal(parts.runner.cannot_save, timeout=10000):
        window.organize.toggle_favourite()
    assert _error_dialogs() == []
    assert window.banner.isVisible()
    assert not window.feeds.periodic.isActive()  # no automatic refreshes of a library that cannot take them
    assert not window.backups._timer.isActive()  # nor backups


def test_a_library_on_a_read_only_disk_opens_in_a_window_that_says_why(qtbot: QtBot, tmp_path: Path,
                                                                       opened: list[Parts]) -> None:
    with small_disk(tmp_path / "disk") as disk:
        path = disk / "library.db"
        _library_with_note(path, "readable")
        before = path.read_bytes()
        remount_read_only(disk)
        try:
            parts = _show(qtbot, Launcher(path, StandIn([]), ("--aout=dummy",)), opened)
            _check_read_only_window(qtbot, parts, "mounted read-only")
            parts.window.close()
        finally:
            remount_writable(disk)
        assert path.read_bytes() == before


def test_a_read_only_library_window_without_a_real_read_only_disk(qtbot: QtBot, library_path: Path,
                                                                   opened: list[Parts]) -> None:
    """The same window where mounting is not allowed: its connections are opened read-only on purpose."""
    _library_with_note(library_path, "readable")
    runner = TaskRunner(library_path, read_only=True)
    session = PlaybackSession(VlcPlayer(("--aout=dummy",)), lambda update: runner.write(store_progress, update))
    window = MainWindow(runner, open_library(library_path, read_only=True), lambda: session,
                        read_only_reason="The library is read-only (as this test asks).", dialogs=StandIn([]))
    parts = Parts(window, runner)
    opened.append(parts)
    qtbot.addWidget(window)
    window.show()
    _check_read_only_window(qtbot, parts, "as this test asks")


def test_a_disk_that_fills_up_under_the_window_is_said_once_and_writes_resume_with_room(
        qtbot: QtBot, tmp_path: Path, opened: list[Parts]) -> None:
    with small_disk(tmp_path / "disk") as disk:
        path = disk / "library.db"
        _library_with_note(path, "before")
        parts = _show(qtbot, Launcher(path, StandIn([]), ("--aout=dummy",)), opened)
        window = parts.window
        qtbot.waitUntil(lambda: _titles(parts) == ["An article"], timeout=5000)
        window.item_list.selectRow(0)
        assert not window.banner.isVisible()
        filler = fill(disk)
        with qtbot.waitSignal(parts.runner.cannot_save, timeout=5000) as refused:
            window.notes.write(add_note, 1, 1, "x" * 200_000)
        assert refused.args == ["The disk that holds the library is full; nothing was changed."]
        assert window.banner.isVisible() and "is full" in window.banner.text()
        filler.unlink()
        with qtbot.waitSignal(parts.runner.saved, timeout=5000):
            window.organize.toggle_favourite()
        assert not window.banner.isVisible()
        window.close()
        assert _note_texts(path) == ["before"]
