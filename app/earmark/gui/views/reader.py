"""The reader: one article in a readable column, light or dark, its highlights marked, its place kept. The page is
dark in the dark theme (also one chosen while it shows), and in the light theme when the Dark Reader is on."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QPoint, Qt, QUrl, Signal
from PySide6.QtGui import (
    QColor,
    QDesktopServices,
    QFont,
    QFontMetrics,
    QImage,
    QKeyEvent,
    QPalette,
    QResizeEvent,
    QShowEvent,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import QTextBrowser, QTextEdit, QWidget

from earmark.core.articles.anchor import locate, make_anchor, whole_words
from earmark.core.articles.readtime import reading_minutes
from earmark.core.models import Anchor, Note
from earmark.core.plurals import counted, verb
from earmark.gui.theme import is_dark
from earmark.gui.views.passage_in_view import block_top, select_passage

if TYPE_CHECKING:
    from earmark.core.articles.reader import ReaderDocument

COLUMN_CHARS = 68  # a comfortable line length
READING_FONTS = ("Source Serif 4", "Noto Serif", "DejaVu Serif", "Georgia", "Serif")  # the first one installed
MIN_MARGIN = 24
INTERNAL = "earmark"  # the scheme of the reader's own links (fetch again, load images): never in article text
THEMES = {  # background, text, secondary text, links, code background, highlight
    False: ("#fbfaf6", "#1f1f1f", "#6b6b6b", "#1a5fb4", "#efece4", "#fde68a"),
    True: ("#1e1f22", "#dcdcdc", "#9a9a9a", "#8ab4f8", "#2b2d31", "#7a5d12"),
}


_READER_KEYS = {Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_PageUp,
                Qt.Key.Key_PageDown, Qt.Key.Key_Home, Qt.Key.Key_End}
_FOREIGN_MODIFIERS = Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier


class ReaderView(QTextBrowser):
    """Shows a ReaderDocument. Links open in the system browser; images come only from ``add_image``.

    Signals: ``scrolled(float)``: the share of the article read, after the reader scrolled;
    ``internal_link(str)``: one of the reader's own links was clicked (``fetch`` or ``images``).
    """

    scrolled = Signal(float)
    internal_link = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("reader")
        self.setAccessibleName("Article")
        self.setOpenLinks(False)
        self.setTextInteractionFlags(self.textInteractionFlags() | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.anchorClicked.connect(self._on_link)
        self.document_shown: ReaderDocument | None = None
        self._images: dict[str, QImage] = {}
        self._highlights: list[Note] = []
        self._font_size = 13
        self._dark_wanted = False  # the Dark Reader setting (D): a dark page in the light theme too
        self._applied_dark = False
        self._restoring = False
        self._share = 0.0
        self._passage_at: int | None = None  # where the passage shown (show_passage) starts, until the person scrolls
        self.verticalScrollBar().valueChanged.connect(self._on_scroll)
        self.verticalScrollBar().rangeChanged.connect(self._on_range_changed)
        self._apply_theme()

    @property
    def item_id(self) -> int | None:
        """The id of the article shown."""
        return self.document_shown.item.id if self.document_shown else None

    # Showing -------------------------------------------------------------------------------------------

    def show_article(self, document: ReaderDocument, share: float) -> None:
        """Show ``document`` scrolled to ``share`` of it (0: the top)."""
        if self.document_shown is None or self.document_shown.item.id != document.item.id:
            self._images.clear()
            self._passage_at = None
        self.document_shown = document
        self._highlights = list(document.highlights)
        self._render(share)

    def set_style(self, font_size: int, dark: bool) -> None:
        """Font size in points, and light or dark colours (the place in the article is kept)."""
        self._font_size, self._dark_wanted = font_size, dark
        self._apply_theme()
        if self.document_shown is not None:
            self._render(self._share)

    def add_image(self, url: str, data: bytes) -> None:
        """An image of the article, loaded from the web: shown no wider than the column."""
        image = QImage()
        if not image.loadFromData(data):
            return
        width = self._column_width()
        self._images[url] = image.scaledToWidth(width) if image.width() > width else image

    def refresh_images(self) -> None:
        """Lay the article out again with the images loaded so far."""
        if self.document_shown is not None:
            self._render(self._share)

    def set_highlights(self, highlights: list[Note]) -> None:
        """Mark these highlights in the text (found by their quotes)."""
        self._highlights = list(highlights)
        self._mark_highlights()

    def clear_article(self) -> None:
        """Show nothing."""
        self.document_shown = None
        self._passage_at = None
        self._highlights = []
        self._images.clear()
        self.clear()

    def _render(self, share: float) -> None:
        assert self.document_shown is not None
        self._restoring = True
        try:
            self.setHtml(_page(self.document_shown))
            self._apply_margins()
            self._mark_highlights()
            self.document().documentLayout().documentSize()  # finish the layout: the scroll range is final
            self.scroll_to_share(share)
        finally:
            self._restoring = False

    @property
    def dark(self) -> bool:
        """Whether the page is dark: the dark theme, or the Dark Reader on."""
        return self._dark_wanted or is_dark()

    def changeEvent(self, event: QEvent) -> None:
        """A theme chosen while the article shows reaches its page at once."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and self.dark != self._applied_dark:
            self._apply_theme()
            if self.document_shown is not None:
                self._render(self._share)

    def _apply_theme(self) -> None:
        self._applied_dark = self.dark  # before setPalette: its PaletteChange finds nothing left to do
        background, text, secondary, link, code, _marker = THEMES[self._applied_dark]
        palette = self.palette()
        for role, colour in ((QPalette.ColorRole.Base, background), (QPalette.ColorRole.Text, text),
                             (QPalette.ColorRole.Link, link)):
            palette.setColor(role, QColor(colour))
        self.setPalette(palette)
        font = QFont(self.font())
        font.setFamilies(list(READING_FONTS))
        font.setStyleHint(QFont.StyleHint.Serif)
        font.setPointSize(self._font_size)
        self.document().setDefaultFont(font)
        self.document().setDefaultStyleSheet(
            f"a {{ color: {link}; }} p, li {{ line-height: 145%; }} h1 {{ font-size: x-large; }}"
            " h2 { font-size: large; } h3, h4 { font-size: medium; }"
            f" pre, code {{ background-color: {code}; font-family: monospace; }}"
            f" .meta, .image, .notice {{ color: {secondary}; }} blockquote {{ color: {secondary}; }}"
        )

    # The readable column ---------------------------------------------------------------------------------

    def _column_width(self) -> int:
        return QFontMetrics(self.document().defaultFont()).averageCharWidth() * COLUMN_CHARS

    def _apply_margins(self) -> None:
        margin = max(MIN_MARGIN, (self.viewport().width() - self._column_width()) // 2)
        root = self.document().rootFrame()
        frame = root.frameFormat()
        if frame.leftMargin() != margin:
            frame.setLeftMargin(margin)
            frame.setRightMargin(margin)
            frame.setTopMargin(MIN_MARGIN)
            frame.setBottomMargin(MIN_MARGIN * 2)
            root.setFrameFormat(frame)

    def event(self, event: QEvent) -> bool:
        """The keys that scroll and select (arrows, PgUp/PgDn, Home/End, with Shift) stay with the reader while it
        has the focus, instead of the window's player shortcuts on them (chapters, skips)."""
        if (event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent)
                and event.key() in _READER_KEYS and not event.modifiers() & _FOREIGN_MODIFIERS
                and not (event.modifiers() & Qt.KeyboardModifier.ControlModifier
                         and event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down))):  # Ctrl+Up/Down: the volume
            event.accept()
            return True
        return super().event(event)

    def showEvent(self, event: QShowEvent) -> None:
        """Qt scrolls a text view to its cursor when first shown: the reader stays at its place instead."""
        self._restoring = True
        try:
            super().showEvent(event)
            if self._passage_at is not None:
                self._scroll_to_passage()
            elif self.document_shown is not None:
                self.scroll_to_share(self._share)
        finally:
            self._restoring = False

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._restoring = True  # the scroll range follows the new width (_on_range_changed keeps the place)
        try:
            super().resizeEvent(event)
            if self.document_shown is not None:
                self._apply_margins()
        finally:
            self._restoring = False

    # Where the reader is -----------------------------------------------------------------------------------

    def share_read(self) -> float:
        """How far down the article the reader is: 0 at the top, 1 at the end."""
        bar = self.verticalScrollBar()
        return bar.value() / bar.maximum() if bar.maximum() > 0 else 0.0

    def scroll_to_share(self, share: float) -> None:
        """Scroll to ``share`` of the article."""
        bar = self.verticalScrollBar()
        bar.setValue(round(share * bar.maximum()))
        self._share = share  # kept even while hidden (no scroll range yet): shown, it is scrolled there
        self._park_cursor()

    def _on_range_changed(self, _minimum: int, maximum: int) -> None:
        """The text was laid out anew (a new width, font, images, or Qt finishing its layout): the same share of
        the article stays in view (or the passage shown stays at its top)."""
        if self._passage_at is not None:
            self._scroll_to_passage()
        elif self.document_shown is not None and maximum > 0:
            restoring, self._restoring = self._restoring, True
            try:
                self.verticalScrollBar().setValue(round(self._share * maximum))
            finally:
                self._restoring = restoring

    def _on_scroll(self, _value: int) -> None:
        if self._restoring or self.document_shown is None:
            return
        self._passage_at = None  # the person scrolled away from it
        self._share = self.share_read()
        self._park_cursor()
        self.scrolled.emit(self._share)

    def _park_cursor(self) -> None:
        """Keep the (keyboard selection) cursor on the first lines in view: Qt scrolls back to the cursor when
        the reader gets the focus, and keyboard selection starts from it."""
        if self.textCursor().hasSelection():
            return
        restoring, self._restoring = self._restoring, True
        try:
            self.setTextCursor(self.cursorForPosition(QPoint(self.viewport().width() // 2,
                                                             self.fontMetrics().height() * 2)))
        finally:
            self._restoring = restoring

    def show_passage(self, text: str) -> bool:
        """Bring a passage of the article (its words as Ask cut them from the saved text) to the top of the view,
        selected (H highlights it); False when the article shown does not hold it."""
        start = select_passage(self, text)
        if start is None:
            return False
        self._passage_at = start
        self._scroll_to_passage()
        return True

    def _scroll_to_passage(self) -> None:
        """The passage shown at the top of the view (as the layout settles too), its place kept as progress."""
        assert self._passage_at is not None
        bar = self.verticalScrollBar()
        restoring, self._restoring = self._restoring, True
        try:
            bar.setValue(block_top(self, self._passage_at) - MIN_MARGIN)
        finally:
            self._restoring = restoring
        if bar.maximum() > 0 and self.share_read() != self._share:
            self._share = self.share_read()
            self.scrolled.emit(self._share)

    # Highlights ----------------------------------------------------------------------------------------------

    def selected_quote(self) -> tuple[str, Anchor] | None:
        """The selected words and the anchor that finds them again; None without a selection."""
        cursor = self.textCursor()
        if not cursor.hasSelection() or self.document_shown is None:
            return None
        text = self.document().toPlainText()
        quote, anchor = make_anchor(text, *whole_words(text, cursor.selectionStart(), cursor.selectionEnd()))
        return (quote, anchor) if quote.strip() else None

    def highlight_span(self, note: Note) -> tuple[int, int] | None:
        """Where a highlight is in the text shown, if its quote is there."""
        if note.anchor is None:
            return None
        return locate(self.document().toPlainText(), note.quote, note.anchor)

    def scroll_to_highlight(self, note: Note) -> None:
        """Bring a highlight into view."""
        span = self.highlight_span(note)
        if span is not None:
            cursor = QTextCursor(self.document())
            cursor.setPosition(span[0])
            self.setTextCursor(cursor)
            self.ensureCursorVisible()

    def _mark_highlights(self) -> None:
        marker = QTextCharFormat()
        marker.setBackground(QColor(THEMES[self.dark][5]))
        selections = []
        for note in self._highlights:
            span = self.highlight_span(note)
            if span is None:
                continue
            selection = QTextEdit.ExtraSelection()
            cursor = QTextCursor(self.document())
            cursor.setPosition(span[0])
            cursor.setPosition(span[1], QTextCursor.MoveMode.KeepAnchor)
            selection.cursor, selection.format = cursor, marker
            selections.append(selection)
        self.setExtraSelections(selections)

    # Resources and links ---------------------------------------------------------------------------------------

    def loadResource(self, type_: int, name: QUrl | str) -> object:
        """Only images already loaded for this article (nothing is fetched while rendering)."""
        url = name.toString() if isinstance(name, QUrl) else name
        return self._images.get(url)

    def _on_link(self, url: QUrl) -> None:
        if url.scheme() == INTERNAL:
            self.internal_link.emit(url.path())
        elif url.scheme() in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)


