"""A first import stores exactly what the one-feed-per-transaction path stored, for every shared fixture feed.

``stored_feeds.json`` beside the library fixtures holds, for each fixture, a digest of what the real command
``earmark import-opml`` stored for it with the code before batched writes (one INSERT per item, HTML → text in the
writer): the source row and every item row in order, with their search-index rows. It was recorded by this test
with ``EARMARK_RECORD_STORED_FEEDS=1`` at that commit; the batched import must give the same digests.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from xml.sax.saxutils import quoteattr

import pytest

from helpers.feed_server import FeedServer, fixture_files, fixtures_dir

GOLDEN = Path(__file__).resolve().parents[2] / "fixtures" / "libraries" / "stored_feeds.json"
FOLDERS = ("feeds", "feeds-malformed", "hostile")
# Written at the moment of storing, not taken from the feed; and the server's Last-Modified, which for a file it
# serves is the file's modification time (a fresh checkout of the fixtures has fresh ones).
SOURCE_CLOCKS = {"id", "added", "last_checked", "last_new", "last_modified"}
ITEM_CLOCKS = {"id", "source_id", "added"}
NEWER_COLUMNS = {"enclosure_length"}  # item columns of a later schema than the digests': not in them
NEWER_SOURCE_COLUMNS = {"skip_silence", "transcribe_new"}  # the same for sources
# JSON documents went to feedparser when the digests were recorded; since JSON Feed support they go to
# core/feeds/json_feed.py: the two JSON Feeds are read, the other JSON files refused in its words (test_json_feed.py).
JSON_READ_SINCE = ".json"


def digests(library: Path, server_prefix: str, covers: dict[str, str | None] | None = None) -> dict[str, str]:
    """Feed URL (without the server's address) → a digest of what the library holds for it; ``covers`` puts
    another cover address in a source's row (by its feed URL) before digesting it."""
    import sqlite3

    from earmark.core.db.show_notes import markup

    address = re.compile(re.escape(server_prefix))

    def canonical(row: dict[str, object]) -> str:
        return address.sub("<server>/", json.dumps(row, sort_keys=True, ensure_ascii=False, default=repr))

    db = sqlite3.connect(library)
    db.row_factory = sqlite3.Row
    try:
        found = {}
        for source in db.execute("SELECT * FROM sources WHERE url IS NOT NULL"):
            row = {k: source[k] for k in source.keys() if k not in SOURCE_CLOCKS | NEWER_SOURCE_COLUMNS}
            if covers is not None and source["url"] in covers:
                row["image_url"] = covers[source["url"]]
            parts = [canonical(row)]
            for item in db.execute(
                    """SELECT items.*, s.title AS s_title, s.text AS s_text, s.notes AS s_notes,
                              s.transcript AS s_transcript, s.highlights AS s_highlights
                       FROM items LEFT JOIN search_index AS s ON s.rowid = items.id
                       WHERE source_id = ? ORDER BY items.id""", [source["id"]]):
                row = {k: item[k] for k in item.keys() if k not in ITEM_CLOCKS | NEWER_COLUMNS}
                row["identity"] = _portable_identity(row)
                for name in ("description", "content"):  # kept once since schema 19: the markup they stand for
                    row[name] = markup(row[name], row["text"])
                parts.append(canonical(row))
            digest = hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
            found[str(source["url"]).removeprefix(server_prefix)] = digest
        return found
    finally:
        db.close()


def feedparser_cover(path: Path, url: str) -> str | None:
    """The cover feedparser alone finds in a feed (what the digests were recorded with)."""
    import feedparser

    from earmark.core.feeds.entries import _web_link

    parsed = feedparser.parse(path.read_bytes(), response_headers={"content-location": url})
    return _web_link(url, (parsed.feed.get("image") or {}).get("href"))


def _portable_identity(item: dict[str, object]) -> object:
    """An item without guid or enclosure is known by a hash of its link and title; its link holds the test
    server's port, which changes from run to run. Such an identity is named by what it hashes."""
    identity = item["identity"]
    hashed = "link:" + hashlib.sha1(f"{item['url'] or ''}\n{item['title']}".encode()).hexdigest()
    return "link:<hash of url and title>" if identity == hashed else identity


@pytest.mark.timeout(300)
def test_a_batched_first_import_stores_what_the_old_path_stored(tmp_path: Path) -> None:
    root = fixtures_dir()
    paths = fixture_files(*FOLDERS)
    with FeedServer(root) as server:
        prefix = server.url("")
        urls = [server.url(path.relative_to(root).as_posix()) for path in paths]
        outlines = "".join(f'<outline type="rss" text="f" xmlUrl={quoteattr(url)}/>' for url in urls)
        opml = tmp_path / "fixtures.opml"
        opml.write_text(f'<?xml version="1.0"?><opml version="2.0"><head/><body>{outlines}</body></opml>')
        library = tmp_path / "library.db"
        done = subprocess.run([sys.executable, "-m", "earmark", "--library", str(library), "import-opml", str(opml),
                               "--jsonl"], capture_output=True, text=True, timeout=280, check=False,
                              env={**os.environ, "PYTHONSAFEPATH": "1"})
    assert done.returncode == 0, done.stderr
    progress = [json.loads(line) for line in done.stdout.splitlines()[1:]]
    assert len(progress) == len(paths)  # one progress line per feed
    found = digests(library, prefix)
    assert len(found) == len(paths)
    if os.environ.get("EARMARK_RECORD_STORED_FEEDS"):
        GOLDEN.write_text(json.dumps(found, indent=0, sort_keys=True) + "\n")
        pytest.skip(f"recorded {GOLDEN.name}")
    expected = json.loads(GOLDEN.read_text())
    changed = {url for url in found if found[url] != expected.get(url) and not url.endswith(JSON_READ_SINCE)}
    # A feed's cover is read from more of it since the digests (itunes:image before RSS image, podcast:images,
    # Atom logo and icon; tests/unit/core/feeds/test_feed_images.py): with the cover feedparser alone found then,
    # such a feed's row is what it was, and nothing else changed.
    then = {prefix + url: feedparser_cover(root / url, prefix + url) for url in changed}
    again = digests(library, prefix, then)
    assert {url for url in changed if again[url] != expected.get(url)} == set()
