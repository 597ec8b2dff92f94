"""The listening commands: statistics of the listening history (``stats``) and an episode's silences
(``silence``)."""

from __future__ import annotations

import argparse
from datetime import date

from earmark.cli.common import print_json, record_id
from earmark.core.audio.silence import LEVELS, saved_seconds
from earmark.core.db.database import Database
from earmark.core.db.listening_stats import listening_stats
from earmark.core.errors import EarmarkError
from earmark.core.timefmt import format_clock, format_span


def stats_command(stats: argparse.ArgumentParser) -> None:
    """listening statistics: time listened, time saved, episodes finished"""
    stats.add_argument("--since", type=_day, metavar="DATE", help="only sessions from this day on (YYYY-MM-DD)")
    stats.add_argument("--json", action="store_true", help="print a JSON object")
    stats.set_defaults(run=_stats)


def silence_command(silence: argparse.ArgumentParser) -> None:
    """an episode's silent spans and the time skipping them saves"""
    silence.add_argument("item_id", type=record_id, metavar="ITEM_ID")
    silence.add_argument("--again", action="store_true", help="analyse the episode again")
    silence.add_argument("--json", action="store_true", help="print a JSON object")
    silence.set_defaults(run=_silence)


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date: give it as YYYY-MM-DD") from None


def _stats(db: Database, args: argparse.Namespace) -> int:
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


def _silence(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.audio.analyse import analyse_episode  # numpy, and PyAV when it decodes

    found = analyse_episode(db, args.item_id, again=args.again)
    saved = {level: round(saved_seconds(found.spans, level), 3) for level in LEVELS}
    if args.json:
        print_json({"item_id": found.item_id, "analysed": found.analysed, "duration": found.duration,
                    "error": found.error, "spans": [{"start": a, "end": b} for a, b in found.spans],
                    "saved_seconds": saved})
        return 0 if found.error is None else 1
    if found.error is not None:
        raise EarmarkError(found.error)
    print(f"{len(found.spans)} silent spans in {format_clock(found.duration)}; skipping silence saves "
          + ", ".join(f"{_seconds(seconds)} ({level})" for level, seconds in saved.items()) + ".")
    for start, end in found.spans:
        print(f"  {format_clock(start)}–{format_clock(end)}  {end - start:.1f} s")
    return 0


def _seconds(seconds: float) -> str:
    return f"{seconds:.1f} s" if seconds < 60 else format_span(seconds)
