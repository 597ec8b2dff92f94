"""The dialog that takes the person's own Podcast Index API key and secret (podcastindex.org gives both free)."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QWidget


class PodcastIndexKeyDialog(QDialog):
    """Asks for the API key and secret; read ``key`` and ``secret`` after ``accepted``."""

    def __init__(self, key: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("podcastIndexKeyDialog")
        self.setWindowTitle("Podcast Index Key")
        explanation = QLabel("Podcast Index answers searches made with your own API key and secret, which "
                             "podcastindex.org gives for free. The secret is kept in your system keyring; searches "
                             "ask Podcast Index from then on.")
        explanation.setWordWrap(True)
        self.key_edit = QLineEdit(key)
        self.key_edit.setObjectName("podcastIndexApiKey")
        self.secret_edit = QLineEdit()
        self.secret_edit.setObjectName("podcastIndexSecret")
        self.secret_edit.setEchoMode(QLineEdit.EchoMode.Password)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(explanation)
        form.addRow("API &key:", self.key_edit)
        form.addRow("API &secret:", self.secret_edit)
        form.addRow(buttons)
        (self.secret_edit if key else self.key_edit).setFocus()

    @property
    def key(self) -> str:
        """The key typed (stripped)."""
        return self.key_edit.text().strip()

    @property
    def secret(self) -> str:
        """The secret typed (stripped)."""
        return self.secret_edit.text().strip()
