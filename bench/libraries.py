"""Earmark's hand-written parsers and matcher against the well-kept libraries that do the same job, side by side
in one run on the shared fixtures (../shared/fixtures): how many files each reads correctly, and how fast.

- Transcripts: core/notes/transcript_parse.py against webvtt-py (WebVTT, SRT, SBV) and pysrt (SRT).
- Feeds: the fast path core/feeds/fast_parse.py against gPodder's podcastparser, feedparser as the reference.
- The command palette's matcher gui/fuzzy.py against rapidfuzz, on the palette's real commands: its in-order
  matcher alone, rapidfuzz's scorers alone, and what fuzzy.py does now (in-order matches, then rapidfuzz's for
  slips of the finger).

webvtt-py, pysrt and podcastparser are not Earmark's dependencies (rapidfuzz is):
``.venv/bin/pip install webvtt-py pysrt podcastparser`` first. Run: ``.venv/bin/python bench/libraries.py
[--rounds N]``. docs/libraries.md explains the figures and what was decided from them.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

FIXTURES = (Path(__file__).resolve().parents[1] / ".." / "shared" / "fixtures").resolve()
URL = "https://feeds.example.org/show/feed.xml"
SERVED_TYPES = {".rss": "application/x-rss+xml", ".xml": "application/xml", ".atom": "application/atom+xml",
                ".rdf": "application/rdf+xml"}


def timed(work: Callable[[], object], rounds: int) -> float:
    """The median seconds of ``rounds`` runs of ``work`` (after one unmeasured run)."""
    work()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# --- Transcripts -------------------------------------------------------------------------------------------------

# What a correct reading of each cue file gives: the cues whose timing can be read and whose text is not empty
# (count, first start in seconds), read off the files by eye; None: no cue can be read (the file is refused).
# A damaged cue costs that cue only; a file without the WEBVTT line still holds 7 good cues.
CUES: dict[str, tuple[int, float] | None] = {
    "ns__docs__examples__transcripts__example.srt": (222, 0.179),
    "ns__docs__examples__transcripts__example.vtt": (7, 0.0),
    "wv__captions_with_bom.vtt": (4, 0.5),
    "wv__cue_tags.vtt": (3, 16.5),
    "wv__invalid.vtt": (7, 0.5),
    "wv__invalid_format1.srt": None,
    "wv__invalid_format3.srt": None,
    "wv__invalid_timeframe.sbv": (4, 0.378),
    "wv__invalid_timeframe.vtt": (6, 0.5),
    "wv__metadata_headers.vtt": (2, 0.5),
    "wv__missing_caption_text.sbv": (4, 0.378),
    "wv__missing_caption_text.vtt": (4, 0.5),
    "wv__missing_timeframe.srt": (4, 0.5),
    "wv__netflix_chicas_del_cable.vtt": (865, 7.96),
    "wv__one_caption.srt": (1, 0.5),
    "wv__sample.sbv": (5, 0.378),
    "wv__sample.vtt": (16, 0.5),
    "wv__two_captions.sbv": (2, 0.378),
    "wv__youtube_dl.vtt": (4, 286.07),
}
# Podcasting 2.0 JSON and HTML transcripts, which only Earmark's parser reads.
OTHER_FORMATS = ("ns__docs__examples__transcripts__example.json", "ns__docs__examples__transcripts__example.html")

Cues = list[tuple[float, str]]  # (start, text) of each cue with text


def ours_transcript(data: bytes, name: str) -> Cues:
    from earmark.core.errors import TranscriptError
    from earmark.core.notes.transcript_parse import parse_transcript

    try:
        return [(cue.start, cue.text) for cue in parse_transcript(data, name).cues]
    except TranscriptError:
        return []


def webvtt_transcript(data: bytes, name: str) -> Cues:
    import webvtt

    reader = {".srt": webvtt.from_srt, ".sbv": webvtt.from_sbv}.get(Path(name).suffix, webvtt.read)
    path = Path("/dev/shm" if Path("/dev/shm").is_dir() else "/tmp") / f"bench-{os.getpid()}{Path(name).suffix}"
    path.write_bytes(data)  # webvtt-py reads files (by name) for every format
    try:
        return [(c.start_time.in_milliseconds() / 1000, " ".join(c.text.split()))
                for c in reader(str(path)) if c.text.strip()]
    finally:
        path.unlink()


def pysrt_transcript(data: bytes, name: str) -> Cues:
    import pysrt

    if not name.endswith(".srt"):
        return []
    subs = pysrt.from_string(data.decode("utf-8-sig"), error_handling=pysrt.ERROR_PASS)
    return [(s.start.ordinal / 1000, " ".join(s.text_without_tags.split())) for s in subs if s.text.strip()]


def correct(cues: Cues | None, expected: tuple[int, float] | None) -> bool:
    """A file without a readable cue is read correctly when it is refused (an error, or no cues)."""
    if expected is None:
        return not cues
    if cues is None:
        return False
    count, first = expected
    return len(cues) == count and abs(cues[0][0] - first) < 0.002 and not any("<" in text for _, text in cues)


def read_safely(reader: Callable[[bytes, str], Cues], data: bytes, name: str) -> Cues | None:
    """The cues, or None when the reader raised (the whole file lost)."""
    try:
        return reader(data, name)
    except Exception:  # a library's own exception types differ; any of them loses the file
        return None


def transcripts(rounds: int) -> None:
    folder = FIXTURES / "transcripts"
    readers = {"Earmark (transcript_parse.py)": (ours_transcript, (".srt", ".vtt", ".sbv")),
               "webvtt-py": (webvtt_transcript, (".srt", ".vtt", ".sbv")), "pysrt": (pysrt_transcript, (".srt",))}
    print(f"\nTranscripts: {len(CUES)} cue files (SRT, WebVTT, SBV) in {folder}, plus "
          f"{len(OTHER_FORMATS)} Podcasting 2.0 JSON/HTML")
    srt = (folder / "ns__docs__examples__transcripts__example.srt").read_bytes()
    netflix = (folder / "wv__netflix_chicas_del_cable.vtt").read_bytes()
    print(f"  {'reader':<30} {'reads':>11} {'read correctly':>14} {'files lost':>10} {'JSON/HTML':>9} "
          f"{'222-cue SRT':>12} {'865-cue VTT':>12}")
    for label, (reader, suffixes) in readers.items():
        mine = [name for name in CUES if Path(name).suffix in suffixes]
        results = {name: read_safely(reader, (folder / name).read_bytes(), name) for name in mine}
        good = sum(correct(found, CUES[name]) for name, found in results.items())
        lost = [name for name, found in results.items() if found is None and CUES[name] is not None]
        others = sum(bool(read_safely(reader, (folder / name).read_bytes(), name)) for name in OTHER_FORMATS)
        srt_time = timed(lambda r=reader: r(srt, "example.srt"), rounds)
        vtt_time = timed(lambda r=reader: r(netflix, "netflix.vtt"), rounds) if ".vtt" in suffixes else float("nan")
        print(f"  {label:<30} {'/'.join(s[1:].upper() for s in suffixes):>11} {good:>8} of {len(mine):<3} "
              f"{len(lost):>10} {others:>6} of 2 {srt_time * 1000:>9.2f} ms {vtt_time * 1000:>9.2f} ms")
        wrong = [name for name, found in results.items() if found is not None and not correct(found, CUES[name])]
        for what, names in (("misread", wrong), ("lost (it raised)", lost)):
            if names:
                print(f"    {what}: {', '.join(names)}")
    print("  (webvtt-py's times include writing the bytes to a file in /dev/shm: it reads files by name)")


# --- Feeds -------------------------------------------------------------------------------------------------------

@dataclass
class Reading:
    title: str
    items: int
    enclosures: set[str]


def reference_feed(data: bytes, content_type: str) -> Reading | None:
    """feedparser's reading (Earmark's slow path, the behaviour the fast path must reproduce)."""
    from earmark.core.errors import FeedError
    from earmark.core.feeds.parse import parse_feed

    try:
        feed = parse_feed(data, URL, content_type, fast=False)
    except FeedError:
        return None
    return Reading(feed.title, len(feed.entries), {e.enclosure_url for e in feed.entries if e.enclosure_url})


def ours_fast(data: bytes, content_type: str) -> Reading | None:
    from earmark.core.feeds.fast_parse import fast_parse

    feed = fast_parse(data, URL, content_type)
    if feed is None:
        return None
    return Reading(feed.title, len(feed.entries), {e.enclosure_url for e in feed.entries if e.enclosure_url})


def podcastparser_feed(data: bytes, _content_type: str) -> Reading | None:
    import podcastparser

    try:
        parsed = podcastparser.parse(URL, io.BytesIO(data))
    except Exception:  # podcastparser.FeedParseError, SAX errors, ...: the slow path would take the file
        return None
    return Reading(parsed.get("title") or "", len(parsed["episodes"]),
                   {e["enclosures"][0]["url"] for e in parsed["episodes"] if e["enclosures"]})


def feeds(rounds: int) -> None:
    files = sorted(p for folder in ("feeds", "feeds-malformed") for p in (FIXTURES / folder).iterdir()
                   if p.suffix in SERVED_TYPES)
    data = {path: path.read_bytes() for path in files}
    reference = {path: reference_feed(data[path], SERVED_TYPES[path.suffix]) for path in files}
    readable = [path for path in files if reference[path] is not None]
    print(f"\nFeeds: {len(files)} files in feeds/ and feeds-malformed/, {len(readable)} of them feeds feedparser "
          "reads (the reference)")
    print(f"  {'fast path':<28} {'takes':>6} {'same items':>11} {'same episodes':>14} {'differs':>8}")
    podcasts = [path for path in readable if not path.name.startswith("fp__") and reference[path].enclosures]
    both: list[Path] = list(podcasts)
    for label, reader in (("Earmark (fast_parse.py)", ours_fast), ("podcastparser", podcastparser_feed)):
        taken = {path: reader(data[path], SERVED_TYPES[path.suffix]) for path in readable}
        took = [path for path, found in taken.items() if found is not None]
        same_items = sum(taken[p].items == reference[p].items for p in took)  # type: ignore[union-attr]
        same_episodes = sum(taken[p].enclosures == reference[p].enclosures for p in took)  # type: ignore[union-attr]
        differs = sum(taken[p].enclosures != reference[p].enclosures or taken[p].items != reference[p].items  # type: ignore[union-attr]
                      for p in took)
        print(f"  {label:<28} {len(took):>6} {same_items:>11} {same_episodes:>14} {differs:>8}")
        both = [path for path in both if taken[path] is not None]
    print(f"  ('same items': the same number of items, articles included; 'same episodes': the same "
          f"enclosure URLs)\n  speed on the {len(both)} real podcast feeds both fast paths take "
          f"({sum(len(data[p]) for p in both) / 1e6:.1f} MB):")
    import feedparser
    import podcastparser

    from earmark.core.feeds.fast_parse import fast_parse

    giant = FIXTURES / "feeds" / "rp__giantbomb-podcast.rss"
    contenders: dict[str, Callable[[bytes, Path], object]] = {
        "Earmark (fast_parse.py)": lambda d, p: fast_parse(d, URL, SERVED_TYPES[p.suffix]),
        "podcastparser": lambda d, p: podcastparser.parse(URL, io.BytesIO(d)),
        "feedparser (Earmark's slow path)": lambda d, p: feedparser.parse(d, sanitize_html=False,
                                                                          resolve_relative_uris=False),
    }
    for label, parse in contenders.items():
        total = timed(lambda f=parse: [f(data[p], p) for p in both], rounds)
        big = timed(lambda f=parse: f(giant.read_bytes(), giant), rounds)
        print(f"    {label:<34} {total * 1000:>8.1f} ms in all   {big * 1000:>7.1f} ms for the 730-item "
              f"{giant.name}")
    spent = conversion_share(lambda: [fast_parse(data[p], URL, SERVED_TYPES[p.suffix]) for p in both])
    print(f"  Earmark's fast path builds the finished FeedData: {spent:.0%} of its time goes to turning the parsed "
          "dictionaries into\n  FeedData (entries.py: links, HTML to text, durations), which podcastparser's "
          "dictionaries would need as well")


def conversion_share(work: Callable[[], object]) -> float:
    """The share of ``work``'s time spent in entries.feed_data (called through the fast_parse module)."""
    from earmark.core.feeds import fast_parse as module

    original = module.feed_data
    inside = 0.0

    def counted(*args: object, **kwargs: object) -> object:
        nonlocal inside
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            inside += time.perf_counter() - start

    module.feed_data = counted  # type: ignore[assignment]
    try:
        start = time.perf_counter()
        work()
        return inside / (time.perf_counter() - start)
    finally:
        module.feed_data = original


