"""Passages: transcript windows of 30–60 s ended at sentences, paragraphs of text, notes."""

from __future__ import annotations

from earmark.core.models import Cue
from earmark.core.passages.cutting import note_passage, text_passages, transcript_passages


def test_transcript_windows_end_at_a_sentence_after_thirty_seconds() -> None:
    cues = [Cue(n * 8.0, n * 8.0 + 7.5, f"Part {n} goes on" + ("." if n % 3 == 2 else ",")) for n in range(12)]
    passages = transcript_passages(cues)
    assert [(p.at, p.end) for p in passages] == [(0.0, 47.5), (48.0, 95.5)]
    assert passages[0].text.startswith("Part 0 goes on, Part 1") and passages[0].text.endswith("Part 5 goes on.")
    assert {p.source for p in passages} == {"transcript"}


def test_a_window_without_a_sentence_end_stops_at_sixty_seconds() -> None:
    cues = [Cue(n * 10.0, n * 10.0 + 10, "and so on") for n in range(9)]
    assert [(p.at, p.end) for p in transcript_passages(cues)] == [(0.0, 60.0), (60.0, 90.0)]


def test_paragraphs_keep_their_offset_and_short_lines_join_what_follows() -> None:
    long = "A paragraph that explains why guards are needed in a compiler, at some length. " * 3
    text = f"Heading\n{long}\n\nAnother paragraph long enough to stand alone as one, about CUDA graphs and trees."
    passages = text_passages(text, "article")
    assert passages[0].text == f"Heading {long.strip()}" and passages[0].offset == 0
    assert text[passages[1].offset:].startswith("Another paragraph")
    assert [p.source for p in passages] == ["article", "article"]


def test_a_very_long_paragraph_is_cut_at_sentences() -> None:
    text = " ".join(f"Sentence number {n} says a little more about strides." for n in range(60))
    passages = text_passages(text, "show_notes")
    assert len(passages) > 1 and all(len(p.text) <= 900 for p in passages)
    assert all(p.text.endswith(".") for p in passages)


def test_a_note_carries_its_quote_and_moment() -> None:
    passage = note_passage(7, "Guards!", "Guards check the inputs.", 61.0)
    assert (passage.source, passage.text, passage.at, passage.note_id) == ("note", "Guards!\nGuards check the inputs.",
                                                                            61.0, 7)
