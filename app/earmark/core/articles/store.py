"""Storing articles under their site's source."""

from __future__ import annotations

from dataclasses import dataclass, field

import sqlite_utils

from earmark.core.db.connection import write_transaction
from earmark.core.db.merge import merge_entries
from earmark.core.db.sources import site_source
from earmark.core.db.tags import tag_item
from earmark.core.models import EntryData, SubscribeResult


@dataclass(slots=True)
class ArticleData:
    """An article to save: its page URL, metadata and body HTML."""

    title: str
    url: str
    site: str
    html: str
    author: str | None = None
    published: str | None = None
    tags: list[str] = field(default_factory=list)


def save_articles(db: sqlite_utils.Database, articles: list[ArticleData]) -> list[int]:
    """Save articles (an article already saved under the same URL is updated, never duplicated)."""
    changed: list[int] = []
    with write_transaction(db):
        for article in articles:
            source_id = site_source(db, article.site)
            result = SubscribeResult(source_id=source_id, title=article.site)
            entry = EntryData(
                identity=f"url:{article.url}", kind="article", title=article.title, url=article.url,
                published=article.published, author=article.author, content=article.html,
            )
            item_id = merge_entries(db, source_id, [entry], result)[entry.identity]
            if result.new:  # the article's suggested tags go on once; the user's edits stay
                tag_item(db, item_id, article.tags)
            changed.append(item_id)
    return changed
