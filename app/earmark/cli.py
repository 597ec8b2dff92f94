"""The command line: the same core operations as the window, scriptable, with ``--json`` listings."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import sqlite_utils

from earmark import __version__
from earmark.core.db.connection import open_library
from earmark.core.db.items import list_items
from earmark.core.db.queries import ItemFilter
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
    listing.add_argument("--source", type=int, metavar="ID", help="only items of this source")
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
        return int(args.run(db, args))
    except EarmarkError as exc:
        print(f"earmark: {exc}", file=sys.stderr)
        return 1


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


def _print_items(items: list[Item], as_json: bool) -> None:
    if as_json:
        json.dump([item.as_json() for item in items], sys.stdout, ensure_ascii=False, indent=1)
        print()
        return
    for item in items:
        state = "played" if item.played else (f"at {format_clock(item.position)}" if item.position else "")
        print(f"{item.id:>6}  {item.kind:<7}  {(item.published or '')[:10]:<10}  {item.title}"
              f"  [{item.source or ''}]{'  ' + state if state else ''}")
