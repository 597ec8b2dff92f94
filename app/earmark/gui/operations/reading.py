"""Operations on the reading list: storing fetched articles and links, imports, reading progress, read and
archived state, images allowed. Each runs on the writer and returns what changed."""

from __future__ import annotations

import sqlite_utils

from earmark.core.articles.capture import link_only
from earmark.core.articles.imports import ReadingList, import_entries
from earmark.core.articles.readtime import reading_minutes
from earmark.core.articles.store import ArticleData, store_article
from earmark.core.db.items import get_item, items_by_ids
from earmark.core.db.reading import save_reading_progress, set_archived, set_images_allowed, set_read
from earmark.core.models import Changes


def store_captured(db: sqlite_utils.Database, article: ArticleData) -> Changes:
    """Store a fetched (or unfetchable) article; the message says which."""
    stored = store_article(db, article)
    item = get_item(db, stored.item_id)
    if stored.in_feed:
        message = f"“{item.title}” is already in your library, from its feed."
    elif article.problem and not item.content:
        message = f"Saved “{item.title}” as a link: {article.problem}"
    else:
        length = reading_minutes(item.duration)
        message = f"{'Saved' if stored.new else 'Updated'} “{item.title}”{' (' + length + ')' if length else ''}."
    return Changes(items={stored.item_id}, structure=stored.new, message=message)


def store_links(db: sqlite_utils.Database, links: list[tuple[str, str]], origin: str) -> tuple[Changes, list[int]]:
    """Save links (address, text) as articles titled by their text, to be fetched; returns the new ids too."""
    new = []
    for url, text in links:
        stored = store_article(db, link_only(url, text, f"Saved as a link from “{origin}”; the page is being "
                                                        "fetched."))
        if stored.new:
            new.append(stored.item_id)
    return Changes(items=set(new), structure=True, message=f"Saved {len(new)} link(s) from “{origin}”."), new


def store_reading_list(db: sqlite_utils.Database, reading_list: ReadingList) -> tuple[Changes, list[str]]:
    """Import a reading list read beforehand; returns the addresses of the new articles saved as links only,
    whose pages are to be fetched."""
    result = import_entries(db, reading_list)
    items = items_by_ids(db, result.unfetched, full=False)
    to_fetch = [items[item_id].url or "" for item_id in result.unfetched if item_id in items]
    return Changes(items=set(result.new), structure=True, message=result.message), to_fetch


def keep_reading_progress(db: sqlite_utils.Database, item_id: int, share: float) -> Changes:
    """Keep how far an article was read."""
    save_reading_progress(db, item_id, share)
    return Changes(items={item_id})


def mark_read(db: sqlite_utils.Database, item_ids: list[int], read: bool) -> Changes:
    """Mark items read or unread."""
    set_read(db, item_ids, read)
    return Changes(items=set(item_ids), structure=True,
                   message=f"Marked {len(item_ids)} item(s) {'read' if read else 'unread'}.")


def archive(db: sqlite_utils.Database, item_ids: list[int], archived: bool) -> Changes:
    """Move articles to the archive or back."""
    set_archived(db, item_ids, archived)
    where = "to the archive" if archived else "back to the reading list"
    return Changes(items=set(item_ids), structure=True, message=f"Moved {len(item_ids)} article(s) {where}.")


def allow_images(db: sqlite_utils.Database, item_id: int, allowed: bool) -> Changes:
    """Let an article's images load from the web, or stop them."""
    set_images_allowed(db, item_id, allowed)
    return Changes(items={item_id}, message="Images of this article load from the web now." if allowed
                   else "Images of this article are no longer loaded.")
