"""The library commands: the sample library, listing and searching items, smart lists, favourites and played
marks."""

from __future__ import annotations

import argparse
import json

from earmark.cli.common import add_item_ids, print_items, print_json, record_id
from earmark.cli.filters import add_filter_options, item_filter
from earmark.core.db.database import Database
from earmark.core.db.items import count_items, get_item, list_items, mark_played, set_favourite
from earmark.core.db.search import snippets
from earmark.core.db.smart_lists import delete_smart_list, list_smart_lists, save_smart_list
from earmark.core.db.spoken_search import spoken_moment
from earmark.core.errors import NotFoundError
from earmark.core.plurals import counted


def load_sample_command(sample: argparse.ArgumentParser) -> None:
    """add the sample library (PyTorch Developer Podcast)"""
    sample.set_defaults(run=_load_sample)


def list_command(listing: argparse.ArgumentParser) -> None:
    """list episodes and articles, newest first"""
    listing.add_argument("--kind", choices=("episode", "article"))
    listing.add_argument("--source", type=record_id, metavar="ID", help="only items of this source")
    listing.add_argument("--tag", help="only items with this tag")
    listing.add_argument("--smart", type=record_id, metavar="ID", help="the items of this smart list")
    add_filter_options(listing)
    listing.add_argument("--json", action="store_true", help="print a JSON array")
    listing.set_defaults(run=_list)


def search_command(search: argparse.ArgumentParser) -> None:
    """full-text search, best match first"""
    search.add_argument("query")
    search.add_argument("--kind", choices=("episode", "article"))
    search.add_argument("--source", type=record_id, metavar="ID", help="only items of this source")
    search.add_argument("--tag")
    add_filter_options(search)
    search.add_argument("--json", action="store_true", help="print a JSON array (with a snippet of each match)")
    search.set_defaults(run=_search)


def favourite_command(marking: argparse.ArgumentParser) -> None:
    """mark items as favourites"""
    add_item_ids(marking).set_defaults(run=_favourite, value=True)


def unfavourite_command(marking: argparse.ArgumentParser) -> None:
    """unmark items as favourites"""
    add_item_ids(marking).set_defaults(run=_favourite, value=False)


def save_search_command(save: argparse.ArgumentParser) -> None:
    """save a search and filters as a smart list"""
    save.add_argument("name")
    save.add_argument("query", nargs="?", default="", help="search text (optional)")
    save.add_argument("--kind", choices=("episode", "article"))
    save.add_argument("--source", type=record_id, metavar="ID")
    save.add_argument("--tag")
    add_filter_options(save)
    save.set_defaults(run=_save_search)


def smart_lists_command(smart: argparse.ArgumentParser) -> None:
    """list saved searches with their item counts"""
    smart.add_argument("--json", action="store_true", help="print a JSON array of {id, name, count, filter}")
    smart.set_defaults(run=_smart_lists)


def delete_smart_list_command(forget: argparse.ArgumentParser) -> None:
    """delete a saved search (its items stay)"""
    forget.add_argument("list_id", type=record_id, metavar="ID")
    forget.set_defaults(run=_delete_smart_list)


def mark_played_command(marking: argparse.ArgumentParser) -> None:
    """mark items played"""
    add_item_ids(marking).set_defaults(run=_mark, played=True)


def mark_unplayed_command(marking: argparse.ArgumentParser) -> None:
    """mark items unplayed"""
    add_item_ids(marking).set_defaults(run=_mark, played=False)


def _load_sample(db: Database, _args: argparse.Namespace) -> int:
    from earmark.core.sample import load_sample

    result = load_sample(db)
    print(f"Sample library loaded: {counted(result.episodes, 'episode')}, {counted(result.articles, 'article')}.")
    return 0


def _list(db: Database, args: argparse.Namespace) -> int:
    flt = item_filter(args)
    if args.smart is not None:
        lists = {smart.id: smart for smart in list_smart_lists(db)}
        if args.smart not in lists:
            raise NotFoundError(f"There is no smart list with id {args.smart}.")
        flt = lists[args.smart].filter
    print_items(list_items(db, flt), args.json)
    return 0


def _search(db: Database, args: argparse.Namespace) -> int:
    items = list_items(db, item_filter(args, text=args.query))
    if not args.json:
        print_items(items, as_json=False)
        return 0
    found = snippets(db, args.query, [item.id for item in items])
    objects = []
    for item in items:
        snippet = found.get(item.id)
        spoken = {"at": spoken_moment(db, item.id, snippet)} if snippet and snippet.field == "transcript" else {}
        objects.append({**item.as_json(), "snippet": snippet.marked() if snippet else None,
                        "matched": snippet.field if snippet else None, **spoken})
    print_json(objects)
    return 0


def _favourite(db: Database, args: argparse.Namespace) -> int:
    set_favourite(db, args.item_ids, args.value)
    print(f"{counted(len(args.item_ids), 'item')} {'marked' if args.value else 'no longer'} favourite.")
    return 0


def _save_search(db: Database, args: argparse.Namespace) -> int:
    list_id = save_smart_list(db, args.name, item_filter(args, text=args.query))
    print(f"Saved smart list {list_id}: {args.name}")
    return 0


def _smart_lists(db: Database, args: argparse.Namespace) -> int:
    rows = [(smart, count_items(db, smart.filter)) for smart in list_smart_lists(db)]
    if args.json:
        print_json([{"id": smart.id, "name": smart.name, "count": count, "filter": json.loads(smart.filter.to_json())}
                    for smart, count in rows])
        return 0
    for smart, count in rows:
        print(f"{smart.id:>4}  {count:>6}  {smart.name}")
    return 0


def _delete_smart_list(db: Database, args: argparse.Namespace) -> int:
    delete_smart_list(db, args.list_id)
    print(f"Deleted smart list {args.list_id}.")
    return 0


def _mark(db: Database, args: argparse.Namespace) -> int:
    items = [get_item(db, item_id) for item_id in args.item_ids]  # NotFoundError before anything changes
    mark_played(db, args.item_ids, args.played)
    for item in items:
        print(f"Marked “{item.title}” {'played' if args.played else 'unplayed'}.")
    return 0