# --- The palette's fuzzy matcher ---------------------------------------------------------------------------------

# What a person types in the palette (Ctrl+K) and the command they want: prefixes, initials, several words,
# the menu's name, and slips of the finger (a letter left out, two swapped, a wrong one, words swapped).
QUERIES: list[tuple[str, str]] = [
    ("sett", "Settings…"), ("settings", "Settings…"),
    ("refresh", "Refresh All Feeds"), ("ref all", "Refresh All Feeds"), ("raf", "Refresh All Feeds"),
    ("mp", "Mark Played"), ("mark pl", "Mark Played"), ("unpl", "Mark Unplayed"),
    ("nc", "Next Chapter"), ("next ch", "Next Chapter"), ("prev chap", "Previous Chapter"),
    ("pp", "Play/Pause"), ("pause", "Play/Pause"), ("play sel", "Play Selected"),
    ("sleep 30", "Sleep in 30 Minutes"), ("sleep end", "Sleep at End of Episode"), ("cancel sl", "Cancel Sleep Timer"),
    ("clear up", "Clear Up Next"), ("add to up", "Add to Up Next"), ("up next clear", "Clear Up Next"),
    ("import opml", "Import Subscriptions (OPML)…"), ("export op", "Export Subscriptions (OPML)…"),
    ("backup", "Back Up Library…"), ("restore", "Restore from Backup…"), ("quit", "Quit"),
    ("highlight", "Highlight Selection"), ("hl note", "Highlight with Note…"), ("dark", "Dark Reader"),
    ("tags", "Edit Tags…"), ("smart", "Save as Smart List…"), ("fav", "Favourite"),
    ("graph", "Topic Graph"), ("path", "Learning Path of the Selected Item"), ("zoom in", "Zoom In"),
    ("shortcuts", "Keyboard Shortcuts"), ("vol up", "Volume Up"), ("faster", "Faster"),
    ("voice", "Voice Boost"), ("download", "Download"), ("del down", "Delete Download"),
    # slips of the finger
    ("setings", "Settings…"), ("refesh", "Refresh All Feeds"), ("chapetr", "Next Chapter"),
    ("downlaod", "Download"), ("volumr up", "Volume Up"), ("chapter next", "Next Chapter"),
    ("subscriptoins", "Subscriptions"), ("bakcup", "Back Up Library…"),
]


