"""The journal records every local change, whichever program makes it (triggers in the library), and only
while a sync account is set up; changes applied from the server are not journaled back."""

from __future__ import annotations

from pathlib import Path

from earmark.core.db.connection import open_library, write_transaction
from earmark.core.db.database import Database
from earmark.core.db.downloads import add_download, remove_download, update_download
from earmark.core.db.items import mark_played, save_progress
from earmark.core.db.merge import store_feed
from earmark.core.db.notes import add_note
from earmark.core.feeds.unsubscribe import unsubscribe
from earmark.core.models import EntryData, FeedData, ProgressUpdate
from earmark.core.sync.account import pending_changes, set_up_account
from earmark.core.sync.actions import EpisodeAction
from earmark.core.sync.apply import Applied, apply_actions
from earmark.core.sync.journal import JournalRow, last_state
from earmark.core.sync.matching import EpisodeFinder

FEED = "https://cast.example.com/feed.xml"


def _feed() -> FeedData:
    entries = [EntryData(identity=f"guid:e{n}", kind="episode", title=f"Episode {n}", guid=f"e{n}",
                         enclosure_url=f"https://cast.example.com/{n}.mp3", duration=600.0) for n in (1, 2, 3)]
    return FeedData(title="Cast", entries=entries)


def _journal(db: Database) -> list[tuple[object, ...]]:
    return db.execute("SELECT action, podcast, episode, started, position, total FROM sync_journal ORDER BY id"
                      ).fetchall()


def _library(tmp_path: Path) -> tuple[Database, dict[str, int]]:
    db = open_library(tmp_path / "library.db")
    stored = store_feed(db, FEED, _feed())
    return db, {key.removeprefix("guid:"): item for key, item in stored.item_ids.items()}


def test_nothing_is_journaled_without_an_account(tmp_path: Path) -> None:
    db, ids = _library(tmp_path)
    save_progress(db, ProgressUpdate(ids["e1"], 30.0, 600.0))
    assert pending_changes(db) == 0


def test_logging_in_seeds_the_journal_with_the_whole_library(tmp_path: Path) -> None:
    db, ids = _library(tmp_path)
    save_progress(db, ProgressUpdate(ids["e1"], 30.0, 600.0))
    mark_played(db, [ids["e2"]], True)
    set_up_account(db, "gpodder", "https://sync.example.com", "ana", "laptop")
    assert _journal(db) == [("subscribe", FEED, None, None, None, None),
                            ("play", FEED, "https://cast.example.com/1.mp3", 0.0, 30.0, 600.0),
                            ("play", FEED, "https://cast.example.com/2.mp3", 0.0, 600.0, 600.0)]


def test_every_kind_of_local_change_is_journaled_once_per_episode(tmp_path: Path) -> None:
    db, ids = _library(tmp_path)
    set_up_account(db, "gpodder", "https://sync.example.com", "ana", "laptop")
    db.execute("DELETE FROM sync_journal")  # the seeded subscription
    for at in (10.0, 20.0, 95.0):  # progress saved every few seconds: one play, from where it started
        save_progress(db, ProgressUpdate(ids["e1"], at, 600.0))
    mark_played(db, [ids["e2"]], True)
    mark_played(db, [ids["e2"]], False)  # played, then unplayed again: only the last is sent
    record = add_download(db, ids["e3"], tmp_path / "downloads")
    update_download(db, ids["e3"], "done", received=1, size=1)
    remove_download(db, record.item_id)
    assert _journal(db) == [("play", FEED, "https://cast.example.com/1.mp3", 0.0, 95.0, 600.0),
                            ("new", FEED, "https://cast.example.com/2.mp3", None, 0.0, 600.0),
                            ("download", FEED, "https://cast.example.com/3.mp3", None, None, None),
                            ("delete", FEED, "https://cast.example.com/3.mp3", None, None, None)]


def test_unsubscribing_keeps_episodes_with_notes_and_is_journaled(tmp_path: Path) -> None:
    db, ids = _library(tmp_path)
    set_up_account(db, "gpodder", "https://sync.example.com", "ana", "laptop")
    add_note(db, ids["e1"], "keep this one", None)
    with write_transaction(db):
        db.execute("UPDATE items SET favourite = 1 WHERE id = ?", [ids["e2"]])
    source = int(db.execute("SELECT id FROM sources").fetchone()[0])
    done = unsubscribe(db, source)
    assert (done.removed, done.kept) == (1, 2)
    assert "2 items with your notes or marked favourite stay" in done.message
    assert db.execute("SELECT count(*) FROM items WHERE source_id IS NULL").fetchone()[0] == 2
    assert _journal(db)[-1] == ("unsubscribe", FEED, None, None, None, None)
    other_spelling = "HTTPS://CAST.example.com/feed.xml"  # the same feed for gpodder.net: the last change wins
    assert last_state([JournalRow(1, "subscribe", FEED, None, None, None, None, None, "x"),
                       JournalRow(2, "unsubscribe", other_spelling, None, None, None, None, None, "x")]) == \
        ([], [other_spelling])


def test_changes_applied_from_the_server_are_not_sent_back(tmp_path: Path) -> None:
    db, ids = _library(tmp_path)
    set_up_account(db, "gpodder", "https://sync.example.com", "ana", "laptop")
    db.execute("DELETE FROM sync_journal")
    phone = EpisodeAction(FEED, "https://cast.example.com/1.mp3", "play", 1_900_000_000, "e1", "phone",
                          position=200, total=600)
    applied = Applied()
    apply_actions(db, [phone], "laptop", 0.0, applied)
    assert (applied.received, applied.applied) == (1, 1)
    assert db.execute("SELECT position FROM items WHERE id = ?", [ids["e1"]]).fetchone()[0] == 200.0
    assert pending_changes(db) == 0
    again = Applied()
    apply_actions(db, [EpisodeAction(FEED, "https://cast.example.com/1.mp3", "play", 1_900_000_000,
                                     device="laptop", position=1)], "laptop", 0.0, again)
    assert again.received == 0  # this device's own action, coming back from the server


def test_remote_actions_find_episodes_by_enclosure_then_guid_then_page(tmp_path: Path) -> None:
    db = open_library(tmp_path / "library.db")
    entries = [EntryData(identity="guid:moved", kind="episode", title="Moved audio", guid="moved",
                         enclosure_url="https://cdn2.example.com/new-name.mp3", url="https://cast.example.com/ep/1"),
               EntryData(identity="link:page", kind="episode", title="Page only",
                         url="https://cast.example.com/ep/2")]
    ids = store_feed(db, FEED, FeedData(title="Cast", entries=entries)).item_ids
    finder = EpisodeFinder(db)

    def found(episode: str, guid: str | None = None, podcast: str = FEED) -> int | None:
        return finder.find(EpisodeAction(podcast, episode, "play", 0, guid, position=1))

    assert found("HTTPS://CDN2.example.com/new-name.mp3") == ids["guid:moved"]  # the enclosure, as normalised
    assert found("https://cdn.example.com/old-name.mp3", guid="moved") == ids["guid:moved"]  # the GUID
    assert found("https://cast.example.com/ep/2") == ids["link:page"]  # the page
    assert found("https://cast.example.com/ep/2", podcast="https://other.example.com/feed") is None  # not here
