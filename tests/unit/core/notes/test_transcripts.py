"""Transcripts: every shared fixture parses or is refused with a sentence; fetching over real HTTP; quotes."""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark.core.db.database import Database
from earmark.core.db.transcripts import store_transcript, stored_transcript, transcript_links
from earmark.core.errors import TranscriptError, UnreachableError
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import Cue, Transcript
from earmark.core.notes.transcript_parse import MAX_TRANSCRIPT_BYTES, parse_transcript
from earmark.core.notes.transcripts import choose_link, fetch_transcript, quote_at, take_note
from helpers.feed_server import OWN_FIXTURES, FeedServer, fixture_files, fixtures_dir, own_fixture_files

# What each fixture gives: (format, lines, lines left out), or the start of the sentence refusing it.
EXPECTED: dict[str, tuple[str, int, int] | str] = {
    "ns__docs__examples__transcripts__example.html": ("html", 10, 0),
    "ns__docs__examples__transcripts__example.json": ("json", 2, 0),  # 5 word segments, joined into 2 lines
    "ns__docs__examples__transcripts__example.srt": ("srt", 222, 0),
    "ns__docs__examples__transcripts__example.vtt": ("vtt", 7, 0),
    "pp__episode_podcast_transcript.json": "pp__episode_podcast_transcript.json is JSON but not a Podcasting 2.0",
    "pp__episode_podcast_transcript.rss": "The transcript pp__episode_podcast_transcript.rss has no timed lines",
    "wv__captions_with_bom.vtt": ("vtt", 4, 0),
    "wv__cue_tags.vtt": ("vtt", 3, 0),
    "wv__invalid.vtt": ("srt", 7, 0),  # no WEBVTT line: read as plain cues all the same
    "wv__invalid_format1.srt": "The transcript wv__invalid_format1.srt has no timed lines",
    "wv__invalid_format3.srt": "The transcript wv__invalid_format3.srt has no timed lines",
    "wv__invalid_timeframe.sbv": ("sbv", 4, 1),
    "wv__invalid_timeframe.vtt": ("vtt", 6, 1),
    "wv__metadata_headers.vtt": ("vtt", 2, 0),
    "wv__missing_caption_text.sbv": ("sbv", 4, 0),
    "wv__missing_caption_text.vtt": ("vtt", 4, 0),
    "wv__missing_timeframe.srt": ("srt", 4, 1),
    "wv__netflix_chicas_del_cable.vtt": ("vtt", 865, 0),
    "wv__one_caption.srt": ("srt", 1, 0),
    "wv__sample.sbv": ("sbv", 5, 0),
    "wv__sample.vtt": ("vtt", 16, 0),
    "wv__two_captions.sbv": ("sbv", 2, 0),
    "wv__youtube_dl.vtt": ("vtt", 4, 0),
}
# The same for the transcripts written for these tests (tests/fixtures/transcripts), which every clone has.
OWN_EXPECTED: dict[str, tuple[str, int, int] | str] = {
    "em__bad-time.vtt": ("vtt", 2, 1),
    "em__bom.vtt": ("vtt", 2, 0),
    "em__cp1252.srt": ("srt", 1, 0),
    "em__damaged.sbv": ("sbv", 2, 1),
    "em__episode.html": ("html", 3, 0),
    "em__episode.sbv": ("sbv", 3, 0),
    "em__episode.srt": ("srt", 4, 0),  # the last cue's number follows a cue without a blank line
    "em__episode.vtt": ("vtt", 4, 0),  # a NOTE block and a cue identifier are not lost text
    "em__missing-time.srt": ("srt", 2, 1),
    "em__no-header.vtt": ("srt", 3, 0),
    "em__only-a-number.srt": "The transcript em__only-a-number.srt has no timed lines",
    "em__words.json": ("json", 2, 1),  # five words in two lines; a segment whose time is "soon" left out
}
FIXTURES = fixture_files("transcripts") + own_fixture_files("transcripts")


def test_every_transcript_fixture_is_listed_here() -> None:
    assert [path.name for path in own_fixture_files("transcripts")] == sorted(OWN_EXPECTED)
    fixtures_dir()  # skips when the shared fixtures are not there
    assert sorted(path.name for path in fixture_files("transcripts")) == sorted(EXPECTED)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_each_fixture_parses_or_is_refused_with_a_sentence(path: Path) -> None:
    expected = {**EXPECTED, **OWN_EXPECTED}[path.name]
    if isinstance(expected, str):
        with pytest.raises(TranscriptError) as caught:
            parse_transcript(path.read_bytes(), path.name)
        assert str(caught.value).startswith(expected) and str(caught.value).endswith(".")
        return
    transcript = parse_transcript(path.read_bytes(), path.name)
    assert (transcript.format, len(transcript.cues), transcript.skipped) == expected
    assert all(cue.text and cue.text == cue.text.strip() and "<" not in cue.text for cue in transcript.cues)
    assert all(cue.end >= cue.start >= 0 for cue in transcript.cues)
    assert [cue.start for cue in transcript.cues] == sorted(cue.start for cue in transcript.cues)


