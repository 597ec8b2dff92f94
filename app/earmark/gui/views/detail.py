"""The detail pane: the selected item's title, facts and show notes or article text (sanitized)."""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QImage, QTextDocument
from PySide6.QtWidgets import QTextBrowser, QWidget

from earmark.core.articles.readtime import reading_minutes
from earmark.core.html import sanitize
from earmark.core.models import Chapter, Download, Item, Source
from earmark.core.sample_clips import is_sample_clip
from earmark.core.timefmt import format_ago, format_clock
from earmark.gui.models.items import progress_text
from earmark.gui.models.sources import status_text
from earmark.gui.theme import accents
from earmark.gui.views.in_sight import bring_forward
from earmark.gui.views.passage_in_view import PassageHold, select_passage

if TYPE_CHECKING:
    from earmark.gui.covers.cache import CoverCache

COVER_URL = "earmark-cover:shown"  # the name the cover goes by in the pane's HTML
DETAIL_COVER = 88  # logical pixels
PASSAGE_MARGIN = 8  # a passage shown is this far below the pane's top
FAVOURITE = " <span title='A favourite (F marks or unmarks it)'>★</span>"  # after the title of a favourite


class DetailPane(QTextBrowser):
    """Shows one item, with its chapters and download. Links open in the system browser; nothing remote is
    loaded. Signal: ``chapter_chosen(int)`` when a chapter's link is clicked (its index)."""

    chapter_chosen = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("detailPane")
        self.setAccessibleName("Item details")
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._on_link)
        self.item_id: int | None = None
        self._shown: Callable[[], None] = lambda: self.show_item(None)  # renders what shows, in today's colours
        self._covers: CoverCache | None = None
        self._cover: tuple[str | None, str] | None = None  # the image address and title of the cover shown
        self._passage: tuple[int, str, bool] | None = None  # an item's passage to show (id, words, shown yet)
        self._held = PassageHold(self, PASSAGE_MARGIN)
        self.show_item(None)

    def use_covers(self, covers: CoverCache) -> None:
        """Show the item's (or feed's) cover beside its title, from ``covers``; render again when it arrives."""
        self._covers = covers
        covers.changed.connect(lambda url: self._shown() if self._cover and self._cover[0] == url else None)
        self._shown()

    def _heading(self, title: str, image_url: str | None, cover_title: str, favourite: bool = False) -> str:
        """The title as a heading (a star after a favourite's), beside the cover when covers are shown."""
        title = html.escape(title) + (FAVOURITE if favourite else "")
        if self._covers is None:
            return f"<h2>{title}</h2>"
        self._cover = (image_url, cover_title)  # floats on the right, after the title: the text starts with it
        return (f"<h2>{title}<img src='{COVER_URL}' width='{DETAIL_COVER}' height='{DETAIL_COVER}' "
                "align='right'></h2>")

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        """Render again in the new theme's colours (links and muted text are coloured when rendered)."""
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange, QEvent.Type.StyleChange):
            self._shown()

    def _on_link(self, url: QUrl) -> None:
        if url.scheme() == "chapter" and url.path().isdigit():
            self.chapter_chosen.emit(int(url.path()))
        else:
            _open_external(url)

    def show_passage(self, item_id: int, text: str) -> None:
        """Show a passage of the item's show notes (its words: an answer of Ask) selected at the top of the pane,
        the pane in front: now if the item shows, else once it does."""
        self._passage = (item_id, text, False)
        bring_forward(self)
        if self.item_id == item_id:
            self._shown()

    def show_item(self, item: Item | None, chapters: list[Chapter] | None = None, current: int = -1,
                  download: Download | None = None) -> None:
        """Render ``item`` (or a hint when nothing is selected), its chapters (``current`` in bold) and the
        state of its download."""
        self._shown = lambda: self.show_item(item, chapters, current, download)
        if item is None:
            self.item_id = self._passage = None
            self.setHtml("<p style='color:gray'>Select an episode or article to see its notes.</p>")
            return
        facts = [item.source or "", (item.published or "")[:10]]
        if item.duration:
            facts.append(reading_minutes(item.duration) if item.kind == "article" else format_clock(item.duration))
        state = progress_text(item)
        if state:
            facts.append(state)
        colours = accents()
        tags = "".join(f" <span style='color:{colours.tag}'>#{html.escape(t)}</span>" for t in item.tags)
        # Feeds only give web pages; a restored backup or an edited library may hold any text (robustness suite).
        web_page = item.url and item.url.lower().startswith(("http://", "https://"))
        link = f"<p><a href='{html.escape(item.url or '')}'>Open the page</a></p>" if web_page else ""
        if item.kind == "article":
            link += "<p style='color:gray'>Return opens it in the reader, where you left it.</p>"
        if is_sample_clip(item.enclosure_url):
            link += (f"<p style='color:{colours.muted}'>A sample: it plays a short clip of the episode; the "
                     "duration shown is the whole episode's.</p>")
        body = sanitize(item.content or item.description, item.url) or "<p><i>No notes.</i></p>"
        link += _download_html(download) + _chapters_html(chapters or [], current)
        same_item = self.item_id == item.id
        scrolled, held = self.verticalScrollBar().value(), self._held.at is not None
        passage = self._passage if self._passage is not None and self._passage[0] == item.id else None
        if passage is None and self._passage is not None and self._passage[2]:
            self._passage = None  # another item shows: the passage shown is left
        self.setHtml(
            self._heading(item.title, item.image_url, item.source or item.title, item.favourite) +
            f"<p style='color:{colours.muted}'>{html.escape(' · '.join(f for f in facts if f))}{tags}</p>{link}{body}"
        )
        self.item_id = item.id
        if passage is not None and (held or not passage[2]):  # to show, or still shown at the top
            self._held.show(passage[1])
            self._passage = (item.id, passage[1], True)
            return
        if passage is not None:
            select_passage(self, passage[1])  # still marked where the person scrolled to
        if same_item:  # a refresh of the same item (its progress changed) keeps the reader's place
            self.verticalScrollBar().setValue(scrolled)

    def show_source(self, source: Source | None) -> None:
        """Render a feed's refresh state: where it is, how its last checks went, what failed in full."""
        self._shown = lambda: self.show_source(source)
        self.item_id = self._passage = None
        if source is None:
            self.setHtml("<p style='color:gray'>Select a feed to see its status.</p>")
            return
        rows = [
            ("Status", status_text(source)),
            ("Items", str(source.item_count)),
            ("Last checked", format_ago(source.last_checked)),
            ("Last new item", format_ago(source.last_new)),
        ]
        if source.failures:
            rows.append(("Failed checks in a row", str(source.failures)))
        if source.retry_after:
            rows.append(("Next automatic check", source.retry_after.replace("T", " ")[:16] + " UTC"))
        if source.has_credentials:
            rows.append(("Password", "stored"))
        table = "".join(f"<tr><td style='color:gray; padding-right:8px'>{name}</td><td>{html.escape(value)}</td></tr>"
                        for name, value in rows)
        error = f"<p><b>Last error</b><br>{html.escape(source.last_error)}</p>" if source.last_error else ""
        hint = {
            "auth": "<p>Set its user name and password (Feeds ▸ Set Feed Password…), then it is checked again.</p>",
            "gone": "<p>The server says this feed was removed. Automatic refreshes leave it alone; "
                    "Shift+F5 checks it anyway.</p>",
            "error": "<p>Shift+F5 checks it again now.</p>",
        }.get(source.status, "")
        link = f"<p><a href='{html.escape(source.link)}'>Open the website</a></p>" if source.link else ""
        self.setHtml(
            self._heading(source.title, source.image_url, source.title) + "<p style='color:gray'>"
            f"{html.escape(source.url or '')}</p>"
            f"{link}<table>{table}</table>{error}{hint}"
        )

    def loadResource(self, type_: int, name: QUrl | str) -> object:
        """Never fetch remote images or files while rendering notes.

        Images get a blank pixel rather than nothing: given nothing, Qt loads the name from the disk itself
        (``<img src="/home/me/photo.png">`` in a feed's notes was shown; found by the robustness suite)."""
        if type_ == QTextDocument.ResourceType.ImageResource:
            if self._covers is not None and self._cover is not None and QUrl(name).toString() == COVER_URL:
                return self._covers.pixmap(self._cover[0], self._cover[1], DETAIL_COVER)
            return _blank_image()
        return None


