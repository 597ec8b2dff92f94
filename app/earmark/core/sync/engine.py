"""One sync: subscriptions down and up, the new feeds fetched, episode actions down and up.

Each step commits on its own with where it got to, so a sync that fails or is killed half way loses nothing:
the next one goes on from there, and what the server may already have (a batch sent just before the kill)
is checked with it before it is sent again."""

from __future__ import annotations

import time
from collections.abc import Callable

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.errors import EarmarkError
from earmark.core.feeds.subscriptions import keep_credentials
from earmark.core.plurals import counted, verb
from earmark.core.sync import journal
from earmark.core.sync.account import SyncAccount, save_account
from earmark.core.sync.apply import Applied, apply_actions, apply_subscriptions, settle_own_plays
from earmark.core.sync.report import SyncReport
from earmark.core.sync.server import SubscriptionChanges, SyncServer
from earmark.core.timefmt import now_iso
from earmark.core.urls import comparable

SKEW_MARGIN = 24 * 3600  # actions are asked for from this long before the last sync: a phone whose clock is
# behind (or that uploads late) still gets through; the digests of handled actions keep them from counting twice
CLOCK_TOLERANCE = 60  # seconds of clock difference with the server that are left alone
ACTIONS_PER_REQUEST = 500

FetchFeeds = Callable[[Database, list[int]], list[str]]


def run_sync(db: Database, server: SyncServer, account: SyncAccount, caption: str,
             fetch_feeds: FetchFeeds | None = None) -> SyncReport:
    """Sync once; failures end up as sentences in the report (and on the account), never as exceptions."""
    report = SyncReport()
    account.last_attempt = now_iso()
    try:
        _sync(db, server, account, caption, fetch_feeds or refresh_sources, report)
    except EarmarkError as exc:  # the server's failures, and the library's (a full disk)
        report.errors.append(str(exc))
    account.failures = account.failures + 1 if report.errors else 0
    account.last_error = report.errors[0] if report.errors else None
    if not report.errors:
        account.last_sync = now_iso()
    save_account(db, account)
    return report


def _sync(db: Database, server: SyncServer, account: SyncAccount, caption: str,
          fetch_feeds: FetchFeeds, report: SyncReport) -> None:
    server.login()
    account.clock_offset = _clock_offset(server, report)
    if account.registered_caption != caption:
        server.register_device(account.device, caption)
        account.registered_caption = caption
        save_account(db, account)
    server.keep_in_step(account.device)
    applied = Applied()
    first = account.actions_since == 0
    _subscriptions(db, server, account, applied, report)
    if applied.subscribed:
        report.warnings += fetch_feeds(db, applied.subscribed)
    _episode_actions(db, server, account, applied, report)
    _actions_of_added(db, server, account, applied, report, first)


def _subscriptions(db: Database, server: SyncServer, account: SyncAccount, applied: Applied,
                   report: SyncReport) -> None:
    """Subscription changes down and up; the podcasts added either way wait for their actions (sync_refetch)."""
    # One second back: servers compare whole seconds, so a change in the very second of the last answer would be
    # missed; one seen twice changes nothing (a feed already subscribed, or already gone).
    changes = unambiguous(server.subscription_changes(account.device, max(0, account.subscriptions_since - 1)))
    added, removed = {comparable(u) for u in changes.add}, {comparable(u) for u in changes.remove}
    arrived = [row for row in journal.in_flight(db, journal.SUBSCRIPTIONS)
               if comparable(row.podcast) in (added if row.action == "subscribe" else removed)]
    with write_transaction(db):
        journal.finish(db, arrived)
        apply_subscriptions(db, changes, journal.pending_subscriptions(db), applied)
        account.subscriptions_since = changes.timestamp
        db.execute("UPDATE sync_account SET subscriptions_since = ?", [changes.timestamp])
        _refetch(db, _addresses(db, applied.subscribed))
    report.subscriptions_added, report.subscriptions_removed = len(applied.subscribed), len(applied.unsubscribed)
    report.warnings += keep_credentials(db, applied.credentials)
    rows = journal.start_batch(db, journal.SUBSCRIPTIONS)
    if rows:
        add, remove = journal.last_state(rows)
        with write_transaction(db):
            _refetch(db, add)
        server.send_subscription_changes(account.device, add, remove)
        journal.finish(db, rows)
        report.subscriptions_sent = len(add) + len(remove)


def _episode_actions(db: Database, server: SyncServer, account: SyncAccount, applied: Applied,
                     report: SyncReport) -> None:
    offset = account.clock_offset
    _settle_in_flight(db, server, account)
    page = server.episode_actions(max(0, account.actions_since - SKEW_MARGIN))
    if page.unusable:
        report.warnings.append(f"{counted(page.unusable, 'episode action')} from the server could not be read; "
                               f"{verb(page.unusable, 'it was', 'they were')} skipped.")
    server_now = int(time.time() + (server.clock_offset or 0))
    # The first sync applies this device's own past actions too (a library set up again after losing one).
    own = None if account.actions_since == 0 else account.device
    with write_transaction(db):
        digests = apply_actions(db, page.actions, own, offset, applied)
        journal.finish(db, [], digests)
        account.actions_since = min(page.timestamp, server_now) if page.timestamp else server_now
        db.execute("UPDATE sync_account SET actions_since = ?", [account.actions_since])
    _count(report, applied)
    journal.drop(db, set(journal.EPISODES) - server.actions_sent)
    rows = journal.start_batch(db, journal.EPISODES)
    for start in range(0, len(rows), ACTIONS_PER_REQUEST):
        chunk = rows[start:start + ACTIONS_PER_REQUEST]
        actions = [row.as_action(offset) for row in chunk]
        server.send_episode_actions(account.device, actions)
        settle_own_plays(db, [row.id for row in chunk])
        journal.finish(db, chunk, [action.digest for action in actions])
        report.actions_sent += len(chunk)
    journal.forget_old(db)


