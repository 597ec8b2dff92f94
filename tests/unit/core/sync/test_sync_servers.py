"""Two libraries and a phone that is not Earmark, on each real server in each flavour (mygpo; oPodSync through
the gpodder.net API and through the Nextcloud API): subscriptions and positions cross every way."""

from __future__ import annotations

from earmark.core.db.database import Database
from earmark.core.db.items import save_progress
from earmark.core.feeds.subscribe import subscribe
from earmark.core.feeds.unsubscribe import unsubscribe
from earmark.core.models import ProgressUpdate
from earmark.core.sync.session import sync_now
from helpers.feed_server import FeedServer
from helpers.sync_devices import DURATION, episode, serve_podcast, state
from helpers.sync_servers import SyncService


def test_subscriptions_and_positions_cross_every_way(libraries: tuple[Database, Database], service: SyncService,
                                                     feed_server: FeedServer) -> None:
    a, b = libraries
    feed = serve_podcast(feed_server)
    subscribe(a, feed)
    assert sync_now(a).subscriptions_sent == 1
    assert sync_now(b).subscriptions_added == 1
    assert service.phone.subscriptions() == [feed]
    save_progress(b, ProgressUpdate(episode(b, feed, 1), 120.0, float(DURATION)))
    assert sync_now(b).actions_sent == 1
    report = sync_now(a)
    assert report.errors == [] and report.positions_applied == 1, report
    assert state(a, episode(a, feed, 1)) == (120.0, 0)
    service.phone.play(feed, feed_server, 2, 240)
    for db in (a, b):
        report = sync_now(db)
        assert report.errors == [] and report.positions_applied == 1, report
        assert state(db, episode(db, feed, 2)) == (240.0, 0)
    plays = {(str(x["episode"]).rsplit("/", 1)[1], x["position"]) for x in service.phone.actions()}
    assert plays == {("1.mp3", 120), ("2.mp3", 240)}  # the phone sees Earmark's play, each once
    unsubscribe(b, int(b.execute("SELECT id FROM sources WHERE url = ?", [feed]).fetchone()[0]))
    sync_now(b)
    assert sync_now(a).subscriptions_removed == 1
    assert service.phone.subscriptions() == []
