"""FeedData from feedparser's ``feed`` and ``entries`` dictionaries, or the fast parser's (which are the same):
titles, links resolved against the feed, enclosures, durations, categories and the namespace extras. Both
parsers (parse.py and fast_parse.py) build on this module."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any
from urllib.parse import urljoin, urlparse, urlsplit

from earmark.core.articles.readtime import reading_seconds
from earmark.core.db.tags import normalize_tag
from earmark.core.feeds.feed_images import first_image
from earmark.core.feeds.guessed_links import without_made_up_links
from earmark.core.feeds.namespaces import ItemExtras, NamespaceData
from earmark.core.html import to_text
from earmark.core.models import EntryData, FeedData
from earmark.core.timefmt import iso_from_struct, parse_duration

_NO_EXTRAS = ItemExtras()
_MEDIA_EXTENSIONS = re.compile(r"\.(mp3|m4a|m4b|aac|ogg|oga|opus|flac|wav|mp4|m4v|webm|mkv|mov)(\?|$)", re.I)
# An absolute http(s) URL that urljoin gives back unchanged whatever the base: lower-case scheme, a plain host,
# no ";" parameters, no empty "?" or "#" (urljoin drops those), nothing urlsplit strips. Most links in feeds.
_URL_CHARS = r"A-Za-z0-9._~!$&'()*+,=:@%/-"
_PLAIN_URL = re.compile(rf"https?://[A-Za-z0-9.-]+(?::[0-9]+)?(?:/[{_URL_CHARS}]*)?(?:\?[{_URL_CHARS}?]+)?"
                        rf"(?:#[{_URL_CHARS}?#]+)?")


def response_headers(url: str, content_type: str | None) -> dict[str, str]:
    """The HTTP headers feedparser is given: the feed's URL as base for relative links, and its content type."""
    headers = {"content-location": url}
    if content_type:
        headers["content-type"] = content_type
    return headers


def bozo_warning(parsed: Mapping[str, Any]) -> str | None:
    """FeedData.warning for a feedparser result (or anything with its ``bozo`` and ``bozo_exception`` keys)."""
    return f"The feed has errors{bozo_reason(parsed)}." if parsed.get("bozo") else None


def feed_data(feed: Mapping[str, Any], entries: Sequence[Mapping[str, Any]], url: str, extras: NamespaceData,
              warning: str | None, document: bytes) -> FeedData:
    """FeedData from feedparser's ``feed`` and ``entries`` dictionaries (or the fast parser's, which are the
    same) plus the namespace extras of the document (whose bytes tell links made up from guids)."""
    item_extras = _matcher(extras, len(entries))
    channel = extras.channel
    return without_made_up_links(document, entries, FeedData(
        title=_clean_title(feed.get("title")) or feed_name(url),
        link=_web_link(url, feed.get("link")),
        description=feed.get("summary") or feed.get("subtitle") or "",
        author=feed.get("author") or None,
        image_url=first_image(channel.image_url, *(_web_link(url, href) for href in (
            (feed.get("image") or {}).get("href"), feed.get("logo"), feed.get("icon")))),
        entries=[_entry(raw, url, item_extras(index, raw)) for index, raw in enumerate(entries)],
        warning=warning,
        podcast_guid=channel.podcast_guid,
        itunes_type=channel.itunes_type,
        explicit=channel.explicit,
        locked=channel.locked,
        funding=_json(channel.funding),
        persons=_json(channel.persons),
        podroll=_json(channel.podroll),
        self_url=_self_link(url, feed.get("links")),
        new_feed_url=channel.new_feed_url,
    ))


def _self_link(base: str, links: Sequence[Mapping[str, Any]] | None) -> str | None:
    """Where the feed says it lives: its ``atom:link rel="self"`` (Atom's own ``link rel="self"``)."""
    return next((_web_link(base, link.get("href")) for link in links or [] if link.get("rel") == "self"), None)


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
    return json.dumps(value, sort_keys=True, ensure_ascii=False) if value else "[]"


def urljoin_keeps(base: str, href: str) -> bool:
    """A cheap sufficient test that ``urljoin(base, href)`` is ``href`` (true for most links in feeds, whose
    resolving then costs nothing)."""
    return _PLAIN_URL.fullmatch(href) is not None and _splits(base)


