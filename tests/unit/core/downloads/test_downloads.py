"""Downloads: safe file names, resumable transfers over a real HTTP server (Range, retries, failures, stalls),
and the download records (disk usage, deleting played downloads, auto-download candidates)."""

from __future__ import annotations

import os
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from earmark.core.db.database import Database
from earmark.core.db.downloads import (
    add_download,
    delete_played_downloads,
    disk_usage,
    get_download,
    local_file,
    new_episode_ids,
    newest_item_id,
    pending_downloads,
    remove_download,
    update_download,
)
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import item_ids, mark_played
from earmark.core.downloads.names import MAX_NAME_BYTES, download_path, extension_for, safe_component, unique_path
from earmark.core.downloads.transfer import DownloadCancelled, download, part_path
from earmark.core.errors import UnreachableError
from earmark.core.feeds.subscribe import subscribe
from helpers.feed_server import FeedServer, closed_port
from helpers.podcast import Episode, write_podcast

BODY = bytes(range(256)) * 2048  # 512 KiB
NO_WAIT = (0.0,)


@pytest.mark.parametrize("title", [
    "../../etc/passwd", "/etc/passwd", "..", ".", "C:\\Windows\\system32", "a/b\\c", "\x00\x01nul\x7f",
    "CON", "nul.txt", "com1", "LPT9.mp3", "  . ", "", "…" * 300, "é" * 400, "x" * 1000, "Intro: what? <yes> | no*",
])
def test_no_title_can_leave_the_downloads_folder(tmp_path: Path, title: str) -> None:
    folder = tmp_path / "downloads"
    path = download_path(folder, title, title, "https://example.com/a/../../b.mp3")
    assert path.resolve().is_relative_to(folder.resolve())
    assert path.parent.parent == folder.resolve()
    for part in (path.parent.name, path.name):
        assert part not in ("", ".", "..") and "/" not in part and "\\" not in part and "\x00" not in part
        assert len(part.encode()) <= MAX_NAME_BYTES
        assert part.split(".")[0].upper() not in ("CON", "NUL", "COM1", "LPT9")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"ok")  # a name the file system accepts


def test_names_keep_unicode_and_readable_titles(tmp_path: Path) -> None:
    path = download_path(tmp_path, "Café Podcast", "Épisode 3: «Ça va?»", "https://h/ep3.MP3?x=1")
    assert path.name == "Épisode 3 «Ça va ».mp3"
    assert path.parent.name == "Café Podcast"
    assert safe_component("NUL") == "_NUL"
    assert unique_path(path, {str(path)}).name == "Épisode 3 «Ça va » (2).mp3"


def test_extensions_come_from_the_url_or_the_type() -> None:
    assert extension_for("https://h/a.m4a", None) == ".m4a"
    assert extension_for("https://h/a.M4A", "audio/x-m4a") == ".m4a"
    assert extension_for("https://h/download?id=3", "audio/ogg") == ".ogg"
    assert extension_for("https://h/a.mp3/../x.exe%00", "audio/mpeg") == ".mp3"
    assert extension_for("https://h/a.mp3", "application/octet-stream") == ".mp3"


def test_a_feed_cannot_choose_any_extension() -> None:
    """Issue 22 §4: ``x.sh`` was saved as ``x.sh``; only audio and video extensions that fit the type are kept."""
    assert extension_for("https://h/x.sh", "audio/mpeg") == ".mp3"
    assert extension_for("https://h/x.desktop", "video/mp4") == ".mp4"
    assert extension_for("https://h/x.exe", None) == ".bin"
    assert extension_for("https://h/x.mp3", "audio/mp4") == ".m4a"  # the type says otherwise: the type wins
    assert extension_for("https://h/stream", None) == ".bin"
    assert extension_for("https://h/x.html", "text/html") == ".bin"


def test_a_download_completes_over_http(tmp_path: Path) -> None:
    seen: list[tuple[int, int | None]] = []
    with FeedServer(tmp_path) as server:
        url = server.serve_media("/ep.wav", BODY)
        result = download(url, tmp_path / "out" / "ep.wav", progress=lambda r, t: seen.append((r, t)))
    assert result.path.read_bytes() == BODY and result.size == len(BODY)
    assert not part_path(result.path).exists()
    assert seen[-1] == (len(BODY), len(BODY))


