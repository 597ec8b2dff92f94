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
from earmark.cli_backups import add_backup_commands, daily_backup_for
from earmark.cli_io import print_items as _print_items
from earmark.cli_io import print_json as _print_json
from earmark.cli_io import record_id as _record_id
from earmark.cli_reading import add_reading_commands
from earmark.core.db.connection import library_error, open_library_or_read_only
from earmark.core.db.downloads import disk_usage, get_download, list_downloads
from earmark.core.db.items import count_items, get_item, items_by_ids, list_items, mark_played, set_favourite
from earmark.core.db.notes import NoteFilter, list_notes
from earmark.core.db.queries import SORT_KEYS, STATES, ItemFilter
from earmark.core.db.queue import clear_queue, dequeue, enqueue, queue_ids
from earmark.core.db.search import snippets
from earmark.core.db.smart_lists import delete_smart_list, list_smart_lists, save_smart_list
from earmark.core.db.sources import (
    FeedTarget,
    feed_targets,
    get_source,
    list_sources,
    set_credentials,
    waiting_feeds,
)
from earmark.core.db.tags import (
    delete_tag,
    rename_tag,
    set_tag_colour,
    tag_colours,
    tag_counts,
    tag_item,
    tag_source,
    tags_for_sources,
    untag_item,
    untag_source,
)
from earmark.core.errors import EarmarkError, LibraryReadOnlyError, NotFoundError
from earmark.core.settings import LIBRARY_ENV, default_library_path, downloads_folder, get_setting
from earmark.core.timefmt import format_clock, now_iso, parse_duration

if TYPE_CHECKING:
    from earmark.core.feeds.refresh import FeedOutcome

# Commands that subscribe, load the sample, refresh or read OPML import their modules when run: a refresh that finds
# nothing changed needs no parser, and the window's start-up none of them.

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
    listing.add_argument("--smart", type=_record_id, metavar="ID", help="the items of this smart list")
    _add_filter_options(listing)
    listing.add_argument("--json", action="store_true", help="print a JSON array")
    listing.set_defaults(run=_list)

    search = commands.add_parser("search", help="full-text search, best match first")
    search.add_argument("query")
    search.add_argument("--kind", choices=("episode", "article"))
    search.add_argument("--source", type=_record_id, metavar="ID", help="only items of this source")
    search.add_argument("--tag")
    _add_filter_options(search)
    search.add_argument("--json", action="store_true", help="print a JSON array (with a snippet of each match)")
    search.set_defaults(run=_search)

    for name, verb, run in (("tag", "add tags to", _tag), ("untag", "remove tags from", _untag)):
        tagging = commands.add_parser(name, help=f"{verb} an item")
        tagging.add_argument("item_id", type=_record_id, metavar="ITEM_ID")
        tagging.add_argument("tags", nargs="+", metavar="TAG")
        tagging.set_defaults(run=run)

    tags = commands.add_parser("tags", help="list tags with the number of items carrying each")
    tags.add_argument("--json", action="store_true", help="print a JSON array of {name, count, colour}")
    tags.set_defaults(run=_tags)

    for name, verb, run in (("tag-source", "add tags to", _tag_source), ("untag-source", "remove tags from",
                                                                           _untag_source)):
        tagging = commands.add_parser(name, help=f"{verb} a source (its items carry them in filters)")
        tagging.add_argument("source_id", type=_record_id, metavar="SOURCE_ID")
        tagging.add_argument("tags", nargs="+", metavar="TAG")
        tagging.set_defaults(run=run)

    rename = commands.add_parser("rename-tag", help="rename a tag everywhere (onto an existing tag: merge them)")
    rename.add_argument("old")
    rename.add_argument("new")
    rename.set_defaults(run=_rename_tag)

    delete = commands.add_parser("delete-tag", help="remove a tag from every item and source")
    delete.add_argument("name")
    delete.set_defaults(run=_delete_tag)

    colour = commands.add_parser("tag-colour", help="give a tag a colour (#rrggbb, or none)")
    colour.add_argument("name")
    colour.add_argument("colour", metavar="COLOUR")
    colour.set_defaults(run=_tag_colour)

    for name, value in (("favourite", True), ("unfavourite", False)):
        marking = commands.add_parser(name, help=f"{'mark' if value else 'unmark'} items as favourites")
        marking.add_argument("item_ids", type=_record_id, nargs="+", metavar="ITEM_ID")
        marking.set_defaults(run=_favourite, value=value)

    save = commands.add_parser("save-search", help="save a search and filters as a smart list")
    save.add_argument("name")
    save.add_argument("query", nargs="?", default="", help="search text (optional)")
    save.add_argument("--kind", choices=("episode", "article"))
    save.add_argument("--source", type=_record_id, metavar="ID")
    save.add_argument("--tag")
    _add_filter_options(save)
    save.set_defaults(run=_save_search)

    smart = commands.add_parser("smart-lists", help="list saved searches with their item counts")
    smart.add_argument("--json", action="store_true", help="print a JSON array of {id, name, count, filter}")
    smart.set_defaults(run=_smart_lists)

    forget = commands.add_parser("delete-smart-list", help="delete a saved search (its items stay)")
    forget.add_argument("list_id", type=_record_id, metavar="ID")
    forget.set_defaults(run=_delete_smart_list)

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
    _add_note_commands(commands)
    _add_graph_commands(commands)
    add_reading_commands(commands)
    add_backup_commands(commands)
    return parser


