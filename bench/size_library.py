"""The library of issue 40, built as a person gets it: feeds of 1,000 items with ~1.6 KB of HTML show notes each,
served over HTTP on 127.0.0.1 and imported with the real ``earmark import-opml``. Used by bench/library_size.py.

The feeds and the libraries are kept in ``bench/.cache/``; a library is rebuilt when its items count, the schema or
the committed code under app/ changed (or when asked)."""

from __future__ import annotations

import functools
import random
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from xml.sax.saxutils import quoteattr

from feed_server import FeedSpec, _sentence, feed_body, show_notes

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"
EARMARK = Path(sys.executable).with_name("earmark")
PER_FEED = 1000


def long_notes(rng: random.Random, feed: int, number: int) -> str:
    """~1.6 KB of show notes: the bench feeds' notes (links, a guest, a plug) after three paragraphs of summary."""
    summary = "".join(f"<p>{' '.join(_sentence(rng) for _ in range(3))}</p>" for _ in range(3))
    return summary + show_notes(rng, feed, number)


def feeds(items: int) -> list[FeedSpec]:
    """``items`` items in feeds of 1,000 (the last one smaller)."""
    return [FeedSpec(index, min(PER_FEED, items - start)) for index, start in enumerate(range(0, items, PER_FEED))]


def write_feeds(folder: Path, specs: list[FeedSpec]) -> None:
    import feed_server

    folder.mkdir(parents=True, exist_ok=True)
    plain = feed_server.show_notes
    feed_server.show_notes = long_notes  # type: ignore[assignment] # the same items, with longer notes
    try:
        for spec in specs:
            target = folder / f"{spec.index:03d}-{spec.items}.xml"
            if not target.exists():
                target.write_bytes(feed_body(spec))
    finally:
        feed_server.show_notes = plain  # type: ignore[assignment]


def code_version() -> str:
    """The committed tree of app/ (what builds the library), so that a new commit builds a new library."""
    found = subprocess.run(["git", "rev-parse", "--short", "HEAD:app"], cwd=HERE, capture_output=True, text=True)
    return found.stdout.strip() or "unknown"


def build(items: int, rebuild: bool = False) -> Path:
    """The cached library of ``items`` items, imported from the feeds with ``earmark import-opml``."""
    from earmark.core.db.migrations import MIGRATIONS

    library = CACHE / f"size-{items}-s{len(MIGRATIONS)}-{code_version()}" / "library.db"
    if library.exists() and not rebuild:
        return library
    for stale in library.parent.glob("library.db*"):
        stale.unlink()
    library.parent.mkdir(parents=True, exist_ok=True)
    specs = feeds(items)
    folder = CACHE / "size-feeds"
    write_feeds(folder, specs)
    handler = functools.partial(_Quiet, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        opml = library.parent / "feeds.opml"
        outlines = "".join(f'<outline type="rss" text="Feed {spec.index}" xmlUrl='
                           f'{quoteattr(f"http://127.0.0.1:{server.server_port}/{spec.index:03d}-{spec.items}.xml")}/>\n'
                           for spec in specs)
        opml.write_text(f'<?xml version="1.0"?>\n<opml version="2.0"><body>\n{outlines}</body></opml>\n')
        subprocess.run([str(EARMARK), "--library", str(library), "import-opml", str(opml), "--json"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        server.shutdown()
        server.server_close()
    return library


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass
