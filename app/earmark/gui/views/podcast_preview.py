"""Add Podcast's preview of one podcast: what its directory says, then its feed's newest episodes; Subscribe or
Back to the results."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListView, QPushButton, QVBoxLayout, QWidget

from earmark.core.directory.results import DirectoryResult
from earmark.core.feeds.subscribe import ReadFeed
from earmark.core.html import to_text
from earmark.core.plurals import counted
from earmark.gui.models.directory_results import facts

if TYPE_CHECKING:
    from earmark.gui.covers.cache import CoverCache

NEWEST = 10  # episodes listed
DESCRIPTION_CHARS = 400
PREVIEW_COVER = 96  # logical pixels


class PodcastPreview(QWidget):
    """The preview page. Signals: ``subscribe_clicked()``, ``back_clicked()``."""

    subscribe_clicked = Signal()
    back_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("podcastPreview")
        self.title = QLabel()
        self.title.setObjectName("previewTitle")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.title.setFont(font)
        self.facts = QLabel()
        self.facts.setWordWrap(True)
        self.cover = QLabel()
        self.cover.setObjectName("previewCover")
        self.cover.setFixedSize(PREVIEW_COVER, PREVIEW_COVER)
        self.cover.hide()  # until covers are used
        self._covers: CoverCache | None = None
        self._shown: tuple[str, str] = ("", "")  # the image address and title of the podcast previewed
        self.description = QLabel()
        self.description.setObjectName("previewDescription")
        self.description.setTextFormat(Qt.TextFormat.PlainText)
        self.description.setWordWrap(True)
        self.status = QLabel()
        self.status.setObjectName("previewStatus")
        self.status.setWordWrap(True)
        self.episodes = QStringListModel(self)
        self.episode_list = QListView()
        self.episode_list.setObjectName("previewEpisodes")
        self.episode_list.setAccessibleName("Newest episodes")
        self.episode_list.setModel(self.episodes)
        self.subscribe_button = QPushButton("&Subscribe")
        self.subscribe_button.setObjectName("previewSubscribe")
        self.back_button = QPushButton("&Back to Results")
        self.back_button.setObjectName("previewBack")
        self.back_button.setAutoDefault(False)
        self.subscribe_button.clicked.connect(self.subscribe_clicked)
        self.back_button.clicked.connect(self.back_clicked)
        buttons = QHBoxLayout()
        buttons.addWidget(self.back_button)
        buttons.addStretch(1)
        buttons.addWidget(self.subscribe_button)
        heading = QVBoxLayout()
        for widget in (self.title, self.facts):
            heading.addWidget(widget)
        heading.addStretch(1)
        top = QHBoxLayout()
        top.addWidget(self.cover, 0, Qt.AlignmentFlag.AlignTop)
        top.addLayout(heading, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        for widget in (self.description, self.status):
            layout.addWidget(widget)
        layout.addWidget(self.episode_list, 1)
        layout.addLayout(buttons)

    def use_covers(self, covers: CoverCache) -> None:
        """Show the podcast's cover beside its title (its initials until it arrives)."""
        self._covers = covers
        self.cover.show()
        covers.changed.connect(self._on_cover)

    def _on_cover(self, url: str) -> None:
        if url and url == self._shown[0]:
            self._paint_cover()

    def _paint_cover(self) -> None:
        if self._covers is not None:
            self.cover.setPixmap(self._covers.pixmap(*self._shown, PREVIEW_COVER))

    def show_result(self, result: DirectoryResult, subscribed: bool) -> None:
        """Show what the directory said of ``result`` while its feed is read."""
        self.title.setText(result.title)
        self._shown = (result.image, result.title)
        self._paint_cover()
        self.facts.setText(f"{result.author or 'Unknown author'} · {facts(result, subscribed)}")
        self.description.setText(_short(result.description))
        self.episodes.setStringList([])
        self.status.setText(f"Reading its feed ({result.feed_url})…")
        self.subscribe_button.setText("&Show in Library" if subscribed else "&Subscribe")
        self.subscribe_button.setEnabled(subscribed)
        self.subscribe_button.setDefault(True)
        self.subscribe_button.setFocus()

    def show_feed(self, read: ReadFeed, subscribed: bool) -> None:
        """The feed is read: its description and newest episodes; Subscribe can be pressed."""
        feed = read.feed
        self.title.setText(feed.title)
        if feed.description:
            self.description.setText(_short(to_text(feed.description)))
        newest = sorted(feed.entries, key=lambda e: e.published or "", reverse=True)[:NEWEST]
        self.episodes.setStringList([f"{(e.published or '')[:10]}  {e.title}".strip() for e in newest])
        noun = ("episode", "episodes") if feed.kind == "podcast" else ("article", "articles")
        already = " You are subscribed to it already." if subscribed else ""
        self.status.setText(f"{counted(len(feed.entries), *noun)} in its feed; the newest:{already}")
        self.subscribe_button.setEnabled(True)
        self.subscribe_button.setFocus()

    def show_failure(self, message: str) -> None:
        """The feed could not be read: the sentence, and only Back."""
        self.status.setText(message)
        self.back_button.setFocus()


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= DESCRIPTION_CHARS else text[:DESCRIPTION_CHARS].rsplit(" ", 1)[0] + "…"
