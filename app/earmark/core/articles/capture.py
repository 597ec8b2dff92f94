"""Turning an address or a local file into an article to save: fetched, read and extracted, or, when the page
cannot be fetched or read, its link with the reason. Network and CPU work: run it off the UI thread."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from earmark.core.articles.extract import extract_article
from earmark.core.articles.formats import TextKind, file_kind, markdown_html, text_html
from earmark.core.articles.page import MAX_PAGE_BYTES, Page, decode, fetch_page
from earmark.core.articles.page_images import page_images
from earmark.core.articles.store import ArticleData
from earmark.core.errors import EarmarkError, ExtractionError, UnreachableError
from earmark.core.feeds.fetch import canonical_source, is_web_url
from earmark.core.files import read_file
from earmark.core.records import record

LOCAL_SITE = "Local files"
MAX_ARTICLE_CHARS = 500_000  # of HTML: ~70,000 words, hours of reading; the rest stays on the page
_BLOCK_END = re.compile(r"</(p|ul|ol|pre|table|blockquote|h[1-6]|div)>", re.IGNORECASE)


@record(frozen=True)
class FeedLink:
    """An address that turned out to be a feed: it is subscribed to, not saved as an article."""

    url: str


def capture(source: str, title: str | None = None, feeds: bool = False) -> ArticleData | FeedLink:
    """The article at ``source`` (a web address or a local file), titled ``title`` when given.

    A web page that cannot be fetched or has no readable article comes back as its link with ``problem`` set.
    A feed is an error (or, with ``feeds``, a FeedLink). EarmarkError for an address that is not one, or a
    local file that cannot be read: then there is nothing to save.
    """
    url = canonical_source(source)
    if not is_web_url(url):
        return read_local(Path(unquote(urlsplit(url).path)), title)
    try:
        page = fetch_page(url)
        if page.kind == "feed":
            if feeds:
                return FeedLink(url)
            raise EarmarkError(f"{url} is a feed, not an article: subscribe to it instead (earmark subscribe "
                               "URL, or File → Add Podcast…).")
        return _from_page(page, title)
    except (UnreachableError, ExtractionError) as exc:
        return link_only(url, title, str(exc))


def link_only(url: str, title: str | None, problem: str) -> ArticleData:
    """An article that is only its link, and why."""
    return ArticleData(title=title or url, url=url, site=site_of(url), html="", problem=problem)


def site_of(url: str) -> str:
    """The site an address belongs to, as the sidebar names it (the host without ``www.``)."""
    host = urlsplit(url).hostname or url
    return host.removeprefix("www.")


def _from_page(page: Page, title: str | None) -> ArticleData:
    if page.kind == "other":
        what = page.media_type or "not a web page"
        raise ExtractionError(f"{page.url} is not a web page Earmark can read ({what}); open it in your browser.")
    if page.kind == "html":
        found = extract_article(page.text, page.url)
        named = found.site if found.site and found.site != urlsplit(page.url).netloc else None  # not just the host
        pictures = page_images(page.text, page.url)
        return ArticleData(title=title or found.title or page.url, url=page.url, site=named or site_of(page.url),
                           html=cap_html(found.html), author=found.author, published=found.published,
                           image_url=pictures.image_url, site_icon=pictures.icon_url)
    heading, body = _render(page.text, "markdown" if page.kind == "markdown" else "text")
    return ArticleData(title=title or heading or page.url, url=page.url, site=site_of(page.url), html=cap_html(body))


def read_local(path: Path, title: str | None = None) -> ArticleData:
    """An article from a local HTML, Markdown or text file (its address is the file's ``file://`` URL)."""
    text = decode(read_file(path, "an article file", MAX_PAGE_BYTES, "an article"))
    if not text.strip():
        raise ExtractionError(f"{path} is empty: there is no article in it.")
    kind = file_kind(path, text)
    url = path.resolve().as_uri()
    heading: str | None = None
    if kind == "html":
        try:
            found = extract_article(text, url)
            heading, body, author, published = found.title, found.html, found.author, found.published
        except ExtractionError:  # a short document of the user's own: keep it whole (sanitized when shown)
            body, author, published = text, None, None
    else:
        heading, body = _render(text, kind)
        author = published = None
    return ArticleData(title=title or heading or path.stem, url=url, site=LOCAL_SITE, html=cap_html(body),
                       author=author, published=published)


def _render(text: str, kind: TextKind) -> tuple[str | None, str]:
    return markdown_html(text) if kind == "markdown" else text_html(text)


def cap_html(html: str) -> str:
    """``html`` cut after the last whole block within MAX_ARTICLE_CHARS, with a line saying so."""
    if len(html) <= MAX_ARTICLE_CHARS:
        return html
    ends = [match.end() for match in _BLOCK_END.finditer(html, 0, MAX_ARTICLE_CHARS)]
    kept = html[:ends[-1]] if ends else html[:MAX_ARTICLE_CHARS]
    return kept + "\n<p><em>This article is very long: Earmark kept its beginning; open the page for the rest.</em></p>"
