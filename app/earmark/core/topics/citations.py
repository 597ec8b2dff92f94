"""Citations: the names an item answers to (its page, audio, URL slug, title, guid) and what its text points
at (links, "listen to … first" sentences, podcast:remoteItem), in one form so that SQL can join them."""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

from earmark.core.html import to_text

LINK, FIRST, BEFORE, REMOTE = "link", "first", "before", "remote"  # how an item points at another
_ANCHOR = re.compile(r"<a\s[^>]*?href\s*=\s*(?:\"([^\"]*)\"|'([^']*)')[^>]*>(.*?)</a\s*>", re.IGNORECASE | re.DOTALL)
_BARE_URL = re.compile(r"https?://[^\s<>\"')\]]+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_VERB = r"(?:listen to|hear|read|watch|check out|start with|begin with|go through)"
_FIRST = re.compile(rf"\b{_VERB}\s+(?P<what>.+?)\s+(?:first|beforehand|before (?:this|that|listening|reading|"
                    r"watching|you)\b)", re.IGNORECASE)
_PREREQUISITE = re.compile(rf"\b(?:prerequisites?|required (?:listening|reading)|{_VERB} first)\s*:\s*(?P<what>.+)",
                           re.IGNORECASE)
# "as we discussed in …", "the earlier episodes on …": what it builds on, taken first
_EARLIER = re.compile(r"\b(?:as (?:we|i) (?:discussed|talked about|covered|explained|saw) in|(?:earlier|previous|"
                      r"older) (?:episodes?|podcasts?|articles?|posts?|talks?)(?: (?:on|about|called|named|covering))?)"
                      r"\s+(?P<what>.+)", re.IGNORECASE)
_SELF = re.compile(r"^(?:this|it)(?:\s+(?:episode|one|article|post|talk))?$", re.IGNORECASE)  # "listen to this first"
_BEFORE = re.compile(rf"\b{_VERB}\s+this(?:\s+(?:episode|one|article|post|talk))?\s+(?:first,?\s+)?before\s+"
                     r"(?P<what>.+)", re.IGNORECASE)
_TRIGGER = re.compile(r"first|before|beforehand|prerequisite|required|discussed|talked about|covered in|explained in|"
                      r"earlier|previous|older", re.IGNORECASE)  # cheap test first
_TRIGGER_LOWER = re.compile(_TRIGGER.pattern)  # the same on lower-case ASCII text, six times faster
_LEAD = re.compile(r"^(?:the\s+)?(?:(?:earlier|previous|other|first)\s+)?(?:(?:episodes?|articles?|posts?|talks?)"
                   r"(?:\s+(?:on|about|called|named))?\s+)?", re.IGNORECASE)
_NAME_SPLIT = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*&\s*")
_QUOTES = "\"'“”‘’«»"
_GENERIC_SLUGS = frozenset(("index", "home", "about", "feed", "rss", "episodes", "blog", "posts", "watch"))


def url_key(url: str | None) -> str | None:
    """``url:host/path`` of a web address (no scheme, ``www.``, query or trailing slash); None otherwise."""
    if not url:
        return None
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    host = parts.hostname.removeprefix("www.")
    return f"url:{host}{parts.path.rstrip('/')}"


def slugify(text: str) -> str:
    """Lower-case words joined by hyphens (``Weak references`` → ``weak-references``)."""
    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))


def slug_key(text: str) -> str | None:
    """``slug:…`` for a slug specific enough to name one item: two or more words, some of them letters."""
    slug = slugify(text)
    words = slug.split("-")
    if len(words) < 2 or slug in _GENERIC_SLUGS or not any(w.isalpha() for w in words):
        return None
    return f"slug:{slug}"


def url_slug_key(url: str | None) -> str | None:
    """The slug key of a web address's last path segment (file extension left out)."""
    if not url_key(url):
        return None
    segment = urlsplit(url or "").path.rstrip("/").rsplit("/", 1)[-1]
    return slug_key(re.sub(r"\.(?:html?|php|aspx?|mp3|m4a|ogg|opus)$", "", segment, flags=re.IGNORECASE))