def read(name: str) -> Transcript:
    return parse_transcript((fixtures_dir() / "transcripts" / name).read_bytes(), name)


def test_text_speakers_and_times_come_out_clean() -> None:
    vtt = read("ns__docs__examples__transcripts__example.vtt")
    assert vtt.cues[0] == Cue(0.0, 2.76, "In today's episode, you'll learn whether or not you", "Sarah")
    assert "Podcasting Q&A," in vtt.cues[2].text  # &amp; decoded, CRLF gone
    assert vtt.cues[5].speaker == "Gillian"
    html = read("ns__docs__examples__transcripts__example.html")
    assert (html.cues[1].start, html.cues[1].speaker) == (53.0, "Sarah")
    assert html.cues[0].end == 53.0 and html.cues[0].text.startswith("When you first get started")
    json_lines = read("ns__docs__examples__transcripts__example.json")
    assert json_lines.cues == [Cue(0.5, 2.5, "I am your father.", "Darth Vader"), Cue(2.75, 3.0, "Nooooo", "Luke")]
    tags = read("wv__cue_tags.vtt")
    assert tags.cues[0] == Cue(16.5, 18.5, "When the moon hits your eye")
    assert read("wv__captions_with_bom.vtt").cues[0].text == "Caption text #1"
    assert read("wv__two_captions.sbv").cues[1].text == "Caption text #2 (line 1) Caption text #2 (line 2)"
    netflix = read("wv__netflix_chicas_del_cable.vtt")
    assert netflix.cues[0] == Cue(7.96, 9.48, "[Alba] En 1928,")
    assert netflix.cues[1].text == "las mujeres éramos algo así como adornos"
    youtube = read("wv__youtube_dl.vtt")
    assert [cue.start for cue in youtube.cues] == [286.07, 286.47, 304.08, 305.069]  # cue after text, no blank line


def own(name: str) -> Transcript:
    return parse_transcript((OWN_FIXTURES / "transcripts" / name).read_bytes(), name)


def test_text_speakers_and_times_of_the_transcripts_written_here() -> None:
    vtt = own("em__episode.vtt")
    assert vtt.cues[0] == Cue(0.0, 2.76, "Welcome back to Compiler Corner.", "Ada")  # CRLF, settings, identifier
    assert vtt.cues[1].text == "This week: Q&A, then SSA."  # &amp; decoded
    assert vtt.cues[2] == Cue(5.1, 8.0, "And phi nodes!", "Grace")  # a voice with a class, <c> tags gone
    assert vtt.cues[3].start == 62.5  # mm:ss.ttt
    srt = own("em__episode.srt")
    assert srt.cues[1].text == "Today: register allocation, and why spilling is not a failure."
    assert [cue.text for cue in srt.cues[2:]] == ["Grace: Let's start with graph colouring.", "Ada: Chaitin, 1981."]
    assert own("em__cp1252.srt").cues[0].text == "Café crème, s’il vous plaît."
    assert own("em__bom.vtt").cues[0].text == "A file that starts with a byte order mark."
    assert own("em__episode.sbv").cues[1] == Cue(2.1, 5.0, "YouTube writes its captions like this.")
    html = own("em__episode.html")
    assert [(cue.start, cue.speaker) for cue in html.cues] == [(0.0, "Ada"), (53.0, "Grace"), (3723.0, "Ada")]
    assert html.cues[1].text == "Thanks, Ada. Let's talk about SSA." and html.cues[0].end == 53.0
    words = own("em__words.json")
    assert words.cues == [Cue(0.5, 1.6, "Spilling is fine.", "Ada"), Cue(2.0, 3.0, "Is it?", "Grace")]
    assert quote_at(words, 2.5) == "Spilling is fine. Is it?"


def test_a_transcript_written_here_is_fetched_over_http() -> None:
    with FeedServer(OWN_FIXTURES) as server:
        assert len(fetch_transcript(server.url("transcripts/em__episode.vtt")).cues) == 4
        with pytest.raises(TranscriptError, match="em__only-a-number.srt has no timed lines"):
            fetch_transcript(server.url("transcripts/em__only-a-number.srt"))


@pytest.mark.parametrize("data, sentence", [
    (b"", "is empty"),
    (b"   \n\n", "is empty"),
    (b"{not json", "is not valid JSON"),
    (b'{"segments": "words"}', "has no list of segments"),
    (b"Just some words someone typed.", "has no timed lines"),
    (b"<html><body><p>No times here.</p></body></html>", "has no timed lines"),
    (b"WEBVTT\n\n00:00:0x.000 --> 00:00:02.000\nbroken\n", "has no timed lines"),
])
def test_broken_transcripts_are_refused_with_a_sentence(data: bytes, sentence: str) -> None:
    with pytest.raises(TranscriptError, match=sentence):
        parse_transcript(data, "t.txt")


