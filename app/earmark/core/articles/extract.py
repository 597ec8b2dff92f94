"""The readable article of a web page (title, author, site, date, main text as HTML), found by trafilatura."""

from __future__ import annotations

import concurrent.futures
import concurrent.futures.process
import html as html_lib
import multiprocessing
import re

from earmark.core.errors import ExtractionError
from earmark.core.html import to_text
from earmark.core.records import record

# lxml holds the GIL while it parses a page (0.3 s for 2 MB): bigger pages are extracted in a process of their own,
# so that a window in this process stays responsive.
INLINE_EXTRACT_CHARS = 400_000
MIN_WORDS = 20  # less than this is a cookie banner or a "please enable JavaScript" page, not an article
_BODY = re.compile(r"<body[^>]*>(.*)</body>", re.DOTALL | re.IGNORECASE)
_NESTED_PRE = re.compile(r"<pre>\s*<pre>(.*?)</pre>\s*</pre>", re.DOTALL)
_FIRST_HEADING = re.compile(r"^\s*<h1[^>]*>(.*?)</h1>", re.DOTALL | re.IGNORECASE)
# Images of a pixel or two are trackers, not pictures: they never make it into an article.
_PIXEL = re.compile(r"""<img\b[^>]*\b(?:width|height)\s*=\s*["']?[0-2](?:px)?\b[^>]*>""", re.IGNORECASE)


@record
class Extracted:
    """What the extraction found: metadata (None when the page does not say) and the article's HTML."""

    title: str | None
    author: str | None
    site: str | None
    published: str | None  # YYYY-MM-DD
    html: str


def extract_article(page_html: str, url: str) -> Extracted:
    """The main article of ``page_html`` without navigation, ads, comments or scripts, keeping its headings,
    lists, code blocks, tables, links and images (resolved against ``url``). CPU work: run it off the UI
    thread; a big page is extracted in a process of its own. ExtractionError with a sentence when the page
    holds no article text."""
    if len(page_html) <= INLINE_EXTRACT_CHARS:
        return _extract(page_html, url)
    context = multiprocessing.get_context("forkserver")  # never fork a process that runs Qt's threads
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        try:
            return pool.submit(_extract, page_html, url).result()
        except concurrent.futures.process.BrokenProcessPool as exc:
            raise ExtractionError(f"Earmark could not read {url}: the process reading it stopped unexpectedly "
                                  "(out of memory?).") from exc


def _extract(page_html: str, url: str) -> Extracted:
    import trafilatura  # deferred: it costs ~0.2 s to import, and only saving articles needs it

    document = trafilatura.extract_with_metadata(
        _PIXEL.sub("", page_html), url=url, output_format="html", include_comments=False, include_tables=True,
        include_images=True, include_links=True, include_formatting=True, favor_recall=True,
        date_extraction_params={"extensive_search": False, "original_date": True},  # no guessing from "© 2024"
    )
    body_match = _BODY.search(document.text or "") if document is not None else None
    body = body_match.group(1).strip() if body_match else ""
    if document is None or len(to_text(body).split()) < MIN_WORDS:
        raise ExtractionError(f"Earmark found no article text on {url} (it may need JavaScript to show it, or "
                              "be a page of links).")
    title = _clean(document.title)
    body = _NESTED_PRE.sub(r"<pre>\1</pre>", body)
    return Extracted(title=title, author=_clean(document.author), site=_clean(document.sitename),
                     published=_clean(document.date), html=drop_title_heading(body, title))


def drop_title_heading(body: str, title: str | None) -> str:
    """``body`` without its first ``<h1>`` when that repeats the title (the reader shows the title itself)."""
    match = _FIRST_HEADING.match(body)
    if title and match and " ".join(to_text(match.group(1)).split()) == " ".join(title.split()):
        return body[match.end():].lstrip()
    return body


def _clean(value: str | None) -> str | None:
    text = " ".join(html_lib.unescape(value or "").split())
    return text or None
