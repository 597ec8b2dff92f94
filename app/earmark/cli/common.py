"""What the command groups share: argument types (ids, counts, times) and
printing items and JSON."""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from collections.abc import Callable
from typing import TypeAlias

from earmark.core.db.database import Database
from earmark.core.models import Item
from earmark.core.settings import set_setting
from earmark.core.timefmt import format_clock, parse_duration

Run: TypeAlias = "Callable[[Database, argparse.Namespace], int]"
"""What runs a command on the open library (its ``set_defaults(run=...)``), returning the exit code."""


def add_item_ids(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The items a command acts on: one or more ids."""
    parser.add_argument("item_ids", type=record_id, nargs="+", metavar="ITEM_ID")
    return parser


def record_id(text: str) -> int:
    """An id as SQLite stores it (a positive 64-bit integer)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < 2**63:
        raise argparse.ArgumentTypeError(f"{text} is not a valid id")
    return value


def count(text: str) -> int:
    """A number of results (1 or more)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not 1 or more")
    return value


def seconds(text: str) -> float:
    """Seconds as a number (``65``, ``65.5``) or a clock (``1:05``, ``1:02:03``)."""
    try:
        return float(text)
    except ValueError:
        found = parse_duration(text)
        if found is None:
            raise argparse.ArgumentTypeError(f"{text!r} is not a time: give seconds or h:mm:ss") from None
        return found


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


def add_opt_in(command: argparse.ArgumentParser) -> None:
    """``--store-in-library``: where no keyring runs, the user's explicit choice of the library file."""
    command.add_argument("--store-in-library", action="store_true",
                         help="without a system keyring, keep passwords in the library file (unencrypted)")


def read_password(prompt: str = "Password: ") -> str:
    """A password from the terminal (not echoed) or, when piped, the first line of standard input."""
    return getpass.getpass(prompt) if sys.stdin.isatty() else sys.stdin.readline().rstrip("\n")


def opt_in_if_asked(db: Database, args: argparse.Namespace) -> None:
    """``--store-in-library``: the user's explicit choice to keep passwords in the library file."""
    if getattr(args, "store_in_library", False):
        set_setting(db, "secrets.store_in_library", True)
        print("earmark: passwords are now kept in the library file, unencrypted: anyone who can read the file can "
              "read them (backups and exports leave them out).", file=sys.stderr)
