"""The played mark converges: whichever order devices sync in, the newest action decides an episode's position
and played mark on every device alike (against the real mygpo server, with a phone speaking its API)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from earmark.core.db.items import save_progress
from earmark.core.models import ProgressUpdate
from earmark.core.sync.session import log_in, sync_now
from helpers.feed_server import FeedServer
from helpers.mygpo_server import MygpoServer
from helpers.sync_devices import DURATION, Phone, device, episode, on_both, state


def test_a_resumed_episode_is_unplayed_at_its_position_everywhere(devices, tmp_path: Path, mygpo: MygpoServer,
                                                                  user: tuple[str, str],
                                                                  feed_server: FeedServer) -> None:
    a, b = devices
    feed = on_both(a, b, feed_server)
    Phone(mygpo, user).play(feed, feed_server, 1, DURATION, at=datetime.now(UTC) - timedelta(minutes=10))  # finished
    save_progress(b, ProgressUpdate(episode(b, feed, 1), 100.0, float(DURATION)))  # B, not synced since: later
    for db in (b, a, b, a):
        assert sync_now(db).errors == []
    fresh = device(tmp_path, "fresh")
    log_in(fresh, "gpodder", mygpo.url, *user, device="fresh")
    assert sync_now(fresh).errors == []
    assert [state(db, episode(db, feed, 1)) for db in (a, b, fresh)] == [(100.0, 0)] * 3