def palette_entries() -> list[tuple[str, str]]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from earmark.gui.mainwindow.frame.actions import SPECS, label

    return [(label(spec.text), spec.menu) for spec in SPECS]


def rapidfuzz_sorted(scorer: Callable[..., float]) -> Callable[[str, list[tuple[str, str]]], list[int]]:
    """rapidfuzz ranking the palette's rows on the name, or the menu and name, whichever scores higher (both
    lists scored in one call each, in C++)."""
    from rapidfuzz import process, utils

    def ranked(query: str, entries: list[tuple[str, str]]) -> list[int]:
        names = process.extract(query, [name for name, _ in entries], scorer=scorer, limit=None,
                                processor=utils.default_process, score_cutoff=1)
        both = process.extract(query, [f"{menu} {name}" for name, menu in entries], scorer=scorer, limit=None,
                               processor=utils.default_process, score_cutoff=1)
        scores: dict[int, float] = {}
        for _text, score, index in [*names, *both]:
            scores[index] = max(score, scores.get(index, 0.0))
        return sorted(scores, key=lambda i: (-scores[i], i))

    return ranked


def titles() -> list[tuple[str, str]]:
    """Every episode and post title of the fixture feeds, with its feed's title: real text to search."""
    from earmark.core.errors import FeedError
    from earmark.core.feeds.parse import parse_feed

    found = []
    for path in sorted((FIXTURES / "feeds").iterdir()):
        if path.suffix in SERVED_TYPES:
            try:
                feed = parse_feed(path.read_bytes(), URL, SERVED_TYPES[path.suffix])
            except FeedError:
                continue
            found += [(entry.title, feed.title) for entry in feed.entries]
    return found


