"""Kill -9 the real app while it merges a library's duplicate subscriptions (the migration
``m015_one_subscription_per_podcast``, on the first start of the version that has it): after every kill the
library is sound and still as it was (the merge is one transaction), and the next start merges it whole, every
position, note, tag and queue entry kept."""

from __future__ import annotations

import random
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from earmark.core.db.migrations import MIGRATIONS
from helpers.crash import SEED, KillCount, Victim, check_intact, earmark, earmark_command
from helpers.duplicate_library import BEFORE, Expected, big_library_with_duplicates, check_merged

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
    probe = tmp_path / "probe" / "library.db"
    probe.parent.mkdir()
    shutil.copyfile(source, probe)
    started = time.monotonic()
    assert earmark(probe, "tags").returncode == 0
    merging = time.monotonic() - started
    check_merged(probe, expected)
    started = time.monotonic()
    assert earmark(probe, "tags").returncode == 0
    start = time.monotonic() - started
    low, high = 0.8 * start, max(0.95 * merging, start + 0.2)  # kills land between start-up and the merge's end
    count = KillCount("merging duplicates")
    copy = 0
    while count.kills < 6 and copy < 15:
        copy += 1
        library = tmp_path / f"copy-{copy}" / "library.db"
        library.parent.mkdir()
        shutil.copyfile(source, library)
        victim = Victim(earmark_command(library, "tags"))
        wait = rng.uniform(low, high)
        time.sleep(wait)
        killed = victim.kill()
        count.record(victim, killed)
        check_intact(library)
        version, held = subscriptions(library)
        # all or nothing: not merged yet, or merged (a later step may still have been under way)
        assert (version, held) == (BEFORE, 2 * PODCASTS) or (version > BEFORE and held == PODCASTS)
        if not killed:
            high = max(low + 0.05, 0.9 * wait)
        result = earmark(library, "tags")
        assert result.returncode == 0, result.stderr
        assert subscriptions(library) == (len(MIGRATIONS), PODCASTS)
        check_merged(library, expected)
    print(count, f"(merge {merging:.2f} s, start {start:.2f} s, {copy} copies)")
    assert count.kills >= 6, count
