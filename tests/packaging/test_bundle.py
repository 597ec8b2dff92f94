"""The PyInstaller bundle: built by packaging/build-bundle, it plays a sample episode (--smoke-test, through
the system's libVLC) and runs commands, including a refresh that parses in worker processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.feed_server import rss

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.vlc]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("PyInstaller", reason="PyInstaller is not installed (pip install -e '.[test]')")
    dist = tmp_path_factory.mktemp("dist")
    env = {**os.environ, "PYTHON": sys.executable, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([str(ROOT / "packaging" / "build-bundle"), str(dist)], capture_output=True, text=True,
                            env=env, timeout=1200)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "smoke test passed" in result.stdout, result.stdout[-3000:]
    return dist / "earmark" / "earmark"


def run(executable: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    env.pop("PYTHONPATH", None)  # the bundle carries its own Python and Earmark
    return subprocess.run([str(executable), *args], capture_output=True, text=True, env=env, timeout=300)


def test_the_bundle_plays_an_episode_and_keeps_the_position(bundle: Path, tmp_path: Path) -> None:
    library = tmp_path / "library.db"
    result = run(bundle, "--library", str(library), "--smoke-test")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "smoke test passed" in result.stdout
    items = json.loads(run(bundle, "--library", str(library), "list", "--json").stdout)
    assert len(items) == 54 and any(item["position"] > 0 for item in items)


def test_the_bundle_refreshes_a_large_feed_in_worker_processes(bundle: Path, tmp_path: Path) -> None:
    entries = [{"title": f"Episode {n}", "guid": f"e-{n}", "description": "Words. " * 40,
                "enclosure": f"https://example.com/{n}.mp3", "pubDate": "Mon, 01 Jan 2024 10:00:00 +0000"}
               for n in range(150)]
    feed = tmp_path / "big.xml"
    feed.write_bytes(rss("Big Show", entries[:10]))
    library = tmp_path / "library.db"
    assert run(bundle, "--library", str(library), "subscribe", str(feed)).returncode == 0
    feed.write_bytes(rss("Big Show", entries))
    assert feed.stat().st_size > 64 * 1024  # parsed in the worker processes, started from the bundle
    result = run(bundle, "--library", str(library), "refresh", "--json")
    assert result.returncode == 0, result.stderr
    [outcome] = json.loads(result.stdout)
    assert outcome["status"] == "ok" and outcome["new"] == 140