def test_a_paused_download_resumes_with_a_range_request(tmp_path: Path) -> None:
    target = tmp_path / "ep.wav"
    stop = threading.Event()

    def pause_halfway(received: int, _total: int | None) -> None:
        if received >= len(BODY) // 3:
            stop.set()

    with FeedServer(tmp_path) as server:
        url = server.serve_media("/ep.wav", BODY, pace=0.005)
        with pytest.raises(DownloadCancelled):
            download(url, target, progress=pause_halfway, stop=stop)
        kept = part_path(target).stat().st_size
        assert 0 < kept < len(BODY)
        download(url, target)
        requests = server.received_for("/ep.wav")
    assert target.read_bytes() == BODY
    assert requests[0].header("Range") is None
    assert requests[-1].header("Range") == f"bytes={kept}-"


def test_a_broken_connection_is_retried_from_where_it_broke(tmp_path: Path) -> None:
    with FeedServer(tmp_path) as server:
        url = server.serve_media("/ep.wav", BODY, truncate=100_000, truncate_requests=2)
        result = download(url, tmp_path / "ep.wav", retries=3, delays=NO_WAIT)
        ranges = [r.header("Range") for r in server.received_for("/ep.wav")]
    assert result.path.read_bytes() == BODY
    assert ranges[0] is None and ranges[1] == "bytes=100000-" and len(ranges) == 3


def test_a_stalled_server_and_a_closed_port_fail_in_bounded_time(tmp_path: Path) -> None:
    with FeedServer(tmp_path) as server:
        url = server.serve_slow("/stall.mp3", delay=5.0, body=b"late")
        with pytest.raises(UnreachableError, match="could not be downloaded"):
            download(url, tmp_path / "s.mp3", retries=0, timeout=0.5)
    with pytest.raises(UnreachableError):
        download(f"http://127.0.0.1:{closed_port()}/x.mp3", tmp_path / "x.mp3", retries=1, delays=NO_WAIT)


@pytest.fixture
def episodes(library: Database, tmp_path: Path) -> list[int]:
    subscribe(library, str(write_podcast(tmp_path / "cast", [Episode("One", 0.2), Episode("../Two", 0.2)])))
    return item_ids(library, ItemFilter())


def test_download_records_disk_usage_and_local_files(library: Database, episodes: list[int],
                                                     tmp_path: Path) -> None:
    folder = tmp_path / "downloads"
    record = add_download(library, episodes[1], folder)
    assert Path(record.path).parent == folder.resolve() / "Test Cast"
    assert Path(record.path).name == "Two.wav"
    assert add_download(library, episodes[1], folder) == record  # asked again: the same record
    assert [d.item_id for d in pending_downloads(library)] == [episodes[1]]
    assert local_file(library, episodes[1]) is None
    Path(record.path).parent.mkdir(parents=True)
    Path(record.path).write_bytes(b"x" * 1000)
    update_download(library, episodes[1], "done", received=1000, size=1000)
    assert local_file(library, episodes[1]) == Path(record.path)
    assert disk_usage(library) == 1000
    assert pending_downloads(library) == []
    update_download(library, episodes[1], "failed", error="boom")
    assert add_download(library, episodes[1], folder).status == "queued"  # a failed one is queued again
    removed = remove_download(library, episodes[1])
    assert removed is not None and not Path(record.path).exists() and get_download(library, episodes[1]) is None


def test_played_downloads_are_deleted_after_the_set_days(library: Database, episodes: list[int],
                                                         tmp_path: Path) -> None:
    paths = []
    for item_id in episodes:
        record = add_download(library, item_id, tmp_path / "d")
        Path(record.path).parent.mkdir(parents=True, exist_ok=True)
        Path(record.path).write_bytes(b"x")
        update_download(library, item_id, "done", received=1, size=1)
        paths.append(Path(record.path))
    mark_played(library, [episodes[0]], True)
    later = datetime.now(UTC) + timedelta(days=8)
    assert delete_played_downloads(library, 0, later) == []  # 0: never
    assert delete_played_downloads(library, 30, later) == []  # not old enough
    assert delete_played_downloads(library, 7, later) == [episodes[0]]
    assert not paths[0].exists() and paths[1].exists()


def test_new_episodes_for_auto_download(library: Database, episodes: list[int]) -> None:
    source_id = library.execute("SELECT id FROM sources").fetchone()[0]
    assert newest_item_id(library) == max(episodes)
    assert new_episode_ids(library, source_id, 0) == episodes
    assert new_episode_ids(library, source_id, min(episodes)) == [max(episodes)]
    assert new_episode_ids(library, source_id, newest_item_id(library)) == []
    add_download(library, episodes[0], Path(os.devnull).parent / "earmark-test-unused")
    assert new_episode_ids(library, source_id, 0) == [episodes[1]]
