"""XML attacks on every XML reader (feeds by both paths, the namespaces pass, OPML): entity bombs (exponential and
quadratic), external entities naming a local secret, parameter entities and DTDs on a server, XInclude. Each is
refused or read without expanding or fetching anything, in bounded memory. Time is bounded by the CPU the reader
spends (an expansion that allocates nothing would still burn it), not by the wall clock a busy machine stretches."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest

from earmark.core.errors import FeedError
from helpers.feed_server import FeedServer
from helpers.parsers import PARSERS

SECRET = "earmark-secret-7f3a"
READERS = ("feed", "feed-feedparser", "feed-extras", "opml")


def attacks(secret: Path, server: FeedServer) -> dict[str, str]:
    dtd = server.url("/evil.dtd")
    laughs = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    return {
        "billion laughs": f'<!DOCTYPE r [<!ENTITY l0 "lol">{laughs}]>',
        "quadratic blowup": f'<!DOCTYPE r [<!ENTITY a "{"A" * 50_000}">]>',
        "external entity": f'<!DOCTYPE r [<!ENTITY x SYSTEM "{secret.as_uri()}">]>',
        "external entity by path": f'<!DOCTYPE r [<!ENTITY x SYSTEM "{secret}">]>',
        "parameter entity": f'<!DOCTYPE r [<!ENTITY % p SYSTEM "{dtd}"> %p;]>',
        "external dtd": f'<!DOCTYPE r SYSTEM "{dtd}">',
        "public dtd": f'<!DOCTYPE r PUBLIC "-//X//DTD X//EN" "{dtd}">',
        "xinclude": "",
    }


def document(reader: str, attack: str, doctype: str, secret: Path) -> bytes:
    use = {"billion laughs": "&l9;", "quadratic blowup": "&a;" * 20_000, "external entity": "&x;",
           "external entity by path": "&x;"}.get(attack, "text")
    if attack == "xinclude":
        use = f'<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="{secret.as_uri()}" parse="text"/>'
    if reader == "opml":
        text = use if "<" not in use else "x"
        body = (f'<opml version="2.0"><head><title>{use}</title></head><body>'
                f'<outline text="{text}" xmlUrl="https://example.com/f"/></body></opml>')
    else:
        body = (f'<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" '
                f'xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>{use}</title>'
                f'<item><title>One</title><description>{use}</description><itunes:summary>{use}</itunes:summary>'
                f'<podcast:transcript url="https://example.com/t.vtt" type="text/vtt"/></item></channel></rss>')
    doctype = doctype.replace("<!DOCTYPE r", "<!DOCTYPE opml" if reader == "opml" else "<!DOCTYPE rss")
    return f'<?xml version="1.0"?>{doctype}{body}'.encode()


ATTACKS = ("billion laughs", "quadratic blowup", "external entity", "external entity by path", "parameter entity",
           "external dtd", "public dtd", "xinclude")


@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize("reader", READERS)
def test_xml_attacks_are_refused_or_neutralised(reader: str, attack: str, tmp_path: Path,
                                                feed_server: FeedServer) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    feed_server.serve_body("/evil.dtd", f'<!ENTITY leak "{SECRET}">'.encode(), "application/xml-dtd")
    data = document(reader, attack, attacks(secret, feed_server)[attack], secret)
    parser = PARSERS[reader]
    tracemalloc.start()
    start = time.process_time()
    try:
        result: object = parser.run(data)
    except FeedError as exc:
        result = exc
    finally:
        seconds = time.process_time() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert seconds < 5.0, f"{seconds:.1f} s of CPU"
    assert peak < 64 * 1024 * 1024, f"{peak / 2**20:.0f} MB"
    assert SECRET not in repr(result) and "lollollol" not in repr(result)
    assert feed_server.requests == [], "the reader fetched the DTD"
    if not isinstance(result, FeedError) and parser.check is not None:
        parser.check(data, result)  # entities not expanded beyond the document's size, links still safe
