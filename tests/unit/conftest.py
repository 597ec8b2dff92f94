"""Fixtures for the core tests: a real library file in tmp_path and a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.sample import load_sample
from earmark.core.topics.build import update_relations
from helpers.cli import Cli
from helpers.feed_server import FeedServer, fixtures_dir, fixtures_root


@pytest.fixture
def library_file(tmp_path: Path) -> Path:
    """Where the test's library lives."""
    return tmp_path / "library.db"


@pytest.fixture
def library(library_file: Path) -> Iterator[Database]:
    """A new, migrated library in tmp_path, closed after the test."""
    db = open_library(library_file)
    yield db
    db.close()


@pytest.fixture
def feed_server(tmp_path: Path) -> Iterator[FeedServer]:
    """A server for one test: the shared fixtures (or an empty folder without them) plus scripted routes."""
    root = fixtures_root() if fixtures_root().is_dir() else tmp_path
    with FeedServer(root) as server:
        yield server


@pytest.fixture(scope="session")
def fixtures_server() -> Iterator[FeedServer]:
    """One server over the shared fixtures for the whole session (skips when they are missing)."""
    with FeedServer(fixtures_dir()) as server:
        yield server


Snapshot = Callable[[Database], dict[str, list[tuple[object, ...]]]]


def _snapshot(db: Database) -> dict[str, list[tuple[object, ...]]]:
    tables = ("sources", "items", "tags", "item_tags", "source_tags", "notes", "settings")
    return {table: db.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall() for table in tables}


@pytest.fixture
def snapshot() -> Snapshot:
    """A function returning every row of every user-data table, for before/after comparisons."""
    return _snapshot


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    """The command line on a library in tmp_path, run in-process."""
    return Cli(tmp_path / "library.db", capsys)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample library with its relations worked out in full (once for the module; copy it to change it)."""
    path = tmp_path_factory.mktemp("sample") / "library.db"
    db = open_library(path)
    load_sample(db)
    assert update_relations(db).full
    db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return path


@pytest.fixture
def copy(built: Path, tmp_path: Path) -> Iterator[Database]:
    """A copy of the built sample library that a test may change."""
    target = tmp_path / "library.db"
    shutil.copyfile(built, target)
    db = open_library(target)
    yield db
    db.close()