def palette(rounds: int) -> None:
    from rapidfuzz import fuzz

    from earmark.gui.fuzzy import fuzzy_sorted, in_order

    entries = palette_entries()
    names = [name for name, _menu in entries]
    slips = sum(1 for query, _ in QUERIES if query in {"setings", "refesh", "chapetr", "downlaod", "volumr up",
                                                       "chapter next", "subscriptoins", "bakcup"})
    matchers = {"Earmark's in-order matcher": in_order, "rapidfuzz WRatio": rapidfuzz_sorted(fuzz.WRatio),
                "rapidfuzz partial_ratio": rapidfuzz_sorted(fuzz.partial_ratio),
                "rapidfuzz token_set_ratio": rapidfuzz_sorted(fuzz.token_set_ratio),
                "fuzzy.py: in order, then slips": fuzzy_sorted}
    many = titles()
    print(f"\nPalette: {len(QUERIES)} queries ({slips} of them slips of the finger) over the palette's "
          f"{len(entries)} commands; speed per keystroke on the commands and on {len(many):,} titles from the "
          "fixture feeds")
    print(f"  {'matcher':<28} {'first':>6} {'top 3':>6} {'slips first':>11} {'commands':>10} {'titles':>10}")
    for label, ranked in matchers.items():
        first = top3 = slip_first = 0
        for number, (query, wanted) in enumerate(QUERIES):
            order = [names[i] for i in ranked(query, entries)]
            first += order[:1] == [wanted]
            top3 += wanted in order[:3]
            slip_first += number >= len(QUERIES) - slips and order[:1] == [wanted]
        commands = timed(lambda r=ranked: r("next ch", entries), rounds)
        big = timed(lambda r=ranked: r("graph", many), max(1, rounds // 4))
        print(f"  {label:<28} {first:>6} {top3:>6} {slip_first:>11} {commands * 1000:>7.2f} ms "
              f"{big * 1000:>7.1f} ms")
    print("  (first/top 3: queries whose command is ranked first / in the first three rows)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20, help="timed runs of each measurement (median shown)")
    parser.add_argument("--only", choices=("transcripts", "feeds", "palette"), help="one comparison")
    args = parser.parse_args()
    logging.getLogger("podcastparser").setLevel(logging.ERROR)  # it logs each undeclared namespace prefix
    if not FIXTURES.is_dir():
        print(f"The shared fixtures are not at {FIXTURES}: nothing to measure.")
        return 1
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} "
          f"({os.cpu_count()} cores); times are medians of {args.rounds} runs")
    for name, run in (("transcripts", transcripts), ("feeds", feeds), ("palette", palette)):
        if args.only in (None, name):
            run(args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
