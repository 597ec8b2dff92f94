"""Sync faults through a proxy in front of the real mygpo server: each gives a sentence, keeps the journal,
and the next sync completes without sending or applying anything twice."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from earmark.core.db.database import Database
from earmark.core.db.items import save_progress
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import ProgressUpdate
from earmark.core.secrets.store import Secrets
from earmark.core.sync.account import device_caption, get_account, password_key, pending_changes
from earmark.core.sync.engine import run_sync
from earmark.core.sync.gpodder import GpodderServer
from earmark.core.sync.http import MAX_ANSWER_BYTES
from earmark.core.sync.session import log_in, sync_now
from helpers.feed_server import FeedServer
from helpers.mygpo_server import MygpoServer
from helpers.sync_devices import DURATION, Phone, device, episode, serve_podcast, state
from helpers.sync_proxy import Fault, SyncProxy


@pytest.fixture
def proxy(mygpo: MygpoServer) -> Iterator[SyncProxy]:
    proxy = SyncProxy(mygpo.url).up()
    yield proxy
    proxy.down()


@pytest.fixture
def setup(tmp_path: Path, mygpo: MygpoServer, proxy: SyncProxy,
          feed_server: FeedServer) -> Iterator[tuple[Database, tuple[str, str], str]]:
    """A device logged in through the proxy, subscribed to a podcast and synced once."""
    user = mygpo.new_user()
    db = device(tmp_path, "a")
    log_in(db, "gpodder", proxy.url, *user, device="laptop")
    feed = serve_podcast(feed_server)
    subscribe(db, feed)
    assert sync_now(db).errors == []
    yield db, user, feed
    db.close()


def _play(db: Database, feed: str, number: int, at: float) -> None:
    save_progress(db, ProgressUpdate(episode(db, feed, number), at, float(DURATION)))


@pytest.mark.parametrize(("fault", "words"), [
    (Fault(status=500), "answered with an error (HTTP 500"),
    (Fault(status=401), "refused the user name or password"),
    (Fault(body=b'{"actions": [{"podcast": '), "not valid JSON"),
    (Fault(body=b'["not", "an", "object"]'), "cannot read (not a JSON object)"),
    (Fault(huge=MAX_ANSWER_BYTES + 1024), f"more than {MAX_ANSWER_BYTES // 2**20} MB"),
])
def test_a_broken_answer_is_a_sentence_and_the_next_sync_completes(setup, proxy: SyncProxy, mygpo: MygpoServer,
                                                                   fault: Fault, words: str) -> None:
    db, user, feed = setup
    _play(db, feed, 1, 100.0)
    proxy.fault("/api/2/episodes/", fault)
    report = sync_now(db)
    assert len(report.errors) == 1 and words in report.errors[0], report.errors
    assert "Traceback" not in report.errors[0]
    assert pending_changes(db) == 1  # the journal is intact
    proxy.fault("/api/2/episodes/", None)
    report = sync_now(db)
    assert report.errors == [] and report.actions_sent == 1 and pending_changes(db) == 0
    assert [a["position"] for a in Phone(mygpo, user).actions() if a["action"] == "play"] == [100]


def test_a_server_that_is_down_then_back(setup, proxy: SyncProxy) -> None:
    db, _user, feed = setup
    _play(db, feed, 1, 30.0)
    proxy.down()
    report = sync_now(db)
    assert report.errors and "could not be reached (connection refused)" in report.errors[0]
    assert get_account(db).failures == 1  # type: ignore[union-attr]  # for the window's back-off
    proxy.up()
    assert sync_now(db).actions_sent == 1
    assert get_account(db).failures == 0  # type: ignore[union-attr]


def test_a_server_slower_than_the_timeout(setup, proxy: SyncProxy) -> None:
    db, user, feed = setup
    _play(db, feed, 1, 30.0)
    proxy.fault("/api/2/subscriptions/", Fault(delay=5.0))
    account = get_account(db)
    assert account is not None
    slow = GpodderServer(proxy.url, *user, timeout=1.0)
    report = run_sync(db, slow, account, device_caption(db))
    assert report.errors and "did not answer within 1 s" in report.errors[0]
    proxy.fault("/api/2/subscriptions/", None)
    assert sync_now(db).actions_sent == 1


def test_an_answer_lost_after_the_server_took_the_actions_sends_nothing_twice(setup, proxy: SyncProxy,
                                                                               mygpo: MygpoServer) -> None:
    db, user, feed = setup
    _play(db, feed, 1, 200.0)
    _play(db, feed, 2, 50.0)
    proxy.fault("/api/2/episodes/", Fault(swallow=True, method="POST"))  # stored; the answer never comes
    account = get_account(db)
    assert account is not None
    report = run_sync(db, GpodderServer(proxy.url, *user, timeout=2.0), account, device_caption(db))
    assert report.errors and "did not answer within 2 s" in report.errors[0]
    assert pending_changes(db) == 2  # in flight: the server has them, Earmark cannot know yet
    proxy.faults.clear()
    report = sync_now(db)
    assert report.errors == [] and report.actions_sent == 0 and pending_changes(db) == 0
    plays = sorted(a["position"] for a in Phone(mygpo, user).actions() if a["action"] == "play")
    assert plays == [50, 200]  # each once


def test_clock_skew_is_corrected_and_said(setup, proxy: SyncProxy, mygpo: MygpoServer,
                                          feed_server: FeedServer) -> None:
    db, user, feed = setup
    proxy.skew = 2 * 3600  # the server's clock is two hours ahead of this computer's
    _play(db, feed, 1, 70.0)
    report = sync_now(db)
    assert report.errors == []
    assert any("2 h 0 min behind the sync server's" in w for w in report.warnings), report.warnings
    sent = next(a for a in Phone(mygpo, user).actions() if a["action"] == "play")
    when = datetime.fromisoformat(str(sent["timestamp"])).replace(tzinfo=UTC)
    assert abs((when - datetime.now(UTC)).total_seconds() - 2 * 3600) < 120  # on the server's clock
    # A phone whose clock is an hour behind the server posts a play after Earmark's last sync: still received.
    Phone(mygpo, user).play(feed, feed_server, 2, 90, at=datetime.now(UTC) + timedelta(hours=1))
    report = sync_now(db)
    assert report.positions_applied == 1
    assert state(db, episode(db, feed, 2)) == (90.0, 0)


def test_unreadable_actions_are_skipped_with_a_sentence(setup, proxy: SyncProxy) -> None:
    db, _user, feed = setup
    good = {"podcast": feed, "episode": feed.replace("feed.xml", "audio/1.mp3"), "action": "play",
            "timestamp": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S"), "position": 10, "total": DURATION}
    junk = [{"podcast": 1}, "text", {"podcast": feed, "episode": "x", "action": "play", "timestamp": "not a time"},
            {**good, "position": float("1e300")}]
    proxy.fault("/api/2/episodes/", Fault(body=json.dumps({"actions": [*junk, good], "timestamp": 5}).encode(),
                                          method="GET"))
    report = sync_now(db)
    assert report.errors == [] and report.positions_applied == 1
    assert report.warnings == ["3 episode actions from the server could not be read; they were skipped."]
    assert state(db, episode(db, feed, 1)) == (10.0, 0)


def test_actions_about_episodes_not_here_wait_for_them(setup, mygpo: MygpoServer, feed_server: FeedServer) -> None:
    db, user, _feed = setup
    other = serve_podcast(feed_server, "other")
    Phone(mygpo, user).play(other, feed_server, 1, 150, name="other")
    report = sync_now(db)
    assert report.actions_received == 1 and report.positions_applied == 0
    assert db.execute("SELECT count(*) FROM sync_waiting").fetchone()[0] == 1
    subscribe(db, other)  # later, here
    report = sync_now(db)
    assert (report.earlier_applied, report.positions_applied, report.actions_received) == (1, 0, 0)
    assert state(db, episode(db, other, 1)) == (150.0, 0)
    assert Secrets(db).get(password_key(db, get_account(db))) == user[1]  # type: ignore[arg-type]