def _add_graph_commands(commands: argparse._SubParsersAction) -> None:
    related = commands.add_parser("related", help="the items most related to an item, with the reasons")
    related.add_argument("item_id", type=_record_id, metavar="ITEM_ID")
    related.add_argument("--limit", type=_count, default=10, metavar="N", help="how many (default 10)")
    related.add_argument("--json", action="store_true", help="print a JSON array of {id, title, kind, score, reasons}")
    related.set_defaults(run=_related)

    topics = commands.add_parser("topics", help="the topics items share, with how many items each")
    topics.add_argument("--json", action="store_true", help="print a JSON array of {topic, count}")
    topics.set_defaults(run=_topics)

    path = commands.add_parser("path", help="an item's prerequisites, in the order to take them")
    path.add_argument("item_id", type=_record_id, metavar="ITEM_ID")
    path.add_argument("--json", action="store_true", help="print a JSON array, one object per step")
    path.set_defaults(run=_path)

    graph = commands.add_parser("export-graph", help="write the topic graph as GraphML")
    graph.add_argument("file", help="the file to write, or - for standard output")
    graph.add_argument("--min-weight", type=float, default=0.0, metavar="W", help="leave out weaker edges")
    graph.add_argument("--topics", action="store_true", help="add topic nodes")
    graph.set_defaults(run=_export_graph)


def _add_filter_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--unplayed", action="store_true", help="only unplayed (unread) items")
    command.add_argument("--state", choices=STATES, help="only unplayed, in-progress or played items")
    command.add_argument("--favourite", action="store_true", help="only favourites")
    archive = command.add_mutually_exclusive_group()
    archive.add_argument("--archived", action="store_const", const=True, help="only archived articles")
    archive.add_argument("--unarchived", dest="archived", action="store_const", const=False,
                         help="only what is not archived")
    command.add_argument("--from", dest="published_from", metavar="YYYY-MM-DD", help="published on or after")
    command.add_argument("--to", dest="published_to", metavar="YYYY-MM-DD", help="published on or before")
    command.add_argument("--min-duration", type=_minutes, metavar="MINUTES", help="at least this long")
    command.add_argument("--max-duration", type=_minutes, metavar="MINUTES", help="at most this long")
    command.add_argument("--sort", choices=SORT_KEYS, default="default",
                         help="order (default: newest first, or best match first for a search)")
    command.add_argument("--reverse", action="store_true", help="reverse the order")


