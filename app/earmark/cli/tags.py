"""The tag commands: tagging items and sources, listing, renaming, deleting and colouring tags."""

from __future__ import annotations

import argparse

from earmark.cli.common import Run, print_json, record_id
from earmark.core.db.database import Database
from earmark.core.db.items import get_item
from earmark.core.db.sources import get_source
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


def tag_command(tagging: argparse.ArgumentParser) -> None:
    """add tags to an item"""
    _item_and_tags(tagging, _tag)


def untag_command(tagging: argparse.ArgumentParser) -> None:
    """remove tags from an item"""
    _item_and_tags(tagging, _untag)


def _item_and_tags(tagging: argparse.ArgumentParser, run: Run) -> None:
    tagging.add_argument("item_id", type=record_id, metavar="ITEM_ID")
    tagging.add_argument("tags", nargs="+", metavar="TAG")
    tagging.set_defaults(run=run)


def tags_command(tags: argparse.ArgumentParser) -> None:
    """list tags with the number of items carrying each"""
    tags.add_argument("--json", action="store_true", help="print a JSON array of {name, count, colour}")
    tags.set_defaults(run=_tags)


def tag_source_command(tagging: argparse.ArgumentParser) -> None:
    """add tags to a source (its items carry them in filters)"""
    _source_and_tags(tagging, _tag_source)


def untag_source_command(tagging: argparse.ArgumentParser) -> None:
    """remove tags from a source (its items carry them in filters)"""
    _source_and_tags(tagging, _untag_source)


def _source_and_tags(tagging: argparse.ArgumentParser, run: Run) -> None:
    tagging.add_argument("source_id", type=record_id, metavar="SOURCE_ID")
    tagging.add_argument("tags", nargs="+", metavar="TAG")
    tagging.set_defaults(run=run)


def rename_tag_command(rename: argparse.ArgumentParser) -> None:
    """rename a tag everywhere (onto an existing tag: merge them)"""
    rename.add_argument("old")
    rename.add_argument("new")
    rename.set_defaults(run=_rename_tag)


def delete_tag_command(delete: argparse.ArgumentParser) -> None:
    """remove a tag from every item and source"""
    delete.add_argument("name")
    delete.set_defaults(run=_delete_tag)


def tag_colour_command(colour: argparse.ArgumentParser) -> None:
    """give a tag a colour (#rrggbb, or none)"""
    colour.add_argument("name")
    colour.add_argument("colour", metavar="COLOUR")
    colour.set_defaults(run=_tag_colour)


def _tag(db: Database, args: argparse.Namespace) -> int:
    item = get_item(db, args.item_id)
    tag_item(db, item.id, args.tags)
    print(f"Tagged “{item.title}”: {', '.join(get_item(db, item.id).tags)}")
    return 0


def _untag(db: Database, args: argparse.Namespace) -> int:
    item = get_item(db, args.item_id)
    untag_item(db, item.id, args.tags)
    print(f"Tags of “{item.title}”: {', '.join(get_item(db, item.id).tags) or 'none'}")
    return 0


def _tags(db: Database, args: argparse.Namespace) -> int:
    counts, colours = tag_counts(db), tag_colours(db)
    if args.json:
        print_json([{"name": name, "count": count, "colour": colours.get(name)} for name, count in counts])
        return 0
    for name, count in counts:
        print(f"{count:>6}  {name}{'  ' + colours[name] if name in colours else ''}")
    return 0


def _tag_source(db: Database, args: argparse.Namespace) -> int:
    source = get_source(db, args.source_id)
    tag_source(db, source.id, args.tags)
    print(f"Tagged {source.title}: {', '.join(tags_for_sources(db).get(source.id, []))}")
    return 0


def _untag_source(db: Database, args: argparse.Namespace) -> int:
    source = get_source(db, args.source_id)
    untag_source(db, source.id, args.tags)
    print(f"Tags of {source.title}: {', '.join(tags_for_sources(db).get(source.id, [])) or 'none'}")
    return 0


def _rename_tag(db: Database, args: argparse.Namespace) -> int:
    rename_tag(db, args.old, args.new)
    print(f"Renamed “{args.old}” to “{args.new}”.")
    return 0


def _delete_tag(db: Database, args: argparse.Namespace) -> int:
    delete_tag(db, args.name)
    print(f"Deleted the tag “{args.name}”.")
    return 0


def _tag_colour(db: Database, args: argparse.Namespace) -> int:
    set_tag_colour(db, args.name, None if args.colour.lower() == "none" else args.colour)
    print(f"Tag “{args.name}”: colour {args.colour}.")
    return 0
