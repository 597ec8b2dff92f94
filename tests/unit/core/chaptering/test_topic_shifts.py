"""Chapters made from a real transcript: the seed conference notes and meetup notes spoken by espeak-ng and heard
by Earmark's engine (tests/fixtures/spoken/build-seed-talks), where the notes' own sections say the topic changed."""

from __future__ import annotations

import json

import pytest

from earmark.core.chaptering import shifts
from earmark.core.chaptering.made import make_chapters
from earmark.core.models import Cue, Transcript
from helpers.feed_server import OWN_FIXTURES

TALKS = json.loads((OWN_FIXTURES / "spoken" / "em__seed-talks.json").read_text(encoding="utf-8"))
CUES = [Cue(start, end, text) for start, end, text in TALKS["cues"]]
SECTIONS = [section["start"] for section in TALKS["sections"]]
MEETUP = SECTIONS[-1]  # where the conference notes end and the meetup's begin
NEAR = 30.0  # seconds: a made chapter starts this close to where a section of the notes starts


def test_chapters_start_where_the_notes_change_section() -> None:
    chapters = make_chapters(Transcript(CUES, "generated"))
    minutes = CUES[-1].end / 60
    assert 3 * minutes / 60 <= len(chapters) <= 12 * minutes / 60  # 15 minutes: 1 to 3 chapters
    assert len(chapters) >= 2 and chapters[0].start == 0.0
    assert all(chapter.source == "made" for chapter in chapters)
    for chapter in chapters[1:]:
        assert min(abs(chapter.start - section) for section in SECTIONS) <= NEAR, chapter
    assert any(abs(chapter.start - MEETUP) <= NEAR for chapter in chapters)  # the strongest shift is found


def test_more_chapters_allowed_find_more_sections(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shifts, "PER_HOUR", (3, 24))  # as an hour-long episode is allowed 12: twice the density
    starts = shifts.topic_starts(CUES, CUES[-1].end)
    assert len(starts) >= 3
    assert sum(min(abs(at - section) for section in SECTIONS) <= NEAR for at in starts) >= len(starts) - 1
    assert all(b - a >= shifts.MIN_CHAPTER for a, b in zip([0.0, *starts], starts, strict=False))


def test_titles_name_each_part_by_its_specific_terms() -> None:
    chapters = make_chapters(Transcript(CUES, "generated"))
    titles = [chapter.title for chapter in chapters]
    assert len(set(titles)) == len(titles)
    meetup = next(chapter.title for chapter in chapters if abs(chapter.start - MEETUP) <= NEAR)
    assert "Intel" in meetup  # the meetup's guests came from Intel; the conference talks never name it
    assert all(not title.startswith("Part ") for title in titles)


def test_a_short_transcript_gets_no_chapters() -> None:
    short = [cue for cue in CUES if cue.end < 240]  # 4 minutes: not enough for two chapters at 12 an hour
    assert make_chapters(Transcript(short, "generated")) == []
    assert make_chapters(Transcript([], "generated")) == []