def _item_filter(args: argparse.Namespace, **extra: object) -> ItemFilter:
    return ItemFilter(
        kind=args.kind, source_id=args.source, tag=args.tag, state="unplayed" if args.unplayed else args.state,
        favourite=args.favourite, archived=args.archived, published_from=args.published_from,
        published_to=args.published_to, duration_min=args.min_duration, duration_max=args.max_duration,
        sort=args.sort, reverse=args.reverse,
        **extra,  # type: ignore[arg-type]  # only ``text``
    )


def _minutes(text: str) -> float:
    try:
        minutes = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of minutes") from None
    if not 0 <= minutes < 10**6:
        raise argparse.ArgumentTypeError(f"{text} is not a sensible number of minutes")
    return minutes * 60


def _add_note_commands(commands: argparse._SubParsersAction) -> None:
    note = commands.add_parser("note", help="keep a note on an item (at a time in an episode with --at)")
    note.add_argument("item_id", type=_record_id, metavar="ITEM_ID")
    note.add_argument("text", metavar="TEXT")
    note.add_argument("--at", type=_seconds, metavar="SECONDS", help="seconds from the start (or h:mm:ss)")
    note.set_defaults(run=_note)

    notes = commands.add_parser("notes", help="list notes, newest first")
    _add_scope_options(notes)
    notes.add_argument("--json", action="store_true", help="print a JSON array")
    notes.set_defaults(run=_notes)

    export = commands.add_parser("export-notes", help="write notes as Markdown (a folder), JSON or Readwise CSV")
    export.add_argument("--format", choices=("markdown", "json", "csv"), required=True)
    _add_scope_options(export)
    export.add_argument("--out", required=True, metavar="PATH",
                        help="folder for Markdown; file (or - for standard output) for JSON and CSV")
    export.set_defaults(run=_export_notes)

    history = commands.add_parser("export-history", help="write the listening history as CSV or JSON")
    history.add_argument("--format", choices=("csv", "json"), required=True)
    _add_scope_options(history)
    history.add_argument("--out", required=True, metavar="PATH", help="the file to write, or - for standard output")
    history.set_defaults(run=_export_history)

    backup = commands.add_parser("backup", help="write the whole library to a JSON file (and its feeds as OPML)")
    backup.add_argument("path", type=Path, metavar="PATH")
    backup.set_defaults(run=_backup)

    restore = commands.add_parser("restore", help="fill an empty library from a backup file")
    restore.add_argument("path", type=Path, metavar="PATH")
    restore.set_defaults(run=_restore)


def _add_scope_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--item", type=_record_id, metavar="ID", action="append",
                         help="only notes on this item (repeatable)")
    command.add_argument("--tag", help="only items with this tag")
    command.add_argument("--source", type=_record_id, metavar="ID", help="only items of this source")
    command.add_argument("--search", default="", metavar="TEXT",
                         help="only notes whose text, quote or item title has every word")


def _add_result_options(command: argparse.ArgumentParser) -> None:
    output = command.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print a JSON array, one object per feed")
    output.add_argument("--jsonl", action="store_true",
                        help="print one JSON object per line as each feed finishes, after a {\"total\": N} line")
    command.add_argument("--background", action="store_true",
                         help="run at a low CPU priority (the window's refreshes do, to keep it responsive)")


