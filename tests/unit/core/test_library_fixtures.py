"""Libraries written by every released schema version (kept under tests/fixtures/libraries, each created by the
code of its version) open in this version with everything the user had."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.db.items import get_item, list_items
from earmark.core.db.migrations import MIGRATIONS
from earmark.core.db.queries import ItemFilter
from earmark.core.settings import get_setting

FIXTURES = sorted((Path(__file__).parents[2] / "fixtures" / "libraries").glob("schema-v*.db"))


def test_there_is_a_fixture_for_the_first_schema() -> None:
    assert [path.name for path in FIXTURES][:1] == ["schema-v1.db"]


@pytest.mark.parametrize("fixture", FIXTURES, ids=[path.stem for path in FIXTURES])
def test_an_old_library_migrates_with_everything_intact(fixture: Path, tmp_path: Path) -> None:
    path = tmp_path / "library.db"
    shutil.copyfile(fixture, path)
    version = int(fixture.stem.removeprefix("schema-v"))
    db = open_library(path)
    try:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        items = list_items(db, ItemFilter())
        assert len(items) == 54
        by_title = {item.title: item.id for item in items}
        trees = get_item(db, by_title["CUDA graph trees"])
        assert trees.tags == ["memory", "to revisit"]
        assert trees.position == 42.5 and not trees.played
        assert get_item(db, by_title["Reference counting"]).played
        assert db.execute("SELECT at, text FROM notes").fetchall() == [(12.0, "Trees share memory pools")]
        assert get_setting(db, "playback.speed") == 1.5
        # The search index was rebuilt on the way (schema 3): titles, show notes and notes are found again.
        assert [item.title for item in list_items(db, ItemFilter(text="memory pools"))] == ["CUDA graph trees"]
        assert [item.title for item in list_items(db, ItemFilter(text="cuda graph trees"))][0] == "CUDA graph trees"
        assert [item.title for item in list_items(db, ItemFilter(text="reference counting"))][:2] == [
            "Reference counting", "Weak references"]  # show notes are indexed too
        if version < len(MIGRATIONS):
            assert path.with_name(f"{path.name}.v{version}.bak").exists()  # the backup before migrating
    finally:
        db.close()
