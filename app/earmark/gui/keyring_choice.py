"""Before a password is kept: is there a keyring? Without one, the user is asked, once per session, whether to
keep passwords in the library file instead (unencrypted, the setting ``secrets.store_in_library``)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMessageBox, QWidget

from earmark.core.db.database import Database
from earmark.core.secrets.store import OPT_IN, Secrets
from earmark.core.secrets.vault import NO_KEYRING
from earmark.core.settings import set_setting
from earmark.gui.tasks import TaskRunner

QUESTION = (f"{NO_KEYRING}.\n\nEarmark can keep passwords in the library file instead. They are not encrypted "
            "there: anyone who can read the file can read them (backups and exports leave them out). You can change "
            "this in Settings ▸ Passwords.")


def can_keep(db: Database) -> bool:
    """Whether a password can be kept now (runs in the pool: it asks D-Bus)."""
    return Secrets(db).can_keep()


class KeyringChoice(QObject):
    """Asks at most once per session; ``answer`` is None until then."""

    def __init__(self, runner: TaskRunner, window: QWidget) -> None:
        super().__init__(window)
        self._runner = runner
        self._window = window
        self.answer: bool | None = None
        self.box: QMessageBox | None = None

    def ensure(self, then: Callable[[bool], None], ask_again: bool = False) -> None:
        """Call ``then(True)`` once a password can be kept (the keyring answers, or the user chose the library
        file), ``then(False)`` when it cannot (the user said no, now or earlier in this session). With
        ``ask_again`` (the person asked for what needs the password, as Log In does), an earlier no is asked
        again rather than repeated: no dead end."""
        if ask_again and self.answer is False:
            self.answer = None
        self._runner.read(can_keep, on_done=lambda ok: then(True) if ok else self._ask(then))

    def _ask(self, then: Callable[[bool], None]) -> None:
        if self.answer is not None:
            then(self.answer)
            return
        box = QMessageBox(QMessageBox.Icon.Warning, "No keyring", QUESTION, parent=self._window)
        box.setObjectName("keyringChoice")
        keep = box.addButton("&Keep in the Library File", QMessageBox.ButtonRole.AcceptRole)
        box.addButton("&Don't Keep Passwords", QMessageBox.ButtonRole.RejectRole)

        def decided() -> None:
            self.box = None
            self.answer = box.clickedButton() is keep
            if self.answer:
                self._runner.write(set_setting, OPT_IN, True, on_done=lambda _none: then(True))
            else:
                then(False)

        box.finished.connect(decided)
        self.box = box
        box.open()