def test_a_huge_transcript_is_refused() -> None:
    with pytest.raises(TranscriptError, match="larger than 10 MB"):
        parse_transcript(b"x" * (MAX_TRANSCRIPT_BYTES + 1), "huge.vtt")


def test_other_encodings_and_damaged_json_segments() -> None:
    latin = parse_transcript("1\n00:00:01,000 --> 00:00:02,000\nCafé über\n".encode("cp1252"), "l.srt")
    assert latin.cues[0].text == "Café über"
    utf16 = parse_transcript("WEBVTT\n\n00:01.000 --> 00:02.000\nhé\n".encode("utf-16"), "w.vtt")
    assert utf16.cues[0].text == "hé"
    mixed = parse_transcript(b'{"segments": [{"startTime": 1, "body": "ok."}, {"body": "no time"}, 3]}', "m.json")
    assert ([cue.text for cue in mixed.cues], mixed.skipped) == (["ok."], 2)


def test_html_is_read_without_running_or_fetching_anything() -> None:
    page = (b'<!DOCTYPE html [<!ENTITY x "boom">]><script>alert(1)</script><time>0:05</time>'
            b'<p>Hello &x; <img src="http://127.0.0.1:9/x.png"> there</p>')
    transcript = parse_transcript(page, "t.html")
    assert transcript.cues == [Cue(5.0, 6.2, "Hello &x; there")]


def test_the_line_at_a_time() -> None:
    transcript = read("wv__sample.vtt")
    assert transcript.index_at(0.0) is None
    assert transcript.index_at(0.5) == 0
    assert transcript.index_at(10.0) == 1
    assert transcript.index_at(10_000) == len(transcript.cues) - 1


def test_quotes_are_the_sentence_spoken_and_the_one_before() -> None:
    srt = read("ns__docs__examples__transcripts__example.srt")
    first = ("Travis: When you first get started in podcasting, it's almost guaranteed that you're going to make a "
             "handful of rookie mistakes, but that doesn't mean that you have to make all the mistakes.")
    assert quote_at(srt, 5.0) == first
    assert quote_at(srt, 14.0).startswith(first + " So in this special bonus podcast episode")
    assert quote_at(srt, 0.0) == "" and quote_at(srt, 10_000) == ""
    html = read("ns__docs__examples__transcripts__example.html")
    assert quote_at(html, 200.0) == ("And then the third thing that you want to make sure you mentioned in your "
                                     "podcast intro is why someone should care. Why should anyone care that your "
                                     "podcast exists?")
    assert quote_at(read("ns__docs__examples__transcripts__example.json"), 2.9) == "I am your father. Nooooo"
    long = Transcript([Cue(0, 100, "word " * 300)], "srt")
    assert len(quote_at(long, 50)) <= 500 and quote_at(long, 50).endswith("…")


def test_choosing_among_a_feeds_transcripts() -> None:
    srt = {"url": "https://x/t.srt", "type": "application/srt"}
    json_link = {"url": "https://x/t.json", "type": "application/json"}
    plain = {"url": "https://x/t.txt", "type": "text/plain"}
    assert choose_link([plain, srt, json_link]) == json_link
    assert choose_link([plain]) == plain
    assert choose_link([]) is None


def test_fetch_over_http_and_errors(fixtures_server: FeedServer) -> None:
    url = fixtures_server.url("transcripts/ns__docs__examples__transcripts__example.srt")
    assert len(fetch_transcript(url).cues) == 222
    with pytest.raises(UnreachableError, match="404"):
        fetch_transcript(fixtures_server.url("transcripts/missing.vtt"))
    with pytest.raises(TranscriptError, match="wv__invalid_format1.srt has no timed lines"):
        fetch_transcript(fixtures_server.url("transcripts/wv__invalid_format1.srt"))


def test_a_feeds_transcript_links_reach_the_item_and_notes_get_quotes(library: Database,
                                                                      fixtures_server: FeedServer) -> None:
    result = subscribe(library, fixtures_server.url("transcripts/pp__episode_podcast_transcript.rss"))
    [item_id] = result.new
    assert transcript_links(library, item_id) == [{"url": "https://example.com/1/transcript.txt",
                                                   "type": "text/plain"}]
    assert take_note(library, item_id, "Before any transcript.", 1.0).quote == ""
    transcript = fetch_transcript(fixtures_server.url("transcripts/ns__docs__examples__transcripts__example.vtt"))
    store_transcript(library, item_id, "https://example.com/t.vtt", transcript)
    cached = stored_transcript(library, item_id)
    assert cached is not None and cached.transcript == transcript and cached.error is None
    note = take_note(library, item_id, "Trailers: yes or no?", 12.0)
    assert note.quote.startswith("And if so, what should you include in one? Welcome to Podcasting Q&A")
    store_transcript(library, item_id, "https://example.com/t.vtt", None, "The transcript t.vtt is empty.")
    failed = stored_transcript(library, item_id)
    assert failed is not None and failed.transcript is None and failed.error == "The transcript t.vtt is empty."
