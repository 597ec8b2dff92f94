"""JSON Feed 1.0 and 1.1 subscriptions: served over real HTTP, subscribed from the command line with every item,
attachments as enclosures, refreshed with conditional GET like RSS, size-capped like RSS; bad variants refused
with one sentence and nothing changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import earmark.core.feeds.fetch as fetch_module
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import list_items
from earmark.core.db.sources import feed_targets
from earmark.core.errors import EarmarkError, FeedError
from earmark.core.feeds.opml import OpmlDocument, OpmlFeed
from earmark.core.feeds.parse import parse_feed
from earmark.core.feeds.refresh import Refresher
from earmark.core.feeds.subscribe import subscribe
from earmark.core.feeds.subscriptions import import_opml
from helpers.cli import Cli
from helpers.feed_server import FeedServer, fixtures_dir

JSON_TYPE = "application/feed+json"
FIELDS = ("id", "title", "url", "external_url", "content_html", "content_text", "summary", "date_published",
          "date_modified", "tags", "attachments", "mime_type", "duration_in_seconds", "author", "authors", "name",
          "home_page_url", "icon", "favicon", "description")


def json_feed(version: str = "1.1", items: int = 3) -> bytes:
    """A podcast as JSON Feed: ``items`` episodes with audio attachments, one article without."""
    entries: list[dict[str, object]] = [{
        "id": f"ep-{n}", "title": f"Episode {n}", "url": f"https://cast.example.com/{n}",
        "content_html": f"<p>Show notes of episode {n}.</p>", "date_published": f"2024-05-0{n + 1}T10:00:00Z",
        "tags": ["compilers"],
        "attachments": [{"url": f"https://cdn.example.com/{n}.mp3", "mime_type": "audio/mpeg",
                         "size_in_bytes": 1000, "duration_in_seconds": 1500 + n}],
    } for n in range(items)]
    entries.append({"id": "post", "url": "https://cast.example.com/post", "content_text": "A post without audio."})
    author = {"authors": [{"name": "Ana Lopez"}]} if version == "1.1" else {"author": {"name": "Ana Lopez"}}
    return json.dumps({"version": f"https://jsonfeed.org/version/{version}", "title": "JSON Cast",
                       "home_page_url": "https://cast.example.com/", "icon": "https://cast.example.com/i.png",
                       **author, "items": entries}).encode()


@pytest.mark.parametrize("version", ["1", "1.1"])
def test_a_json_feed_over_http_subscribes_with_every_item(version: str, tmp_path: Path, library_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    with FeedServer(tmp_path) as server:
        url = server.serve_feed("/feed.json", json_feed(version, items=3), content_type=JSON_TYPE)
        cli = Cli(library_path, capsys)
        code, _, err = cli("subscribe", url)
        assert code == 0, err
        items = cli.json("list")
    assert len(items) == 4
    episodes = {item["title"]: item for item in items if item["kind"] == "episode"}
    assert sorted(episodes) == ["Episode 0", "Episode 1", "Episode 2"]
    assert episodes["Episode 1"]["enclosure_url"] == "https://cdn.example.com/1.mp3"
    assert episodes["Episode 1"]["duration"] == 1501.0
    assert episodes["Episode 1"]["published"].startswith("2024-05-02T10:00:00")
    assert episodes["Episode 1"]["source"] == "JSON Cast" and episodes["Episode 1"]["tags"] == []
    [article] = [item for item in items if item["kind"] == "article"]
    assert article["title"] == "A post without audio." and article["url"] == "https://cast.example.com/post"


def test_a_json_feed_is_refreshed_with_conditional_get(library: Database,
                                                       feed_server: FeedServer) -> None:
    url = feed_server.serve_feed("/cast.json", json_feed(items=2), etag='"j1"', content_type=JSON_TYPE)
    [source_id] = import_opml(library, OpmlDocument(None, [OpmlFeed(url=url, title=url)], [])).added
    with Refresher() as refresher:
        [first] = refresher.refresh(library, feed_targets(library, [source_id]))
        assert (first.status, len(first.new)) == ("ok", 3)
        [second] = refresher.refresh(library, feed_targets(library, [source_id]))
    assert second.status == "not_modified"
    assert feed_server.received_for("/cast.json")[1].header("If-None-Match") == '"j1"'
    feed_server.serve_feed("/cast.json", json_feed(items=4), etag='"j2"', content_type=JSON_TYPE)
    with Refresher() as refresher:
        [third] = refresher.refresh(library, feed_targets(library, [source_id]))
    assert (third.status, len(third.new)) == ("ok", 2)
    assert len(list_items(library, ItemFilter(kind="episode"))) == 4


def test_real_json_feeds_from_the_shared_fixtures() -> None:
    folder = fixtures_dir() / "feeds"
    if not (folder / "rsp__DaringFireball.json").exists():
        pytest.skip("the shared fixtures (../shared/fixtures) are not here")
    fireball = parse_feed((folder / "rsp__DaringFireball.json").read_bytes(), "https://daringfireball.net/feeds/json")
    assert (fireball.title, len(fireball.entries), fireball.author) == ("Daring Fireball", 48, "John Gruber")
    assert all(entry.url for entry in fireball.entries)
    example = parse_feed((folder / "fp__json__example.json").read_bytes(), "https://example.org/feed.json")
    assert len(example.entries) == 2


BAD = {
    "invalid JSON": (b'{"version": "https://jsonfeed.org/version/1.1", "items": [', "its JSON is broken"),
    "wrong version": (b'{"version": "https://jsonfeed.org/version/2", "items": []}',
                      "its version 'https://jsonfeed.org/version/2' is not JSON Feed 1.0 or 1.1"),
    "no version": (b'{"title": "Some API", "items": []}', "is JSON but not a JSON Feed"),
    "missing items": (b'{"version": "https://jsonfeed.org/version/1.1", "title": "T"}', "without its list of items"),
    "items not a list": (b'{"version": "https://jsonfeed.org/version/1", "items": {"a": 1}}',
                         "without its list of items"),
    "empty object": (b" \n{}", "is JSON but not a JSON Feed"),
    "deep nesting": (b'{"version": "https://jsonfeed.org/version/1.1", "items": ' + b"[" * 100_000 + b"]" * 100_000
                     + b"}", "nested too deeply"),
    "huge number": (b'{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": ' + b"9" * 50_000 + b"}]}",
                    "its JSON is broken"),
    "not UTF-8": (b'{"version": "https://jsonfeed.org/version/1.1", "title": "\xff\xfe", "items": []}', "not UTF-8"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_json_feeds_get_a_sentence_and_change_nothing(case: str, library: Database,
                                                          feed_server: FeedServer) -> None:
    body, words = BAD[case]
    url = feed_server.serve_body(f"/{case.replace(' ', '-')}.json", body, JSON_TYPE)
    with pytest.raises(FeedError) as info:
        subscribe(library, url)
    message = str(info.value)
    assert words in message and message.startswith(url) and "\n" not in message and "Traceback" not in message
    assert list_items(library, ItemFilter()) == []


def test_a_json_feed_larger_than_the_cap_is_refused_like_rss(library: Database,
                                                             feed_server: FeedServer,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fetch_module, "MAX_FEED_BYTES", 1024 * 1024)
    url = feed_server.serve_body("/big.json", json_feed(items=6000), JSON_TYPE)  # about 1.7 MB
    with pytest.raises(EarmarkError, match="is larger than 1 MB, too large for a feed"):
        subscribe(library, url)
    assert list_items(library, ItemFilter()) == []


def test_items_that_are_not_objects_are_left_out_with_a_warning() -> None:
    body = json.loads(json_feed(items=1))
    body["items"] += ["stray", 42]
    feed = parse_feed(json.dumps(body).encode(), "https://cast.example.com/feed.json")
    assert len(feed.entries) == 2 and feed.warning == "The feed has errors (2 of its items are not JSON objects)."


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(FIELDS), inner,
                                                                                 max_size=6), max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(items=st.lists(st.dictionaries(st.sampled_from(FIELDS), _JSON, max_size=8) | _JSON, max_size=5),
       top=st.dictionaries(st.sampled_from(FIELDS), _JSON, max_size=5))
def test_any_shape_of_json_feed_is_read_or_refused_with_a_sentence(items: list[object], top: dict[str, object]) -> None:
    body = json.dumps({**top, "version": "https://jsonfeed.org/version/1.1", "items": items}).encode()
    try:
        feed = parse_feed(body, "https://cast.example.com/feed.json")
    except FeedError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert len(feed.entries) == sum(isinstance(item, dict) for item in items)
