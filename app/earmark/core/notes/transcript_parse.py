"""Reading transcripts: SRT, WebVTT, YouTube SBV, Podcasting 2.0 JSON and HTML, into timed lines."""

from __future__ import annotations

import html
import json
import math
import re
from collections.abc import Callable
from dataclasses import field
from html.parser import HTMLParser

from earmark.core.errors import TranscriptError
from earmark.core.models import Cue, Transcript
from earmark.core.records import record

MAX_TRANSCRIPT_BYTES = 10 * 1024 * 1024
_TIME = r"(?:\d+:)?\d{1,2}:\d{2}(?:[.,]\d{1,3})?"
_VTT_TIMING = re.compile(rf"({_TIME})\s*-->\s*({_TIME})(?:\s.*)?")
_SBV_TIMING = re.compile(rf"({_TIME}),({_TIME})")
_SBV_LIKE = re.compile(r"\d+:\d[\w:.]*,\S*")  # what a damaged SBV timing line still looks like
_CLOCK = re.compile(r"(?:\d+:){0,2}\d+(?:[.,]\d+)?")  # what clock_seconds reads (HTML<time> is free text)
_INDEX = re.compile(r"\d+")
# No "<" inside a tag: with "[^>]*", a line of 200,000 "<" took 45 s (every "<" scanned to the end; found by fuzzing).
_TAG = re.compile(r"<[^<>]*>")
_VOICE = re.compile(r"<v(?:\.[\w.-]+)?\s+([^<>]+)>")
_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*$")
_VTT_BLOCKS = ("WEBVTT", "NOTE", "STYLE", "REGION")
_JSON_LINE_CHARS = 160  # word-level JSON segments are joined into lines of about this length


def parse_transcript(data: bytes, name: str) -> Transcript:
    """The timed lines of a transcript file, whatever its format (told from its content, not its name).

    Lines whose timing cannot be read are left out and counted in ``skipped``; TranscriptError with a
    sentence naming ``name`` when nothing in it is a timed line.
    """
    if len(data) > MAX_TRANSCRIPT_BYTES:
        raise TranscriptError(f"The transcript {name} is larger than {MAX_TRANSCRIPT_BYTES // 2**20} MB.")
    text = _decode(data).strip()
    if not text:
        raise TranscriptError(f"The transcript {name} is empty.")
    if text[0] in "[{":
        transcript = _parse_json(text, name)
    elif "-->" in text:
        transcript = _parse_blocks(text, "vtt" if text.startswith("WEBVTT") else "srt", _VTT_TIMING,
                                   lambda line: "-->" in line)
    elif _SBV_LIKE.match(text):
        transcript = _parse_blocks(text, "sbv", _SBV_TIMING, _SBV_LIKE.fullmatch)
    elif "<" in text:
        transcript = _parse_html(text)
    else:
        transcript = Transcript([], "text")
    if not transcript.cues:
        raise TranscriptError(f"The transcript {name} has no timed lines that Earmark can read (it knows SRT, "
                              "WebVTT, SBV, Podcasting 2.0 JSON and HTML with <time> marks).")
    transcript.cues.sort(key=lambda cue: cue.start)
    return transcript


def _decode(data: bytes) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def clock_seconds(text: str) -> float:
    """Seconds from ``[h:]mm:ss[.mmm]`` (a comma also separates the milliseconds, as in SRT); ValueError when
    ``text`` is not such a clock: only digits, so never negative (int() and float() would take "-1", "+5",
    "nan", "inf", "1e3" and "1_0"; found by fuzzing: "-1:00:00,000" was a cue an hour before the start)."""
    if not _CLOCK.fullmatch(text):
        raise ValueError(f"{text} is not a time")
    parts = text.replace(",", ".").split(":")
    seconds = float(parts[-1])
    try:
        for unit, value in zip((60, 3600), reversed(parts[:-1]), strict=False):
            seconds += unit * int(value)
    except OverflowError as exc:  # found by fuzzing: hours of hundreds of digits are beyond any float
        raise ValueError(f"{text} is not a time") from exc
    if not math.isfinite(seconds):  # seconds of hundreds of digits: float() says inf
        raise ValueError(f"{text} is not a time")
    return seconds


@record
class _Draft:
    start: float
    end: float
    lines: list[str] = field(default_factory=list)