@lru_cache(maxsize=16)
def _splits(base: str) -> bool:
    """Whether urljoin can take ``base`` at all (it raises ValueError on, say, a broken IPv6 host)."""
    try:
        urlsplit(base)
    except ValueError:
        return False
    return True


def _entry(raw: Any, base: str, extras: ItemExtras) -> EntryData:
    enclosure_url, enclosure_type, enclosure_length = _enclosure(raw, base)
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
        enclosure_length=enclosure_length,
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
        remote_items=_json(extras.remote_items),
    )


def _duration(raw: Any, is_episode: bool, text: str) -> float | None:
    """The length the feed gives; for an article without one, its estimated reading time."""
    given = parse_duration(raw.get("itunes_duration"))
    return given if given is not None or is_episode else reading_seconds(to_text(text))


def _enclosure(raw: Any, base: str) -> tuple[str | None, str | None, int | None]:
    """The episode's file: its address, media type and announced length in bytes."""
    candidates = [(link.get("href"), link.get("type"), link.get("length"))
                  for link in raw.get("enclosures") or []]
    candidates += [(media.get("url"), media.get("type"), media.get("filesize"))
                   for media in raw.get("media_content") or []]
    for href, mime, length in candidates:
        if not href:
            continue
        mime = (mime or "").lower()
        if mime.startswith(("audio/", "video/")) or _MEDIA_EXTENSIONS.search(href):
            url = _media_link(base, href)
            if url:
                return url, mime or None, _length(length)
    return None, None, None


def _length(value: object) -> int | None:
    """A length in bytes as feeds write it, when plausible: many write 0, 1 or nothing; digits only."""
    text = value.strip() if isinstance(value, str) else ""
    if not (text.isascii() and text.isdigit()) or len(text) > 15:
        return None
    return int(text) if int(text) > 1 else None


def _media_link(base: str, href: str) -> str | None:
    """An enclosure URL resolved against the feed; only web URLs, or files next to a local feed."""
    href = href.strip()
    if urljoin_keeps(base, href):
        return href
    try:
        url = urljoin(base, href)
        scheme = urlparse(url).scheme
    except ValueError:  # found by fuzzing: "http://[::1" (a bracket without its pair) stopped the whole import
        return None
    if scheme in ("http", "https") or (scheme == "file" and urlparse(base).scheme == "file"):
        return url
    return None


def _web_link(base: str, href: str | None) -> str | None:
    if not href:
        return None
    href = href.strip()
    if urljoin_keeps(base, href):
        return href
    try:
        url = urljoin(base, href)
        return url if urlparse(url).scheme in ("http", "https") else None
    except ValueError:  # as in _media_link: a malformed IPv6 host
        return None


def _categories(raw: Any) -> list[str]:
    names = [tag.get("term") or "" for tag in raw.get("tags") or []]
    keywords = raw.get("itunes_keywords")
    if isinstance(keywords, str):  # feedparser gives the attribute dict of <itunes:keywords a="..."> instead
        names += keywords.split(",")
    return list(dict.fromkeys(filter(None, map(normalize_tag, names))))


def _clean_title(title: str | None) -> str:
    """A title on one line; markup is taken out only when the title is HTML as feedparser judges it (a close
    tag or an entity), so a plain-text title keeps its "<Tensors>" whichever parser read it."""
    title = title or ""
    # looks_like_html wants a close tag or an entity: a title with neither "<" nor "&" is never HTML
    if ("<" in title or "&" in title) and _looks_like_html(title):
        title = to_text(title)
    return " ".join(title.split())


def _looks_like_html(text: str) -> bool:
    from feedparser.mixin import _FeedParserMixin  # deferred: loaded already by whichever parser ran

    return bool(_FeedParserMixin.looks_like_html(text))


def _fallback_title(text: str) -> str:
    words = to_text(text).split()
    return " ".join(words[:12]) + ("…" if len(words) > 12 else "") if words else "Untitled"


def feed_name(url: str) -> str:
    """How a sentence names the feed: its file name for a local file, else its URL."""
    parsed = urlparse(url)
    if parsed.scheme == "file":
        return parsed.path.rsplit("/", 1)[-1] or url
    return url


def bozo_reason(parsed: Any) -> str:
    """What feedparser found wrong, as `` (reason)`` to append to a sentence (empty when it says nothing)."""
    exc = parsed.get("bozo_exception")
    if not exc:
        return ""
    message = str(getattr(exc, "getMessage", lambda: exc)())
    return f" ({message})" if message else ""
