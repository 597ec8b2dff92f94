"""Sync test fixtures: a user on the real mygpo server, and two libraries logged in as two devices of it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from earmark.core.db.database import Database
from earmark.core.sync.session import log_in
from helpers.mygpo_server import MygpoServer
from helpers.sync_devices import device


@pytest.fixture
def user(mygpo: MygpoServer) -> tuple[str, str]:
    return mygpo.new_user()


@pytest.fixture
def devices(tmp_path: Path, mygpo: MygpoServer,
            user: tuple[str, str]) -> Iterator[tuple[Database, Database]]:
    a, b = device(tmp_path, "a"), device(tmp_path, "b")
    log_in(a, "gpodder", mygpo.url, *user, device="laptop")
    log_in(b, "gpodder", mygpo.url, *user, device="desktop")
    yield a, b
    a.close()
    b.close()
