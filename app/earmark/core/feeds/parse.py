"""Turning feed bytes into FeedData: the fast parser for plain well-formed feeds, feedparser for the rest (RSS
0.9x/1.0/2.0, Atom), json_feed.py for JSON Feed 1.0 and 1.1."""

from __future__ import annotations

from earmark.core.db.search_words import new_item_vocabulary
from earmark.core.db.show_notes import pack
from earmark.core.errors import FeedError
from earmark.core.feeds.defuse import defuse_doctype, repair_character_references
from earmark.core.feeds.entries import bozo_reason, bozo_warning, feed_data, feed_name, response_headers
from earmark.core.feeds.json_feed import looks_like_json, parse_json_feed
from earmark.core.feeds.namespaces import read_extras
from earmark.core.html import remembering_text, search_text
from earmark.core.models import FeedData


def parse_feed(data: bytes, url: str, content_type: str | None = None, *, fast: bool = True) -> FeedData:
    """Parse a feed document fetched from ``url`` (used to resolve relative links); ``content_type`` is the
    server's header, whose charset decides the encoding.

    Raises FeedError when the document is not a feed at all; a feed with recoverable errors is imported
    as far as it goes, with ``warning`` saying what was wrong. Plain well-formed feeds go through
    ``fast_parse``, which gives the same result as feedparser in a fraction of the time; ``fast=False``
    always uses feedparser (for comparing the two).
    """
    if not data.strip():
        raise FeedError(f"{feed_name(url)} is empty, so there is no feed to read.")
    if looks_like_json(data):
        return parse_json_feed(data, url)
    if fast:
        from earmark.core.feeds.fast_parse import fast_parse  # deferred: it imports feedparser

        feed = fast_parse(data, url, content_type)
        if feed is not None:
            return feed
    import feedparser  # deferred: it costs ~25 ms of start-up and only feed reading needs it

    data = repair_character_references(defuse_doctype(data, feed_name(url)))
    try:
        parsed = feedparser.parse(data, response_headers=response_headers(url, content_type), sanitize_html=False,
                                  resolve_relative_uris=False)
    except Exception as exc:  # found by fuzzing: feedparser's loose parser (for documents that are not well-formed
        # XML) has handlers that raise instead of setting bozo: TypeError on a stray </width>, UnicodeEncodeError
        # on a character reference to a surrogate (&#xd800;). Such a document is unreadable, not a bug of ours.
        raise FeedError(f"{feed_name(url)} is too damaged to be read as a feed.") from exc
    if not parsed.version and not parsed.entries:
        raise FeedError(f"{feed_name(url)} is not a podcast or news feed{bozo_reason(parsed)}.")
    return feed_data(parsed.feed, parsed.entries, url, read_extras(data, url), bozo_warning(parsed), data)


def parse_with_text(data: bytes, url: str, content_type: str | None = None) -> FeedData:
    """``parse_feed``, with each entry's search text worked out as well, where the parsing runs (a worker process
    for a big feed). For a feed stored for the first time, whose entries are all new: the writer then has only
    rows to write, and the search vocabulary of each (core/db/search_words.py) to store beside them."""
    with remembering_text():  # an article's body, flattened for its reading time, is flattened once
        feed = parse_feed(data, url, content_type)
        for entry in feed.entries:
            entry.text = search_text(entry.description, entry.content)
            entry.vocabulary = new_item_vocabulary(entry.title, entry.text)
            entry.stored_markup = (pack(entry.description, entry.text), pack(entry.content, entry.text))
    return feed
