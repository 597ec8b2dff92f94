"""The dialog that takes the person's own Podcast Index API key and secret (podcastindex.org gives both free)."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QWidget

from earmark.gui.views.credentials import secret_form


class PodcastIndexKeyDialog(QDialog):
    """Asks for the API key and secret; read ``key`` and ``secret`` after ``accepted``."""

    def __init__(self, key: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("podcastIndexKeyDialog")
        self.setWindowTitle("Podcast Index Key")
        self.key_edit, self.secret_edit = secret_form(
            self, "Podcast Index answers searches made with your own API key and secret, which podcastindex.org "
                  "gives for free. The secret is kept in your system keyring; searches ask Podcast Index from then on.",
            ("API &key:", "podcastIndexApiKey"), ("API &secret:", "podcastIndexSecret"), key)
        (self.secret_edit if key else self.key_edit).setFocus()

    @property
    def key(self) -> str:
        """The key typed (stripped)."""
        return self.key_edit.text().strip()

    @property
    def secret(self) -> str:
        """The secret typed (stripped)."""
        return self.secret_edit.text().strip()
