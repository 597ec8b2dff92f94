"""The sync journal: local changes waiting to be sent (written by triggers, see migrations/sync_triggers.py).

Rows are sent in batches: a batch is marked before it is sent and removed once the server took it, so that a
sync killed in between finds the batch still marked and asks the server whether it arrived before sending it
again. Digests of every episode action sent or applied are kept a while, so that none is applied twice."""

from __future__ import annotations

import time
from collections.abc import Iterable
from datetime import datetime

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.records import record
from earmark.core.sync.actions import EpisodeAction
from earmark.core.urls import comparable

SUBSCRIPTIONS = ("subscribe", "unsubscribe")
EPISODES = ("play", "download", "delete", "new")
SEEN_DAYS = 120  # digests older than this are forgotten (the server is never asked that far back)


@record(frozen=True)
class JournalRow:
    """One local change."""

    id: int
    action: str
    podcast: str
    episode: str | None
    guid: str | None
    started: float | None
    position: float | None
    total: float | None
    at: str

    def as_action(self, clock_offset: float) -> EpisodeAction:
        """The change as an episode action, its time moved onto the server's clock."""
        at = int(datetime.fromisoformat(self.at).timestamp() + clock_offset)
        return EpisodeAction(self.podcast, self.episode or "", self.action, at, self.guid,
                             started=_whole(self.started), position=_whole(self.position), total=_whole(self.total))


_COLUMNS = "id, action, podcast, episode, guid, started, position, total, at"


def in_flight(db: Database, actions: tuple[str, ...]) -> list[JournalRow]:
    """Rows of these kinds that an earlier sync started to send (it was killed, or the server failed)."""
    marks = ", ".join("?" * len(actions))
    return [JournalRow(*row) for row in db.execute(
        f"SELECT {_COLUMNS} FROM sync_journal WHERE batch IS NOT NULL AND action IN ({marks}) ORDER BY id", actions)]


def start_batch(db: Database, actions: tuple[str, ...]) -> list[JournalRow]:
    """Mark every row of these kinds that waits as being sent (together with those already in flight), and
    return them all, oldest first."""
    marks = ", ".join("?" * len(actions))
    with write_transaction(db):
        db.execute(f"UPDATE sync_journal SET batch = ? WHERE batch IS NULL AND action IN ({marks})",
                   [int(time.time() * 1000), *actions])
    return in_flight(db, actions)


def finish(db: Database, rows: Iterable[JournalRow], digests: Iterable[str] = ()) -> None:
    """The server has these rows: drop them, and remember the digests of the actions they were."""
    now = int(time.time())
    with write_transaction(db):
        db.conn.executemany("DELETE FROM sync_journal WHERE id = ?", [(row.id,) for row in rows])
        db.conn.executemany("INSERT OR REPLACE INTO sync_seen (digest, at) VALUES (?, ?)",
                            [(digest, now) for digest in digests])


def drop(db: Database, actions: Iterable[str]) -> None:
    """Forget rows of kinds the server does not keep (Nextcloud keeps only plays)."""
    kinds = list(actions)
    if kinds:
        with write_transaction(db):
            db.execute(f"DELETE FROM sync_journal WHERE action IN ({', '.join('?' * len(kinds))})", kinds)


def pending_subscriptions(db: Database) -> set[str]:
    """The feeds (comparable addresses) with a subscription change of this device not sent yet: a change
    from the server to them loses to it."""
    return {comparable(str(url)) for (url,) in db.execute(
        "SELECT podcast FROM sync_journal WHERE action IN ('subscribe', 'unsubscribe')")}


def last_state(rows: list[JournalRow]) -> tuple[list[str], list[str]]:
    """Feeds subscribed and unsubscribed by these rows, the last change of each feed winning."""
    final: dict[str, JournalRow] = {}
    for row in rows:
        final[comparable(row.podcast)] = row
    add = [row.podcast for row in final.values() if row.action == "subscribe"]
    return add, [row.podcast for row in final.values() if row.action == "unsubscribe"]


def seen(db: Database, digest: str) -> bool:
    """Whether this episode action was already sent from here or applied here."""
    return db.execute("SELECT 1 FROM sync_seen WHERE digest = ?", [digest]).fetchone() is not None


def forget_old(db: Database) -> None:
    """Drop digests too old to come back, and remote actions that waited too long for their episode."""
    cutoff = int(time.time()) - SEEN_DAYS * 86400
    with write_transaction(db):
        db.execute("DELETE FROM sync_seen WHERE at < ?", [cutoff])
        db.execute("DELETE FROM sync_waiting WHERE at < ?", [cutoff])


def _whole(seconds: float | None) -> int | None:
    return None if seconds is None else int(seconds)
