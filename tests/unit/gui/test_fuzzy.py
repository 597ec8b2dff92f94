"""Fuzzy matching for the command palette (pure logic)."""

from __future__ import annotations

from earmark.gui.fuzzy import fuzzy_score, fuzzy_sorted, in_order, slips


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


def test_a_slip_of_the_finger_still_finds_the_command_after_the_in_order_matches() -> None:
    entries = [("Next Chapter", "Playback"), ("Volume Up", "Playback"), ("Subscriptions", "Feeds"),
               ("Search", "Go"), ("Sleep at End of Chapter", "Playback")]
    assert fuzzy_sorted("chapter next", entries)[0] == 0  # the words swapped
    assert fuzzy_sorted("volumr up", entries)[0] == 1  # a wrong letter
    assert fuzzy_sorted("subscriptoins", entries)[0] == 2  # two letters swapped
    assert fuzzy_sorted("sleep", entries) == [4]  # an in-order match comes alone when nothing is near
    assert fuzzy_sorted("zzzz", entries) == []
    assert fuzzy_sorted("", entries) == [0, 1, 2, 3, 4]


def test_in_order_matches_come_before_the_slips() -> None:
    entries = [("Download", "Episode"), ("Downloaded Episodes", "Go")]
    assert in_order("downlaod", entries) == [1]  # "downlaod" is in "Downloaded Episodes" in order
    assert fuzzy_sorted("downlaod", entries) == [1, 0]
    assert slips("downlaod", entries)[0] == 0
