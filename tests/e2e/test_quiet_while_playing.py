"""Listening starts no process (issue 37 §17): the real app plays an episode through VLC past three of its
periodic position saves (every 5 s) and no ``earmark update-relations`` starts under it but the one that checks the
relations once at every start. Before, each save counted
as an item change and scheduled a relation pass 1.5 s later: a process about every 5 s while playing, ~720 an hour,
each finding nothing to do (a position changes nothing the relations read)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import list_items
from earmark.core.feeds.subscribe import subscribe
from earmark.core.topics.build import update_relations
from helpers.crash import Victim, descendants
from helpers.podcast import Episode, write_podcast

DRIVER = Path(__file__).resolve().parents[1] / "helpers" / "play_driver.py"
PLAY_PAST = 16.0  # seconds of the episode: three periodic saves, each followed by its 1.5 s wait for a pass


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:  # ended meanwhile
        return ""


def relation_passes(pid: int) -> set[int]:
    """The ``update-relations`` processes running under ``pid`` now."""
    return {child for child in descendants(pid) if "update-relations" in command_line(child)}


def position(line: str) -> float:
    state, at = line.split()
    return float(at) if state == "playing" else 0.0


@pytest.mark.vlc
@pytest.mark.slow
def test_playing_starts_no_relation_pass(library_path: Path, tmp_path: Path) -> None:
    db = open_library(library_path)
    subscribe(db, str(write_podcast(tmp_path / "cast", [Episode("Long listen", 40.0)])))
    item_id = list_items(db, ItemFilter())[0].id
    update_relations(db)  # up to date: nothing but the playing could start a pass
    db.close()
    victim = Victim([sys.executable, str(DRIVER), str(library_path), str(item_id)])
    try:
        assert victim.wait_for(lambda line: position(line) > 0.0, 60), f"the driver did not play: {victim.lines}"
        seen: set[int] = set()
        played_to = 0.0
        while played_to < PLAY_PAST:
            seen |= relation_passes(victim.process.pid)
            victim.drain()
            assert victim.process.poll() is None, f"the app ended: {victim.lines[-3:]}"
            played_to = max([played_to, *(position(line) for line in victim.lines[-4:])])
            time.sleep(0.05)
    finally:
        victim.kill()
    assert len(seen) <= 1, f"{len(seen)} relation passes: the start's check of the relations and one per save"
