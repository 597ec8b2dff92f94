"""Two libraries as two devices and a phone, against a real gpodder.net API v2 server (gpodder-fastapi-router)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from earmark.core.db.items import mark_played, save_progress
from earmark.core.feeds.subscribe import subscribe
from earmark.core.feeds.unsubscribe import unsubscribe
from earmark.core.models import ProgressUpdate
from earmark.core.sync.account import get_account, pending_changes
from earmark.core.sync.session import sync_now, sync_status
from helpers.feed_server import FeedServer
from helpers.mygpo_server import MygpoServer
from helpers.sync_devices import DURATION, Phone, episode, on_both, serve_podcast, state


def test_subscribe_on_one_device_appears_on_the_other(devices, feed_server: FeedServer) -> None:
    a, b = devices
    feed = serve_podcast(feed_server)
    subscribe(a, feed)
    report = sync_now(a)
    assert report.errors == [] and report.subscriptions_sent == 1
    report = sync_now(b)
    assert report.errors == [] and report.subscriptions_added == 1
    title, count = b.execute("SELECT s.title, count(i.id) FROM sources s JOIN items i ON i.source_id = s.id "
                             "WHERE s.url = ?", [feed]).fetchone()
    assert (title, count) == ("Cast Cast", 3)  # fetched, not only recorded


def test_a_position_played_on_one_device_resumes_on_the_other(devices, feed_server: FeedServer) -> None:
    a, b = devices
    feed = on_both(a, b, feed_server)
    save_progress(b, ProgressUpdate(episode(b, feed, 1), 120.0, float(DURATION)))
    assert sync_now(b).actions_sent == 1
    report = sync_now(a)
    assert report.positions_applied == 1 and report.errors == []
    assert state(a, episode(a, feed, 1)) == (120.0, 0)
    # Nothing is applied twice, and nothing comes back to where it was made.
    assert sync_now(a).positions_applied == 0
    assert sync_now(b).actions_received == 0


def test_a_phone_action_appears_on_both(devices, feed_server: FeedServer, mygpo: MygpoServer,
                                        user: tuple[str, str]) -> None:
    a, b = devices
    feed = on_both(a, b, feed_server)
    Phone(mygpo, user).play(feed, feed_server, 2, 300)
    for db in (a, b):
        report = sync_now(db)
        assert report.actions_received == 1 and report.positions_applied == 1, report
        assert state(db, episode(db, feed, 2)) == (300.0, 0)


def test_a_play_made_offline_is_sent_at_the_next_sync(devices, feed_server: FeedServer, mygpo: MygpoServer,
                                                     user: tuple[str, str]) -> None:
    a, b = devices
    feed = on_both(a, b, feed_server)
    mygpo.stop()
    try:
        save_progress(a, ProgressUpdate(episode(a, feed, 3), 45.0, float(DURATION)))
        report = sync_now(a)
        assert len(report.errors) == 1 and "could not be reached" in report.errors[0]
        assert "your changes are kept" in report.errors[0]
        assert pending_changes(a) == 1
        assert get_account(a).last_error == report.errors[0]  # type: ignore[union-attr]
    finally:
        mygpo.start()
    report = sync_now(a)
    assert report.errors == [] and report.actions_sent == 1 and pending_changes(a) == 0
    assert sync_now(b).positions_applied == 1
    assert state(b, episode(b, feed, 3)) == (45.0, 0)
    plays = [x for x in Phone(mygpo, user).actions() if x["action"] == "play"]
    assert [(x["device"], x["position"], x["started"], x["total"]) for x in plays] == [("laptop", 45, 0, DURATION)]


def test_the_newest_change_wins(devices, feed_server: FeedServer, mygpo: MygpoServer, user: tuple[str, str]) -> None:
    a, b = devices
    feed = on_both(a, b, feed_server)
    phone = Phone(mygpo, user)
    phone.play(feed, feed_server, 1, 500, at=datetime.now(UTC) - timedelta(minutes=10))  # before A's play
    save_progress(a, ProgressUpdate(episode(a, feed, 1), 60.0, float(DURATION)))
    report = sync_now(a)
    assert report.actions_received == 1 and report.positions_applied == 0  # A's own later play is kept
    assert state(a, episode(a, feed, 1)) == (60.0, 0)
    sync_now(b)  # B sees the phone's play and A's later one: A's wins
    assert state(b, episode(b, feed, 1)) == (60.0, 0)


def test_played_and_unplayed_marks_and_unsubscribe_travel(devices, feed_server: FeedServer) -> None:
    a, b = devices
    feed = on_both(a, b, feed_server)
    mark_played(a, [episode(a, feed, 1), episode(a, feed, 2)], True)
    sync_now(a)
    sync_now(b)
    assert [state(b, episode(b, feed, n))[1] for n in (1, 2, 3)] == [1, 1, 0]
    mark_played(b, [episode(b, feed, 2)], False)
    sync_now(b)
    sync_now(a)
    assert [state(a, episode(a, feed, n))[1] for n in (1, 2, 3)] == [1, 0, 0]
    unsubscribe(b, int(b.execute("SELECT id FROM sources WHERE url = ?", [feed]).fetchone()[0]))
    sync_now(b)
    report = sync_now(a)
    assert report.subscriptions_removed == 1
    assert a.execute("SELECT count(*) FROM sources WHERE url = ?", [feed]).fetchone()[0] == 0


def test_status_says_where_the_account_stands(devices, feed_server: FeedServer, mygpo: MygpoServer) -> None:
    a, _b = devices
    subscribe(a, serve_podcast(feed_server))
    status = sync_status(a).as_json()
    assert (status["server"], status["device"], status["pending"], status["logged_in"]) == \
        (mygpo.url, "laptop", 1, True)
    assert status["last_sync"] is None
    sync_now(a)
    status = sync_status(a).as_json()
    assert status["pending"] == 0 and status["last_sync"] is not None


def test_a_podcast_subscribed_here_by_another_address_is_not_added_again(devices, feed_server: FeedServer) -> None:
    """Another device subscribed by http://, this one has the podcast over https://: one podcast, one subscription."""
    a, b = devices
    feed = serve_podcast(feed_server)
    subscribe(b, feed)
    b.execute("UPDATE sources SET url = ?", [feed.replace("http://", "https://")])  # as subscribed over https
    sync_now(b)
    subscribe(a, feed)
    assert sync_now(a).subscriptions_sent == 1
    report = sync_now(b)
    assert report.errors == [] and report.subscriptions_added == 0
    assert b.execute("SELECT url FROM sources").fetchall() == [(feed.replace("http://", "https://"),)]
