"""The listening commands: statistics of the listening history (``stats``)."""

from __future__ import annotations

import argparse
from datetime import date

import sqlite_utils

from earmark.cli.common import Commands, print_json
from earmark.core.db.listening_stats import listening_stats
from earmark.core.timefmt import format_span


def register(commands: Commands) -> None:
    """Declare the listening commands."""
    stats = commands.add_parser("stats", help="listening statistics: time listened, time saved, episodes finished")
    stats.add_argument("--since", type=_day, metavar="DATE", help="only sessions from this day on (YYYY-MM-DD)")
    stats.add_argument("--json", action="store_true", help="print a JSON object")
    stats.set_defaults(run=_stats)


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date: give it as YYYY-MM-DD") from None


def _stats(db: sqlite_utils.Database, args: argparse.Namespace) -> int:
    stats = listening_stats(db, args.since)
    if args.json:
        print_json(stats.as_json())
        return 0
    completion = "—" if stats.completion is None else f"{stats.completion:.0%}"
    print(f"Listened:            {format_span(stats.listened_seconds)}"
          + (f" since {stats.since.isoformat()}" if stats.since else ""))
    print(f"Saved by speed:      {format_span(stats.saved_by_speed_seconds)}")
    print(f"Saved by silence:    {format_span(stats.saved_by_silence_seconds)}")
    print(f"Episodes finished:   {stats.episodes_finished} of {stats.episodes_started} ({completion})")
    print(f"Articles read:       {stats.articles_read} ({format_span(stats.reading_seconds)} reading)")
    for source in stats.per_source:
        print(f"  {format_span(source.listened_seconds):>12}  {source.title}")
    return 0