def _page(document: ReaderDocument) -> str:
    """The article's page: title, facts, notices (why it is only a link; images held back), then the body."""
    item, state = document.item, document.state
    facts = [document.author or "", item.source or "", (item.published or "")[:10], reading_minutes(item.duration)]
    if state.read:
        facts.append("read")
    elif state.progress:
        facts.append(f"{round(state.progress * 100)}% read")
    if state.archived:
        facts.append("archived")
    parts = [f"<h1>{html.escape(item.title)}</h1>",
             f"<p class='meta'>{html.escape(' · '.join(f for f in facts if f))}</p>"]
    if state.fetch_problem and not document.body:
        parts.append(f"<p class='notice'>This article is saved as its link only. {html.escape(state.fetch_problem)} "
                     f"<a href='{INTERNAL}:fetch'>Fetch it again</a></p>")
    if document.images and not state.images_allowed:
        images = len(document.images)
        parts.append(f"<p class='notice'>{counted(images, 'image')} {verb(images, 'is', 'are')} not loaded: nothing is "
                     f"fetched from the web unless you allow it. <a href='{INTERNAL}:images'>Load the images of this "
                     "article</a> (I)</p>")
    if item.url and item.url.startswith(("http://", "https://")):
        parts.append(f"<p class='meta'><a href='{html.escape(item.url)}'>Open the original page</a></p>")
    parts.append(document.body or "<p class='meta'><i>No text was saved for this article.</i></p>")
    return "".join(parts)
