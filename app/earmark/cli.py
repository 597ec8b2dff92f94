"""The command line: the same core operations as the window, scriptable, with ``--json`` listings."""

from __future__ import annotations

import argparse
import getpass
import json
import logging
import os
import signal
import sqlite3
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import sqlite_utils

from earmark import __version__
from earmark.core.db.connection import library_error, open_library
from earmark.core.db.downloads import disk_usage, get_download, list_downloads
from earmark.core.db.items import get_item, items_by_ids, list_items, mark_played
from earmark.core.db.queries import ItemFilter
from earmark.core.db.queue import clear_queue, dequeue, enqueue, queue_ids
from earmark.core.db.sources import (
    FeedTarget,
    feed_targets,
    get_source,
    list_sources,
    set_credentials,
    waiting_feeds,
)
from earmark.core.db.tags import tag_counts, tag_item, untag_item
from earmark.core.errors import EarmarkError, NotFoundError
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import Item
from earmark.core.sample import load_sample
from earmark.core.settings import default_library_path, downloads_folder, get_setting
from earmark.core.timefmt import format_clock

if TYPE_CHECKING:
    from earmark.core.feeds.refresh import FeedOutcome

# Commands that refresh or read OPML import their modules when run: the window's start-up does not need them.

Command = Callable[[sqlite_utils.Database, argparse.Namespace], int]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="earmark", description="A library for podcasts and articles.")
    parser.add_argument("--version", action="version", version=f"earmark {__version__}")
    parser.add_argument("--library", type=Path, metavar="PATH",
                        help="library file to use (default: $EARMARK_LIBRARY or the user data folder)")
    parser.add_argument("--smoke-test", action="store_true",
                        help="open the window, play a sample episode for a second, check the saved position")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    sub = commands.add_parser("subscribe", help="subscribe to a feed (http(s) URL or local file)")
    sub.add_argument("source")
    sub.set_defaults(run=_subscribe)

    sample = commands.add_parser("load-sample", help="add the sample library (PyTorch Developer Podcast)")
    sample.set_defaults(run=_load_sample)

    listing = commands.add_parser("list", help="list episodes and articles, newest first")
    listing.add_argument("--kind", choices=("episode", "article"))
    listing.add_argument("--source", type=_record_id, metavar="ID", help="only items of this source")
    listing.add_argument("--tag", help="only items with this tag")
    listing.add_argument("--unplayed", action="store_true", help="only unplayed (unread) items")
    listing.add_argument("--json", action="store_true", help="print a JSON array")
    listing.set_defaults(run=_list)

    search = commands.add_parser("search", help="full-text search, best match first")
    search.add_argument("query")
    search.add_argument("--kind", choices=("episode", "article"))
    search.add_argument("--tag")
    search.add_argument("--json", action="store_true", help="print a JSON array")
    search.set_defaults(run=_search)

    for name, verb, run in (("tag", "add tags to", _tag), ("untag", "remove tags from", _untag)):
        tagging = commands.add_parser(name, help=f"{verb} an item")
        tagging.add_argument("item_id", type=_record_id, metavar="ITEM_ID")
        tagging.add_argument("tags", nargs="+", metavar="TAG")
        tagging.set_defaults(run=run)

    tags = commands.add_parser("tags", help="list tags with the number of items carrying each")
    tags.add_argument("--json", action="store_true", help="print a JSON array of {name, count}")
    tags.set_defaults(run=_tags)

    sources = commands.add_parser("sources", help="list podcasts, feeds and sites")
    sources.add_argument("--json", action="store_true", help="print a JSON array")
    sources.set_defaults(run=_sources)

    refresh = commands.add_parser("refresh", help="check feeds for new and changed items")
    refresh.add_argument("--source", type=_record_id, metavar="ID", action="append",
                         help="only this source, checked even when it is backing off or gone (repeatable)")
    _add_result_options(refresh)
    refresh.set_defaults(run=_refresh)

    importing = commands.add_parser("import-opml", help="subscribe to every feed of an OPML file and fetch them")
    importing.add_argument("file", type=Path)
    importing.add_argument("--no-refresh", action="store_true", help="only record the subscriptions")
    _add_result_options(importing)
    importing.set_defaults(run=_import_opml)

    exporting = commands.add_parser("export-opml", help="write every subscription to an OPML file")
    exporting.add_argument("file", help="the file to write, or - for standard output")
    exporting.set_defaults(run=_export_opml)

    for name, verb, run in (("mark-played", "played", _mark_played), ("mark-unplayed", "unplayed", _mark_unplayed)):
        marking = commands.add_parser(name, help=f"mark items {verb}")
        marking.add_argument("item_ids", type=_record_id, nargs="+", metavar="ITEM_ID")
        marking.set_defaults(run=run)

    queue = commands.add_parser("queue", help="show or change Up Next, the queue of episodes to play")
    queue.add_argument("--add", type=_record_id, action="append", default=[], metavar="ID",
                       help="add an episode at the end (repeatable)")
    queue.add_argument("--next", type=_record_id, action="append", default=[], metavar="ID",
                       help="add an episode at the start (repeatable)")
    queue.add_argument("--remove", type=_record_id, action="append", default=[], metavar="ID",
                       help="take an episode off the queue (repeatable)")
    queue.add_argument("--clear", action="store_true", help="empty the queue first")
    queue.add_argument("--json", action="store_true", help="print the queue as a JSON array of items")
    queue.set_defaults(run=_queue)

    fetching = commands.add_parser("download", help="download episodes into the downloads folder (resumes)")
    fetching.add_argument("item_ids", type=_record_id, nargs="+", metavar="ITEM_ID")
    fetching.add_argument("--json", action="store_true", help="print the download records as a JSON array")
    fetching.set_defaults(run=_download)

    downloads = commands.add_parser("downloads", help="list downloads with their state and the disk they use")
    downloads.add_argument("--json", action="store_true", help="print a JSON array")
    downloads.set_defaults(run=_downloads)

    login = commands.add_parser("set-credentials",
                                help="store the user name and password a feed needs (password read from stdin)")
    login.add_argument("source_id", type=_record_id, metavar="SOURCE_ID")
    login.add_argument("user", nargs="?", help="the user name; leave out to forget the credentials")
    login.set_defaults(run=_set_credentials)
    return parser


