"""Kill -9 the real app at random moments (seeded: EARMARK_CRASH_SEED) while it refreshes many feeds, imports OPML,
saves notes, downloads and upgrades an old library. After every kill the library passes SQLite's and the search
index's integrity checks, everything committed before the kill (what was there before, and what the process
reported as done) is still there, and the next start works without any repair. (Playback: test_kill_keeps_
progress.py.)"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from earmark.cli import main
from earmark.core.db.backups import check_backup
from earmark.core.db.migrations import MIGRATIONS
from helpers.crash import SEED, KillCount, Victim, check_intact, earmark, earmark_command
from helpers.feed_server import FeedServer, rss
from helpers.kill_starts import copies, kill_a_start, probe_window
from helpers.old_library import build_v1_library, check_upgraded

DRIVER = Path(__file__).resolve().parents[1] / "helpers" / "crash_driver.py"
FEEDS = 36


@pytest.fixture
def server(tmp_path: Path) -> Iterator[FeedServer]:
    (tmp_path / "site").mkdir()
    with FeedServer(tmp_path / "site") as served:
        yield served


BIG_FEEDS = range(0, FEEDS, 9)  # bigger than 32 KB: parsed in worker processes


def _entries(feed: int, count: int) -> list[dict[str, str]]:
    notes = " ".join(["Show notes about kernels, graphs and tensors."] * (250 if feed in BIG_FEEDS else 1))
    return [{"title": f"Feed {feed} episode {n}", "guid": f"f{feed}-e{n}",
             "pubDate": f"Mon, {1 + n % 28:02d} Jan 2024 10:00:00 +0000",
             "enclosure": f"https://cdn.example/{feed}/{n}.mp3", "description": f"Episode {n} of feed {feed}. {notes}"}
            for n in range(count)]


def _serve_feeds(server: FeedServer, feeds: range, episodes: int, slow: dict[int, float]) -> dict[str, set[str]]:
    """Serve ``feeds`` with ``episodes`` episodes each; returns each feed URL's guids."""
    served = {}
    for feed in feeds:
        url = server.serve_feed(f"/feed-{feed}.xml", rss(f"Feed {feed}", _entries(feed, episodes)),
                                delay=slow.get(feed, 0.0))
        served[url] = {f"f{feed}-e{n}" for n in range(episodes)}
    return served


