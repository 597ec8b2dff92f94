"""Sync test fixtures: a user on the real mygpo server and two libraries logged in as two devices of it; and
``service``, a user with a phone on each real server in each flavour (mygpo; oPodSync's gpodder.net API and its
Nextcloud API), for the tests that must hold against them all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from earmark.core.db.database import Database
from earmark.core.sync.session import log_in
from helpers.mygpo_server import MygpoServer
from helpers.opodsync_server import OpodsyncServer, php
from helpers.sync_devices import Phone, device
from helpers.sync_servers import MygpoclientPhone, NextcloudPhone, SyncService


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


@pytest.fixture(scope="session")
def opodsync(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OpodsyncServer]:
    """oPodSync (PHP) on 127.0.0.1 for the whole test session; skips where php is missing."""
    server = OpodsyncServer(php(), tmp_path_factory.mktemp("opodsync")).start()
    yield server
    server.stop()


@pytest.fixture(params=["mygpo", "opodsync", "opodsync-nextcloud"])
def service(request: pytest.FixtureRequest) -> SyncService:
    """A new user on one of the servers, in one of the flavours, with a phone that is not Earmark."""
    if request.param == "mygpo":  # raw HTTP: its 401 carries no Basic challenge, which mygpoclient waits for
        mygpo = request.getfixturevalue("mygpo")
        user = mygpo.new_user()
        return SyncService("gpodder", mygpo.url, user, Phone(mygpo, user))
    server = request.getfixturevalue("opodsync")
    user = server.new_user()
    if request.param.endswith("nextcloud"):
        return SyncService("nextcloud", server.url, user, NextcloudPhone(server, user))
    return SyncService("gpodder", server.url, user, MygpoclientPhone(server, user))


@pytest.fixture
def libraries(tmp_path: Path, service: SyncService) -> Iterator[tuple[Database, Database]]:
    """Two libraries logged in to ``service`` as two devices (laptop and desktop)."""
    a, b = device(tmp_path, "a"), device(tmp_path, "b")
    for db, name in ((a, "laptop"), (b, "desktop")):
        log_in(db, service.kind, service.url, *service.user, device=name)
    yield a, b
    a.close()
    b.close()
