"""Fuzzy matching for the command palette (pure logic)."""

from __future__ import annotations

from earmark.gui.fuzzy import fuzzy_score, fuzzy_sorted


def test_characters_must_appear_in_order() -> None:
    assert fuzzy_score("nxch", "Next Chapter") is not None
    assert fuzzy_score("chnx", "Next Chapter") is None
    assert fuzzy_score("", "anything") == 0.0
    assert fuzzy_score("NEXT chap", "next chapter") is not None  # case and spaces ignored


def test_word_starts_and_runs_rank_first() -> None:
    entries = [("Mute", "Playback"), ("Mark Unplayed", "Episode"), ("Mark Played", "Episode"),
               ("Play/Pause", "Playback")]
    assert [entries[i][0] for i in fuzzy_sorted("mp", entries)][:1] == ["Mark Played"]
    assert fuzzy_sorted("pause", entries)[0] == 3


def test_a_match_in_the_name_beats_one_through_the_menu() -> None:
    entries = [("Clear Up Next", "Up Next"), ("Next Chapter", "Playback"), ("Search", "Go")]
    assert fuzzy_sorted("next", entries)[0] == 1
    assert fuzzy_sorted("go search", entries) == [2]  # the menu helps when typed
