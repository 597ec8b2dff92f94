"""The transcript pane: the episode's transcript, the line being spoken marked and kept in view."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QLabel, QListView, QPushButton, QVBoxLayout, QWidget

from earmark.core.models import Transcript
from earmark.gui.models.transcript import StartRole, TranscriptModel

_OFFERS = {"transcribe": "Transcribe", "download": "Download First", "retry": "Retry"}


class TranscriptPane(QWidget):
    """Shows one item's transcript, or why there is none yet (loading, failed with a Retry button).

    Signals: ``seek_requested(int, float)`` (item id, seconds) when a line is clicked; ``retry_requested(int)``;
    ``offer_taken(str)`` when the button offered where there is no transcript (Transcribe, Download First, Retry:
    ``transcribe``, ``download``, ``retry``) is pressed.
    """

    seek_requested = Signal(int, float)
    retry_requested = Signal(int)
    offer_taken = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("transcriptPane")
        self.item_id: int | None = None
        self.title = QLabel("<b>Transcript</b>")
        self.status = QLabel()
        self.status.setObjectName("transcriptStatus")
        # Plain text: the sentence may quote a feed's transcript URL, and a QLabel takes text with a tag in it for
        # HTML (and loads the local images it names).
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        self.retry = QPushButton("Try again")
        self.retry.clicked.connect(lambda: self.retry_requested.emit(self.item_id))
        self._offered = ""
        self.offer = QPushButton()
        self.offer.setObjectName("transcriptOffer")
        self.offer.setAccessibleName("Get a transcript")  # its text says how, once it is offered
        self.offer.setAccessibleDescription("Downloads the episode or transcribes it on this computer")
        self.offer.clicked.connect(lambda: self.offer_taken.emit(self._offered))
        self.model = TranscriptModel(self)
        self.lines = QListView()
        self.lines.setObjectName("transcriptLines")
        self.lines.setAccessibleName("Transcript")
        self.lines.setModel(self.model)
        self.lines.setWordWrap(True)
        self.lines.setUniformItemSizes(False)
        self.lines.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.lines.clicked.connect(self._on_clicked)
        self.lines.activated.connect(self._on_clicked)
        header = QHBoxLayout()
        header.addWidget(self.title)
        header.addWidget(self.status, 1)
        header.addWidget(self.retry)
        header.addWidget(self.offer)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addLayout(header)
        layout.addWidget(self.lines, 1)
        self.show_message(None, "")

    def show_message(self, item_id: int | None, message: str, can_retry: bool = False) -> None:
        """Show a state instead of lines (loading, or the sentence saying why the transcript failed)."""
        self.item_id = item_id
        self.model.set_transcript(None)
        self.status.setText(message)
        self.retry.setVisible(can_retry)
        self.offer.hide()

    def show_absence(self, item_id: int, sentence: str, action: str) -> None:
        """Say why the episode has no transcript, with the button for ``action`` (none for "")."""
        self.show_message(item_id, sentence)
        self._offered = action
        self.offer.setText(_OFFERS.get(action, ""))
        self.offer.setVisible(action in _OFFERS)

    def show_transcript(self, item_id: int, transcript: Transcript) -> None:
        """Show the lines of ``item_id``'s transcript."""
        self.item_id = item_id
        self.model.set_transcript(transcript)
        left_out = f"; {transcript.skipped} unreadable left out" if transcript.skipped else ""
        made = ", made on this computer" if transcript.format == "generated" else ""
        self.status.setText(f"{len(transcript.cues)} lines{left_out}{made} — click one, or Enter on it, to play "
                            "from there")
        self.retry.hide()
        self.offer.hide()

    def follow(self, seconds: float) -> None:
        """Mark the line spoken at ``seconds`` and scroll it into view."""
        if self.model.set_position(seconds) and self.model.current is not None:
            self.lines.scrollTo(self.model.index(self.model.current, 0), QAbstractItemView.ScrollHint.PositionAtCenter)

    def _on_clicked(self, index: QModelIndex) -> None:
        if self.item_id is not None and index.isValid():
            self.seek_requested.emit(self.item_id, float(index.data(StartRole)))
            self.follow(float(index.data(StartRole)))

