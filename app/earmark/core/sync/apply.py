"""Applying what the server says other devices did: subscriptions, resume positions and played marks, the
newest change winning (a change made here after the remote one is kept)."""

from __future__ import annotations

from dataclasses import field
from datetime import UTC, datetime

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.items import played_margin
from earmark.core.feeds.subscriptions import record_subscription_of
from earmark.core.feeds.unsubscribe import unsubscribe
from earmark.core.records import record
from earmark.core.settings import get_setting
from earmark.core.sync.actions import EpisodeAction
from earmark.core.sync.journal import seen
from earmark.core.sync.matching import EpisodeFinder, feed_addresses
from earmark.core.sync.server import SubscriptionChanges
from earmark.core.urls import Userinfo, comparable, is_web_address


@record
class Applied:
    """What applying the server's changes did here."""

    subscribed: list[int] = field(default_factory=list)  # sources recorded (to be fetched)
    unsubscribed: list[str] = field(default_factory=list)  # their titles
    received: int = 0  # episode actions of other devices, new to this one
    applied: int = 0  # of those, how many changed a position or played mark here
    waited: int = 0  # actions received before, applied now (they waited for their episode, or it is new here)
    items: set[int] = field(default_factory=set)
    credentials: list[tuple[int, Userinfo]] = field(default_factory=list)  # from subscribed addresses: to keep


def apply_subscriptions(db: Database, changes: SubscriptionChanges, local: set[str],
                        applied: Applied) -> None:
    """Subscribe and unsubscribe as the server says, except for feeds this device changed since its last sync
    (``local``, comparable addresses): its own change is sent instead. A feed removed under one address and
    added under another that this library knows it by (another app sent a move as remove + add) stays, known
    to the server by the new one. Call inside a transaction."""
    sources = feed_addresses(db)
    removed = {comparable(url) for url in changes.remove}
    moved = {sources[comparable(url)]: url for url in changes.add if comparable(url) in sources}
    for url in changes.add:
        key = comparable(url)
        if key in local or key in removed or key in sources or not is_web_address(url):
            continue
        source_id, new, parts = record_subscription_of(db, url)  # stored without a password it carries
        sources[key] = source_id
        if not new:  # the podcast is here under another of its addresses (core/feeds/identity.py)
            continue
        if parts.user is not None:
            applied.credentials.append((source_id, parts))
        applied.subscribed.append(source_id)
    gone: set[int] = set()
    for url in changes.remove:
        key = comparable(url)
        if key in local or sources.get(key, 0) in gone or key not in sources:
            continue
        if comparable(moved.get(sources[key], url)) != key:
            _known_as(db, sources[key], moved[sources[key]])
            continue
        gone.add(sources[key])  # known by two addresses (it moved): unsubscribed once
        applied.unsubscribed.append(unsubscribe(db, sources.pop(key)).title)


def _known_as(db: Database, source_id: int, url: str) -> None:
    """The server knows this subscription by ``url`` from now on."""
    db.execute("DELETE FROM sync_known_as WHERE source_id = ?", [source_id])
    db.execute("""INSERT INTO sync_known_as (source_id, url) SELECT id, ? FROM sources WHERE id = ? AND url != ?""",
               [url, source_id, url])


def apply_actions(db: Database, actions: list[EpisodeAction], device: str | None, clock_offset: float,
                  applied: Applied, again: bool = False) -> list[str]:
    """Apply other devices' episode actions, oldest first, skipping this ``device``'s own and any already applied
    (``again``: also those, for podcasts subscribed to again, whose episodes are new here); actions about
    episodes not in the library wait for them. Returns the digests handled (to remember)."""
    finder = EpisodeFinder(db)
    within = float(get_setting(db, "playback.played_within"))  # type: ignore[arg-type]  # a float setting
    digests = []
    with write_transaction(db):
        db.execute("INSERT INTO sync_applying (applying) VALUES (1)")  # the journal's triggers stand aside
        try:
            for action in sorted(actions, key=lambda a: a.at):
                new = not seen(db, action.digest)
                if (device is not None and action.device == device) or not (new or again):
                    continue
                digests.append(action.digest)
                applied.received += new
                item_id = _apply_one(db, finder, action, clock_offset, within)
                if item_id is not None:
                    applied.items.add(item_id)
                    applied.applied += new
                    applied.waited += not new
            _apply_waiting(db, finder, clock_offset, within, applied)
        finally:
            db.execute("DELETE FROM sync_applying")
    return digests


