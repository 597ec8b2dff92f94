"""The dialog that asks for a feed's user name and password."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QWidget


def secret_form(dialog: QDialog, explanation: str, name: tuple[str, str], secret: tuple[str, str],
                text: str = "") -> tuple[QLineEdit, QLineEdit]:
    """Lay ``dialog`` out as an explanation, a name and a hidden secret (each its label and object name), and
    OK/Cancel; returns the two fields (the name's holding ``text``)."""
    said = QLabel(explanation)
    said.setWordWrap(True)
    name_edit, secret_edit = QLineEdit(text), QLineEdit()
    name_edit.setObjectName(name[1])
    secret_edit.setObjectName(secret[1])
    secret_edit.setEchoMode(QLineEdit.EchoMode.Password)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    form = QFormLayout(dialog)
    form.addRow(said)
    form.addRow(name[0], name_edit)
    form.addRow(secret[0], secret_edit)
    form.addRow(buttons)
    return name_edit, secret_edit


class CredentialsDialog(QDialog):
    """Asks for basic-auth credentials; read ``user`` and ``password`` after ``accepted``."""

    def __init__(self, feed_title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("credentialsDialog")
        self.setWindowTitle("Feed Password")
        self.user_edit, self.password_edit = secret_form(
            self, f"“{feed_title}” needs a user name and password.\n"
                  "The password is kept in your system keyring, for this feed's server only.",
            ("&User name:", "user"), ("&Password:", "password"))

    @property
    def user(self) -> str:
        """The user name typed (stripped)."""
        return self.user_edit.text().strip()

    @property
    def password(self) -> str:
        """The password typed (as is)."""
        return self.password_edit.text()
