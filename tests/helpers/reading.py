"""The reading-list fixtures (tests/fixtures/reading) and pages made on the spot for a local HTTP server."""

from __future__ import annotations

from pathlib import Path

from helpers.shared import shared_dir

READING = Path(__file__).resolve().parents[1] / "fixtures" / "reading"
PAGES = READING / "pages"
FILES = READING / "files"
LISTS = READING / "lists"
SEEDS = shared_dir() / "seeds"
WEEKLY_SEED = SEEDS / "000_9a1684e5242061c6.txt"  # the PyTorch Weekly #1 newsletter, in Markdown


def long_article(title: str, paragraphs: int, words: str = "") -> bytes:
    """A web page holding an article of ``paragraphs`` numbered paragraphs (long enough to scroll)."""
    body = "".join(
        f"<p>Paragraph {n}: guards are evaluated before each call, so they must stay cheap, and Dynamo orders "
        f"them so that the checks most likely to fail run first. {words}</p>" for n in range(1, paragraphs + 1))
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title></head><body>"
            f"<nav><a href='/'>Home</a></nav><article><h1>{title}</h1>{body}</article>"
            "<footer>© 2024</footer></body></html>").encode()
