"""The Nextcloud kind: two libraries and a phone against a server that follows the gPodder Sync app's API."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from earmark.core.db.database import Database
from earmark.core.db.items import save_progress
from earmark.core.errors import SyncAuthError
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import ProgressUpdate
from earmark.core.secrets.feeds import feed_key
from earmark.core.secrets.store import Secrets
from earmark.core.sync.account import get_account
from earmark.core.sync.session import log_in, sync_now
from helpers.feed_server import FeedServer, basic_auth, rss
from helpers.nextcloud_server import APP, NextcloudServer
from helpers.sync_devices import DURATION, device, episode, serve_podcast, state


@pytest.fixture
def nextcloud() -> Iterator[NextcloudServer]:
    with NextcloudServer() as server:
        server.add_user("alice", "app-password-1")
        yield server


@pytest.fixture
def devices(tmp_path: Path, nextcloud: NextcloudServer) -> Iterator[tuple[Database, ...]]:
    a, b = device(tmp_path, "a"), device(tmp_path, "b")
    for db, name in ((a, "laptop"), (b, "desktop")):
        log_in(db, "nextcloud", nextcloud.url + "/index.php/", "alice", "app-password-1", device=name)
    yield a, b
    a.close()
    b.close()


def test_a_wrong_app_password_is_refused_and_nothing_is_stored(tmp_path: Path, nextcloud: NextcloudServer) -> None:
    db = device(tmp_path, "c")
    with pytest.raises(SyncAuthError, match="password of alice: check them .for Nextcloud, an app password"):
        log_in(db, "nextcloud", nextcloud.url, "alice", "wrong")
    assert get_account(db) is None


def test_two_devices_and_a_phone_through_nextcloud(devices, nextcloud: NextcloudServer,
                                                   feed_server: FeedServer) -> None:
    a, b = devices
    feed = serve_podcast(feed_server)
    subscribe(a, feed)
    assert sync_now(a).subscriptions_sent == 1
    assert sync_now(b).subscriptions_added == 1
    save_progress(b, ProgressUpdate(episode(b, feed, 1), 120.0, float(DURATION)))
    assert sync_now(b).actions_sent == 1
    assert sync_now(a).positions_applied == 1
    assert state(a, episode(a, feed, 1)) == (120.0, 0)
    # The phone posts a play with raw HTTP, as AntennaPod does.
    action = [{"podcast": feed, "episode": feed_server.url("cast/audio/2.mp3"), "guid": "cast-2", "action": "play",
               "timestamp": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S"), "started": 0, "position": 240,
               "total": DURATION}]
    request = urllib.request.Request(nextcloud.url + APP + "/episode_action/create", method="POST",
                                     data=json.dumps(action).encode(),
                                     headers={"Authorization": basic_auth("alice", "app-password-1"),
                                              "Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=10).close()
    for db in (a, b):
        report = sync_now(db)
        assert report.errors == [] and report.positions_applied == 1, report
        assert state(db, episode(db, feed, 2)) == (240.0, 0)


def test_downloads_are_not_sent_to_nextcloud(devices, nextcloud: NextcloudServer, feed_server: FeedServer) -> None:
    a, _b = devices
    feed = serve_podcast(feed_server)
    subscribe(a, feed)
    sync_now(a)
    item = episode(a, feed, 1)
    a.execute("INSERT INTO downloads (item_id, url, path, status, added) VALUES (?, 'u', 'p', 'done', 'now')", [item])
    save_progress(a, ProgressUpdate(item, 30.0, float(DURATION)))
    report = sync_now(a)
    assert report.actions_sent == 1  # the play; the app keeps no downloads, so none is sent (nor kept waiting)
    assert [x["action"] for x in nextcloud.data["alice"].actions] == ["PLAY"]
    assert a.execute("SELECT count(*) FROM sync_journal").fetchone()[0] == 0


def test_a_phone_subscription_with_a_password_in_its_address_keeps_it_out_of_the_library(
        devices, nextcloud: NextcloudServer, feed_server: FeedServer) -> None:
    a, _b = devices
    entries = [{"title": "Members episode", "guid": "m-1", "enclosure": feed_server.url("members/1.mp3")}]
    feed = feed_server.serve_feed("members/feed.xml", rss("Members Cast", entries), auth=("ann", "phone-secret"))
    typed = feed.replace("://", "://ann:phone-secret@", 1)  # as the phone's user typed it
    request = urllib.request.Request(nextcloud.url + APP + "/subscription_change/create", method="POST",
                                     data=json.dumps({"add": [typed], "remove": []}).encode(),
                                     headers={"Authorization": basic_auth("alice", "app-password-1"),
                                              "Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=10).close()
    report = sync_now(a)
    assert report.errors == [] and report.warnings == [] and report.subscriptions_added == 1, report
    assert a.execute("SELECT url, title, auth_user FROM sources").fetchall() == [(feed, "Members Cast", "ann")]
    assert Secrets(a).get(feed_key(feed, "ann")) == "phone-secret"  # kept where passwords are kept
    assert not [row for row in a.execute("SELECT * FROM sources") if "phone-secret" in repr(row)]
    assert sync_now(a).subscriptions_sent == 0  # the address without the password is not sent back as new
