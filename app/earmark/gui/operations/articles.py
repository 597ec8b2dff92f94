"""Operations that save articles: pages fetched (or not) in the pool, links of an item, imported reading lists.
Each runs on the writer and returns what changed."""

from __future__ import annotations

from earmark.core.articles.capture import link_only
from earmark.core.articles.imports import ReadingList, import_entries
from earmark.core.articles.readtime import reading_minutes
from earmark.core.articles.store import ArticleData, store_article
from earmark.core.db.database import Database
from earmark.core.db.items import get_item, items_by_ids
from earmark.core.models import Changes, ItemState
from earmark.core.plurals import counted


def store_captured(db: Database, article: ArticleData) -> Changes:
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
    return Changes(items={stored.item_id}, structure=stored.new, states={ItemState.TEXT}, message=message)


def store_links(db: Database, links: list[tuple[str, str]], origin: str) -> Changes:
    """Save links (address, text) as articles titled by their text, their pages to be fetched."""
    new = []
    for url, text in links:
        stored = store_article(db, link_only(url, text, f"Saved as a link from “{origin}”; the page is being "
                                                        "fetched."))
        if stored.new:
            new.append(stored.item_id)
    return Changes(items=set(new), structure=True, message=f"Saved {counted(len(new), 'link')} from “{origin}”.")


def store_reading_list(db: Database, reading_list: ReadingList) -> tuple[Changes, list[str]]:
    """Import a reading list read beforehand; returns the addresses of the new articles saved as links only,
    whose pages are to be fetched."""
    result = import_entries(db, reading_list)
    items = items_by_ids(db, result.unfetched, full=False)
    to_fetch = [items[item_id].url or "" for item_id in result.unfetched if item_id in items]
    return Changes(items=set(result.new), structure=True, message=result.message), to_fetch
