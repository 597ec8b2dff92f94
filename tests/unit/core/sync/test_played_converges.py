"""The played mark converges: whichever order devices sync in, the newest action decides an episode's position
and played mark on every device alike (on each real server and flavour, with a phone that is not Earmark)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from earmark.core.db.database import Database
from earmark.core.db.items import mark_played, save_progress
from earmark.core.models import ProgressUpdate
from earmark.core.sync.session import log_in, sync_now
from helpers.feed_server import FeedServer
from helpers.sync_devices import DURATION, device, episode, on_both, state
from helpers.sync_servers import SyncService


def test_a_resumed_episode_is_unplayed_at_its_position_everywhere(libraries: tuple[Database, Database],
                                                                  service: SyncService, tmp_path: Path,
                                                                  feed_server: FeedServer) -> None:
    a, b = libraries
    feed = on_both(a, b, feed_server)
    service.phone.play(feed, feed_server, 1, DURATION, at=datetime.now(UTC) - timedelta(minutes=10))  # finished
    save_progress(b, ProgressUpdate(episode(b, feed, 1), 100.0, float(DURATION)))  # B, not synced since: later
    for db in (b, a, b, a):
        assert sync_now(db).errors == []
    fresh = device(tmp_path, "fresh")
    log_in(fresh, service.kind, service.url, *service.user, device="fresh")
    assert sync_now(fresh).errors == []
    assert [state(db, episode(db, feed, 1)) for db in (a, b, fresh)] == [(100.0, 0)] * 3


def test_an_episode_listened_to_again_is_in_progress_everywhere(libraries: tuple[Database, Database],
                                                                feed_server: FeedServer) -> None:
    a, b = libraries
    feed = on_both(a, b, feed_server)
    mark_played(b, [episode(b, feed, 1)], True)
    for db in (b, a):
        assert sync_now(db).errors == []
    assert state(a, episode(a, feed, 1)) == (0.0, 1)
    save_progress(b, ProgressUpdate(episode(b, feed, 1), 100.0, float(DURATION)))  # listened to again, on B
    for db in (b, a):
        assert sync_now(db).errors == []
    assert [state(db, episode(db, feed, 1)) for db in (a, b)] == [(100.0, 0)] * 2
