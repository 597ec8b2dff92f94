"""What the reader shows of an article: its sanitized text (images held back unless allowed), its state and
its highlights. Read in a worker."""

from __future__ import annotations

import html
import re
from dataclasses import field

from earmark.core.db.database import Database
from earmark.core.db.items import get_item
from earmark.core.db.notes import highlights_for_item
from earmark.core.db.reading import ArticleState, article_state
from earmark.core.html import sanitize
from earmark.core.models import Item, Note
from earmark.core.records import record

_IMAGE = re.compile(r"<img\b[^>]*>", re.IGNORECASE)
_ATTRIBUTE = re.compile(r'\b(src|alt)="([^"]*)"')


@record
class ReaderDocument:
    """An article ready for the reader: ``body`` is safe HTML; ``images`` the web images it shows (loaded only
    when the article's images are allowed, placeholders otherwise)."""

    item: Item
    state: ArticleState
    author: str | None
    body: str
    images: list[str] = field(default_factory=list)
    highlights: list[Note] = field(default_factory=list)


def reader_document(db: Database, item_id: int) -> ReaderDocument:
    """The article (or episode show notes) with the given id, for the reader."""
    item = get_item(db, item_id)
    state = article_state(db, item_id)
    author = db.execute("SELECT author FROM items WHERE id = ?", [item_id]).fetchone()[0]
    body, images = hold_images(sanitize(item.content or item.description, item.url), state.images_allowed)
    return ReaderDocument(item, state, author, body, images, highlights_for_item(db, item_id))


def hold_images(body: str, allowed: bool) -> tuple[str, list[str]]:
    """The web images of sanitized ``body``, and the body with each image replaced by a placeholder naming it
    unless ``allowed``."""
    images: list[str] = []

    def replace(match: re.Match[str]) -> str:
        attributes = dict(_ATTRIBUTE.findall(match.group(0)))
        src = html.unescape(attributes.get("src", ""))
        if src.startswith(("http://", "https://")):
            images.append(src)
            if allowed:
                return match.group(0)
        alt = attributes.get("alt", "").strip()
        return f'<span class="image">[image{": " + alt if alt else ""}]</span>'

    return _IMAGE.sub(replace, body), images
