"""The feed commands: subscribing, listing sources, refreshing, OPML in and out, and a feed's credentials."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from earmark.cli.backups import compact_if_due, daily_backup_for
from earmark.cli.common import add_opt_in, opt_in_if_asked, print_json, read_password, record_id
from earmark.core.db.database import Database
from earmark.core.db.sources import FeedTarget, feed_targets, get_source, list_sources, set_credentials, waiting_feeds
from earmark.core.plurals import counted

if TYPE_CHECKING:
    from earmark.core.feeds.refresh import FeedOutcome

# Subscribing, refreshing and OPML import their modules when run: the window's start-up parses argv too.


def subscribe_command(sub: argparse.ArgumentParser) -> None:
    """subscribe to a feed: its address, a podcast's web page or Apple Podcasts page, or a file"""
    sub.add_argument("source")
    sub.set_defaults(run=_subscribe)


def sources_command(sources: argparse.ArgumentParser) -> None:
    """list podcasts, feeds and sites"""
    sources.add_argument("--json", action="store_true", help="print a JSON array")
    sources.set_defaults(run=_sources)


def refresh_command(refresh: argparse.ArgumentParser) -> None:
    """check feeds for new and changed items"""
    refresh.add_argument("--source", type=record_id, metavar="ID", action="append",
                         help="only this source, checked even when it is backing off or gone (repeatable)")
    refresh.add_argument("--all", action="store_true", dest="every",
                         help="every feed now, those backing off or gone included (the window's F5)")
    _add_result_options(refresh)
    refresh.set_defaults(run=_refresh)


def import_opml_command(importing: argparse.ArgumentParser) -> None:
    """subscribe to every feed of an OPML file and fetch them"""
    importing.add_argument("file", type=Path)
    importing.add_argument("--no-refresh", action="store_true", help="only record the subscriptions")
    _add_result_options(importing)
    importing.set_defaults(run=_import_opml)


def export_opml_command(exporting: argparse.ArgumentParser) -> None:
    """write every subscription to an OPML file"""
    exporting.add_argument("file", help="the file to write, or - for standard output")
    exporting.set_defaults(run=_export_opml)


def set_credentials_command(login: argparse.ArgumentParser) -> None:
    """store the user name and password a feed needs (password read from stdin)"""
    login.add_argument("source_id", type=record_id, metavar="SOURCE_ID")
    login.add_argument("user", nargs="?", help="the user name; leave out to forget the credentials")
    add_opt_in(login)
    login.set_defaults(run=_set_credentials)


def _add_result_options(command: argparse.ArgumentParser) -> None:
    output = command.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print a JSON array, one object per feed")
    output.add_argument("--jsonl", action="store_true",
                        help="print one JSON object per line as each feed finishes, after a {\"total\": N} line")
    command.add_argument("--background", action="store_true",
                         help="run at a low CPU priority (the window's refreshes do, to keep it responsive)")


