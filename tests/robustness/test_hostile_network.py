"""Hostile servers: compression bombs, endless bodies and bodies trickled slowly are refused within the size cap,
in bounded time and memory; chapters and transcripts are only ever fetched from the web."""

from __future__ import annotations

import gzip
import io
import time
import tracemalloc
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from earmark.core.chapters import fetch_chapters
from earmark.core.errors import UnreachableError
from earmark.core.feeds import fetch as fetch_module
from earmark.core.feeds.fetch import fetch
from earmark.core.notes.transcripts import fetch_transcript
from helpers.feed_server import FeedServer, Route, gzip_bomb, rss

MB = 1024 * 1024


class Endless(io.RawIOBase):
    """A response body that never ends (a server streaming zeros, or garbage, forever)."""

    def __init__(self, chunk: bytes) -> None:
        self.chunk = chunk
        self.sent = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        self.sent += len(self.chunk)
        return self.chunk

    read1 = read


def deflate_bomb(inflated: int, raw: bool) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS if raw else zlib.MAX_WBITS)
    zeros = bytes(MB)
    return b"".join(compressor.compress(zeros) for _ in range(inflated // MB)) + compressor.flush()


def peak_while(action: object) -> tuple[BaseException | None, float, int]:
    """Run ``action``; what it raised, the seconds it took and the peak of memory it allocated (bytes)."""
    assert callable(action)
    tracemalloc.start()
    start = time.perf_counter()
    try:
        action()
    except BaseException as exc:  # noqa: BLE001 - returned to the test, which checks it
        error: BaseException | None = exc
    else:
        error = None
    finally:
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return error, seconds, peak


@pytest.fixture
def small_cap(monkeypatch: pytest.MonkeyPatch) -> int:
    """A 4 MB feed cap, so that reaching it takes a moment (the real one is 50 MB)."""
    monkeypatch.setattr(fetch_module, "MAX_FEED_BYTES", 4 * MB)
    return 4 * MB


@pytest.mark.parametrize("encoding, bomb", [
    ("gzip", lambda: gzip_bomb(64 * MB)),
    ("deflate", lambda: deflate_bomb(64 * MB, raw=False)),
    ("deflate", lambda: deflate_bomb(64 * MB, raw=True)),
    (None, lambda: b"\0" * MB),  # an endless plain body
], ids=["gzip bomb", "zlib bomb", "raw deflate bomb", "endless plain body"])
def test_bombs_and_endless_bodies_stop_at_the_cap_in_bounded_memory(small_cap: int, encoding: str | None,
                                                                    bomb: object) -> None:
    assert callable(bomb)
    data = bomb()
    body: io.RawIOBase = Endless(data) if encoding is None else io.BytesIO(data)
    error, seconds, peak = peak_while(lambda: fetch_module._read_within(body, "https://bomb.example/feed", encoding))
    assert isinstance(error, UnreachableError) and "larger than 4 MB, too large for a feed" in str(error)
    assert seconds < 5.0
    assert peak < 3 * small_cap, f"{peak / MB:.0f} MB held for a 4 MB cap"


def test_a_gzip_bomb_at_the_real_cap_is_refused_in_bounded_memory() -> None:
    bomb = gzip_bomb(200 * MB)  # 200 KB on the wire
    error, seconds, peak = peak_while(lambda: fetch_module._read_within(io.BytesIO(bomb), "https://b.example/", "gzip"))
    assert isinstance(error, UnreachableError) and "larger than 50 MB" in str(error)
    assert seconds < 10.0 and peak < 2.5 * fetch_module.MAX_FEED_BYTES


def test_a_compressed_body_that_never_ends_is_refused(small_cap: int) -> None:
    """A gzip stream of endless garbage members: the decoder sees more data after the end of the first."""
    member = gzip.compress(b"<rss/>" * 1000, mtime=0)
    error, seconds, _ = peak_while(lambda: fetch_module._read_within(Endless(member), "https://e.example/", "gzip"))
    assert isinstance(error, UnreachableError) and seconds < 5.0


def test_a_feed_trickled_slowly_is_given_up_at_the_total_deadline(feed_server: FeedServer,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # Found by the robustness suite: the body was read 256 KiB at a time, and read(256 KiB) returns only when all
    # of them came; a server sending 16 KiB every few seconds (each within the per-read timeout) held the fetch
    # for minutes past TOTAL_SECONDS. Now each read returns what one receive got, and the deadline is checked.
    monkeypatch.setattr(fetch_module, "TOTAL_SECONDS", 1.0)
    url = feed_server.route("/trickle.xml", Route(body=rss("Slow", []) + b" " * (2 * MB), pace=0.25))
    start = time.perf_counter()
    with pytest.raises(UnreachableError, match=r"took more than 1 s to send the feed; gave up\.$"):
        fetch(url, timeout=5.0)
    assert time.perf_counter() - start < 2.5


def test_a_server_that_answers_nothing_times_out(feed_server: FeedServer) -> None:
    url = feed_server.serve_slow("/silent.xml", delay=5.0, body=rss("Late", []))
    start = time.perf_counter()
    with pytest.raises(UnreachableError, match="timed out"):
        fetch(url, timeout=0.5)
    assert time.perf_counter() - start < 3.0


@pytest.fixture
def secret(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "secret.json"
    path.write_text('{"chapters": [{"startTime": 0, "title": "root:x:0:0"}]}\n1\n00:00:01,000 --> 00:00:02,000\nx\n')
    yield path


@pytest.mark.parametrize("fetcher", [fetch_chapters, fetch_transcript], ids=["chapters", "transcript"])
@pytest.mark.parametrize("form", ["uri", "path", "traversal"])
def test_chapters_and_transcripts_are_never_read_from_local_files(secret: Path, fetcher: object, form: str) -> None:
    # Feeds only ever give http(s) links (namespaces.py), but a restored backup or an edited library can hold
    # any text: the fetchers themselves refuse what is not a web address.
    assert callable(fetcher)
    address = {"uri": secret.as_uri(), "path": str(secret),
               "traversal": f"{secret.parent}/../{secret.parent.name}/{secret.name}"}[form]
    with pytest.raises(UnreachableError, match="is not a web address"):
        fetcher(address)


@pytest.mark.parametrize("fetcher", [fetch_chapters, fetch_transcript], ids=["chapters", "transcript"])
@pytest.mark.parametrize("address", ["javascript:alert(1)", "data:application/json,{}", "ftp://example.com/x",
                                     "feed://example.com/x.json"])
def test_chapters_and_transcripts_need_an_http_address(fetcher: object, address: str) -> None:
    assert callable(fetcher)
    with pytest.raises(UnreachableError, match="is not a web address"):
        fetcher(address)
