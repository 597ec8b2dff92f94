"""The item filter options that ``list``, ``search`` and ``save-search`` share, and the filter they describe."""

from __future__ import annotations

import argparse

from earmark.core.db.filters import SORT_KEYS, STATES, ItemFilter


def add_filter_options(command: argparse.ArgumentParser) -> None:
    """The state, date, duration and order options (each command adds ``--kind``, ``--source`` and ``--tag``
    itself, with its own help)."""
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


def item_filter(args: argparse.Namespace, text: str = "") -> ItemFilter:
    """The filter the options of :func:`add_filter_options` describe, with search ``text``."""
    return ItemFilter(
        kind=args.kind, source_id=args.source, tag=args.tag, state="unplayed" if args.unplayed else args.state,
        favourite=args.favourite, archived=args.archived, published_from=args.published_from,
        published_to=args.published_to, duration_min=args.min_duration, duration_max=args.max_duration,
        sort=args.sort, reverse=args.reverse, text=text,
    )


def _minutes(text: str) -> float:
    try:
        minutes = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of minutes") from None
    if not 0 <= minutes < 10**6:
        raise argparse.ArgumentTypeError(f"{text} is not a sensible number of minutes")
    return minutes * 60
