"""Origins (what a password is given for), credentials inside addresses, and addresses compared as gpodder.net
normalises them."""

from __future__ import annotations

import pytest

from earmark.core.db.connection import write_transaction
from earmark.core.secrets.feeds import feed_key, forget_on_move
from earmark.core.secrets.store import Secrets
from earmark.core.settings import set_setting
from earmark.core.urls import comparable, is_web_address, origin, shown_address, split_userinfo


@pytest.mark.parametrize(("a", "b", "same"), [
    ("https://host/feed", "https://HOST:443/other", True),
    ("https://host/feed", "http://host/feed", False),  # https to http: another origin
    ("https://host/feed", "https://host:8443/feed", False),
    ("https://host/feed", "https://cdn.host/feed", False),
])
def test_origins(a: str, b: str, same: bool) -> None:
    assert (origin(a) == origin(b)) is same


def test_credentials_are_taken_out_of_an_address() -> None:
    parts = split_userinfo("https://ali%40ce:p%3Ass@host:8443/feed?x=1")
    assert (parts.url, parts.user, parts.password) == ("https://host:8443/feed?x=1", "ali@ce", "p:ss")
    assert split_userinfo("https://host/feed").user is None
    assert split_userinfo("https://[::1/feed").url == "https://[::1/feed"  # unparsable: as it is
    assert not is_web_address("file:///tmp/feed.xml") and is_web_address("http://h/x")


def test_addresses_compare_as_the_server_normalises_them() -> None:
    assert comparable("HTTP://Example.COM") == comparable("http://example.com/")
    assert comparable("http://example.com/a b.mp3") == comparable("http://example.com/a%20b.mp3")
    assert comparable("feed://example.com/rss") == comparable("http://example.com/rss")
    assert comparable("http://u:p@example.com/rss") == comparable("http://example.com/rss")
    assert comparable("http://example.com/A") != comparable("http://example.com/a")


@pytest.mark.parametrize(("new", "dropped"), [
    ("http://feeds.example.com/private.xml", True),  # from https to http
    ("https://elsewhere.example.com/private.xml", True),
    ("https://feeds.example.com/moved.xml", False),  # the same origin keeps them
])
def test_a_move_to_another_origin_forgets_the_credentials(library, new: str, dropped: bool) -> None:
    old = "https://feeds.example.com/private.xml"
    set_setting(library, "secrets.store_in_library", True)
    with write_transaction(library):
        library.execute("INSERT INTO sources (kind, title, url, auth_user, added) "
                        "VALUES ('podcast', 'P', ?, 'ana', 'x')", [old])
    secrets = Secrets(library)
    secrets.set(feed_key(old, "ana"), "pw")
    sentence = forget_on_move(library, 1, old, new, secrets)
    assert (sentence is not None) is dropped
    user = library.execute("SELECT auth_user FROM sources").fetchone()[0]
    assert (user is None, secrets.get(feed_key(old, "ana")) is None) == (dropped, dropped)


@pytest.mark.parametrize(("url", "shown"), [
    ("https://alice:pw@host/feed", "https://host/feed"),
    ("https://alice:p@ss@host:8080/f?x=a@b", "https://host:8080/f?x=a@b"),
    ("http://ann:pw@[::1/broken", "http://[::1/broken"),  # not parseable: still hidden
    ("https://host/feed?mail=a@b", "https://host/feed?mail=a@b"),
    ("/home/ann/feeds@work.xml", "/home/ann/feeds@work.xml"),
])
def test_an_address_is_shown_without_its_credentials(url: str, shown: str) -> None:
    assert shown_address(url) == shown
