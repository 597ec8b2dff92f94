"""Saving web pages as articles, over a real HTTP server: what was extracted, what was refused, what the reader
shows. A page that cannot be fetched or read is still saved, as its link with the reason."""

from __future__ import annotations

import re

import pytest

from earmark.core.articles.capture import MAX_ARTICLE_CHARS, FeedLink, capture
from earmark.core.articles.page import MAX_PAGE_BYTES, decode, page_kind
from earmark.core.articles.reader import reader_document
from earmark.core.articles.store import ArticleData, store_article
from earmark.core.db.database import Database
from earmark.core.db.items import get_item
from earmark.core.db.reading import set_images_allowed
from earmark.core.errors import EarmarkError
from earmark.core.html import to_text
from helpers.feed_server import FeedServer, Route, closed_port
from helpers.reading import PAGES, long_article

UNSAFE = re.compile(r"<script|<iframe|<style|\son\w+=|javascript:|file:|data:|tracker\.example", re.IGNORECASE)


def saved(library: Database, url: str) -> int:
    article = capture(url)
    assert isinstance(article, ArticleData)
    return store_article(library, article).item_id


def test_a_messy_page_keeps_the_article_and_drops_the_rest(page_server: FeedServer,
                                                           library: Database) -> None:
    url = page_server.url("messy.html")
    article = capture(url)
    assert isinstance(article, ArticleData) and article.problem is None
    assert (article.title, article.author, article.site, article.published) == (
        "How TorchDynamo guards decide when to recompile", "Ana Lopez", "The Compiler Notebook", "2024-03-05")
    text = to_text(article.html)
    assert text.startswith("TorchDynamo captures graphs from Python bytecode.")  # the title is not repeated
    assert "In practice, recompilations are rare once shapes settle" in text
    for junk in ("cookies", "Rent GPUs", "Popular posts", "cheap watches", "First!", "All rights reserved",
                 "Subscribe to get new posts", "Injected by a script", "Share", "Home"):
        assert junk not in text, junk
    html = article.html
    assert "<h2>What a guard checks</h2>" in html and html.count("<li>") >= 3  # headings and lists
    assert "<pre>" in html and "@torch.compile" in html and "<blockquote>" in html  # code and quotes
    assert 'href="https://pytorch.org/docs/stable/torch.compiler.html"' in html  # links
    assert f'src="{page_server.url("images/guard-tree.png")}"' in html  # images, made absolute
    item = get_item(library, store_article(library, article).item_id)
    assert item.kind == "article" and item.source == "The Compiler Notebook" and item.url == url
    assert item.duration is not None and 60 <= item.duration <= 300  # estimated reading time: a few minutes


def test_the_reader_shows_safe_html_and_no_remote_images_unless_allowed(page_server: FeedServer,
                                                                        library: Database) -> None:
    item_id = saved(library, page_server.url("messy.html"))
    document = reader_document(library, item_id)
    assert not UNSAFE.search(document.body), UNSAFE.search(document.body)
    assert "<img" not in document.body and "[image: A tree of guards checked before a compiled graph runs]" in \
        document.body
    assert document.images == [page_server.url("images/guard-tree.png")]
    assert "the local notes" in to_text(document.body)  # the link's text stays, its file: address does not
    set_images_allowed(library, item_id, True)
    allowed = reader_document(library, item_id)
    assert f'<img src="{page_server.url("images/guard-tree.png")}"' in allowed.body
    assert not UNSAFE.search(allowed.body)


def test_script_tags_and_handlers_never_reach_the_article(page_server: FeedServer,
                                                          library: Database) -> None:
    item_id = saved(library, page_server.url("scripts.html"))
    item = get_item(library, item_id)
    stored = item.content + to_text(item.content)
    assert "MUST-NOT-SHOW" not in stored
    assert "Start with a short run of a few dozen steps" in to_text(item.content)
    body = reader_document(library, item_id).body
    assert not UNSAFE.search(body) and "steal" not in body
    assert "profiler recipe" in to_text(body)


@pytest.mark.parametrize("content_type", ["text/html", "text/html; charset=ISO-8859-1"])
def test_a_latin1_page_reads_right_by_its_meta_or_its_header(page_server: FeedServer, library: Database,
                                                             content_type: str) -> None:
    url = page_server.route("/fr/journee.html", Route(body=(PAGES / "latin1.html").read_bytes(),
                                                      content_type=content_type))
    item = get_item(library, saved(library, url))
    assert item.title == "Les compilateurs à la française : une journée à Grenoble"
    text = to_text(item.content)
    assert "Grâce à une météo clémente" in text and "« Ce n'est pas magique, c'est de la patience »" in text
    assert "\ufffd" not in text and "Ã" not in text


def test_a_page_that_404s_is_saved_as_its_link_with_the_reason(page_server: FeedServer,
                                                                library: Database) -> None:
    url = page_server.serve_status("/gone-post", 404)
    article = capture(url, title="The post that moved")
    assert isinstance(article, ArticleData)
    assert article.problem == f"{url} answered with HTTP error 404 (Not Found)."
    item_id = store_article(library, article).item_id
    item = get_item(library, item_id)
    assert (item.title, item.url, item.content, item.duration) == ("The post that moved", url, "", None)
    document = reader_document(library, item_id)
    assert document.state.fetch_problem == article.problem


