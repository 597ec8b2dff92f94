"""Help ▸ About Earmark: the version and licence, where the library and the log are, and the user guide."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

import earmark
from earmark import __version__

GUIDE_URL = "https://github.com/earmark/earmark/blob/main/docs/user-guide.md"
LICENCE = "GNU General Public License, version 3 or later (GPL-3.0-or-later)"


def guide_url() -> QUrl:
    """The user guide: the copy beside the program when there is one (a source checkout), else the web's."""
    local = Path(earmark.__file__).resolve().parents[2] / "docs" / "user-guide.md"
    return QUrl.fromLocalFile(str(local)) if local.is_file() else QUrl(GUIDE_URL)


def _place(path: Path) -> str:
    """``path`` as a link to the folder that holds it (a file manager opens it there)."""
    folder = QUrl.fromLocalFile(str(path.parent)).toString()
    return f'<a href="{html.escape(folder)}">{html.escape(str(path))}</a>'


class AboutDialog(QDialog):
    """What Earmark is and where its files are; the links open in the desktop's apps (Tab reaches them)."""

    def __init__(self, library: Path, log: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.setWindowTitle("About Earmark")
        self.text = QLabel(
            f"<h2>Earmark {html.escape(__version__)}</h2>"
            "<p>A library for podcasts and articles, with notes, driven from the keyboard.</p>"
            f"<p>Licence: {LICENCE}.</p>"
            f"<p>Library: {_place(library)}</p>"
            f"<p>Log: {_place(log)}</p>"
            f'<p><a href="{html.escape(guide_url().toString())}">The user guide</a></p>')
        self.text.setObjectName("aboutText")
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setWordWrap(True)
        self.text.setOpenExternalLinks(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        self.resize(560, 0)