def unambiguous(changes: SubscriptionChanges) -> SubscriptionChanges:
    """``changes`` less the feeds it both adds and removes: a server that answers with every change in the window
    (the second looked back included) names a feed removed and added again in one second both ways, and which came
    last cannot be told; the library's own state stands until an answer says one way."""
    both = {comparable(u) for u in changes.add} & {comparable(u) for u in changes.remove}
    if not both:
        return changes
    return SubscriptionChanges([u for u in changes.add if comparable(u) not in both],
                               [u for u in changes.remove if comparable(u) not in both], changes.timestamp)


def _refetch(db: Database, feeds: list[str]) -> None:
    db.conn.executemany("INSERT OR IGNORE INTO sync_refetch (podcast) VALUES (?)", [(feed,) for feed in feeds])


def _actions_of_added(db: Database, server: SyncServer, account: SyncAccount, applied: Applied,
                      report: SyncReport, first: bool) -> None:
    """Every action the server has about podcasts subscribed to (perhaps again, after an unsubscribe): their
    episodes are new here, and the positions of earlier plays apply to them too (a first sync asked for every
    action already). One request: for one podcast, asked for by name; picked out here all the same (not every
    server can filter)."""
    feeds = [str(feed) for (feed,) in db.execute("SELECT podcast FROM sync_refetch")]
    if feeds and not first:
        wanted = {comparable(feed) for feed in feeds}
        page = server.episode_actions(0, podcast=feeds[0] if len(feeds) == 1 else None)
        actions = [action for action in page.actions if comparable(action.podcast) in wanted]
        with write_transaction(db):
            digests = apply_actions(db, actions, None, account.clock_offset, applied, again=True)
            journal.finish(db, [], digests)
        _count(report, applied)
    with write_transaction(db):
        db.conn.executemany("DELETE FROM sync_refetch WHERE podcast = ?", [(feed,) for feed in feeds])


def _count(report: SyncReport, applied: Applied) -> None:
    report.actions_received, report.positions_applied = applied.received, applied.applied
    report.earlier_applied = applied.waited
    report.items_changed |= applied.items


def _addresses(db: Database, source_ids: list[int]) -> list[str]:
    """The addresses the server knows these subscriptions by."""
    return [str(url) for (url,) in db.execute(
        f"""SELECT coalesce(k.url, s.url) FROM sources s LEFT JOIN sync_known_as k ON k.source_id = s.id
            WHERE s.id IN ({', '.join('?' * len(source_ids))})""", source_ids)] if source_ids else []


def _settle_in_flight(db: Database, server: SyncServer, account: SyncAccount) -> None:
    """Actions an earlier sync sent without hearing back (it was killed, or the answer was lost): those the
    server has are done; the others stay to be sent."""
    rows = journal.in_flight(db, journal.EPISODES)
    if not rows:
        return
    actions = [row.as_action(account.clock_offset) for row in rows]
    page = server.episode_actions(max(0, min(a.at for a in actions) - SKEW_MARGIN), device=account.device)
    there = {action.digest for action in page.actions}
    done = [(row, action.digest) for row, action in zip(rows, actions, strict=True) if action.digest in there]
    journal.finish(db, [row for row, _ in done], [digest for _, digest in done])


def _clock_offset(server: SyncServer, report: SyncReport) -> float:
    """The server's clock minus this one, when it is off by more than a minute (else 0)."""
    offset = server.clock_offset or 0.0
    if abs(offset) < CLOCK_TOLERANCE:
        return 0.0
    minutes = round(abs(offset) / 60)
    span = f"{minutes // 60} h {minutes % 60} min" if minutes >= 60 else f"{minutes} min"
    report.warnings.append(f"This computer's clock is {span} {'behind' if offset > 0 else 'ahead of'} the sync "
                           "server's; Earmark corrected the times it sends and compares by that much.")
    return offset


def refresh_sources(db: Database, source_ids: list[int]) -> list[str]:
    """Fetch the feeds the server subscribed this device to; the sentences of those that failed (they are
    recorded on the feeds and tried again at the next refresh)."""
    from earmark.core.db.sources import feed_targets
    from earmark.core.feeds.refresh import Refresher

    try:
        with Refresher() as refresher:
            outcomes = refresher.refresh(db, feed_targets(db, source_ids))
    except EarmarkError as exc:
        return [str(exc)]
    return [outcome.error for outcome in outcomes if outcome.error]
