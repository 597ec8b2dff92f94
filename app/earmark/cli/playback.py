"""The playback commands: the Up next queue and downloads."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from earmark.cli.common import print_items, print_json, record_id
from earmark.core.db.database import Database
from earmark.core.db.downloads import disk_usage, get_download, list_downloads
from earmark.core.db.items import get_item, items_by_ids
from earmark.core.db.queue import clear_queue, dequeue, enqueue, queue_ids
from earmark.core.errors import EarmarkError, NotFoundError
from earmark.core.settings import downloads_folder, get_setting


def queue_command(queue: argparse.ArgumentParser) -> None:
    """show or change Up Next, the queue of episodes to play"""
    queue.add_argument("--add", type=record_id, action="append", default=[], metavar="ID",
                       help="add an episode at the end (repeatable)")
    queue.add_argument("--next", type=record_id, action="append", default=[], metavar="ID",
                       help="add an episode at the start (repeatable)")
    queue.add_argument("--remove", type=record_id, action="append", default=[], metavar="ID",
                       help="take an episode off the queue (repeatable)")
    queue.add_argument("--clear", action="store_true", help="empty the queue first")
    queue.add_argument("--json", action="store_true", help="print the queue as a JSON array of items")
    queue.set_defaults(run=_queue)


def download_command(fetching: argparse.ArgumentParser) -> None:
    """download episodes into the downloads folder (resumes)"""
    fetching.add_argument("item_ids", type=record_id, nargs="+", metavar="ITEM_ID")
    fetching.add_argument("--json", action="store_true", help="print the download records as a JSON array")
    fetching.set_defaults(run=_download)


def downloads_command(downloads: argparse.ArgumentParser) -> None:
    """list downloads with their state and the disk they use"""
    downloads.add_argument("--json", action="store_true", help="print a JSON array")
    downloads.set_defaults(run=_downloads)


def _queue(db: Database, args: argparse.Namespace) -> int:
    for item_id in [*args.add, *args.next]:
        if get_item(db, item_id).kind != "episode":
            raise NotFoundError(f"Item {item_id} is an article: only episodes can be queued.")
    if args.clear:
        clear_queue(db)
    dequeue(db, args.remove)
    enqueue(db, args.add)
    enqueue(db, args.next, first=True)
    found = items_by_ids(db, queue_ids(db), full=False)
    print_items([found[i] for i in queue_ids(db) if i in found], args.json)
    return 0


def _download(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.db.downloads import add_download, update_download
    from earmark.core.downloads.transfer import Expected, download

    folder = downloads_folder(db)
    retries = int(get_setting(db, "downloads.retries"))  # type: ignore[call-overload]
    records = [add_download(db, item_id, folder) for item_id in args.item_ids]
    failed = 0
    for record in records:
        if record.status != "done":
            try:
                result = download(record.url, Path(record.path), retries=retries, name=record.title,
                                  expected=Expected(record.content_type, record.enclosure_length))
            except EarmarkError as exc:
                update_download(db, record.item_id, "failed", error=str(exc))
                print(f"earmark: {exc}", file=sys.stderr)
                failed += 1
                continue
            update_download(db, record.item_id, "done", received=result.size, size=result.size)
        if not args.json:
            print(record.path)
    if args.json:
        print_json([d.as_json() for d in (get_download(db, r.item_id) for r in records) if d is not None])
    return 1 if failed else 0


def _downloads(db: Database, args: argparse.Namespace) -> int:
    records = list_downloads(db)
    if args.json:
        print_json([record.as_json() for record in records])
        return 0
    for record in records:
        share = f"{record.received * 100 // record.size}%" if record.size else ""
        print(f"{record.item_id:>6}  {record.status:<11}  {share:>4}  {record.path}")
    print(f"{disk_usage(db) / 2**20:.1f} MiB on disk in {downloads_folder(db)}")
    return 0
