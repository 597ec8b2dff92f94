"""Every https request shares one TLS context: urllib made one per connection, reading the system's certificate
store each time (~65 ms of CPU): a refresh of 300 feeds spent 20 s of CPU on it beside the window. Against a real
TLS server on 127.0.0.1 whose certificate is trusted (or not) through SSL_CERT_FILE."""

from __future__ import annotations

import ssl
from collections.abc import Iterator
from pathlib import Path

import pytest

import earmark.core.feeds.fetch as fetch_module
from earmark.core import tls
from earmark.core.db.database import Database
from earmark.core.db.sources import feed_targets
from earmark.core.downloads.transfer import download
from earmark.core.feeds.opml import OpmlDocument, OpmlFeed
from earmark.core.feeds.refresh import Refresher
from earmark.core.feeds.subscriptions import import_opml
from helpers.feed_server import FeedServer, rss
from helpers.tls_certificate import self_signed, server_context

FEEDS = 6


@pytest.fixture
def https_server(tmp_path: Path) -> Iterator[tuple[FeedServer, Path]]:
    """A feed server speaking https with a certificate of its own, and that certificate's file."""
    certificate, key = self_signed(tmp_path)
    with FeedServer(tmp_path, tls=server_context(certificate, key)) as server:
        yield server, certificate


@pytest.fixture
def store_reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Each reading of the system's certificate store from now on (one entry each); the shared context is made
    afresh, so that the environment set by the test is the one it reads."""
    reads: list[int] = []
    load = ssl.SSLContext.load_default_certs

    def counted(context: ssl.SSLContext, purpose: ssl.Purpose = ssl.Purpose.SERVER_AUTH) -> None:
        reads.append(1)
        load(context, purpose)

    monkeypatch.setattr(ssl.SSLContext, "load_default_certs", counted)
    _forget_the_context()
    yield reads
    _forget_the_context()  # the next test's environment may trust other certificates


def _forget_the_context() -> None:
    """Make the shared context afresh at the next request: the feeds' opener, made once, holds it too."""
    tls._shared.cache_clear()
    fetch_module._opener.cache_clear()


def _refresh_all(db: Database, urls: list[str]) -> list[tuple[str, str | None]]:
    added = import_opml(db, OpmlDocument(None, [OpmlFeed(url=url, title=url) for url in urls], [])).added
    with Refresher() as refresher:
        outcomes = refresher.refresh(db, feed_targets(db, added))
    return sorted((outcome.status, outcome.error) for outcome in outcomes)


def test_a_refresh_of_feeds_over_https_reads_the_certificate_store_once(
        library: Database, https_server: tuple[FeedServer, Path], store_reads: list[int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    server, certificate = https_server
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate))
    urls = [server.serve_body(f"show-{n}.xml", rss(f"Show {n}", [])) for n in range(FEEDS)]
    assert all(url.startswith("https://127.0.0.1:") for url in urls)

    assert _refresh_all(library, urls) == [("ok", None)] * FEEDS  # verified against the trusted certificate
    assert len(store_reads) == 1


def test_a_feed_whose_certificate_is_not_trusted_says_so_and_the_others_refresh(
        library: Database, https_server: tuple[FeedServer, Path], store_reads: list[int], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    server, _certificate = https_server
    (tmp_path / "other").mkdir()
    other, _key = self_signed(tmp_path / "other")
    monkeypatch.setenv("SSL_CERT_FILE", str(other))  # the store trusts another certificate, not the server's
    url = server.serve_body("show.xml", rss("Show", []))
    with FeedServer(tmp_path / "other") as plain:
        [(status, error), fine] = _refresh_all(library, [url, plain.serve_body("plain.xml", rss("Plain", []))])

    assert fine == ("ok", None)
    assert status == "error"
    assert error is not None and error.startswith(f"{url} could not be reached:")
    assert "certificate" in error


def test_downloads_over_https_read_the_certificate_store_once(
        https_server: tuple[FeedServer, Path], store_reads: list[int], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    server, certificate = https_server
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate))
    audio = bytes(range(256)) * 64
    for number in range(3):
        url = server.serve_media(f"episode-{number}.wav", audio)
        download(url, tmp_path / "episodes" / f"{number}.wav", retries=0)
        assert (tmp_path / "episodes" / f"{number}.wav").read_bytes() == audio

    assert len(store_reads) == 1