@cache
def _blank_image() -> QImage:
    image = QImage(1, 1, QImage.Format.Format_ARGB32)
    image.fill(0)
    return image


def _chapters_html(chapters: list[Chapter], current: int) -> str:
    if not chapters:
        return ""
    rows = []
    for index, chapter in enumerate(chapters):
        title = html.escape(chapter.title)
        title = f"<b>{title}</b>" if index == current else title
        rows.append(f"<tr><td style='color:gray; padding-right:8px'>{format_clock(chapter.start)}</td>"
                    f"<td><a href='chapter:{index}'>{title}</a></td></tr>")
    made = " · made by Earmark from the transcript" if chapters[0].source == "made" else ""
    return f"<p><b>Chapters</b> (Alt+PgUp/PgDn){made}</p><table>{''.join(rows)}</table>"


def _download_html(download: Download | None) -> str:
    if download is None:
        return ""
    if download.status == "done":
        text = f"Downloaded ({(download.size or 0) / 1048576:.1f} MB)"
    elif download.status == "failed":
        text = f"Download failed: {html.escape(download.error or '')}"
    elif download.status == "paused":
        share = f" at {download.received * 100 // download.size}%" if download.size else ""
        text = f"Download paused{share} (Ctrl+Shift+D resumes)"
    else:
        text = "Downloading…" if download.status == "downloading" else "Download queued"
    return f"<p style='color:gray'>{text}</p>"


def _open_external(url: QUrl) -> None:
    if url.scheme() in ("http", "https", "mailto"):
        QDesktopServices.openUrl(url)
