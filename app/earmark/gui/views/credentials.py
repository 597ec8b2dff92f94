"""The dialog that asks for a feed's user name and password."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QWidget


class CredentialsDialog(QDialog):
    """Asks for basic-auth credentials; read ``user`` and ``password`` after ``accepted``."""

    def __init__(self, feed_title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("credentialsDialog")
        self.setWindowTitle("Feed Password")
        explanation = QLabel(f"“{feed_title}” needs a user name and password.\n"
                             "The password is kept in your system keyring, for this feed's server only.")
        explanation.setWordWrap(True)
        self.user_edit = QLineEdit()
        self.user_edit.setObjectName("user")
        self.password_edit = QLineEdit()
        self.password_edit.setObjectName("password")
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(explanation)
        form.addRow("&User name:", self.user_edit)
        form.addRow("&Password:", self.password_edit)
        form.addRow(buttons)

    @property
    def user(self) -> str:
        """The user name typed (stripped)."""
        return self.user_edit.text().strip()

    @property
    def password(self) -> str:
        """The password typed (as is)."""
        return self.password_edit.text()
