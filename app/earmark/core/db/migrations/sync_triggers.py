"""Triggers that write the sync journal (schema 8): every change to subscriptions, play positions, played
marks and downloads, whichever program made it (the window, the command line, a script), while a sync account
is set up. Changes applied from the sync server are not journaled back (``sync_applying`` holds a row only
inside the transaction that applies them), except subscriptions: this device's list on the server mirrors its
own.

Schema 17 (``known_addresses``) keeps the address the sync server knows a feed by when the feed moves
(``sync_known_as``) and sends every change under it: a move is not sent as an unsubscribe and a subscribe, which
other apps read as the user leaving the podcast."""

from __future__ import annotations

from collections.abc import Callable

NOW = "strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now')"  # the same form as timefmt.now_iso()
ACCOUNT = "EXISTS (SELECT 1 FROM sync_account)"
LOCAL = f"{ACCOUNT} AND NOT EXISTS (SELECT 1 FROM sync_applying)"
WEB = "({ref} LIKE 'http://%' OR {ref} LIKE 'https://%')"
# An episode the server can know: a web enclosure in a web feed.
EPISODE = (f"NEW.kind = 'episode' AND {WEB.format(ref='NEW.enclosure_url')} "
           f"AND EXISTS (SELECT 1 FROM sources WHERE id = NEW.source_id AND {WEB.format(ref='url')})")
CHANGED = "(NEW.position IS NOT OLD.position OR NEW.played IS NOT OLD.played)"
TOTAL = "coalesce(NEW.media_duration, NEW.duration, NEW.position)"
PENDING = "batch IS NULL"  # rows not being sent yet: a newer change replaces them


def sync_triggers(known_addresses: bool = False) -> list[str]:
    """The journal's triggers on sources, items and downloads (as of schema 8, or with ``known_addresses``
    as of schema 17)."""
    feed = _known_feed if known_addresses else _feed
    subscriptions = _known_subscription_triggers() if known_addresses else _subscription_triggers()
    return subscriptions + _episode_triggers(feed) + _download_triggers(feed)


def _feed(source: str) -> str:
    return f"{source}.url"


def _known_feed(source: str) -> str:
    """The address the sync server knows the feed by."""
    return f"coalesce((SELECT url FROM sync_known_as WHERE source_id = {source}.id), {source}.url)"


def _subscription_triggers() -> list[str]:
    def journal(action: str, ref: str) -> str:
        return f"""DELETE FROM sync_journal WHERE podcast = {ref}.url AND action IN ('subscribe', 'unsubscribe')
                       AND {PENDING};
                   INSERT INTO sync_journal (action, podcast, at) VALUES ('{action}', {ref}.url, {NOW});"""

    return [
        f"""CREATE TRIGGER sync_journal_subscribed AFTER INSERT ON sources
            WHEN {ACCOUNT} AND {WEB.format(ref='NEW.url')} BEGIN {journal('subscribe', 'NEW')} END""",
        f"""CREATE TRIGGER sync_journal_unsubscribed AFTER DELETE ON sources
            WHEN {ACCOUNT} AND {WEB.format(ref='OLD.url')} BEGIN {journal('unsubscribe', 'OLD')} END""",
        # A feed that moved for good: the old address goes, the new one comes.
        f"""CREATE TRIGGER sync_journal_moved_from AFTER UPDATE OF url ON sources
            WHEN {ACCOUNT} AND OLD.url IS NOT NEW.url AND {WEB.format(ref='OLD.url')}
            BEGIN {journal('unsubscribe', 'OLD')} END""",
        f"""CREATE TRIGGER sync_journal_moved_to AFTER UPDATE OF url ON sources
            WHEN {ACCOUNT} AND OLD.url IS NOT NEW.url AND {WEB.format(ref='NEW.url')}
            BEGIN {journal('subscribe', 'NEW')} END""",
    ]


