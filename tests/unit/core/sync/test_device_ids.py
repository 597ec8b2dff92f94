"""Each library is a device of its own: its default device id is its own (shown by sync status), a login that
takes a device id the server already has says so, and a library set up again as a lost one's device gets that
device's past actions at its first sync. Against the real mygpo server, and oPodSync's gpodder.net API."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from earmark.core.db.items import save_progress
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import ProgressUpdate
from earmark.core.sync.session import log_in, sync_now, sync_status
from helpers.feed_server import FeedServer
from helpers.mygpo_server import MygpoServer
from helpers.sync_devices import DURATION, Phone, device, episode, serve_podcast, state
from helpers.sync_servers import SyncService


def test_two_libraries_on_one_computer_are_two_devices(tmp_path: Path, mygpo: MygpoServer,
                                                       user: tuple[str, str]) -> None:
    first, second = device(tmp_path, "first"), device(tmp_path, "second")
    logins = [log_in(db, "gpodder", mygpo.url, *user) for db in (first, second)]
    ids = [sync_status(db).account.device for db in (first, second)]
    assert ids[0] != ids[1] and all(i.startswith("earmark-") for i in ids), ids
    assert [login.warnings for login in logins] == [[], []]
    assert sorted(ids) == sorted(set(Phone(mygpo, user).devices()) - {"phone"})


@pytest.mark.parametrize("service", ["mygpo", "opodsync"], indirect=True)  # the Nextcloud API keeps no devices
def test_a_library_set_up_again_as_a_lost_ones_device_ends_at_the_newest_position(
        tmp_path: Path, service: SyncService, feed_server: FeedServer) -> None:
    feed = serve_podcast(feed_server)
    lost = device(tmp_path, "lost")
    log_in(lost, service.kind, service.url, *service.user, device="laptop")
    subscribe(lost, feed)
    service.phone.play(feed, feed_server, 1, 100, at=datetime.now(UTC) - timedelta(minutes=10))
    save_progress(lost, ProgressUpdate(episode(lost, feed, 1), 300.0, float(DURATION)))  # later than the phone
    assert sync_now(lost).errors == []
    lost.close()
    again = device(tmp_path, "again")
    login = log_in(again, service.kind, service.url, *service.user, device="laptop")
    assert len(login.warnings) == 1 and "already has a device laptop" in login.warnings[0], login.warnings
    assert sync_now(again).errors == []
    assert state(again, episode(again, feed, 1)) == (300.0, 0)  # its own newest play, not the phone's older one
