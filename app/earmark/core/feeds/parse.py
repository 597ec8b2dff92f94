"""Turning feed bytes into FeedData with feedparser (RSS 0.9x/1.0/2.0, Atom)."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urljoin, urlparse

from earmark.core.articles.readtime import reading_seconds
from earmark.core.db.tags import normalize_tag
from earmark.core.errors import FeedError
from earmark.core.feeds.namespaces import ItemExtras, NamespaceData, read_extras
from earmark.core.html import to_text
from earmark.core.models import EntryData, FeedData
from earmark.core.timefmt import iso_from_struct, parse_duration

_NO_EXTRAS = ItemExtras()
_MEDIA_EXTENSIONS = re.compile(r"\.(mp3|m4a|m4b|aac|ogg|oga|opus|flac|wav|mp4|m4v|webm|mkv|mov)(\?|$)", re.I)


def parse_feed(data: bytes, url: str, content_type: str | None = None) -> FeedData:
    """Parse a feed document fetched from ``url`` (used to resolve relative links); ``content_type`` is the
    server's header, whose charset decides the encoding.

    Raises FeedError when the document is not a feed at all; a feed with recoverable errors is imported
    as far as it goes, with ``warning`` saying what was wrong.
    """
    if not data.strip():
        raise FeedError(f"{_name(url)} is empty, so there is no feed to read.")
    import feedparser  # deferred: it costs ~25 ms of start-up and only feed reading needs it

    headers = {"content-location": url}
    if content_type:
        headers["content-type"] = content_type
    parsed = feedparser.parse(data, response_headers=headers, sanitize_html=False, resolve_relative_uris=False)
    if not parsed.version and not parsed.entries:
        raise FeedError(f"{_name(url)} is not a podcast or news feed{_bozo_reason(parsed)}.")
    feed = parsed.feed
    extras = read_extras(data, url)
    item_extras = _matcher(extras, len(parsed.entries))
    entries = [_entry(raw, url, item_extras(index, raw)) for index, raw in enumerate(parsed.entries)]
    channel = extras.channel
    return FeedData(
        title=_clean_title(feed.get("title")) or _name(url),
        link=_web_link(url, feed.get("link")),
        description=feed.get("summary") or feed.get("subtitle") or "",
        author=feed.get("author") or None,
        image_url=_web_link(url, (feed.get("image") or {}).get("href")),
        entries=entries,
        warning=f"The feed has errors{_bozo_reason(parsed)}." if parsed.bozo else None,
        podcast_guid=channel.podcast_guid,
        itunes_type=channel.itunes_type,
        explicit=channel.explicit,
        locked=channel.locked,
        funding=_json(channel.funding),
        persons=_json(channel.persons),
    )


def _matcher(extras: NamespaceData, entry_count: int) -> Callable[[int, Any], ItemExtras]:
    """Finds the namespace extras of a feedparser entry: by guid, else by position when both parsers
    saw the same number of items."""
    by_guid = {extra.guid: extra for extra in extras.items if extra.guid}
    same_count = len(extras.items) == entry_count

    def find(index: int, raw: Any) -> ItemExtras:
        guid = (raw.get("id") or "").strip()
        if guid and guid in by_guid:
            return by_guid[guid]
        return extras.items[index] if same_count else _NO_EXTRAS

    return find


def _json(value: list[dict[str, str]]) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _entry(raw: Any, base: str, extras: ItemExtras) -> EntryData:
    enclosure_url, enclosure_type = _enclosure(raw, base)
    summary = raw.get("summary") or ""
    content_values = [c.get("value") or "" for c in raw.get("content") or []]
    full = max(content_values, key=len, default="")
    is_episode = enclosure_url is not None
    title = _clean_title(raw.get("title")) or _fallback_title(summary or full)
    link = _web_link(base, raw.get("link"))
    guid = (raw.get("id") or "").strip() or None
    if guid:
        identity = f"guid:{guid}"
    elif enclosure_url:
        identity = f"enclosure:{enclosure_url}"
    else:
        identity = "link:" + hashlib.sha1(f"{link or ''}\n{title}".encode()).hexdigest()
    return EntryData(
        identity=identity,
        kind="episode" if is_episode else "article",
        title=title,
        guid=guid,
        url=link,
        enclosure_url=enclosure_url,
        enclosure_type=enclosure_type,
        published=iso_from_struct(raw.get("published_parsed") or raw.get("updated_parsed")),
        duration=_duration(raw, is_episode, full or summary),
        author=raw.get("author") or None,
        description=(full if len(full) > len(summary) else summary) if is_episode else summary,
        content="" if is_episode else full,
        categories=_categories(raw),
        image_url=extras.image_url,
        season=extras.season,
        episode=extras.episode,
        episode_type=extras.episode_type,
        explicit=extras.explicit,
        chapters_url=extras.chapters_url,
        chapters_type=extras.chapters_type,
        transcripts=_json(extras.transcripts),
        persons=_json(extras.persons),
    )


def _duration(raw: Any, is_episode: bool, text: str) -> float | None:
    """An episode's length; an article's estimated reading time."""
    return parse_duration(raw.get("itunes_duration")) if is_episode else reading_seconds(to_text(text))


def _enclosure(raw: Any, base: str) -> tuple[str | None, str | None]:
    candidates = [(link.get("href"), link.get("type")) for link in raw.get("enclosures") or []]
    candidates += [(media.get("url"), media.get("type")) for media in raw.get("media_content") or []]
    for href, mime in candidates:
        if not href:
            continue
        mime = (mime or "").lower()
        if mime.startswith(("audio/", "video/")) or _MEDIA_EXTENSIONS.search(href):
            url = _media_link(base, href)
            if url:
                return url, mime or None
    return None, None


def _media_link(base: str, href: str) -> str | None:
    """An enclosure URL resolved against the feed; only web URLs, or files next to a local feed."""
    url = urljoin(base, href.strip())
    scheme = urlparse(url).scheme
    if scheme in ("http", "https") or (scheme == "file" and urlparse(base).scheme == "file"):
        return url
    return None


def _web_link(base: str, href: str | None) -> str | None:
    if not href:
        return None
    url = urljoin(base, href.strip())
    return url if urlparse(url).scheme in ("http", "https") else None


def _categories(raw: Any) -> list[str]:
    names = [tag.get("term") or "" for tag in raw.get("tags") or []]
    names += (raw.get("itunes_keywords") or "").split(",")
    return list(dict.fromkeys(filter(None, map(normalize_tag, names))))


def _clean_title(title: str | None) -> str:
    return " ".join(to_text(title or "").split())


def _fallback_title(text: str) -> str:
    words = to_text(text).split()
    return " ".join(words[:12]) + ("…" if len(words) > 12 else "") if words else "Untitled"


def _name(url: str) -> str:
    parsed = urlparse(url)
    if parsed.scheme == "file":
        return parsed.path.rsplit("/", 1)[-1] or url
    return url


def _bozo_reason(parsed: Any) -> str:
    exc = parsed.get("bozo_exception")
    if not exc:
        return ""
    message = str(getattr(exc, "getMessage", lambda: exc)())
    return f" ({message})" if message else ""
