"""The dialogs of library recovery: an unusable library at start (open another, restore a backup, quit),
choosing a backup, confirming a restore. One class, so tests can stand in for the user with a fake."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QPushButton, QWidget

from earmark.core.db.backups import Backup
from earmark.core.plurals import counted

OPEN_ANOTHER = "open"
RESTORE = "restore"
QUIT = "quit"
ANOTHER_FILE = "Another File…"
LIBRARY_FILES = "Earmark libraries (*.db *.sqlite *.bak);;All files (*)"


class RecoveryDialogs:
    """Asks the user how to go on; every method returns the answer (None or QUIT when cancelled)."""

    def startup_problem(self, library: Path, message: str) -> str:
        """The library cannot be opened: say why, and offer OPEN_ANOTHER, RESTORE or QUIT."""
        box = startup_problem_box(library, message)
        box.exec()
        return str(box.clickedButton().property("choice") or QUIT) if box.clickedButton() else QUIT

    def choose_library(self, library: Path) -> Path | None:
        """A library file to open instead (an existing one, or a new name for an empty library)."""
        dialog = QFileDialog(None, "Open Another Library", str(library.parent), LIBRARY_FILES)
        dialog.setFileMode(QFileDialog.FileMode.AnyFile)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
        if dialog.exec() and dialog.selectedFiles():
            return Path(dialog.selectedFiles()[0])
        return None

    def choose_backup(self, parent: QWidget | None, library: Path, backups: list[Backup]) -> Path | None:
        """One of ``backups`` (newest first), or any file the user picks."""
        labels = [backup.label() for backup in backups] + [ANOTHER_FILE]
        label, ok = QInputDialog.getItem(parent, "Restore from Backup",
                                         f"Backups of {library.name} (the library as it is now is kept):", labels,
                                         0, False)
        if not ok:
            return None
        if label != ANOTHER_FILE:
            return backups[labels.index(label)].path
        name, _filter = QFileDialog.getOpenFileName(parent, "Restore from Backup", str(library.parent), LIBRARY_FILES)
        return Path(name) if name else None

    def confirm_restore(self, parent: QWidget | None, library: Path, backup: Path, counts: dict[str, int]) -> bool:
        """Whether to replace the library with ``backup`` (which holds ``counts`` items, notes and sources)."""
        answer = QMessageBox.question(
            parent, "Restore from Backup",
            f"Replace the library with {backup.name}? It holds {counted(counts['items'], 'item')}, "
            f"{counted(counts['notes'], 'note')} and {counted(counts['sources'], 'source')}.\n\nThe library as it is "
            f"now is not deleted: it is moved to {library.parent / 'backups'}.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes

    def report(self, parent: QWidget | None, title: str, message: str) -> None:
        """Tell the user how a recovery went."""
        QMessageBox.information(parent, title, message)


def startup_problem_box(library: Path, message: str) -> QMessageBox:
    """The message box shown when the library cannot be opened; each button carries its choice."""
    box = QMessageBox(QMessageBox.Icon.Critical, "Earmark cannot open the library", message)
    box.setObjectName("startupProblem")
    box.setInformativeText(f"{library} stays as it is. You can open another library, or restore a backup of this "
                           "one (the file is moved aside, not deleted).")
    for text, choice, role in (("Open Another Library…", OPEN_ANOTHER, QMessageBox.ButtonRole.ActionRole),
                               ("Restore a Backup…", RESTORE, QMessageBox.ButtonRole.ActionRole),
                               ("Quit", QUIT, QMessageBox.ButtonRole.RejectRole)):
        button: QPushButton = box.addButton(text, role)
        button.setProperty("choice", choice)
        button.setObjectName(choice)
    return box
