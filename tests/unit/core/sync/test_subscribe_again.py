"""A podcast subscribed to again (after an unsubscribe and a sync) gets the server's actions for it back: its
episodes are new here, and the positions played before, here and on the phone, apply to them again. Against
each real server and flavour, and a server that keeps plays as the Nextcloud gPodder Sync app does."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from earmark.core.db.database import Database
from earmark.core.db.items import save_progress
from earmark.core.feeds.subscribe import subscribe
from earmark.core.feeds.unsubscribe import unsubscribe
from earmark.core.models import ProgressUpdate
from earmark.core.sync.session import log_in, sync_now
from helpers.feed_server import FeedServer, basic_auth
from helpers.mygpo_server import MygpoServer
from helpers.nextcloud_server import APP, NextcloudServer
from helpers.sync_devices import DURATION, device, episode, serve_podcast, state
from helpers.sync_proxy import Fault, SyncProxy
from helpers.sync_servers import SyncService

PhonePlay = Callable[[str, int, int], None]  # feed, episode number, position


def _again(db: Database, feed: str, phone_play: PhonePlay) -> None:
    subscribe(db, feed)
    save_progress(db, ProgressUpdate(episode(db, feed, 1), 120.0, float(DURATION)))
    assert sync_now(db).errors == []
    phone_play(feed, 2, 240)
    assert sync_now(db).errors == []
    assert [state(db, episode(db, feed, n)) for n in (1, 2)] == [(120.0, 0), (240.0, 0)]
    unsubscribe(db, int(db.execute("SELECT id FROM sources WHERE url = ?", [feed]).fetchone()[0]))
    assert sync_now(db).errors == []
    subscribe(db, feed)
    report = sync_now(db)
    assert report.errors == [] and report.earlier_applied == 2, report
    assert report.positions_applied <= report.actions_received
    assert [state(db, episode(db, feed, n)) for n in (1, 2, 3)] == [(120.0, 0), (240.0, 0), (0.0, 0)]


def test_subscribing_again_brings_the_positions_back(tmp_path: Path, service: SyncService,
                                                      feed_server: FeedServer) -> None:
    db = device(tmp_path, "a")
    log_in(db, service.kind, service.url, *service.user, device="laptop")
    _again(db, serve_podcast(feed_server), lambda feed, n, at: service.phone.play(feed, feed_server, n, at))


@pytest.fixture
def nextcloud() -> Iterator[NextcloudServer]:
    with NextcloudServer() as server:
        server.add_user("alice", "app-password-1")
        yield server


def test_subscribing_again_brings_the_positions_back_from_the_nextcloud_app(tmp_path: Path, nextcloud: NextcloudServer,
                                                                    feed_server: FeedServer) -> None:
    db = device(tmp_path, "a")
    log_in(db, "nextcloud", nextcloud.url, "alice", "app-password-1", device="laptop")

    def phone_play(feed: str, number: int, position: int) -> None:
        action = [{"podcast": feed, "episode": feed_server.url(f"cast/audio/{number}.mp3"), "action": "play",
                   "timestamp": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S"), "started": 0,
                   "position": position, "total": DURATION}]
        request = urllib.request.Request(nextcloud.url + APP + "/episode_action/create", method="POST",
                                         data=json.dumps(action).encode(),
                                         headers={"Authorization": basic_auth("alice", "app-password-1"),
                                                  "Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=10).close()

    _again(db, serve_podcast(feed_server), phone_play)


def test_a_sync_that_fails_after_subscribing_again_brings_them_back_at_the_next(
        tmp_path: Path, mygpo: MygpoServer, feed_server: FeedServer) -> None:
    proxy = SyncProxy(mygpo.url).up()
    try:
        db = device(tmp_path, "a")
        log_in(db, "gpodder", proxy.url, *mygpo.new_user(), device="laptop")
        feed = serve_podcast(feed_server)
        subscribe(db, feed)
        save_progress(db, ProgressUpdate(episode(db, feed, 1), 120.0, float(DURATION)))
        assert sync_now(db).errors == []
        unsubscribe(db, int(db.execute("SELECT id FROM sources WHERE url = ?", [feed]).fetchone()[0]))
        assert sync_now(db).errors == []
        subscribe(db, feed)
        proxy.fault("/api/2/episodes/", Fault(status=500, method="GET"))
        assert sync_now(db).errors  # the subscription went up; the actions did not come down
        proxy.fault("/api/2/episodes/", None)
        report = sync_now(db)
    finally:
        proxy.down()
    assert report.errors == [] and report.earlier_applied == 1, report
    assert state(db, episode(db, feed, 1)) == (120.0, 0)