def _apply_one(db: Database, finder: EpisodeFinder, action: EpisodeAction, clock_offset: float,
               within: float) -> int | None:
    """The episode whose position or played mark the action changed, if it did."""
    if action.action not in ("play", "new") or (action.action == "play" and action.position is None):
        return None  # downloads and deletes elsewhere change nothing here
    item_id = finder.find(action)
    if item_id is None:
        db.execute("""INSERT INTO sync_waiting (podcast, episode, guid, action, position, total, at)
                      VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (podcast, episode) DO UPDATE SET
                      guid = excluded.guid, action = excluded.action, position = excluded.position,
                      total = excluded.total, at = excluded.at WHERE excluded.at >= sync_waiting.at""",
                   [action.podcast, action.episode, action.guid, action.action, action.position, action.total,
                    action.at])
        return None
    if _newer_here(db, item_id, action.at - clock_offset):
        return None
    return item_id if _set_state(db, item_id, action, within, _iso(action.at - clock_offset)) else None


def _apply_waiting(db: Database, finder: EpisodeFinder, clock_offset: float, within: float,
                   applied: Applied) -> None:
    """Remote actions that waited for their episode (its feed was not fetched yet) and can now be applied."""
    rows = db.execute("SELECT podcast, episode, guid, action, position, total, at FROM sync_waiting").fetchall()
    for podcast, episode, guid, kind, position, total, at in rows:
        action = EpisodeAction(podcast, episode, kind, int(at), guid, position=position, total=total)
        item_id = finder.find(action)
        if item_id is None:
            continue
        db.execute("DELETE FROM sync_waiting WHERE podcast = ? AND episode = ?", [podcast, episode])
        if not _newer_here(db, item_id, action.at - clock_offset) and \
                _set_state(db, item_id, action, within, _iso(action.at - clock_offset)):
            applied.waited += 1
            applied.items.add(item_id)


def _newer_here(db: Database, item_id: int, remote: float) -> bool:
    """Whether this episode changed here after ``remote`` (this computer's clock): the local change wins. At
    the same second (times go by whole seconds), it wins while it is not sent yet; once sent, the other device
    may have seen it before its own change."""
    row = db.execute("SELECT changed, local FROM sync_clock WHERE item_id = ?", [item_id]).fetchone()
    if row is None:
        return False
    changed, remote_second = int(datetime.fromisoformat(str(row[0])).timestamp()), int(remote)
    if changed != remote_second:
        return changed > remote_second
    return bool(row[1]) and db.execute("SELECT 1 FROM sync_journal WHERE item_id = ? AND action IN ('play', 'new')",
                                       [item_id]).fetchone() is not None


def _set_state(db: Database, item_id: int, action: EpisodeAction, within: float, when: str) -> bool:
    """Give the episode the state the action leaves it in, whatever it was before (the newest action decides
    position and played mark alike, so every device ends the same): played to the end, played and rewound;
    stopped earlier, unplayed at that position; "new", unplayed where it was. False when it was so already."""
    row = db.execute("SELECT position, played, coalesce(media_duration, duration) FROM items WHERE id = ?",
                     [item_id]).fetchone()
    position, played, duration = float(row[0]), int(row[1]), row[2]
    if action.action == "new":
        new_position, new_played = position, 0
    else:
        assert action.position is not None  # checked by the caller
        total = action.total or duration
        if total and action.position >= total - played_margin(float(total), within):
            new_position, new_played = 0.0, 1
        else:  # a play short of the end leaves the episode part-played, as on the device that sent it
            new_position, new_played = float(action.position), 0
    db.execute("INSERT OR REPLACE INTO sync_clock (item_id, changed, local) VALUES (?, ?, 0)", [item_id, when])
    if (new_position, new_played) == (position, played):
        return False
    db.execute("UPDATE items SET position = ?, played = ?, last_played = ? WHERE id = ?",
               [new_position, new_played, when, item_id])
    return True


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(int(epoch), UTC).isoformat()


def settle_own_plays(db: Database, journal_ids: list[int]) -> None:
    """This device's plays just sent that stopped before the end leave their episode unplayed here too, as every
    other device applies them: the newest action decides the played mark alike everywhere (an episode listened
    to again is in progress on every device, not played here and unplayed elsewhere)."""
    within = float(get_setting(db, "playback.played_within"))  # type: ignore[arg-type]  # a float setting
    marks = ", ".join("?" * len(journal_ids))
    with write_transaction(db):
        rows = db.execute(f"""SELECT i.id, j.position, j.total FROM sync_journal j JOIN items i ON i.id = j.item_id
                              WHERE j.id IN ({marks}) AND j.action = 'play' AND i.played = 1
                                AND i.position = j.position""", journal_ids).fetchall()
        partial = [(item_id,) for item_id, position, total in rows
                   if total and position < total - played_margin(float(total), within)]
        if partial:
            db.execute("INSERT INTO sync_applying (applying) VALUES (1)")  # as applied from the server: not sent back
            try:
                db.conn.executemany("UPDATE items SET played = 0 WHERE id = ?", partial)
            finally:
                db.execute("DELETE FROM sync_applying")
