"""Two (and more) processes on one library: the real window, offscreen, saving playback progress and notes
without pause, while ``earmark refresh`` runs again and again as cron would, the window starts its own refresh,
and a third process adds notes from the command line. Every one of them works, and no "database is locked"
reaches anyone."""

from __future__ import annotations

import sqlite3
import sys
import time
from pathlib import Path

import pytest

from earmark.cli import main
from helpers.crash import Victim, check_intact, earmark
from helpers.feed_server import FeedServer, rss

DRIVER = Path(__file__).resolve().parents[1] / "helpers" / "crash_driver.py"
FEEDS = 24
WINDOW_SECONDS = 10.0


def _serve(server: FeedServer, episodes: int) -> list[str]:
    return [server.serve_feed(f"/cron-{feed}.xml", rss(f"Cron feed {feed}", [
        {"title": f"Cron {feed}.{n}", "guid": f"c{feed}-{n}", "enclosure": f"https://cdn.example/{feed}/{n}.mp3",
         "description": "Kernels, graphs and tensors. " * 20} for n in range(episodes)]),
        delay=0.3 if feed % 6 == 0 else 0.0) for feed in range(FEEDS)]


@pytest.mark.slow
@pytest.mark.vlc
def test_the_window_cron_refreshes_and_the_command_line_share_the_library(tmp_path: Path) -> None:
    library = tmp_path / "library.db"
    (tmp_path / "site").mkdir()
    with FeedServer(tmp_path / "site") as server:
        urls = _serve(server, 3)
        opml = tmp_path / "subs.opml"
        opml.write_text('<opml version="2.0"><body>' + "".join(f'<outline xmlUrl="{url}"/>' for url in urls)
                        + "</body></opml>", encoding="utf-8")
        assert main(["--library", str(library), "import-opml", str(opml)]) == 0
        window = Victim([sys.executable, str(DRIVER), "window", str(library), "1", str(WINDOW_SECONDS)])
        notes = Victim([sys.executable, str(DRIVER), "notes", str(library), "2", "from the command line"])
        cron = []
        deadline = time.monotonic() + WINDOW_SECONDS + 60
        finished = None
        while finished is None and time.monotonic() < deadline:
            _serve(server, 4 + len(cron))  # each cron run finds a new episode in every feed
            cron.append(earmark(library, "refresh", timeout=90))
            finished = window.wait_for(lambda line: line.startswith("done "), 0.05)
        if finished is None:
            finished = window.wait_for(lambda line: line.startswith("done "), 60)
        window.process.wait(30)
        notes.kill()
        window.kill()
    errors = [line for line in window.lines if line.startswith("error ")]
    assert finished is not None, window.lines[-5:] + [window.stderr[-2000:]]
    saves, window_notes, failures = map(int, finished.split()[1:])
    print(f"window: {saves} progress saves, {window_notes} notes; {len(cron)} cron refreshes; "
          f"{len([line for line in notes.lines if line.startswith('kept ')])} notes from the command line")
    assert (failures, errors) == (0, [])
    assert saves >= 20 and window_notes >= 20, finished
    assert len(cron) >= 3
    for run in cron:
        assert run.returncode == 0, run.stderr
        assert "locked" not in run.stderr and "busy" not in run.stderr, run.stderr
    assert "locked" not in window.stderr and "busy" not in window.stderr, window.stderr[-2000:]
    assert "locked" not in notes.stderr and "busy" not in notes.stderr, notes.stderr[-2000:]
    cli_notes = [line for line in notes.lines if line.startswith("kept ")]
    assert len(cli_notes) >= 20
    check_intact(library)
    conn = sqlite3.connect(library)
    try:
        stored = {row[0] for row in conn.execute("SELECT text FROM notes")}
        newest = {row[0] for row in conn.execute("SELECT count(*) FROM items WHERE source_id = 1")}
    finally:
        conn.close()
    assert {f"window note {n}" for n in range(window_notes)} <= stored
    assert {line.removeprefix("kept ") for line in cli_notes} <= stored
    assert newest == {3 + len(cron)}  # every cron run stored its new episode
