"""Storing articles under their site's source: new ones, and pages fetched again for an article already saved."""

from __future__ import annotations

from dataclasses import field

from earmark.core.articles.readtime import reading_seconds
from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.merge import merge_entries
from earmark.core.db.show_notes import markup, pack
from earmark.core.db.sources import site_source
from earmark.core.db.tags import tag_item
from earmark.core.html import to_text
from earmark.core.models import EntryData, SubscribeResult
from earmark.core.records import record


@record
class ArticleData:
    """An article to save: its page URL, metadata and body HTML. ``problem`` says why there is no body (the
    page could not be fetched or read): such an article is saved as its link."""

    title: str
    url: str
    site: str
    html: str
    author: str | None = None
    published: str | None = None
    tags: list[str] = field(default_factory=list)
    problem: str | None = None
    image_url: str | None = None  # the page's og:image
    site_icon: str | None = None  # its site's icon: the site's cover while it has none


@record
class StoredArticle:
    """Where an article went: its item id, whether it is new, and whether it came from a subscribed feed
    (then it was left as the feed has it)."""

    item_id: int
    new: bool
    in_feed: bool = False


def save_articles(db: Database, articles: list[ArticleData]) -> list[int]:
    """Save articles (an article already saved under the same URL is updated, never duplicated)."""
    changed: list[int] = []
    with write_transaction(db):
        for article in articles:
            source_id = site_source(db, article.site)
            result = SubscribeResult(source_id=source_id, title=article.site)
            entry = EntryData(
                identity=f"url:{article.url}", kind="article", title=article.title, url=article.url,
                published=article.published, author=article.author, content=article.html,
                duration=reading_seconds(to_text(article.html)), image_url=article.image_url,
            )
            item_id = merge_entries(db, source_id, [entry], result)[entry.identity]
            if result.new:  # the article's suggested tags go on once; the user's edits stay
                tag_item(db, item_id, article.tags)
            db.execute("UPDATE items SET fetch_problem = ? WHERE id = ?", [article.problem, item_id])
            _keep_site_icon(db, source_id, article.site_icon)
            changed.append(item_id)
    return changed


def find_article(db: Database, url: str) -> StoredArticle | None:
    """The article already in the library at ``url``: one saved to the reading list first, else one of a feed."""
    row = db.execute(
        """SELECT i.id, s.url IS NOT NULL FROM items i LEFT JOIN sources s ON s.id = i.source_id
           WHERE i.kind = 'article' AND i.url = ? ORDER BY s.url IS NOT NULL, i.id LIMIT 1""", [url],
    ).fetchone()
    return StoredArticle(int(row[0]), new=False, in_feed=bool(row[1])) if row else None


def store_article(db: Database, article: ArticleData) -> StoredArticle:
    """Save an article, or bring the saved one at the same URL up to date: its text, author and date from the
    page, its title only while it was a bare address. A page that could not be read never replaces text
    already saved; a feed's article is left to its feed."""
    with write_transaction(db):
        found = find_article(db, article.url)
        if found is None:
            [item_id] = save_articles(db, [article])
            return StoredArticle(item_id, new=True)
        if found.in_feed:
            return found
        title, content, description, old_text = db.execute(
            "SELECT title, content, description, text FROM items WHERE id = ?", [found.item_id]).fetchone()
        if article.problem is not None:
            if not content:
                db.execute("UPDATE items SET fetch_problem = ? WHERE id = ?", [article.problem, found.item_id])
            return found
        text = to_text(article.html)
        db.execute(
            """UPDATE items SET title = ?, author = coalesce(?, author), published = coalesce(?, published),
                   description = ?, content = ?, text = ?, duration = ?, fetch_problem = NULL,
                   image_url = coalesce(?, image_url) WHERE id = ?""",
            [article.title if title == article.url else title, article.author, article.published,
             pack(markup(description, old_text), text), pack(article.html, text), text, reading_seconds(text),
             article.image_url, found.item_id],
        )
        return found


def _keep_site_icon(db: Database, source_id: int, icon: str | None) -> None:
    """A site of saved articles takes the first icon one of its pages names (a feed's own image is left)."""
    if icon:
        db.execute("UPDATE sources SET image_url = ? WHERE id = ? AND url IS NULL AND image_url IS NULL",
                   [icon, source_id])
