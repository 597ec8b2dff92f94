"""An article's picture (og:image, twitter:image) and its site's icon, from the page's head."""

from __future__ import annotations

from earmark.core.articles.page_images import PageImages, page_images

PAGE = "https://blog.example.com/posts/fusion.html"


def test_og_image_and_the_largest_icon() -> None:
    html = """<html><head><meta property="og:image" content="/img/fusion.png">
        <link rel="icon" href="/favicon-16.png" sizes="16x16"><link rel="apple-touch-icon" href="/touch.png">
        <link rel="icon" href="https://cdn.example.com/icon-64.png" sizes="64x64"></head><body>..."""
    assert page_images(html, PAGE) == PageImages("https://blog.example.com/img/fusion.png",
                                                 "https://blog.example.com/touch.png")


def test_twitter_image_when_there_is_no_og_image() -> None:
    html = '<head><meta name="twitter:image" content="https://example.com/t.jpg"></head>'
    assert page_images(html, PAGE).image_url == "https://example.com/t.jpg"


def test_only_web_addresses_and_only_the_head_count() -> None:
    html = ('<head><meta property="og:image" content="javascript:alert(1)"><link rel="icon" href="data:image/png,x">'
            '</head><body><meta property="og:image" content="/late.png"></body>')
    assert page_images(html, PAGE) == PageImages(None, None)