def _parse_blocks(text: str, fmt: str, timing: re.Pattern[str], damaged: Callable[[str], object]) -> Transcript:
    """Cue files: a timing line, then text lines until a blank line or the next timing line."""
    cues: list[Cue] = []
    skipped = 0
    draft: _Draft | None = None
    block: str | None = None  # what the current block is: cue, index (SRT number), ignore
    named = False  # the line before was a block's first and was counted: a WebVTT cue identifier if a time follows
    for raw in text.splitlines():
        line = raw.strip()
        times = _times(timing.fullmatch(line))
        first, named = named, False
        if times:
            if draft is not None and draft.lines and _INDEX.fullmatch(draft.lines[-1]):
                draft.lines.pop()  # the next cue's SRT number, written without a blank line before it
            skipped -= first  # that line was the cue's name ("intro", "chapter-2"), not lost text
            _finish(draft, cues)
            draft, block = _Draft(*times), "cue"
        elif not line:
            _finish(draft, cues)
            draft, block = None, None
        elif damaged(line):  # a timing line that cannot be read: its cue is left out
            _finish(draft, cues)
            draft, block = None, "ignore"
            skipped += 1
        elif draft is not None:
            draft.lines.append(line)
        elif block is None:
            block = "index" if _INDEX.fullmatch(line) else "ignore"
            named = not (line.startswith(_VTT_BLOCKS) or _INDEX.fullmatch(line))
            skipped += named  # text that has no time
        elif block == "index":  # a number followed by text, not by a time: a cue that lost its timing
            block = "ignore"
            skipped += 1
    _finish(draft, cues)
    return Transcript(cues, fmt, skipped)


def _times(match: re.Match[str] | None) -> tuple[float, float] | None:
    """The start and end of a timing line; None when it is not one, or its times cannot be read."""
    if match is None:
        return None
    try:
        return clock_seconds(match.group(1)), clock_seconds(match.group(2))
    except ValueError:  # counted as a damaged timing line by the caller
        return None


def _finish(draft: _Draft | None, cues: list[Cue]) -> None:
    if draft is None:
        return
    joined = " ".join(draft.lines)
    voice = _VOICE.search(joined)
    words = " ".join(html.unescape(_TAG.sub("", joined)).split())
    if words:
        cues.append(Cue(draft.start, max(draft.start, draft.end), words, voice.group(1).strip() if voice else ""))


def _parse_json(text: str, name: str) -> Transcript:
    """Podcasting 2.0 JSON: segments with startTime, endTime, body and speaker, often one word each."""
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise TranscriptError(f"The transcript {name} is not valid JSON ({exc}).") from exc
    segments = document.get("segments") if isinstance(document, dict) else None
    if not isinstance(segments, list):
        raise TranscriptError(f"{name} is JSON but not a Podcasting 2.0 transcript: it has no list of segments.")
    cues: list[Cue] = []
    skipped = 0
    for segment in segments:
        try:
            start, end = float(segment["startTime"]), float(segment.get("endTime", segment["startTime"]))
            body, speaker = " ".join(str(segment["body"]).split()), str(segment.get("speaker") or "")
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
            skipped += 1
            continue
        if not 0 <= start < math.inf:  # float() reads "nan" and "inf", json NaN and Infinity: no place to play
            skipped += 1
            continue
        if not start <= end < math.inf:
            end = start
        if not body:
            continue
        last = cues[-1] if cues else None
        if (last is not None and last.speaker == speaker and start - last.end < 2.0
                and not _SENTENCE_END.search(last.text) and len(last.text) < _JSON_LINE_CHARS):
            cues[-1] = Cue(last.start, max(last.end, end), f"{last.text} {body}", speaker)
        else:
            cues.append(Cue(start, max(start, end), body, speaker))
    return Transcript(cues, "json", skipped)


class _HtmlTranscript(HTMLParser):
    """The Podcasting 2.0 HTML form: ``<cite>Speaker:</cite> <time>0:53</time> <p>text</p>`` repeated.
    html.parser never fetches or expands anything: it is safe on any input."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[tuple[float | None, str, str]] = []
        self.skipped = 0
        self._open: str | None = None
        self._text: list[str] = []
        self._speaker = ""
        self._time: float | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("cite", "time", "p"):
            self._open, self._text = tag, []

    def handle_data(self, data: str) -> None:
        if self._open:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag != self._open:
            return
        text = " ".join("".join(self._text).split())
        self._open = None
        if tag == "cite":
            self._speaker = text.rstrip(":").strip()
        elif tag == "time":
            try:
                self._time = clock_seconds(text)
            except ValueError:
                self._time = None
                self.skipped += 1
        elif text:
            self.paragraphs.append((self._time, text, self._speaker))
            self._time = None


def _parse_html(text: str) -> Transcript:
    parser = _HtmlTranscript()
    try:
        parser.feed(text)
        parser.close()
    except AssertionError:  # found by fuzzing: html.parser's way of failing on a "<![" section it cannot name
        parser.skipped += 1  # what was read before it stays
    timed = [(at, words, speaker) for at, words, speaker in parser.paragraphs if at is not None]
    cues = []
    for number, (start, words, speaker) in enumerate(timed):
        following = timed[number + 1][0] if number + 1 < len(timed) else None
        end = following if following is not None else start + 0.4 * len(words.split())  # about 150 words a minute
        cues.append(Cue(start, max(start, end), words, speaker))
    return Transcript(cues, "html", parser.skipped + len(parser.paragraphs) - len(timed))