def _subscribe(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.feeds.addresses import PageFeeds, subscribe_address

    result = subscribe_address(db, args.source)
    if isinstance(result, PageFeeds):
        print(f"earmark: {result.page} names {counted(len(result.feeds), 'feed')}; subscribe to one of them:",
              file=sys.stderr)
        for choice in result.feeds:
            print(f"  {choice.url}  ({choice.title}, {choice.kind})", file=sys.stderr)
        return 1
    # a podcast subscribed to already (however found) is not added again
    print(f"{'Already subscribed' if result.already else 'Subscribed'} to {result.title} (source {result.source_id}): "
          f"{len(result.new)} new, {len(result.updated)} updated.")
    return 0


def _sources(db: Database, args: argparse.Namespace) -> int:
    sources = list_sources(db)
    if args.json:
        print_json([source.as_json() for source in sources])
        return 0
    for source in sources:
        error = f"  error: {source.last_error}" if source.last_error else ""
        items = "item " if source.item_count == 1 else "items"
        print(f"{source.id:>4}  {source.kind:<7}  {source.item_count:>5} {items}  {source.title}{error}")
    return 0


def _refresh(db: Database, args: argparse.Namespace) -> int:
    daily_backup_for(db, args)
    targets = feed_targets(db, args.source, every=args.every)
    if args.source is None and not args.every and (waiting := waiting_feeds(db)):
        print(f"earmark: {counted(waiting, 'feed')} left out: gone, or waiting after repeated failures "
              "(refresh them with --source ID).", file=sys.stderr)
    return _run_refresh(db, targets, args)


def _import_opml(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.feeds.subscriptions import import_opml, read_opml_file

    result = import_opml(db, read_opml_file(args.file))
    for sentence in result.skipped:
        print(f"earmark: {sentence}", file=sys.stderr)
    counts = {"new_subscriptions": len(result.added), "already_subscribed": len(result.existing)}
    if not (args.jsonl and not args.no_refresh):  # --jsonl gives them in its first line
        print(f"{counted(len(result.added), 'new subscription')}, {len(result.existing)} already subscribed.",
              file=sys.stderr if args.json or args.jsonl else sys.stdout)
    if args.no_refresh:
        if args.json:
            print_json([])
        return 0
    return _run_refresh(db, feed_targets(db, result.source_ids), args, counts)


def _run_refresh(db: Database, targets: list[FeedTarget], args: argparse.Namespace,
                 counts: dict[str, int] | None = None) -> int:
    """Refresh ``targets``; with --jsonl, its first line is the number of feeds plus ``counts``, each feed's
    outcome a line after it."""
    from earmark.core.feeds.refresh import Refresher

    def report(outcome: FeedOutcome) -> None:
        if args.jsonl:
            print(json.dumps(outcome.as_json(), ensure_ascii=False), flush=True)
        elif not args.json:
            print(_outcome_line(outcome), flush=True)

    if args.background and hasattr(os, "setpgid"):
        os.nice(10)  # the parsing processes started below inherit it
        os.setpgid(0, 0)  # a process group of its own, its workers included: the window can end them all at once
    if args.jsonl:
        print(json.dumps({"total": len(targets), **(counts or {})}), flush=True)
    cancel = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: cancel.set())  # finish the feeds in flight, start no more
    try:
        with Refresher() as refresher:
            outcomes = refresher.refresh(db, targets, on_outcome=report, cancel=cancel)
    finally:
        signal.signal(signal.SIGTERM, previous)
    if args.json:
        print_json([outcome.as_json() for outcome in sorted(outcomes, key=lambda o: o.source_id)])
    elif not args.jsonl:
        failed = sum(outcome.status in ("error", "gone") for outcome in outcomes)
        new = sum(len(o.new) for o in outcomes)
        print(f"Checked {counted(len(outcomes), 'feed')}: {counted(new, 'new item')}, {failed} failed.")
    if not (args.background or args.jsonl or args.read_only):  # a person at a terminal, not the window's child
        compact_if_due(db, args.library)
    return 0


def _outcome_line(outcome: FeedOutcome) -> str:
    if outcome.error:
        return f"{outcome.status:<12}  {outcome.source_id:>4}  {outcome.title}: {outcome.error}"
    changes = f"{len(outcome.new)} new, {len(outcome.updated)} updated" if outcome.status == "ok" else "unchanged"
    return f"{outcome.status:<12}  {outcome.source_id:>4}  {outcome.title}: {changes}"


def _export_opml(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.feeds.subscriptions import export_opml, save_opml

    if args.file == "-":
        sys.stdout.buffer.write(export_opml(db))
        return 0
    path = Path(args.file).expanduser()
    print(f"Wrote {counted(save_opml(db, path), 'subscription')} to {path}.")
    return 0


def _set_credentials(db: Database, args: argparse.Namespace) -> int:
    source = get_source(db, args.source_id)
    if args.user is None:
        set_credentials(db, source.id, None, None)
        print(f"Forgot the credentials of {source.title}.")
        return 0
    password = read_password()
    opt_in_if_asked(db, args)
    set_credentials(db, source.id, args.user, password)
    print(f"Stored credentials for {source.title}; refresh it with: earmark refresh --source {source.id}")
    return 0