def main(argv: Sequence[str]) -> int:
    """Run one command (or the GUI when none is given); returns the exit code."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    parser = _parser()
    argv, targets = split_targets(argv, _command_names(parser))
    args = parser.parse_args(argv)
    if targets and (args.command is not None or args.smoke_test):
        parser.error("feed URLs and .opml files are opened by the window, not with a command")
    library = args.library.expanduser() if args.library else _chosen_library()
    if args.smoke_test:
        from earmark.gui.smoke import run_smoke_test

        return run_smoke_test(library)
    if args.command is None:
        from earmark.gui.application import run

        return run(library, targets)
    read_only_reason = None
    try:
        if hasattr(args, "run_on_path"):  # backups: they must work when the library cannot be opened
            return int(args.run_on_path(library, args))
        db, read_only_reason = open_library_or_read_only(library)
        args.library = library
        args.read_only = read_only_reason is not None
        try:
            return int(args.run(db, args))
        finally:
            db.close()
    except LibraryReadOnlyError as exc:
        # Opened read-only, a write fails as read-only: say why it is (a full disk, a read-only folder).
        print(f"earmark: {read_only_reason or exc}", file=sys.stderr)
        return 1
    except EarmarkError as exc:
        print(f"earmark: {exc}", file=sys.stderr)
        return 1
    except sqlite3.Error as exc:
        print(f"earmark: {library_error(exc, library)}", file=sys.stderr)
        return 1
    except UnicodeEncodeError as exc:
        if "surrogates" not in exc.reason:
            raise
        # Found by fuzzing: bytes of an argument that are not UTF-8 arrive as lone surrogates (Python's
        # surrogateescape), which SQLite cannot take: `earmark search x --tag $'\xff'` ended in a traceback.
        print("earmark: an argument holds bytes that are not UTF-8 text, which Earmark cannot store or search for.",
              file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader went away (``earmark list | head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


TARGET_SCHEMES = ("http", "https", "feed", "itpc", "pcast", "podcast", "file")
VALUE_OPTIONS = ("--library",)  # global options that take a value


def _command_names(parser: argparse.ArgumentParser) -> set[str]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices)


def is_target(text: str) -> bool:
    """Whether ``text`` is something the window opens: a feed URL, or an existing file (feed or .opml)."""
    scheme, colon, _rest = text.partition(":")
    if colon and scheme.lower() in TARGET_SCHEMES:
        return True
    return Path(text).expanduser().is_file()


def split_targets(argv: Sequence[str], commands: set[str]) -> tuple[list[str], list[str]]:
    """Take the feed URLs and files given in place of a command (``earmark URL``, ``earmark FILE.opml``, as
    a desktop launcher passes them) out of ``argv``: (the rest, the targets as absolute paths or URLs).
    A first word that is a command, or that is neither a URL nor a file, leaves ``argv`` to the parser."""
    rest: list[str] = []
    targets: list[str] = []
    words = list(argv)
    index = 0
    while index < len(words):
        word = words[index]
        if word == "--":
            candidates = words[index + 1:]
            if candidates and all(is_target(c) for c in candidates):
                return rest, targets + [_absolute(c) for c in candidates]
            return list(argv), []
        if word in VALUE_OPTIONS:
            rest += words[index:index + 2]
            index += 2
            continue
        if word.startswith("-"):
            rest.append(word)
            index += 1
            continue
        if word in commands or not is_target(word):
            return list(argv), []
        targets.append(_absolute(word))
        index += 1
    return rest, targets


def _absolute(target: str) -> str:
    scheme, colon, _rest = target.partition(":")
    if colon and scheme.lower() in TARGET_SCHEMES:
        return target
    return str(Path(target).expanduser().resolve())


def _chosen_library() -> Path:
    """$EARMARK_LIBRARY, else the library chosen in the settings dialog, else the default."""
    if os.environ.get(LIBRARY_ENV):
        return default_library_path()
    from earmark.gui.preferences import chosen_library_path  # QtCore's QSettings: only when needed

    return chosen_library_path()


def _count(text: str) -> int:
    """A number of results (1 or more)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not 1 or more")
    return value


def _seconds(text: str) -> float:
    """Seconds as a number (``65``, ``65.5``) or a clock (``1:05``, ``1:02:03``)."""
    try:
        return float(text)
    except ValueError:
        seconds = parse_duration(text)
        if seconds is None:
            raise argparse.ArgumentTypeError(f"{text!r} is not a time: give seconds or h:mm:ss") from None
        return seconds