def _opml(path: Path, urls: list[str]) -> Path:
    outlines = "".join(f'<outline type="rss" text="Feed {n}" xmlUrl="{url}"/>' for n, url in enumerate(urls))
    path.write_text(f'<?xml version="1.0"?><opml version="2.0"><head><title>Subs</title></head><body>{outlines}'
                    "</body></opml>", encoding="utf-8")
    return path


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What the library holds that must survive: every item, source, note, tag and playback position."""

    items: dict[tuple[int, str], int]  # (source id, identity) -> item id
    sources: dict[str, int]  # url -> id
    notes: list[tuple[int, int, str]]
    progress: list[tuple[int, float, int]]
    tags: list[tuple[int, int]]

    def guids(self, source_id: int) -> set[str]:
        return {identity.removeprefix("guid:") for (sid, identity) in self.items if sid == source_id}


def _snapshot(path: Path) -> Snapshot:
    conn = sqlite3.connect(path)
    try:
        return Snapshot(
            items={(sid, identity): item for sid, identity, item in
                   conn.execute("SELECT source_id, identity, id FROM items")},
            sources=dict(conn.execute("SELECT url, id FROM sources")),
            notes=conn.execute("SELECT id, item_id, text FROM notes ORDER BY id").fetchall(),
            progress=conn.execute("SELECT id, position, played FROM items WHERE position > 0 OR played ORDER BY id")
            .fetchall(),
            tags=conn.execute("SELECT item_id, tag_id FROM item_tags ORDER BY 1, 2").fetchall(),
        )
    finally:
        conn.close()


def _kept(before: Snapshot, after: Snapshot) -> None:
    """Nothing that was committed before is gone or changed (refreshes only add and update feed fields)."""
    assert before.items.items() <= after.items.items()
    assert before.sources.items() <= after.sources.items()
    assert (before.notes, before.progress, before.tags) == (after.notes, after.progress, after.tags)


def _cli(library: Path, *args: str) -> None:
    assert main(["--library", str(library), *args]) == 0


def _user_state(library: Path) -> None:
    """Positions, played marks, tags and notes on a few items, which no refresh may touch."""
    conn = sqlite3.connect(library)
    ids = [row[0] for row in conn.execute("SELECT id FROM items ORDER BY id LIMIT 12")]
    conn.close()
    for n, item in enumerate(ids[:4]):
        _cli(library, "note", str(item), f"kept note {n}", "--at", str(10 * n))
    _cli(library, "tag", str(ids[4]), "later", "kernels")
    _cli(library, "mark-played", str(ids[5]), str(ids[6]))
    conn = sqlite3.connect(library)
    conn.executemany("UPDATE items SET position = ? WHERE id = ?", [(61.5, ids[7]), (600.0, ids[8])])
    conn.commit()
    conn.close()


def _check_reported(victim: Victim, after: Snapshot, served: dict[str, set[str]]) -> int:
    """Every feed the process reported as stored (a JSON line, printed after its transaction committed) has all
    its served items in the library; returns how many it reported."""
    reported = 0
    for line in victim.lines:
        if not line.startswith("{"):
            continue
        outcome = json.loads(line)
        if outcome.get("status") == "ok":
            reported += 1
            assert served[outcome["url"]] <= after.guids(outcome["source_id"]), outcome
    return reported


@pytest.mark.slow
def test_killing_a_refresh_of_many_feeds_loses_nothing(tmp_path: Path, server: FeedServer) -> None:
    rng = random.Random(SEED)
    library = tmp_path / "library.db"
    slow = {feed: rng.uniform(0.2, 0.7) if feed % 5 == 0 else 0.05 for feed in range(FEEDS)}
    served = _serve_feeds(server, range(FEEDS), 3, slow)
    _cli(library, "import-opml", str(_opml(tmp_path / "subs.opml", list(served))), "--no-refresh")
    _cli(library, "refresh")
    _user_state(library)
    count = KillCount("refresh")
    parsers = 0
    for cycle in range(12):
        served = _serve_feeds(server, range(FEEDS), 4 + cycle, slow)  # every feed has a new episode
        before = _snapshot(library)
        victim = Victim(earmark_command(library, "refresh", "--jsonl"))
        assert victim.wait_for(lambda line: line.startswith('{"total"'), 60), victim.lines
        time.sleep(rng.uniform(0.0, 1.2))
        count.record(victim, victim.kill())
        check_intact(library)
        after = _snapshot(library)
        _kept(before, after)
        _check_reported(victim, after, served)
        parsers = max(parsers, len(victim.descendants))
        # Regression: the parsing processes (and their forkserver) of a killed refresh waited for work forever.
        assert victim.survivors() == set()
    assert parsers > 0  # the kills did land while big feeds were being parsed in other processes
    result = earmark(library, "refresh", "--json")
    assert result.returncode == 0, result.stderr
    after = _snapshot(library)
    for url, guids in served.items():
        source = after.sources[url]
        assert after.guids(source) == guids  # all there, none twice
    print(count)
    assert count.kills >= 10, count


@pytest.mark.slow
def test_killing_an_opml_import_loses_nothing_and_the_next_import_completes(tmp_path: Path,
                                                                          server: FeedServer) -> None:
    rng = random.Random(SEED + 1)
    library = tmp_path / "library.db"
    # Every feed answers after a delay (3 at a time per server): an import takes seconds on any machine.
    served = _serve_feeds(server, range(30), 5, {feed: rng.uniform(0.15, 0.5) for feed in range(30)})
    urls = list(served)
    count = KillCount("import-opml")
    for cycle in range(8):
        opml = _opml(tmp_path / f"subs-{cycle}.opml", urls[: 8 + 3 * cycle])
        before = _snapshot(library) if library.exists() else None
        victim = Victim(earmark_command(library, "import-opml", str(opml), "--jsonl"))
        time.sleep(rng.uniform(0.3, 2.0))
        count.record(victim, victim.kill())
        check_intact(library)
        after = _snapshot(library)
        if before is not None:
            _kept(before, after)
        if any(line.startswith('{"total"') for line in victim.lines):  # printed once the subscriptions committed
            assert set(urls[: 8 + 3 * cycle]) <= set(after.sources)
        _check_reported(victim, after, served)
        # No half feed: feeds are written several to a transaction, each whole; a kill keeps a feed whole or not at all.
        assert all(after.guids(source) in (set(), served[url]) for url, source in after.sources.items())
    result = earmark(library, "import-opml", str(_opml(tmp_path / "all.opml", urls)), "--json")
    assert result.returncode == 0, result.stderr
    after = _snapshot(library)
    assert sorted(after.sources) == sorted(urls)  # each once
    for url, guids in served.items():
        assert after.guids(after.sources[url]) == guids
    print(count)
    assert count.kills >= 6, count


@pytest.mark.slow
def test_killing_while_notes_are_saved_keeps_every_note_that_was_reported_saved(tmp_path: Path) -> None:
    rng = random.Random(SEED + 2)
    library = tmp_path / "library.db"
    feed = tmp_path / "feed.xml"
    feed.write_bytes(rss("Notes cast", _entries(0, 3)))
    _cli(library, "subscribe", str(feed))
    kept: list[str] = []
    count = KillCount("notes")
    for cycle in range(12):
        before = _snapshot(library)
        victim = Victim([sys.executable, str(DRIVER), "notes", str(library), "1", f"cycle {cycle} note"])
        assert victim.wait_for(lambda line: line.startswith("kept "), 60), victim.lines
        time.sleep(rng.uniform(0.05, 0.8))
        count.record(victim, victim.kill())
        check_intact(library)
        after = _snapshot(library)
        assert after.notes[: len(before.notes)] == before.notes
        texts = [text for _id, _item, text in after.notes]
        reported = [line.removeprefix("kept ") for line in victim.lines if line.startswith("kept ")]
        kept += reported
        for text in kept:
            assert texts.count(text) == 1, text
        assert len(texts) - len(kept) <= cycle + 1  # at most the note in flight at each kill (committed, not printed)
    result = earmark(library, "search", "cycle 11 note", "--json")
    assert result.returncode == 0 and json.loads(result.stdout)[0]["id"] == 1  # the search index has them
    print(count, f"; {len(kept)} notes reported kept, all there")
    assert count.kills >= 10, count


@pytest.mark.slow
def test_killing_a_download_keeps_the_partial_file_and_the_next_start_resumes_it(tmp_path: Path,
                                                                                 server: FeedServer) -> None:
    rng = random.Random(SEED + 3)
    library = tmp_path / "library.db"
    body = random.Random(5).randbytes(3 * 1024 * 1024)
    media = server.serve_media("/long.mp3", body, pace=0.03, content_type="audio/mpeg")  # about 6 s in all
    feed = server.serve_feed("/feed.xml", rss("Download cast", [{"title": "Long", "guid": "long", "enclosure": media}]))
    _cli(library, "subscribe", feed)
    folder = tmp_path / "downloads"
    conn = sqlite3.connect(library)
    conn.execute("INSERT INTO settings (key, value) VALUES ('downloads.folder', ?)", [json.dumps(str(folder))])
    conn.commit()
    conn.close()
    count = KillCount("download")
    for _cycle in range(6):
        victim = Victim(earmark_command(library, "download", "1"))
        time.sleep(rng.uniform(0.6, 1.4))
        count.record(victim, victim.kill())
        check_intact(library)
        parts = list(folder.rglob("*.part"))
        if parts:
            assert body.startswith(parts[0].read_bytes())  # what is on disk is what was sent, never garbage
    result = earmark(library, "download", "1", "--json")
    assert result.returncode == 0, result.stderr
    [record] = json.loads(result.stdout)
    assert record["status"] == "done" and Path(record["path"]).read_bytes() == body
    assert not list(folder.rglob("*.part"))
    assert any(request.header("Range") for request in server.received_for("/long.mp3"))  # resumed, not restarted
    print(count)
    assert count.kills >= 5, count


@pytest.fixture(scope="module")
def old_library(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    path = tmp_path_factory.mktemp("old") / "schema-v1-big.db"
    return path, build_v1_library(path, items=20_000)


@pytest.mark.slow
def test_killing_an_upgrade_of_an_old_library_loses_nothing_and_the_next_start_finishes_it(
        tmp_path: Path, old_library: tuple[Path, object]) -> None:
    rng = random.Random(SEED + 4)
    source, expected = old_library
    window = probe_window(source, tmp_path, lambda probe: check_upgraded(probe, expected))  # type: ignore[arg-type]
    count = KillCount("migration")
    versions_seen = set()
    made = 0
    for library in copies(source, tmp_path, count, kills=8, most=20):  # a busy machine's pace varies
        made += 1
        for _attempt in range(2):
            killed = kill_a_start(library, rng, window, count)
            conn = sqlite3.connect(library)
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            conn.close()
            versions_seen.add(version)
            assert 1 <= version <= len(MIGRATIONS)
            for backup in library.parent.glob("library.db.v*.bak"):  # a backup that exists is complete
                assert check_backup(backup) == int(backup.name.split(".v")[1].removesuffix(".bak"))
            if not killed:  # it finished the upgrade first
                break
        result = earmark(library, "tags")
        assert result.returncode == 0, result.stderr
        check_upgraded(library, expected)  # type: ignore[arg-type]
        assert check_backup(library.with_name("library.db.v1.bak")) == 1
    print(count, f"(upgrade {window.work:.2f} s, start {window.start:.2f} s, {made} copies); schema versions found "
          "after the kills:", sorted(versions_seen))
    assert count.kills >= 8, count
