"""The real ``earmark`` process: the smoke test, and the command line against a real HTTP server."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.feed_server import FeedServer
from helpers.podcast import Episode, write_podcast
from helpers.shared import shared_dir

ROOT = Path(__file__).resolve().parents[2]
CONTRACT_TOOL = shared_dir() / "tools" / "check-cli-contract"


def earmark(*args: str, library: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "earmark", *(["--library", str(library)] if library else []), *args]
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """A real HTTP server on 127.0.0.1 serving a podcast folder; yields the feed URL."""
    write_podcast(tmp_path / "site", [Episode("Served episode", 2.0), Episode("Older served episode", 2.0)])
    with FeedServer(tmp_path / "site") as server:
        yield server.url("/feed.xml")


@pytest.mark.vlc
def test_smoke_test_plays_a_sample_episode_and_saves_the_position(library_path: Path) -> None:
    result = earmark("--smoke-test", library=library_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "smoke test passed" in result.stdout
    items = json.loads(earmark("list", "--json", library=library_path).stdout)
    assert len(items) == 54
    assert any(item["position"] > 0 for item in items)


def test_smoke_test_reports_an_unusable_library(tmp_path: Path) -> None:
    bad = tmp_path / "library.db"
    bad.write_bytes(b"<html>not a database</html>")
    result = earmark("--smoke-test", library=bad)
    assert result.returncode == 1
    assert "not an Earmark library" in result.stderr and "Traceback" not in result.stderr
    assert bad.read_bytes() == b"<html>not a database</html>"


def test_subscribe_over_http_then_list_and_search(served: str, library_path: Path) -> None:
    result = earmark("subscribe", served, library=library_path)
    assert result.returncode == 0, result.stderr
    assert "2 new" in result.stdout
    items = json.loads(earmark("list", "--json", library=library_path).stdout)
    assert [i["title"] for i in items] == ["Served episode", "Older served episode"]
    assert items[0]["enclosure_url"] == served.replace("feed.xml", "episode-0.wav")
    assert earmark("subscribe", served, library=library_path).stdout.count("0 new") == 1
    found = json.loads(earmark("search", "older", "--json", library=library_path).stdout)
    assert [i["title"] for i in found] == ["Older served episode"]


def test_unreachable_url_is_one_sentence_and_exit_1(library_path: Path) -> None:
    result = earmark("subscribe", "http://127.0.0.1:9/feed.xml", library=library_path)
    assert result.returncode == 1
    assert result.stderr.startswith("earmark: http://127.0.0.1:9/feed.xml could not be reached")
    assert "Traceback" not in result.stderr


@pytest.mark.skipif(not CONTRACT_TOOL.exists(), reason="../shared/tools/check-cli-contract is not beside the repo")
def test_command_line_contract_holds() -> None:
    executable = shutil.which("earmark", path=str(Path(sys.executable).parent))
    assert executable, "the earmark console script is not installed next to this Python"
    result = subprocess.run([sys.executable, str(CONTRACT_TOOL), executable], capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
