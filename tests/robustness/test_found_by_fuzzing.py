"""Regression tests for the bugs the robustness suite found, each with the smallest input that showed it.

Every one of these failed before its fix (an exception other than the parser's own error, a NaN or infinite
time let through, an input that cost unbounded memory); docs/reliability.md lists them.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from earmark.cli import main
from earmark.core.chapters import parse_chapters
from earmark.core.db.connection import open_library
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import count_items
from earmark.core.downloads.names import download_path
from earmark.core.errors import BackupError, FeedError, TranscriptError, UnreachableError
from earmark.core.feeds.fetch import canonical_source, is_web_url
from earmark.core.feeds.parse import parse_feed
from earmark.core.html import sanitize
from earmark.core.notes.backup import restore_backup
from earmark.core.notes.transcript_parse import parse_transcript
from earmark.core.settings import SETTINGS, get_setting
from helpers.parsers import backup_seed_document

URL = "https://feeds.example.com/feed.xml"
ITUNES = 'xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"'


def rss(items: str, channel: str = "", root_attributes: str = ITUNES) -> bytes:
    return (f'<?xml version="1.0"?><rss version="2.0" {root_attributes}><channel><title>Show</title>{channel}'
            f"{items}</channel></rss>").encode()


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("document", [
    rss('<item><title>One</title><itunes:keywords a="b">graphs, compilers</itunes:keywords></item>'),
    rss('<item><title>One</title><itunes:keywords a="b"/></item>'),
    # Giant Bombcast declares the namespace again on each iTunes element; when the feed is not well-formed
    # (here a stray "&"), feedparser's loose parser counts that declaration as an attribute.
    rss('<item><title>One</title><itunes:keywords xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">'
        "graphs</itunes:keywords></item>", channel="<description>Q&A</description>", root_attributes=""),
], ids=["attribute and text", "attribute only", "namespace declared again, loose parser"])
def test_itunes_keywords_with_attributes_do_not_break_the_import(document: bytes, fast: bool) -> None:
    # feedparser stores an element it has no handler for as its attribute dictionary when it has attributes:
    # parse.py called .split(",") on that dict (AttributeError), so the whole feed failed to import.
    feed = parse_feed(document, URL, fast=fast)
    assert [entry.title for entry in feed.entries] == ["One"]


@pytest.mark.parametrize("document", [
    rss("", "<image><url>https://example.com/a.png</url></width></image>"),  # feedparser: int(None) in _end_width
    rss("<item><title>&#xd800; one</title></item><item>", root_attributes=""),  # encode('utf-8') of a surrogate
    rss("<item><title>&#55296;</title>", root_attributes=""),
], ids=["stray width end tag", "surrogate hex reference", "surrogate decimal reference"])
def test_markup_that_makes_feedparser_raise_is_a_feed_error(document: bytes) -> None:
    # Only feedparser's loose parser (for documents that are not well-formed XML) gets these; its handlers raised
    # TypeError and UnicodeEncodeError out of parse_feed.
    try:
        feed = parse_feed(document, URL)
    except FeedError as exc:
        assert str(exc) == "feed.xml is too damaged to be read as a feed." or "feeds.example.com" in str(exc)
    else:
        assert feed.title == "Show"


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_chapter_start_times_that_are_not_finite_are_left_out(value: str) -> None:
    # Python's json reads NaN and Infinity (not JSON, but real files have them): a chapter at NaN or infinity
    # reached the player's seek and the cache as is.
    document = f'{{"chapters": [{{"startTime": {value}, "title": "Bad"}}, {{"startTime": 5, "title": "Good"}}]}}'
    chapters = parse_chapters(document.encode())
    assert [(c.start, c.title) for c in chapters] == [(5.0, "Good")]


@pytest.mark.parametrize("start, end", [("NaN", "1"), ('"nan"', "1"), ('"inf"', '"inf"'), ("Infinity", "2"),
                                        ("-5", "1"), ("1e999", "2")])
def test_transcript_segments_at_times_that_are_not_finite_or_negative_are_skipped(start: str, end: str) -> None:
    # float() of "nan"/"inf" (or JSON NaN) gave cues at NaN or infinity; sorting them scrambles the transcript.
    document = (f'{{"segments": [{{"startTime": {start}, "endTime": {end}, "body": "bad"}},'
                '{"startTime": 3, "endTime": 4, "body": "good."}]}')
    transcript = parse_transcript(document.encode(), "t.json")
    assert [(c.start, c.end, c.text) for c in transcript.cues] == [(3.0, 4.0, "good.")]
    assert transcript.skipped == 1


@pytest.mark.parametrize("end", ["NaN", '"inf"', "Infinity", "-1"])
def test_a_transcript_segment_with_an_unreadable_end_ends_where_it_starts(end: str) -> None:
    document = f'{{"segments": [{{"startTime": 3, "endTime": {end}, "body": "words."}}]}}'
    [cue] = parse_transcript(document.encode(), "t.json").cues
    assert (cue.start, cue.end) == (3.0, 3.0) and math.isfinite(cue.end)


@pytest.mark.parametrize("section", ["<![C     [x]]>", "<![[en-us]]>"])
def test_html_transcript_with_a_broken_marked_section_keeps_what_was_read(section: str) -> None:
    # html.parser raises AssertionError on "<![" sections it cannot name (Python 3.11's _markupbase).
    document = f"<cite>Ana:</cite><time>0:05</time><p>Hello there.</p>{section}<time>0:09</time><p>Lost.</p>"
    transcript = parse_transcript(document.encode(), "t.html")
    assert [(c.start, c.text) for c in transcript.cues] == [(5.0, "Hello there.")]
    with pytest.raises(TranscriptError, match="no timed lines"):
        parse_transcript(f"<p>x</p>{section}<time>0:09</time><p>Lost.</p>".encode(), "t.html")


@pytest.mark.parametrize("address", ["h\x00ttps://example.com/feed", "/tmp/feed\x00.xml", "file:///tmp/a\x00b"])
def test_an_address_with_a_nul_character_is_refused_with_a_sentence(address: str) -> None:
    # pathlib raised ValueError("embedded null byte") out of canonical_source.
    with pytest.raises(UnreachableError, match="is not a valid address"):
        canonical_source(address)


@pytest.mark.parametrize("address", ["~\x01", "~no-such-user-here/feed.xml"])
def test_a_home_folder_of_an_unknown_user_is_refused_with_a_sentence(address: str) -> None:
    # pathlib's expanduser raised RuntimeError("Could not determine home directory.") out of canonical_source.
    with pytest.raises(UnreachableError, match="is not a valid address: Could not determine home directory.$"):
        canonical_source(address)


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("title, expected", [
    ("Hi &#55357;&#56832;", "Hi \U0001f600"),  # an emoji written as its UTF-16 surrogate pair
    ("Hi &#xD83D;&#xDE00;!", "Hi \U0001f600!"),
    ("lone &#xd800; high", "lone \ufffd high"),
    ("lone &#56832; low", "lone \ufffd low"),
    ("beyond &#1114112; Unicode", "beyond \ufffd Unicode"),
    ("huge &#99999999999999999999;", "huge \ufffd"),
    ("plain &#65;&#x42; letters", "plain AB letters"),
])
def test_character_references_to_surrogates_or_beyond_unicode_do_not_lose_the_feed(title: str, expected: str,
                                                                                  fast: bool) -> None:
    # expat refuses these references, and feedparser's loose parser then raised on them (UnicodeEncodeError,
    # ValueError, OverflowError): one emoji written as a surrogate pair made the whole feed unreadable.
    feed = parse_feed(rss(f"<item><title>{title}</title><guid>1</guid></item>", root_attributes=""), URL, fast=fast)
    assert [entry.title for entry in feed.entries] == [expected]


def test_a_chapter_start_beyond_any_float_is_left_out() -> None:
    # 0 <= 10**400 < inf holds for a Python int, then float() raised OverflowError.
    document = '{"chapters": [{"startTime": 1%s, "title": "Bad"}, {"startTime": 5, "title": "Good"}]}' % ("0" * 400)
    assert [c.title for c in parse_chapters(document.encode())] == ["Good"]


@pytest.mark.parametrize("timing", ["9" * 400 + ":00:00.000 --> 00:00:02.000",
                                    "00:00:01.000 --> 1" + "0" * 400 + ":00:00.000"])
def test_a_cue_time_beyond_any_float_is_a_skipped_line(timing: str) -> None:
    # clock_seconds raised OverflowError on hours of hundreds of digits.
    document = f"WEBVTT\n\n{timing}\nLost\n\n00:00:03.000 --> 00:00:04.000\nKept\n"
    transcript = parse_transcript(document.encode(), "t.vtt")
    assert [c.text for c in transcript.cues] == ["Kept"] and transcript.skipped == 1


@pytest.mark.parametrize("line", ["<" * 200_000, "<v " * 70_000, "<v.a " * 50_000])
def test_a_huge_line_of_unclosed_tags_is_read_in_linear_time(line: str) -> None:
    # The tag pattern "<[^>]*>" scanned from every "<" to the end of the line: 45 s for 200,000 of them.
    document = f"00:00:01.000 --> 00:00:02.000\n{line}\n\n00:00:03.000 --> 00:00:04.000\nKept\n"
    start = time.perf_counter()
    transcript = parse_transcript(document.encode(), "t.vtt")
    assert time.perf_counter() - start < 2.0
    assert transcript.cues[-1].text == "Kept"


def _backup(tmp_path: Path, edit: Callable[[dict[str, Any]], None]) -> Path:
    document = backup_seed_document()
    edit(document)
    path = tmp_path / "backup.json"
    path.write_bytes(json.dumps(document, allow_nan=True).encode("utf-8", "surrogatepass"))
    return path


def _set_cell(table: str, column: str, value: object) -> Callable[[dict[str, Any]], None]:
    def edit(document: dict[str, Any]) -> None:
        data = document["tables"][table]
        data["rows"][0][data["columns"].index(column)] = value
    return edit


@pytest.mark.parametrize("edit", [
    _set_cell("items", "position", 2**70),  # sqlite3: OverflowError (Python int too large for SQLite INTEGER)
    _set_cell("items", "id", -(2**63) - 1),
    _set_cell("notes", "text", "lone \ud800 surrogate"),  # valid JSON ("\\ud800"); sqlite3: UnicodeEncodeError
    _set_cell("tags", "name", "\udcff"),
    lambda document: document["tables"].update(item_tags={"columns": [], "rows": [[]]}),  # "INSERT ... () VALUES ()"
], ids=["integer beyond 64 bits", "negative beyond 64 bits", "lone surrogate", "escaped byte", "rows of no columns"])
def test_a_backup_with_values_sqlite_cannot_hold_is_a_backup_error(tmp_path: Path, edit: Any) -> None:
    # These escaped restore_backup as OverflowError, UnicodeEncodeError, or a LibraryError blaming the library.
    path = _backup(tmp_path, edit)
    db = open_library(tmp_path / "library.db")
    try:
        with pytest.raises(BackupError, match="is damaged"):
            restore_backup(db, path)
        assert db.execute("SELECT count(*) FROM items").fetchone()[0] == 0  # nothing was changed
    finally:
        db.close()


@pytest.mark.parametrize("stored", ["1e999", "-1e999", "NaN", "Infinity"])
@pytest.mark.parametrize("key", ["playback.volume", "downloads.retries", "playback.speed", "playback.skip_back"])
def test_a_restored_setting_of_infinity_or_nan_reads_as_its_default(tmp_path: Path, key: str, stored: str) -> None:
    # A backup (or a damaged library) may hold any text as a setting's value: int(Infinity) raised OverflowError
    # from get_setting, at every start-up; a speed of NaN reached the player.
    path = _backup(tmp_path, lambda document: document["tables"].update(
        settings={"columns": ["key", "value"], "rows": [[key, stored]]}))
    db = open_library(tmp_path / "library.db")
    try:
        restore_backup(db, path)
        assert get_setting(db, key) == SETTINGS[key].default
    finally:
        db.close()


@pytest.mark.parametrize("args", [("search", "x", "--tag", "\udcff"), ("list", "--tag", "caf\udce9"),
                                  ("search", "graph", "--tag", "\ud800")])
def test_an_argument_that_is_not_utf8_is_a_sentence_not_a_traceback(tmp_path: Path, args: tuple[str, ...],
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # Bytes of argv that are not UTF-8 arrive as lone surrogates; SQLite raised UnicodeEncodeError on them.
    assert main(["--library", str(tmp_path / "library.db"), *args]) == 1
    assert capsys.readouterr().err == ("earmark: an argument holds bytes that are not UTF-8 text, which Earmark "
                                       "cannot store or search for.\n")


@pytest.mark.parametrize("bound", [2**63, -(2**63) - 1, 10**30])
def test_a_duration_filter_beyond_64_bits_filters_instead_of_failing(tmp_path: Path, bound: int) -> None:
    db = open_library(tmp_path / "library.db")
    try:
        assert count_items(db, ItemFilter(duration_min=bound)) == 0
        assert count_items(db, ItemFilter(duration_max=bound)) == 0
    finally:
        db.close()


@pytest.mark.parametrize("markup", ['<img src="x">', '<a href="../../etc/passwd">x</a>', '<img src="/etc/hosts">'])
def test_relative_links_resolved_against_a_file_page_are_dropped(markup: str) -> None:
    # nh3 checks the scheme before the resolver runs: against a file: page (a local feed's item, a restored
    # backup) "x" became file:///home/user/notes/x, an image the detail pane would ask for.
    assert "file:" not in sanitize(markup + "<p>text</p>", "file:///home/user/notes/")
    assert "https://example.com/" in sanitize(markup + "<p>text</p>", "https://example.com/ep/1")


LAUGHS = '<!ENTITY l0 "lol">' + "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 6))


@pytest.mark.parametrize("prolog", ['<?xml version="1.0"?>', '<?xml version="1.0" encoding="utf-8"?>\n<!-- x -->'])
def test_entities_declared_after_an_xml_declaration_are_not_expanded(prolog: str) -> None:
    # feedparser's replace_doctype only looks at the very start of the document: after an XML declaration the
    # DOCTYPE was left to expat, which expanded 300 bytes into 300 KB of "lol" per field (65 MB and 3 s at
    # deeper levels, until expat's amplification limit).
    document = (f"{prolog}<!DOCTYPE rss [{LAUGHS}<!ENTITY nbsp \"&#160;\">]><rss version=\"2.0\"><channel>"
                "<title>Laughs&nbsp;&l5;</title><item><title>&l5;</title><guid>1</guid></item></channel></rss>")
    feed = parse_feed(document.encode(), URL)
    assert feed.title == "Laughs &l5;" and feed.entries[0].title == "&l5;"  # &nbsp; kept (titles fold spaces)


def test_entities_in_a_doctype_that_cannot_be_read_refuse_the_feed() -> None:
    document = f'<?xml version="1.0"?><!DOCTYPE rss [{LAUGHS}<!ENTITY x "unterminated></rss>'
    with pytest.raises(FeedError, match="declares XML entities in a way Earmark cannot check"):
        parse_feed(document.encode(), URL)


def test_entities_declared_in_utf16_are_refused() -> None:
    document = f'<?xml version="1.0" encoding="utf-16"?><!DOCTYPE rss [{LAUGHS}]><rss><channel><title>&l5;</title>'
    with pytest.raises(FeedError, match="declares XML entities, which Earmark refuses for safety"):
        parse_feed(document.encode("utf-16"), URL)


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("address", ["http://[::1", "https://<![CDATA[cdn.example.com/ep1.mp3", "https://a]b.com/x.mp3",
                                     "https://[zz]/x.mp3"])
def test_an_enclosure_address_with_a_stray_bracket_is_left_out(address: str, fast: bool) -> None:
    # urljoin raises ValueError on a malformed IPv6 host: one such enclosure stopped the whole feed's import.
    document = rss(f'<item><title>Odd</title><enclosure url="{address}" type="audio/mpeg"/></item>'
                   '<item><title>Fine</title><enclosure url="https://cdn.example.com/a.mp3" type="audio/mpeg"/>'
                   "</item>")
    entries = parse_feed(document, URL, fast=fast).entries
    assert [(entry.title, entry.enclosure_url) for entry in entries] == [
        ("Odd", None), ("Fine", "https://cdn.example.com/a.mp3")]


@pytest.mark.parametrize("address", ["https://[x/a.mp3", "https://[zz]/b.m4a"])
def test_a_download_of_a_malformed_address_still_gets_a_file_name(tmp_path: Path, address: str) -> None:
    path = download_path(tmp_path, "Show", "Episode", address, "audio/mp4")
    assert path.name == "Episode.m4a" and path.parent == tmp_path.resolve() / "Show"
    assert not is_web_url(address)


@pytest.mark.parametrize("mark", ["-1:00:00,000", "-0:05", "0:-5", "1:+05", "+0:05", "nan", "inf", "-inf", "1e3",
                                  "1_0:00", "9" * 400, "0:" + "9" * 400])
def test_an_html_transcript_time_that_is_negative_or_not_a_clock_is_skipped(mark: str) -> None:
    # clock_seconds read "-1:00:00,000" as -3600 s (int() and float() take signs, "nan", "inf", "1e3", "1_0"): a
    # cue before the start of the episode, or at no time at all.
    document = f"<time>{mark}</time><p>Bad.</p><time>0:05</time><p>Good.</p>"
    transcript = parse_transcript(document.encode(), "t.html")
    assert [(c.start, c.text) for c in transcript.cues] == [(5.0, "Good.")] and transcript.skipped == 2


@pytest.mark.parametrize(("document", "name"), [
    ("WEBVTT\n\n-00:00:01.000 --> 00:00:02.000\nBad\n\n00:00:03.000 --> 00:00:04.000\nGood\n", "t.vtt"),
    ("1\n00:00:01,000 --> -00:00:02,000\nBad\n\n2\n00:00:03,000 --> 00:00:04,000\nGood\n", "t.srt"),
    ("0:00:03.000,0:00:04.000\nGood\n\n-0:00:01.000,0:00:02.000\nBad\n", "t.sbv"),
    ('{"segments": [{"startTime": -3600, "endTime": 2, "body": "Bad"}, {"startTime": 3, "endTime": 4, '
     '"body": "Good"}]}', "t.json"),
])
def test_a_negative_cue_time_is_refused_in_every_format(document: str, name: str) -> None:
    transcript = parse_transcript(document.encode(), name)
    assert [(c.start, c.end, c.text) for c in transcript.cues] == [(3.0, 4.0, "Good")] and transcript.skipped == 1


@pytest.mark.parametrize(("document", "name"), [
    ("WEBVTT\n\n00:00:05.000 --> 00:00:01.000\nBackwards\n", "t.vtt"),
    ("1\n00:00:05,000 --> 00:00:01,000\nBackwards\n", "t.srt"),
    ("0:00:05.000,0:00:01.000\nBackwards\n", "t.sbv"),
    ('{"segments": [{"startTime": 5, "endTime": 1, "body": "Backwards"}]}', "t.json"),
    ("<time>0:05</time><p>Backwards</p><time>0:01</time><p>Then.</p>", "t.html"),
])
def test_a_cue_never_ends_before_it_starts(document: str, name: str) -> None:
    cue = next(c for c in parse_transcript(document.encode(), name).cues if c.text == "Backwards")
    assert (cue.start, cue.end) == (5.0, 5.0)