def _add_result_options(command: argparse.ArgumentParser) -> None:
    output = command.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print a JSON array, one object per feed")
    output.add_argument("--jsonl", action="store_true",
                        help="print one JSON object per line as each feed finishes, after a {\"total\": N} line")


def main(argv: Sequence[str]) -> int:
    """Run one command (or the GUI when none is given); returns the exit code."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    args = _parser().parse_args(argv)
    library = args.library.expanduser() if args.library else default_library_path()
    if args.smoke_test:
        from earmark.gui.smoke import run_smoke_test

        return run_smoke_test(library)
    if args.command is None:
        from earmark.gui.application import run

        return run(library)
    try:
        db = open_library(library)
        try:
            return int(args.run(db, args))
        finally:
            db.close()
    except EarmarkError as exc:
        print(f"earmark: {exc}", file=sys.stderr)
        return 1
    except sqlite3.Error as exc:
        print(f"earmark: {library_error(exc)}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader went away (``earmark list | head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _record_id(text: str) -> int:
    """An id as SQLite stores it (a positive 64-bit integer)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < 2**63:
        raise argparse.ArgumentTypeError(f"{text} is not a valid id")
    return value


def _subscribe(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    result = subscribe(db, args.source)
    print(f"Subscribed to {result.title} (source {result.source_id}): {len(result.new)} new, "
          f"{len(result.updated)} updated.")
    return 0


def _load_sample(db: sqlite_utils.Database, _args: argparse.Namespace) -> int:
    result = load_sample(db)
    print(f"Sample library loaded: {result.episodes} episodes, {result.articles} articles.")
    return 0


def _list(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    flt = ItemFilter(kind=args.kind, source_id=args.source, tag=args.tag, unplayed=args.unplayed)
    _print_items(list_items(db, flt), args.json)
    return 0


def _search(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    _print_items(list_items(db, ItemFilter(kind=args.kind, tag=args.tag, text=args.query)), args.json)
    return 0


def _tag(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    item = get_item(db, args.item_id)
    tag_item(db, item.id, args.tags)
    print(f"Tagged “{item.title}”: {', '.join(get_item(db, item.id).tags)}")
    return 0


def _untag(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    item = get_item(db, args.item_id)
    untag_item(db, item.id, args.tags)
    print(f"Tags of “{item.title}”: {', '.join(get_item(db, item.id).tags) or 'none'}")
    return 0


def _tags(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    counts = tag_counts(db)
    if args.json:
        _print_json([{"name": name, "count": count} for name, count in counts])
        return 0
    for name, count in counts:
        print(f"{count:>6}  {name}")
    return 0


def _sources(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    sources = list_sources(db)
    if args.json:
        _print_json([source.as_json() for source in sources])
        return 0
    for source in sources:
        error = f"  error: {source.last_error}" if source.last_error else ""
        print(f"{source.id:>4}  {source.kind:<7}  {source.item_count:>5} items  {source.title}{error}")
    return 0


def _refresh(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    targets = feed_targets(db, args.source)
    if args.source is None and (waiting := waiting_feeds(db)):
        print(f"earmark: {waiting} feed(s) left out: gone, or waiting after repeated failures "
              "(refresh them with --source ID).", file=sys.stderr)
    return _run_refresh(db, targets, args)


def _import_opml(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    from earmark.core.feeds.subscriptions import import_opml, read_opml_file

    result = import_opml(db, read_opml_file(args.file))
    for sentence in result.skipped:
        print(f"earmark: {sentence}", file=sys.stderr)
    print(f"{len(result.added)} new subscription(s), {len(result.existing)} already subscribed.",
          file=sys.stderr if args.json or args.jsonl else sys.stdout)
    if args.no_refresh:
        if args.json:
            _print_json([])
        return 0
    return _run_refresh(db, feed_targets(db, result.source_ids), args)


def _run_refresh(db: sqlite_utils.Database, targets: list[FeedTarget], args: argparse.Namespace) -> int:
    from earmark.core.feeds.refresh import Refresher

    def report(outcome: FeedOutcome) -> None:
        if args.jsonl:
            print(json.dumps(outcome.as_json(), ensure_ascii=False), flush=True)
        elif not args.json:
            print(_outcome_line(outcome), flush=True)

    if args.jsonl:
        print(json.dumps({"total": len(targets)}), flush=True)
    cancel = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: cancel.set())  # finish the feeds in flight, start no more
    try:
        with Refresher() as refresher:
            outcomes = refresher.refresh(db, targets, on_outcome=report, cancel=cancel)
    finally:
        signal.signal(signal.SIGTERM, previous)
    if args.json:
        _print_json([outcome.as_json() for outcome in sorted(outcomes, key=lambda o: o.source_id)])
    elif not args.jsonl:
        failed = sum(outcome.status in ("error", "gone") for outcome in outcomes)
        print(f"Checked {len(outcomes)} feed(s): {sum(len(o.new) for o in outcomes)} new item(s), {failed} failed.")
    return 0


def _outcome_line(outcome: FeedOutcome) -> str:
    if outcome.error:
        return f"{outcome.status:<12}  {outcome.source_id:>4}  {outcome.title}: {outcome.error}"
    changes = f"{len(outcome.new)} new, {len(outcome.updated)} updated" if outcome.status == "ok" else "unchanged"
    return f"{outcome.status:<12}  {outcome.source_id:>4}  {outcome.title}: {changes}"


def _export_opml(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    from earmark.core.feeds.subscriptions import export_opml, save_opml

    if args.file == "-":
        sys.stdout.buffer.write(export_opml(db))
        return 0
    path = Path(args.file).expanduser()
    print(f"Wrote {save_opml(db, path)} subscription(s) to {path}.")
    return 0


def _set_credentials(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    source = get_source(db, args.source_id)
    if args.user is None:
        set_credentials(db, source.id, None, None)
        print(f"Forgot the credentials of {source.title}.")
        return 0
    password = getpass.getpass() if sys.stdin.isatty() else sys.stdin.readline().rstrip("\n")
    set_credentials(db, source.id, args.user, password)
    print(f"Stored credentials for {source.title}; refresh it with: earmark refresh --source {source.id}")
    return 0


def _mark_played(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    return _mark(db, args.item_ids, True)


def _mark_unplayed(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    return _mark(db, args.item_ids, False)


def _mark(db: sqlite_utils.Database, item_ids: list[int], played: bool) -> int:
    items = [get_item(db, item_id) for item_id in item_ids]  # NotFoundError before anything changes
    mark_played(db, item_ids, played)
    for item in items:
        print(f"Marked “{item.title}” {'played' if played else 'unplayed'}.")
    return 0


def _queue(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    for item_id in [*args.add, *args.next]:
        if get_item(db, item_id).kind != "episode":
            raise NotFoundError(f"Item {item_id} is an article: only episodes can be queued.")
    if args.clear:
        clear_queue(db)
    dequeue(db, args.remove)
    enqueue(db, args.add)
    enqueue(db, args.next, first=True)
    found = items_by_ids(db, queue_ids(db), full=False)
    _print_items([found[i] for i in queue_ids(db) if i in found], args.json)
    return 0


def _download(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    from earmark.core.db.downloads import add_download, update_download
    from earmark.core.downloads.transfer import download

    folder = downloads_folder(db)
    retries = int(get_setting(db, "downloads.retries"))  # type: ignore[call-overload]
    records = [add_download(db, item_id, folder) for item_id in args.item_ids]
    failed = 0
    for record in records:
        if record.status != "done":
            try:
                result = download(record.url, Path(record.path), retries=retries)
            except EarmarkError as exc:
                update_download(db, record.item_id, "failed", error=str(exc))
                print(f"earmark: {exc}", file=sys.stderr)
                failed += 1
                continue
            update_download(db, record.item_id, "done", received=result.size, size=result.size)
        if not args.json:
            print(record.path)
    if args.json:
        _print_json([d.as_json() for d in (get_download(db, r.item_id) for r in records) if d is not None])
    return 1 if failed else 0


def _downloads(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    records = list_downloads(db)
    if args.json:
        _print_json([record.as_json() for record in records])
        return 0
    for record in records:
        share = f"{record.received * 100 // record.size}%" if record.size else ""
        print(f"{record.item_id:>6}  {record.status:<11}  {share:>4}  {record.path}")
    print(f"{disk_usage(db) / 2**20:.1f} MiB on disk in {downloads_folder(db)}")
    return 0


def _print_json(value: object) -> None:
    json.dump(value, sys.stdout, ensure_ascii=False, indent=1)
    print()


def _print_items(items: list[Item], as_json: bool) -> None:
    if as_json:
        _print_json([item.as_json() for item in items])
        return
    for item in items:
        state = "played" if item.played else (f"at {format_clock(item.position)}" if item.position else "")
        print(f"{item.id:>6}  {item.kind:<7}  {(item.published or '')[:10]:<10}  {item.title}"
              f"  [{item.source or ''}]{'  ' + state if state else ''}")
