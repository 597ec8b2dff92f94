"""Kill -9 the real app while it merges a library's duplicate subscriptions (the migration
``m015_one_subscription_per_podcast``, on the first start of the version that has it): after every kill the
library is sound and still as it was (the merge is one transaction), and the next start merges it whole, every
position, note, tag and queue entry kept."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from earmark.core.db.migrations import MIGRATIONS
from helpers.crash import SEED, KillCount, earmark
from helpers.duplicate_library import BEFORE, Expected, big_library_with_duplicates, check_merged
from helpers.kill_starts import copies, kill_a_start, probe_window

PODCASTS = 20


@pytest.fixture(scope="module")
def duplicated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Expected]:
    path = tmp_path_factory.mktemp("duplicated") / "library.db"
    return path, big_library_with_duplicates(path, podcasts=PODCASTS, episodes=500)


def subscriptions(path: Path) -> tuple[int, int]:
    """The library's schema version and how many subscriptions it holds (plain connection)."""
    conn = sqlite3.connect(path)
    try:
        version, = conn.execute("PRAGMA user_version").fetchone()
        return version, conn.execute("SELECT count(*) FROM sources").fetchone()[0]
    finally:
        conn.close()


@pytest.mark.slow
def test_killing_the_merge_of_duplicates_loses_nothing_and_the_next_start_finishes_it(
        tmp_path: Path, duplicated: tuple[Path, Expected]) -> None:
    rng = random.Random(SEED + 15)
    source, expected = duplicated
    window = probe_window(source, tmp_path, lambda probe: check_merged(probe, expected))
    count = KillCount("merging duplicates")
    made = 0
    for library in copies(source, tmp_path, count, kills=6, most=15):
        made += 1
        kill_a_start(library, rng, window, count)
        version, held = subscriptions(library)
        # all or nothing: not merged yet, or merged (a later step may still have been under way)
        assert (version, held) == (BEFORE, 2 * PODCASTS) or (version > BEFORE and held == PODCASTS)
        result = earmark(library, "tags")
        assert result.returncode == 0, result.stderr
        assert subscriptions(library) == (len(MIGRATIONS), PODCASTS)
        check_merged(library, expected)
    print(count, f"(merge {window.work:.2f} s, start {window.start:.2f} s, {made} copies)")
    assert count.kills >= 6, count
