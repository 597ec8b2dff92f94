"""Fetching covers from a real local server: stored once at every size, asked again conditionally, refused
whole when hostile (wrong type, endless body, broken), the file fetched before kept when a refresh fails."""

from __future__ import annotations

from pathlib import Path

from earmark.core.db.covers import cover_state, record_covers
from earmark.core.db.database import Database
from earmark.core.images.fetch import MAX_COVER_BYTES, CoverState, fetch_cover
from earmark.core.images.paths import SIZES, cached_file
from helpers.feed_server import FeedServer, Route

IMAGES = Path(__file__).parents[3] / "fixtures" / "images"
COVER = (IMAGES / "cover.jpg").read_bytes()


def test_a_cover_is_fetched_once_then_revalidated(feed_server: FeedServer, library: Database,
                                                   tmp_path: Path) -> None:
    url = feed_server.route("cover.jpg", Route(body=COVER, content_type="image/jpeg", etag='"v1"'))
    first = fetch_cover(CoverState(url), tmp_path)
    assert first.problem is None and first.etag == '"v1"'
    assert all(cached_file(url, size, tmp_path) for size in SIZES)
    record_covers(library, [first])
    again = fetch_cover(cover_state(library, url), tmp_path)
    assert feed_server.received_for("cover.jpg")[-1].header("If-None-Match") == '"v1"'
    assert again.file == first.file and again.problem is None
    assert len(feed_server.received_for("cover.jpg")) == 2


def test_a_changed_cover_replaces_the_file(feed_server: FeedServer, tmp_path: Path) -> None:
    url = feed_server.route("c", Route(body=COVER, content_type="image/jpeg", etag='"v1"'))
    first = fetch_cover(CoverState(url), tmp_path)
    before = cached_file(url, 64, tmp_path)
    assert before is not None
    feed_server.route("c", Route(body=(IMAGES / "transparent.png").read_bytes(), content_type="image/png",
                                 etag='"v2"'))
    second = fetch_cover(first, tmp_path)
    assert second.etag == '"v2"' and second.file is not None and second.file.endswith(".png")
    assert cached_file(url, 64, tmp_path) == before.with_suffix(".png") and not before.exists()


def test_hostile_answers_store_nothing_and_say_why(feed_server: FeedServer, tmp_path: Path) -> None:
    answers = {
        "page": Route(body=b"<html>Not found</html>", content_type="text/html"),
        "endless": Route(body=b"\xff\xd8\xff" + b"\0" * (MAX_COVER_BYTES + 1), content_type="image/jpeg"),
        "cut": Route(body=COVER, content_type="image/jpeg", truncate=len(COVER) // 2),
        "bomb": Route(body=(IMAGES / "bomb.png").read_bytes(), content_type="image/png"),
        "svg": Route(body=(IMAGES / "drawing.svg").read_bytes(), content_type="image/svg+xml"),
        "gone": Route(status=404, body=b"no", content_type="text/plain"),
    }
    for path, route in answers.items():
        url = feed_server.route(path, route)
        state = fetch_cover(CoverState(url), tmp_path)
        assert state.file is None and state.problem, path
        assert state.checked is not None
        assert cached_file(url, 64, tmp_path) is None, path
    assert not any(path.is_file() for path in tmp_path.rglob("*"))


def test_a_refresh_that_fails_keeps_the_cover_it_had(feed_server: FeedServer, tmp_path: Path) -> None:
    url = feed_server.route("c", Route(body=COVER, content_type="image/jpeg"))
    first = fetch_cover(CoverState(url), tmp_path)
    feed_server.route("c", Route(body=b"<html>oops</html>", content_type="text/html"))
    second = fetch_cover(first, tmp_path)
    assert second.file == first.file and second.problem is not None
    assert cached_file(url, 256, tmp_path) is not None
