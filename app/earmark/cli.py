"""The command line: the same core operations as the window, scriptable, with ``--json`` listings."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import sqlite_utils

from earmark import __version__
from earmark.core.db.connection import library_error, open_library
from earmark.core.db.items import get_item, list_items
from earmark.core.db.queries import ItemFilter
from earmark.core.db.sources import list_sources
from earmark.core.db.tags import tag_counts, tag_item, untag_item
from earmark.core.errors import EarmarkError
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import Item
from earmark.core.sample import load_sample
from earmark.core.settings import default_library_path
from earmark.core.timefmt import format_clock

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
    return parser


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
