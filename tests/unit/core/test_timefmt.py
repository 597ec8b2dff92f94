"""Durations and timestamps: every iTunes duration form the fixtures use, and the clock format."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from earmark.core.timefmt import format_ago, format_clock, iso_from_struct, now_iso, parse_duration


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("10475", 10475),  # Giant Bombcast: plain seconds
        ("28:49", 28 * 60 + 49),  # The Omni Show: MM:SS
        ("07:00", 420),  # DW: MM:SS, not 7 hours
        ("7:00", 420),
        ("01:54:09", 3600 + 54 * 60 + 9),  # ATP: HH:MM:SS
        ("00:16:00", 960),  # 1865: HH:MM:SS with zero hours
        ("1:02:03", 3723),
        ("90:00", 5400),  # MM:SS with more than 59 minutes
        (" 28:49 ", 1729),
        ("1500.5", 1500.5),
        ("1_500", 1500),  # what float() reads
        ("0:00:01", 1),
        (10475, 10475),  # feedparser may hand over a number
    ],
)
def test_parse_duration_reads_every_form(text: object, seconds: float) -> None:
    assert parse_duration(text) == seconds


def test_mm_ss_is_minutes_not_hours() -> None:
    assert parse_duration("07:00") == 7 * 60
    assert parse_duration("07:00") != 7 * 3600


@pytest.mark.parametrize(
    "junk",
    ["abc", "", "   ", None, "1:75", "1:60:00", "-5", "-1:00", "0", "00:00", "12:30:45:00", "PT1H", "nan", "inf",
     "1:2:3:4", "10 minutes", ":30", "1::30"],
)
def test_parse_duration_gives_none_for_junk(junk: object) -> None:
    assert parse_duration(junk) is None


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0, "0:00"),
        (9, "0:09"),
        (59.9, "0:59"),
        (60, "1:00"),
        (1729, "28:49"),
        (3599, "59:59"),
        (3600, "1:00:00"),
        (6849, "1:54:09"),
        (36000, "10:00:00"),
    ],
)
def test_format_clock(seconds: float, text: str) -> None:
    assert format_clock(seconds) == text


@pytest.mark.parametrize("unknown", [None, -1, -0.5])
def test_format_clock_shows_a_dash_when_unknown(unknown: float | None) -> None:
    assert format_clock(unknown) == "—"


@pytest.mark.parametrize(("text", "clock"), [("28:49", "28:49"), ("01:54:09", "1:54:09"), ("07:00", "7:00")])
def test_parse_then_format_round_trips(text: str, clock: str) -> None:
    assert format_clock(parse_duration(text)) == clock


def test_iso_from_struct_is_utc_iso_8601() -> None:
    assert iso_from_struct(time.gmtime(0)) == "1970-01-01T00:00:00+00:00"
    assert iso_from_struct(time.strptime("2019-10-01 12:30:05", "%Y-%m-%d %H:%M:%S")) == "2019-10-01T12:30:05+00:00"
    assert iso_from_struct(None) is None


def test_now_iso_is_utc_to_the_second() -> None:
    value = now_iso()
    assert value.endswith("+00:00")
    assert "." not in value


@pytest.mark.parametrize(("iso", "expected"), [
    (None, "never"),
    ("not a time", "never"),
    ("2026-01-10T11:59:30+00:00", "just now"),
    ("2026-01-10T11:55:00+00:00", "5 min ago"),
    ("2026-01-10T09:00:00+00:00", "3 h ago"),
    ("2026-01-09T12:00:00+00:00", "1 day ago"),
    ("2026-01-01T12:00:00", "9 days ago"),  # a time without zone is UTC
])
def test_format_ago(iso: str | None, expected: str) -> None:
    assert format_ago(iso, datetime(2026, 1, 10, 12, 0, tzinfo=UTC)) == expected
