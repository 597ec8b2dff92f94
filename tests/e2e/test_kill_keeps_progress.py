"""A real Earmark process playing through VLC is killed with SIGKILL at random moments (seeded: EARMARK_CRASH_SEED),
some before its first periodic save and some after: each time the library keeps the position to within five
seconds (saved every 5 s while playing, each save committed at once), and the next start resumes from there."""

from __future__ import annotations

import random
import sqlite3
import sys
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import list_items
from earmark.core.feeds.subscribe import subscribe
from helpers.crash import SEED, KillCount, Victim, check_intact
from helpers.podcast import Episode, write_podcast

DRIVER = Path(__file__).resolve().parents[1] / "helpers" / "play_driver.py"
MAX_LOST = 5.0
KILLS = 4


def _stored_position(library: Path, item_id: int) -> float:
    conn = sqlite3.connect(library)
    try:
        return float(conn.execute("SELECT position FROM items WHERE id = ?", [item_id]).fetchone()[0])
    finally:
        conn.close()


def _playing_at(line: str) -> float | None:
    state, position = line.split()
    return float(position) if state == "playing" else None


@pytest.mark.vlc
@pytest.mark.slow
def test_sigkill_while_playing_loses_at_most_five_seconds(library_path: Path, tmp_path: Path) -> None:
    rng = random.Random(SEED + 5)
    db = open_library(library_path)
    subscribe(db, str(write_podcast(tmp_path / "cast", [Episode("Long listen", 40.0)])))
    item_id = list_items(db, ItemFilter())[0].id
    db.close()
    count = KillCount("playback")
    stored = 0.0
    for _cycle in range(KILLS):
        victim = Victim([sys.executable, str(DRIVER), str(library_path), str(item_id)])
        first = victim.wait_for(lambda line: _playing_at(line) is not None and _playing_at(line) > 0.0, 60)
        assert first is not None, f"the driver did not play: {victim.lines}"
        resumed = _playing_at(first)
        assert resumed is not None and stored - 0.6 <= resumed <= stored + 2.0  # the next start resumes there
        target = resumed + rng.uniform(1.0, 7.5)  # before and after the first periodic save, 5 s in
        last = victim.wait_for(lambda line, target=target: (_playing_at(line) or 0.0) >= target, 30)
        assert last is not None, f"the driver stopped reporting: {victim.lines[-3:]}"
        killed_at = _playing_at(last)
        assert killed_at is not None
        count.record(victim, victim.kill())
        check_intact(library_path)
        stored = _stored_position(library_path, item_id)
        assert stored <= killed_at + 0.6
        assert killed_at - stored <= MAX_LOST, f"lost {killed_at - stored:.1f} s (killed at {killed_at})"
    print(count)
    assert count.kills == KILLS
