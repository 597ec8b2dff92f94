"""One window per library, between real processes: a second launch hands its feed URLs and .opml files to
the running window and exits; command-line commands run on their own; SIGTERM closes the window cleanly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.settings import set_setting
from earmark.gui.single_instance import hand_over, server_name
from helpers.feed_server import FeedServer, rss
from helpers.waiting import wait_for

pytestmark = pytest.mark.vlc


def episodes(prefix: str, count: int) -> list[dict[str, str]]:
    return [{"title": f"{prefix} {n}", "guid": f"{prefix}-{n}", "enclosure": f"https://example.com/{prefix}{n}.mp3",
             "pubDate": f"Mon, {n + 1:02d} Jan 2024 10:00:00 +0000"} for n in range(count)]


def environment(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "EARMARK_CONFIG": str(tmp_path / "earmark.conf")}


def earmark(tmp_path: Path, library: Path, *args: str, cwd: Path | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "earmark", "--library", str(library), *args], capture_output=True,
                          text=True, timeout=timeout, env=environment(tmp_path), cwd=cwd)



def titles(tmp_path: Path, library: Path) -> list[str]:
    result = earmark(tmp_path, library, "list", "--json")
    assert result.returncode == 0, result.stderr
    return sorted(item["title"] for item in json.loads(result.stdout))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[FeedServer]:
    with FeedServer(tmp_path / "served") as feed_server:
        yield feed_server


def test_a_second_launch_hands_its_arguments_to_the_running_window(tmp_path: Path, library_path: Path,
                                                                    server: FeedServer) -> None:
    first = server.serve_body("/first.xml", rss("First Show", episodes("first", 1)))
    second = server.serve_body("/second.xml", rss("Second Show", episodes("second", 2)))
    listed = server.serve_body("/listed.xml", rss("Listed Show", episodes("listed", 1)))
    (tmp_path / "subs.opml").write_text(f"""<?xml version="1.0"?><opml version="2.0"><head/><body>
        <outline type="rss" text="Listed" xmlUrl="{listed}"/></body></opml>""", encoding="utf-8")
    set_setting(open_library(library_path), "feeds.refresh_on_start", False)

    running = subprocess.Popen([sys.executable, "-m", "earmark", "--library", str(library_path), first],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment(tmp_path))
    try:
        name = server_name(library_path)
        wait_for(lambda: running.poll() is not None or hand_over(name, []), 60, "the first window to listen")
        assert running.poll() is None, running.communicate()
        wait_for(lambda: titles(tmp_path, library_path) == ["first 0"], 30, "the first launch's URL to subscribe")

        started = time.monotonic()
        handed = earmark(tmp_path, library_path, f"podcast:{second}")
        assert handed.returncode == 0, handed.stderr
        assert "already has" in handed.stderr
        assert time.monotonic() - started < 30
        wait_for(lambda: "second 1" in titles(tmp_path, library_path), 30, "the handed URL to subscribe")

        handed = earmark(tmp_path, library_path, "subs.opml", cwd=tmp_path)  # relative to the second launch
        assert handed.returncode == 0, handed.stderr
        wait_for(lambda: "listed 0" in titles(tmp_path, library_path), 30, "the handed OPML file to import")

        assert earmark(tmp_path, library_path).returncode == 0  # no arguments: only raises the window
        assert running.poll() is None
        assert titles(tmp_path, library_path) == ["first 0", "listed 0", "second 0", "second 1"]
    finally:
        running.send_signal(signal.SIGTERM)  # closes the window as Ctrl+Q does
        out, err = running.communicate(timeout=30)
    assert running.returncode == 0, err
    assert "Traceback" not in err
    assert not hand_over(server_name(library_path), [])  # gone, and its socket with it


def test_another_library_gets_its_own_window(tmp_path: Path, library_path: Path) -> None:
    assert server_name(library_path) != server_name(tmp_path / "other.db")
    assert server_name(library_path) == server_name(tmp_path / "." / "library.db")


def test_words_that_are_not_urls_or_files_are_still_commands(tmp_path: Path, library_path: Path) -> None:
    result = earmark(tmp_path, library_path, "lst")
    assert result.returncode == 2 and "invalid choice" in result.stderr
    result = earmark(tmp_path, library_path, "list", "https://example.com/feed.xml")
    assert result.returncode == 2