def _subscribe(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    from earmark.core.feeds.subscribe import subscribe

    result = subscribe(db, args.source)
    print(f"Subscribed to {result.title} (source {result.source_id}): {len(result.new)} new, "
          f"{len(result.updated)} updated.")
    return 0


def _load_sample(db: sqlite_utils.Database, _args: argparse.Namespace) -> int:
    from earmark.core.sample import load_sample

    result = load_sample(db)
    print(f"Sample library loaded: {result.episodes} episodes, {result.articles} articles.")
    return 0


def _list(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    flt = _item_filter(args)
    if args.smart is not None:
        lists = {smart.id: smart for smart in list_smart_lists(db)}
        if args.smart not in lists:
            raise NotFoundError(f"There is no smart list with id {args.smart}.")
        flt = lists[args.smart].filter
    _print_items(list_items(db, flt), args.json)
    return 0


def _search(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    flt = _item_filter(args, text=args.query)
    items = list_items(db, flt)
    if not args.json:
        _print_items(items, as_json=False)
        return 0
    found = snippets(db, args.query, [item.id for item in items])
    objects = []
    for item in items:
        snippet = found.get(item.id)
        objects.append({**item.as_json(), "snippet": snippet.marked() if snippet else None,
                        "matched": snippet.field if snippet else None})
    _print_json(objects)
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
    counts, colours = tag_counts(db), tag_colours(db)
    if args.json:
        _print_json([{"name": name, "count": count, "colour": colours.get(name)} for name, count in counts])
        return 0
    for name, count in counts:
        print(f"{count:>6}  {name}{'  ' + colours[name] if name in colours else ''}")
    return 0


def _tag_source(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    source = get_source(db, args.source_id)
    tag_source(db, source.id, args.tags)
    print(f"Tagged {source.title}: {', '.join(tags_for_sources(db).get(source.id, []))}")
    return 0


def _untag_source(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    source = get_source(db, args.source_id)
    untag_source(db, source.id, args.tags)
    print(f"Tags of {source.title}: {', '.join(tags_for_sources(db).get(source.id, [])) or 'none'}")
    return 0


def _save_search(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    list_id = save_smart_list(db, args.name, _item_filter(args, text=args.query))
    print(f"Saved smart list {list_id}: {args.name}")
    return 0


def _smart_lists(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    rows = [(smart, count_items(db, smart.filter)) for smart in list_smart_lists(db)]
    if args.json:
        _print_json([{"id": smart.id, "name": smart.name, "count": count, "filter": json.loads(smart.filter.to_json())}
                     for smart, count in rows])
        return 0
    for smart, count in rows:
        print(f"{smart.id:>4}  {count:>6}  {smart.name}")
    return 0


def _rename_tag(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    rename_tag(db, args.old, args.new)
    print(f"Renamed “{args.old}” to “{args.new}”.")
    return 0


def _delete_tag(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    delete_tag(db, args.name)
    print(f"Deleted the tag “{args.name}”.")
    return 0


def _tag_colour(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    set_tag_colour(db, args.name, None if args.colour.lower() == "none" else args.colour)
    print(f"Tag “{args.name}”: colour {args.colour}.")
    return 0


def _favourite(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    set_favourite(db, args.item_ids, args.value)
    print(f"{len(args.item_ids)} item(s) {'marked' if args.value else 'no longer'} favourite.")
    return 0


def _delete_smart_list(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    delete_smart_list(db, args.list_id)
    print(f"Deleted smart list {args.list_id}.")
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
    daily_backup_for(db, args)
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

    if args.background and hasattr(os, "nice"):
        os.nice(10)  # the parsing processes started below inherit it
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


def _scope(args: argparse.Namespace) -> NoteFilter:
    return NoteFilter(item_ids=tuple(args.item) if args.item else None, tag=args.tag, source_id=args.source,
                      text=args.search)


def _note(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    from earmark.core.notes.transcripts import take_note

    note = take_note(db, args.item_id, args.text, args.at)
    where = f" at {format_clock(note.at)}" if note.at is not None else ""
    quote = " (with the transcript's words there)" if note.quote else ""
    print(f"Noted on “{note.item_title}”{where}{quote}: note {note.id}.")
    return 0


def _notes(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    notes = list_notes(db, _scope(args))
    if args.json:
        _print_json([note.as_json() for note in notes])
        return 0
    for note in notes:
        at = f"[{format_clock(note.at)}] " if note.at is not None else ""
        print(f"{note.id:>5}  {note.created[:16].replace('T', ' ')}  {note.item_title}: {at}{note.text}")
    return 0


def _export_notes(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    from earmark.core.notes.export import collect, export_notes, render_json, render_readwise

    if args.out == "-":
        if args.format == "markdown":
            raise EarmarkError("Markdown notes are written into a folder (one file per item): give --out FOLDER.")
        items = collect(db, _scope(args))
        sys.stdout.write(render_json(items, now_iso()) if args.format == "json" else render_readwise(items))
        return 0
    result = export_notes(db, args.format, _scope(args), Path(args.out).expanduser())
    print(result.message if result.notes else "There are no notes to export for that choice; nothing was written.")
    return 0


def _export_history(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    from earmark.core.db.history import list_history
    from earmark.core.notes.export import export_history, render_history

    if args.out == "-":
        sys.stdout.write(render_history(list_history(db, _scope(args)), args.format, now_iso()))
        return 0
    path = Path(args.out).expanduser()
    print(f"Wrote {export_history(db, args.format, _scope(args), path)} listening session(s) to {path}.")
    return 0


def _backup(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    from earmark.core.notes.backup import write_backup

    print(write_backup(db, args.path.expanduser()).message)
    return 0


def _restore(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    from earmark.core.notes.backup import restore_backup

    counts = restore_backup(db, args.path.expanduser())
    print(f"Restored {counts['items']} item(s), {counts['notes']} note(s) and {counts['sources']} source(s) "
          f"from {args.path}.")
    return 0


def _up_to_date(db: sqlite_utils.Database) -> None:
    """Work out the relations of new and changed items first (in full the first time: a few seconds for
    10,000 items)."""
    from earmark.core.topics.build import update_relations

    update_relations(db)


def _related(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    from earmark.core.db.relations import related_items

    get_item(db, args.item_id)  # an unknown id fails before any work
    _up_to_date(db)
    found = related_items(db, args.item_id, args.limit)
    if args.json:
        _print_json([related.as_json() for related in found])
        return 0
    for related in found:
        print(f"{related.id:>6}  {related.score:5.2f}  {related.title}  ({', '.join(related.reasons)})")
    return 0


def _topics(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    from earmark.core.db.relations import topic_counts
    from earmark.core.topics.vectors import TOPICS_PER_ITEM

    _up_to_date(db)
    counts = topic_counts(db, TOPICS_PER_ITEM)
    if args.json:
        _print_json([{"topic": topic, "count": count} for topic, count in counts])
        return 0
    for topic, count in counts:
        print(f"{count:>6}  {topic}")
    return 0


def _path(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    from earmark.core.topics.path import learning_path

    item = get_item(db, args.item_id)
    _up_to_date(db)
    steps = learning_path(db, item.id)
    if args.json:
        _print_json([step.as_json(number) for number, step in enumerate(steps, start=1)])
        return 0
    if not steps:
        print(f"“{item.title}” has no prerequisites in the library.")
        return 0
    for number, step in enumerate(steps, start=1):
        print(f"{number:>3}. {step.title}  [{step.id}, {step.reason}]")
    print(f"  then “{item.title}”")
    return 0


def _export_graph(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    from earmark.core.topics.graph import GraphFilter, read_graph
    from earmark.core.topics.graphml import render_graphml, write_graphml

    _up_to_date(db)
    data = read_graph(db, GraphFilter(min_weight=args.min_weight, topics=args.topics))
    if args.file == "-":
        sys.stdout.write(render_graphml(data))
        return 0
    path = Path(args.file).expanduser()
    write_graphml(data, path)
    print(f"Wrote {len(data.nodes)} nodes and {len(data.edges)} edges to {path}.")
    return 0
