"""`earmark stats`: listening time, time saved by speed and by silence, episodes finished, articles read, per
podcast, from the history the progress-saving path writes."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from earmark.core.articles.store import ArticleData, save_articles
from earmark.core.db.connection import open_library, write_transaction
from earmark.core.db.history import record_play
from earmark.core.db.items import save_progress
from earmark.core.db.merge import store_feed
from earmark.core.db.reading import save_reading_progress
from earmark.core.models import EntryData, FeedData, ProgressUpdate
from helpers.cli import Cli

CONTRACT = {"listened_seconds", "saved_by_speed_seconds", "saved_by_silence_seconds", "episodes_finished",
            "articles_read", "per_source"}


def _feed(title: str, count: int) -> FeedData:
    return FeedData(title=title, entries=[
        EntryData(identity=f"{title}-{n}", kind="episode", title=f"{title} {n}", guid=f"{title}-{n}",
                  enclosure_url=f"https://cdn.example.com/{title}/{n}.mp3", duration=1000.0) for n in range(count)])


@pytest.fixture
def listened(library_path: Path) -> dict[str, int]:
    """Two podcasts listened to through the saving path: one at 2x with 60 s of silence skipped, finished; one
    at 1x, part-way; an article read to its end; and an old session from 2020."""
    db = open_library(library_path)
    try:
        fast = store_feed(db, "https://a.example.com/feed", _feed("Fast", 2))
        slow = store_feed(db, "https://b.example.com/feed", _feed("Slow", 1))
        one, old = fast.item_ids["Fast-0"], fast.item_ids["Fast-1"]
        part = slow.item_ids["Slow-0"]
        save_progress(db, ProgressUpdate(one, 400.0, 1000.0, speed=2.0, silence_saved=20.0))
        save_progress(db, ProgressUpdate(one, 1000.0, 1000.0, ended=True, speed=2.0, silence_saved=40.0))
        save_progress(db, ProgressUpdate(part, 300.0, 1000.0, speed=1.0))
        [article] = save_articles(db, [ArticleData(title="Words", url="https://c.example.com/a", site="C",
                                                   html="<p>" + "word " * 500 + "</p>")])
        save_reading_progress(db, article, 1.0)
        with write_transaction(db):
            record_play(db, old, 500.0, False, now=datetime(2020, 1, 6, 12, tzinfo=UTC))
        return {"fast": fast.source_id, "slow": slow.source_id, "article": article}
    finally:
        db.close()


def test_stats_json_adds_up_the_history(library_path: Path, capsys: pytest.CaptureFixture[str],
                                        listened: dict[str, int]) -> None:
    code, out, err = Cli(library_path, capsys)("stats", "--json")
    assert code == 0, err
    stats = json.loads(out)
    assert CONTRACT <= set(stats)
    # Fast-0: 1000 s covered, 60 s of it silence skipped, 940 s played at 2x: 470 s listened, 470 s saved.
    # Slow-0: 300 s at 1x. The 2020 session: 500 s at 1x.
    assert stats["saved_by_silence_seconds"] == 60.0
    assert stats["saved_by_speed_seconds"] == 470.0
    assert stats["listened_seconds"] == 470.0 + 300.0 + 500.0
    assert stats["episodes_finished"] == 1 and stats["episodes_started"] == 3
    assert stats["articles_read"] == 1 and stats["reading_seconds"] > 0
    assert [(s["source_id"], s["listened_seconds"]) for s in stats["per_source"]] == [
        (listened["fast"], 970.0), (listened["slow"], 300.0)]
    assert stats["per_source"][0]["title"] == "Fast"
    assert sum(d["listened_seconds"] for d in stats["per_day"]) == stats["listened_seconds"]
    assert stats["per_month"][0] == {"month": "2020-01", "listened_seconds": 500.0}


def test_stats_since_a_day_leaves_older_sessions_out(library_path: Path, capsys: pytest.CaptureFixture[str],
                                                     listened: dict[str, int]) -> None:
    since = (datetime.now().date() - timedelta(days=1)).isoformat()
    stats = json.loads(Cli(library_path, capsys)("stats", "--since", since, "--json")[1])
    assert stats["listened_seconds"] == 770.0 and stats["since"] == since
    assert [d["date"] for d in stats["per_day"]] == [datetime.now().date().isoformat()]


def test_stats_as_text_and_bad_dates(library_path: Path, capsys: pytest.CaptureFixture[str],
                                     listened: dict[str, int]) -> None:
    cli = Cli(library_path, capsys)
    code, out, _ = cli("stats")
    assert code == 0
    assert "Listened:            21 min" in out and "Episodes finished:   1 of 3 (33%)" in out
    assert "Saved by speed:      7 min" in out and "Saved by silence:    1 min" in out
    with pytest.raises(SystemExit) as exit_:
        cli("stats", "--since", "last tuesday")
    assert exit_.value.code == 2
    assert "'last tuesday' is not a date: give it as YYYY-MM-DD" in capsys.readouterr().err


def test_stats_of_an_empty_library(library_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stats = json.loads(Cli(library_path, capsys)("stats", "--json")[1])
    assert stats["listened_seconds"] == 0 and stats["per_source"] == [] and stats["completion"] is None
