"""A feed that moved (its old address answers 301): the phone's actions that name the old address reach their
episodes, and Earmark keeps the address the server knows instead of sending the move as remove + add (which
other apps read as an unsubscribe). On each real server and flavour, with a phone that is not Earmark."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from earmark.core.db.items import save_progress
from earmark.core.models import ProgressUpdate
from earmark.core.sync.session import log_in, sync_now
from helpers.feed_server import FeedServer
from helpers.sync_devices import DURATION, device, episode, serve_podcast, state
from helpers.sync_servers import SyncService


def test_a_moved_feed_keeps_its_plays_and_its_address_on_the_server(tmp_path: Path, service: SyncService,
                                                                    feed_server: FeedServer) -> None:
    new = serve_podcast(feed_server, "cast")
    old = feed_server.serve_redirect("old/cast.xml", new)
    service.phone.subscribe(old)
    service.phone.play(old, feed_server, 1, 300, at=datetime.now(UTC) - timedelta(minutes=5))
    db = device(tmp_path, "a")
    log_in(db, service.kind, service.url, *service.user, device="laptop")
    report = sync_now(db)
    assert report.errors == [] and report.subscriptions_added == 1, report
    assert db.execute("SELECT url FROM sources").fetchall() == [(new,)]  # the feed's address of now, here
    assert state(db, episode(db, new, 1)) == (300.0, 0)
    assert db.execute("SELECT count(*) FROM sync_waiting").fetchone()[0] == 0
    save_progress(db, ProgressUpdate(episode(db, new, 2), 50.0, float(DURATION)))
    report = sync_now(db)
    assert report.errors == [] and report.subscriptions_sent == 0 and report.actions_sent == 1, report
    assert service.phone.subscriptions() == [old]  # never removed, and the new address never added
    sent = [a for a in service.phone.actions() if str(a["episode"]).endswith("cast/audio/2.mp3")]
    assert [(a["podcast"], a["position"]) for a in sent] == [(old, 50)]  # under the address the server knows


def test_a_move_another_app_sends_as_remove_and_add_keeps_the_subscription(tmp_path: Path, service: SyncService,
                                                                           feed_server: FeedServer) -> None:
    new = serve_podcast(feed_server, "cast")
    old = feed_server.serve_redirect("old/cast.xml", new)
    service.phone.subscribe(old)
    db = device(tmp_path, "a")
    log_in(db, service.kind, service.url, *service.user, device="laptop")
    assert sync_now(db).errors == []
    save_progress(db, ProgressUpdate(episode(db, new, 1), 80.0, float(DURATION)))
    assert sync_now(db).errors == []
    service.phone.move(old, new)  # the phone followed the redirect: "remove old" and "add new" in one change
    report = sync_now(db)
    assert report.errors == [] and report.subscriptions_removed == 0 and report.subscriptions_added == 0, report
    assert state(db, episode(db, new, 1)) == (80.0, 0)  # still subscribed, the position kept
    save_progress(db, ProgressUpdate(episode(db, new, 2), 20.0, float(DURATION)))
    assert sync_now(db).actions_sent == 1
    sent = [a for a in service.phone.actions() if str(a["episode"]).endswith("cast/audio/2.mp3")]
    assert [a["podcast"] for a in sent] == [new]  # under the address the server knows now
