"""What the command line's command modules share: id arguments and printing items and JSON."""

from __future__ import annotations

import argparse
import json
import sys

from earmark.core.models import Item
from earmark.core.timefmt import format_clock


def record_id(text: str) -> int:
    """An id as SQLite stores it (a positive 64-bit integer)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < 2**63:
        raise argparse.ArgumentTypeError(f"{text} is not a valid id")
    return value


def print_json(value: object) -> None:
    """``value`` as indented JSON on standard output."""
    json.dump(value, sys.stdout, ensure_ascii=False, indent=1)
    print()


def print_items(items: list[Item], as_json: bool) -> None:
    """Items as a JSON array of ``list --json`` objects, or one line each."""
    if as_json:
        print_json([item.as_json() for item in items])
        return
    for item in items:
        state = "played" if item.played else (f"at {format_clock(item.position)}" if item.position else "")
        print(f"{item.id:>6}  {item.kind:<7}  {(item.published or '')[:10]:<10}  {item.title}"
              f"  [{item.source or ''}]{'  ' + state if state else ''}")
