"""A real Earmark process playing through VLC is killed with SIGKILL: the library keeps its position to within
five seconds (saved every 5 s while playing, each save committed at once)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.db.items import get_item, list_items
from earmark.core.db.queries import ItemFilter
from earmark.core.feeds.subscribe import subscribe
from helpers.podcast import Episode, write_podcast

DRIVER = Path(__file__).resolve().parents[1] / "helpers" / "play_driver.py"
MAX_LOST = 5.0


@pytest.mark.vlc
@pytest.mark.slow
def test_sigkill_while_playing_loses_at_most_five_seconds(library_path: Path, tmp_path: Path) -> None:
    db = open_library(library_path)
    subscribe(db, str(write_podcast(tmp_path / "cast", [Episode("Long listen", 30.0)])))
    item_id = list_items(db, ItemFilter())[0].id
    db.close()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONUNBUFFERED": "1"}
    with subprocess.Popen([sys.executable, str(DRIVER), str(library_path), str(item_id)], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True, env=env) as process:
        assert process.stdout is not None
        last = 0.0
        deadline = time.monotonic() + 60
        try:
            while time.monotonic() < deadline and last < 13.0:  # past two periodic saves, 3 s after the last
                line = process.stdout.readline()
                if not line:
                    break
                state, position = line.split()
                if state == "playing":
                    last = float(position)
            assert last >= 13.0, f"the driver stopped reporting at {last} s (exit code {process.poll()})"
            process.send_signal(signal.SIGKILL)
            killed_at = last
        finally:
            process.kill()
            process.wait(10)
    stored = get_item(open_library(library_path), item_id)
    assert 0 < stored.position <= killed_at + 0.6
    assert killed_at - stored.position <= MAX_LOST, f"lost {killed_at - stored.position:.1f} s"
