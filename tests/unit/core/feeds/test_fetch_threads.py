"""fetch() as a refresh runs it, in several threads at once: it must not need ``urllib.request`` to be an attribute of
the urllib package yet. While one thread's first ``import urllib.request`` ends, the module is loaded but that
attribute is not set, and a refresh in CI failed on another thread's ``urllib.request.Request``."""

from __future__ import annotations

import urllib
import urllib.request
from pathlib import Path

import pytest

from earmark.core.feeds.fetch import fetch
from helpers.feed_server import FeedServer, Route

BODY = b"<?xml version='1.0'?><rss version='2.0'><channel><title>Feed</title></channel></rss>"


def test_fetch_while_another_thread_ends_the_import_of_urllib_request(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    with FeedServer(tmp_path) as server:
        url = server.route("/feed.xml", Route(body=BODY))
        monkeypatch.delattr(urllib, "request")  # the moment of the race: in sys.modules, not on the package yet
        fetched = fetch(url)
    assert fetched.data == BODY