def test_an_unreachable_server_is_saved_as_a_link_too(library: Database) -> None:
    url = f"http://127.0.0.1:{closed_port()}/post"
    article = capture(url)
    assert isinstance(article, ArticleData) and article.title == url and article.site == "127.0.0.1"
    assert article.problem is not None and "could not be reached" in article.problem


def test_a_huge_page_is_refused_at_the_cap_and_saved_as_a_link(page_server: FeedServer) -> None:
    url = page_server.serve_body("/huge.html", b"<html><body><p>" + b"word " * (MAX_PAGE_BYTES // 5 + 10)
                                 + b"</p></body></html>", "text/html")
    article = capture(url)
    assert isinstance(article, ArticleData)
    assert article.problem == f"{url} is larger than 10 MB, too large for a page."


def test_a_very_long_article_is_kept_up_to_the_cap(page_server: FeedServer, library: Database) -> None:
    url = page_server.serve_body("/long.html", long_article("A very long read", 4000), "text/html")
    article = capture(url)
    assert isinstance(article, ArticleData) and article.problem is None
    assert MAX_ARTICLE_CHARS - 2000 < len(article.html) <= MAX_ARTICLE_CHARS + 200
    assert article.html.endswith("open the page for the rest.</em></p>")
    assert "Paragraph 1:" in article.html and "Paragraph 4000:" not in article.html
    item = get_item(library, store_article(library, article).item_id)
    assert item.duration is not None and item.duration > 3600  # hours of reading


def test_a_page_without_article_text_is_saved_as_a_link(page_server: FeedServer) -> None:
    article = capture(page_server.url("js-only.html"))
    assert isinstance(article, ArticleData) and article.html == ""
    assert article.problem is not None and article.problem.startswith("Earmark found no article text on")


def test_what_is_not_a_web_page_is_saved_as_a_link(page_server: FeedServer) -> None:
    url = page_server.serve_body("/paper.pdf", b"%PDF-1.7 binary\x00\x01", "application/pdf")
    article = capture(url)
    assert isinstance(article, ArticleData)
    assert article.problem == f"{url} is not a web page Earmark can read (application/pdf); open it in your browser."


def test_a_feed_is_not_an_article(page_server: FeedServer) -> None:
    url = page_server.url("blog.atom")
    with pytest.raises(EarmarkError, match="is a feed, not an article: subscribe to it instead"):
        capture(url)
    assert capture(url, feeds=True) == FeedLink(url)  # pasted or dropped: it gets subscribed to


def test_a_plain_text_page_is_an_article_too(page_server: FeedServer) -> None:
    url = page_server.serve_body("/notes.txt", b"Week 12\n\nGuards run before every call.\n", "text/plain")
    article = capture(url)
    assert isinstance(article, ArticleData) and article.problem is None
    assert (article.title, article.html) == ("Week 12", "<p>Guards run before every call.</p>")


def test_fetching_again_fills_in_a_link_and_never_loses_text(page_server: FeedServer,
                                                             library: Database) -> None:
    url = page_server.serve_status("/later.html", 503)
    first = store_article(library, capture(url, title="Read later"))  # type: ignore[arg-type]
    assert first.new and get_item(library, first.item_id).content == ""
    page_server.serve_body("/later.html", (PAGES / "scripts.html").read_bytes(), "text/html")
    again = store_article(library, capture(url))  # type: ignore[arg-type]
    item = get_item(library, again.item_id)
    assert (again.item_id, again.new) == (first.item_id, False)
    assert item.title == "Read later" and "Start with a short run" in to_text(item.content)  # the user's title
    assert reader_document(library, item.id).state.fetch_problem is None
    page_server.serve_status("/later.html", 500)
    store_article(library, capture(url))  # type: ignore[arg-type]
    assert get_item(library, item.id).content == item.content  # a failed fetch changes nothing
    assert reader_document(library, item.id).state.fetch_problem is None


def test_charsets_by_header_meta_then_utf8_then_windows_1252() -> None:
    assert decode("café".encode("cp1252"), "text/html; charset=iso-8859-1") == "café"
    assert decode(b"<meta charset='latin1'>caf\xe9") == "<meta charset='latin1'>café"
    assert decode("café".encode()) == "café"
    assert decode(b"caf\xe9 \x93quoted\x94") == "café “quoted”"
    assert decode(b"\xef\xbb\xbfbom") == "bom"
    assert decode("café".encode(), "text/html; charset=nonsense") == "café"


@pytest.mark.parametrize(("data", "media_type", "kind"), [
    (b"<?xml version='1.0'?><rss version='2.0'><channel/></rss>", "application/xml", "feed"),
    (b"<?xml version='1.0'?><html xmlns='http://www.w3.org/1999/xhtml'><body/></html>", "", "html"),
    (b"<feed xmlns='http://www.w3.org/2005/Atom'/>", "", "feed"),
    (b"<!doctype html><p>x", "", "html"),
    (b"# Title\n", "text/markdown", "markdown"),
    (b"just text", "", "text"),
    (b"\x89PNG\r\n\x1a\n\x00", "image/png", "other"),
])
def test_page_kinds(data: bytes, media_type: str, kind: str) -> None:
    assert page_kind(data, media_type) == kind
