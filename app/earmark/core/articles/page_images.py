"""The pictures a web page names for itself in its head: its ``og:image`` (else ``twitter:image``) and its site
icon (the largest of ``apple-touch-icon`` and ``icon`` links), resolved against the page."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from earmark.core.records import record

HEAD_CHARS = 256 * 1024  # a page's head is read this far at most
_SIZE = re.compile(r"(\d{1,4})x\d{1,4}")


@record
class PageImages:
    """A page's own image (None when it names none) and its site's icon."""

    image_url: str | None = None
    icon_url: str | None = None


class _HeadReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.images: dict[str, str] = {}
        self.icons: list[tuple[int, str]] = []
        self.done = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {key.lower(): (value or "").strip() for key, value in attrs}
        if tag == "meta":
            key = (values.get("property") or values.get("name") or "").lower()
            if key in ("og:image", "og:image:url", "og:image:secure_url", "twitter:image") and values.get("content"):
                self.images.setdefault(key, values["content"])
        elif tag == "link" and values.get("href"):
            rel = values.get("rel", "").lower().split()
            if "apple-touch-icon" in rel or "icon" in rel:
                sizes = _SIZE.search(values.get("sizes", ""))
                size = int(sizes.group(1)) if sizes else (180 if "apple-touch-icon" in rel else 16)
                self.icons.append((size, values["href"]))
        elif tag == "body":
            self.done = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "head":
            self.done = True


def page_images(html: str, page_url: str) -> PageImages:
    """What ``html`` (the page at ``page_url``) names as its image and icon; only http(s) addresses count."""
    reader = _HeadReader()
    for start in range(0, min(len(html), HEAD_CHARS), 8192):
        reader.feed(html[start:start + 8192])
        if reader.done:
            break
    image = next((reader.images[key] for key in ("og:image:secure_url", "og:image", "og:image:url", "twitter:image")
                  if key in reader.images), None)
    icon = max(reader.icons, key=lambda found: found[0])[1] if reader.icons else None
    return PageImages(_web(page_url, image), _web(page_url, icon))


def _web(base: str, href: str | None) -> str | None:
    if not href:
        return None
    try:
        url = urljoin(base, href)
        return url if urlsplit(url).scheme in ("http", "https") and urlsplit(url).hostname else None
    except ValueError:  # a malformed IPv6 host
        return None