def _known_subscription_triggers() -> list[str]:
    def journal(action: str, feed: str, web: str) -> str:
        when = f"{ACCOUNT} AND {WEB.format(ref=web)}"
        return f"""DELETE FROM sync_journal WHERE {when} AND podcast = {feed}
                       AND action IN ('subscribe', 'unsubscribe') AND {PENDING};
                   INSERT INTO sync_journal (action, podcast, at) SELECT '{action}', {feed}, {NOW} WHERE {when};"""

    return [
        f"""CREATE TRIGGER sync_journal_subscribed AFTER INSERT ON sources BEGIN
                DELETE FROM sync_known_as WHERE source_id = NEW.id;
                {journal('subscribe', 'NEW.url', 'NEW.url')}
            END""",
        f"""CREATE TRIGGER sync_journal_unsubscribed AFTER DELETE ON sources BEGIN
                {journal('unsubscribe', _known_feed('OLD'), 'OLD.url')}
                DELETE FROM sync_known_as WHERE source_id = OLD.id;
            END""",
        # A feed that moved for good keeps the address the server knows (until it moves back to it).
        f"""CREATE TRIGGER sync_journal_moved AFTER UPDATE OF url ON sources
            WHEN {ACCOUNT} AND OLD.url IS NOT NEW.url AND {WEB.format(ref='OLD.url')} BEGIN
                INSERT OR IGNORE INTO sync_known_as (source_id, url) VALUES (NEW.id, OLD.url);
                DELETE FROM sync_known_as WHERE source_id = NEW.id AND url = NEW.url;
            END""",
    ]


def _episode_triggers(feed: Callable[[str], str]) -> list[str]:
    return [
        # When this device last changed an episode's position or played mark: a remote change older than that
        # loses (the newest wins).
        f"""CREATE TRIGGER sync_clock_local AFTER UPDATE OF position, played ON items
            WHEN {LOCAL} AND {CHANGED} BEGIN
                INSERT OR REPLACE INTO sync_clock (item_id, changed, local) VALUES (NEW.id, {NOW}, 1);
            END""",
        # One pending play per episode: progress saved every few seconds updates it; ``started`` stays where
        # this listening began. An episode played to its end is sent at its end (position = total).
        f"""CREATE TRIGGER sync_journal_played AFTER UPDATE OF position, played ON items
            WHEN {LOCAL} AND {EPISODE} AND {CHANGED} AND NOT (OLD.played = 1 AND NEW.played = 0) BEGIN
                DELETE FROM sync_journal WHERE item_id = NEW.id AND action = 'new' AND {PENDING};
                INSERT INTO sync_journal (action, podcast, episode, guid, item_id, started, at)
                    SELECT 'play', {feed('s')}, NEW.enclosure_url, NEW.guid, NEW.id, OLD.position, {NOW}
                    FROM sources s WHERE s.id = NEW.source_id AND NOT EXISTS (
                        SELECT 1 FROM sync_journal WHERE item_id = NEW.id AND action = 'play' AND {PENDING});
                UPDATE sync_journal SET
                    position = CASE WHEN NEW.played = 1 AND NEW.position = 0 THEN {TOTAL} ELSE NEW.position END,
                    total = {TOTAL}, at = {NOW}
                WHERE item_id = NEW.id AND action = 'play' AND {PENDING};
            END""",
        # Marked unplayed: gpodder.net's "new".
        f"""CREATE TRIGGER sync_journal_unplayed AFTER UPDATE OF played ON items
            WHEN {LOCAL} AND {EPISODE} AND OLD.played = 1 AND NEW.played = 0 BEGIN
                DELETE FROM sync_journal WHERE item_id = NEW.id AND action IN ('play', 'new') AND {PENDING};
                INSERT INTO sync_journal (action, podcast, episode, guid, item_id, position, total, at)
                    SELECT 'new', {feed('s')}, NEW.enclosure_url, NEW.guid, NEW.id, NEW.position, {TOTAL}, {NOW}
                    FROM sources s WHERE s.id = NEW.source_id;
            END""",
    ]


def _download_triggers(feed: Callable[[str], str]) -> list[str]:
    def journal(action: str, ref: str) -> str:
        return f"""INSERT INTO sync_journal (action, podcast, episode, guid, item_id, at)
                   SELECT '{action}', {feed('s')}, i.enclosure_url, i.guid, i.id, {NOW}
                   FROM items i JOIN sources s ON s.id = i.source_id
                   WHERE i.id = {ref}.item_id AND {WEB.format(ref='i.enclosure_url')} AND {WEB.format(ref='s.url')};"""

    return [
        f"""CREATE TRIGGER sync_journal_downloaded AFTER UPDATE OF status ON downloads
            WHEN {LOCAL} AND NEW.status = 'done' AND OLD.status IS NOT 'done'
            BEGIN {journal('download', 'NEW')} END""",
        f"""CREATE TRIGGER sync_journal_downloaded_new AFTER INSERT ON downloads
            WHEN {LOCAL} AND NEW.status = 'done' BEGIN {journal('download', 'NEW')} END""",
        f"""CREATE TRIGGER sync_journal_deleted AFTER DELETE ON downloads
            WHEN {LOCAL} AND OLD.status = 'done' BEGIN {journal('delete', 'OLD')} END""",
    ]