def title_key(title: str) -> str | None:
    """``title:…``: the title's words in lower case."""
    words = re.findall(r"\w+", title.lower())
    return f"title:{' '.join(words)}" if words else None


def item_keys(title: str, url: str | None, enclosure_url: str | None, guid: str | None) -> set[str]:
    """Every name an item answers to."""
    keys = {url_key(url), url_key(enclosure_url), url_slug_key(url), slug_key(title), title_key(title)}
    if guid:
        keys.add(f"guid:{guid}")
    return {key for key in keys if key}


def item_links(markup: str, text: str, remote_items: str = "[]") -> set[tuple[str, str]]:
    """What an item points at, as (target key, how): its links and bare URLs (LINK), the items its sentences say
    to take first (FIRST) or to take it before (BEFORE), and its podcast:remoteItem entries (REMOTE)."""
    anchors = [(href or href2, to_text(inner)) for href, href2, inner in _ANCHOR.findall(markup)]
    found: set[tuple[str, str]] = set()
    sentences = _SENTENCE_END.split(text) if _triggered(text) else []
    for sentence in sentences:
        if not _triggered(sentence):
            continue
        for pattern, how in ((_FIRST, FIRST), (_PREREQUISITE, FIRST), (_EARLIER, FIRST), (_BEFORE, BEFORE)):
            match = pattern.search(sentence)
            if match is None or _SELF.match(match.group("what").strip()):
                continue  # "listen to this one before …": the other sentence form, read by _BEFORE
            what = match.group("what")
            for name in _names(_BARE_URL.sub(" ", what)):
                found.update((key, how) for key in (title_key(name), slug_key(name)) if key)
            for href in _BARE_URL.findall(what):  # "… before listening to https://…/zero-one-specialization"
                found.update((key, how) for key in (url_key(href), url_slug_key(href)) if key)
            for href, label in anchors:
                if label and label.lower() in what.lower():
                    found.update((key, how) for key in (url_key(href), url_slug_key(href)) if key)
    pointed = {key for key, how in found}
    hrefs = [href for href, _label in anchors] + _BARE_URL.findall(text)
    for href in hrefs:
        found.update((key, LINK) for key in (url_key(href), url_slug_key(href)) if key and key not in pointed)
    for remote in _remote_items(remote_items):
        if remote.get("itemGuid"):
            found.add((f"guid:{remote['itemGuid']}", REMOTE))
    return found


def _triggered(text: str) -> bool:
    """Whether ``text`` has a word that may start a "listen to … first" sentence (ASCII text, by far the most, is
    lowered and searched case-sensitively: the same answer, as re's IGNORECASE matches only ASCII letters there)."""
    if text.isascii():
        return _TRIGGER_LOWER.search(text.lower()) is not None
    return _TRIGGER.search(text) is not None


def _names(what: str) -> list[str]:
    what = re.split(r"[;(]", what, maxsplit=1)[0]  # "TensorIterator and vmap; you may also…"
    what = _LEAD.sub("", what.strip().rstrip(".!?;:").strip(_QUOTES + " "))
    return [name.strip(_QUOTES + " ") for name in _NAME_SPLIT.split(what) if name.strip(_QUOTES + " ")]


def _remote_items(value: str) -> list[dict[str, str]]:
    try:
        items = json.loads(value or "[]")
    except ValueError:
        return []
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def podroll_targets(value: str) -> list[str]:
    """The podcasts a source's podcast:podroll recommends, as keys: ``guid:…`` (podcast:guid) or ``url:…``."""
    keys = []
    for remote in _remote_items(value):
        if remote.get("feedGuid"):
            keys.append(f"guid:{remote['feedGuid']}")
        key = url_key(remote.get("feedUrl"))
        if key:
            keys.append(key)
    return keys
