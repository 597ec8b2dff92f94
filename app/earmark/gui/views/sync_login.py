"""The dialog that sets up sync: the server's kind and address, the user name and password, this device's
name. It stays open with the server's answer until the login works (the controller does the talking)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QWidget,
)

from earmark.core.records import record

KIND_LABELS = (("gpodder", "gpodder.net or a server that speaks its API"), ("nextcloud", "Nextcloud (gPodder Sync)"))


@record(frozen=True)
class SyncLogin:
    """What the user typed."""

    kind: str
    server: str
    user: str
    password: str
    device: str


class SyncLoginDialog(QDialog):
    """Signals: ``submitted(SyncLogin)`` when OK is pressed with every field filled (the dialog stays open until
    ``done_logging_in``), ``logout_requested()`` for Log Out."""

    submitted = Signal(object)
    logout_requested = Signal()

    def __init__(self, server: str = "", user: str = "", device: str = "", kind: str = "gpodder",
                 logged_in: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("syncLoginDialog")
        self.setWindowTitle("Sync")
        self.setMinimumWidth(540)  # wrapped sentences need the room: the answer can be two lines long
        intro = QLabel("Keep subscriptions and play positions in step with your other devices (AntennaPod, Kasts, "
                       "gPodder) through a gpodder.net server or Nextcloud. The password is checked with the server "
                       "and kept in your system keyring.")
        intro.setWordWrap(True)
        self.kind_box = QComboBox()
        self.kind_box.setObjectName("kind")
        for value, label in KIND_LABELS:
            self.kind_box.addItem(label, value)
        self.kind_box.setCurrentIndex(max(0, self.kind_box.findData(kind)))
        self.server_edit = self._field("server", server, "https://gpodder.net")
        self.user_edit = self._field("user", user)
        self.password_edit = self._field("password")
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.device_edit = self._field("device", device, "earmark-this-computer")
        self.answer = QLabel()
        self.answer.setObjectName("answer")
        self.answer.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("&Log In")
        if logged_in:
            logout = self.buttons.addButton("Log &Out", QDialogButtonBox.ButtonRole.ResetRole)
            logout.clicked.connect(self.logout_requested.emit)
        self.buttons.accepted.connect(self._submit)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(intro)
        form.addRow("&Server:", self.kind_box)
        form.addRow("&Address:", self.server_edit)
        form.addRow("&User name:", self.user_edit)
        form.addRow("&Password:", self.password_edit)
        form.addRow("&Device:", self.device_edit)
        form.addRow(self.answer)
        form.addRow(self.buttons)
        (self.password_edit if server and user else self.server_edit).setFocus()

    def _field(self, name: str, text: str = "", placeholder: str = "") -> QLineEdit:
        edit = QLineEdit(text)
        edit.setObjectName(name)
        edit.setPlaceholderText(placeholder)
        return edit

    def _submit(self) -> None:
        login = SyncLogin(str(self.kind_box.currentData()), self.server_edit.text().strip(),
                          self.user_edit.text().strip(), self.password_edit.text(), self.device_edit.text().strip())
        if not (login.server and login.user and login.password):
            self.say("Give the server's address, your user name and your password.")
            return
        self.say(f"Checking with {login.server}…")
        self.buttons.setEnabled(False)
        self.submitted.emit(login)

    def say(self, sentence: str) -> None:
        """Show the server's answer (or what is missing) under the fields."""
        self.answer.setText(sentence)
        self.adjustSize()  # grow to show it whole

    def done_logging_in(self, error: str | None) -> None:
        """The login ended: close on success, else say why and let the user try again."""
        self.buttons.setEnabled(True)
        if error is None:
            self.accept()
        else:
            self.say(error)
            self.password_edit.setFocus()
