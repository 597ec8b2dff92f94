"""Two real ``earmark sync`` processes on one library 0.3 s apart, while the server takes its time to store an
upload (as the window's own sync and the command line may meet): the play is sent once, and both end well."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from earmark.core.db.items import save_progress
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import ProgressUpdate
from earmark.core.sync.session import log_in, sync_now
from helpers.crash import app_env, earmark_command
from helpers.feed_server import FeedServer
from helpers.mygpo_server import MygpoServer
from helpers.sync_devices import DURATION, Phone, device, episode, serve_podcast
from helpers.sync_proxy import Fault, SyncProxy

SLOW_UPLOAD = 2.0  # seconds the server takes to answer an upload


@pytest.fixture
def proxy(mygpo: MygpoServer) -> Iterator[SyncProxy]:
    proxy = SyncProxy(mygpo.url).up()
    yield proxy
    proxy.down()


def test_two_syncs_of_one_library_send_a_play_once(tmp_path: Path, mygpo: MygpoServer, proxy: SyncProxy) -> None:
    user = mygpo.new_user()
    (tmp_path / "site").mkdir()
    with FeedServer(tmp_path / "site") as feeds:
        db = device(tmp_path, "a")
        log_in(db, "gpodder", proxy.url, *user, device="laptop")
        feed = serve_podcast(feeds)
        subscribe(db, feed)
        assert sync_now(db).errors == []
        save_progress(db, ProgressUpdate(episode(db, feed, 1), 200.0, float(DURATION)))
        library = tmp_path / "a.db"
        db.close()
        proxy.fault("/api/2/episodes/", Fault(delay=SLOW_UPLOAD, method="POST"))
        first = subprocess.Popen(earmark_command(library, "sync"), env=app_env(), text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(0.3)
        second = subprocess.Popen(earmark_command(library, "sync"), env=app_env(), text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        outcomes = [process.communicate(timeout=120) for process in (first, second)]
        assert [first.returncode, second.returncode] == [0, 0], outcomes
        assert "and 1 episode change sent" in outcomes[0][0], outcomes
        plays = [a for a in Phone(mygpo, user).actions() if a["action"] == "play"]
        assert [(a["device"], a["position"]) for a in plays] == [("laptop", 200)]  # once, not twice
