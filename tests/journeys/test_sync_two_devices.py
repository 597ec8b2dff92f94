"""Two libraries are two devices and raw HTTP is a phone, all through the real ``earmark`` command line, a real
gpodder.net API server (gpodder-fastapi-router) and a real keyring (gnome-keyring-daemon on a private bus)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers.feed_server import FeedServer
from helpers.mygpo_server import MygpoServer
from helpers.sync_devices import DURATION, Phone, serve_podcast
from helpers.sync_proxy import Fault, SyncProxy


@dataclass
class Device:
    """One library driven by the command line, as a person (or cron) would."""

    library: Path
    config: Path

    def run(self, *args: str, stdin: str = "", ok: bool = True,
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(self.command(*args), input=stdin, capture_output=True, text=True, timeout=timeout,
                              env=self.env())
        assert (done.returncode == 0) == ok, (done.returncode, done.stdout, done.stderr)
        return done

    def command(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "earmark", "--library", str(self.library), *args]

    def env(self) -> dict[str, str]:
        return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "EARMARK_CONFIG": str(self.config)}

    def json(self, *args: str, ok: bool = True) -> object:
        return json.loads(self.run(*args, "--json", ok=ok).stdout)

    def episode(self, number: int) -> dict[str, object]:
        items = self.json("list")
        assert isinstance(items, list)
        return next(item for item in items if item["title"] == f"cast episode {number}")


@pytest.fixture
def feed_server(tmp_path: Path) -> Iterator[FeedServer]:
    with FeedServer(tmp_path / "served") as server:
        yield server


@pytest.fixture
def user(mygpo: MygpoServer) -> tuple[str, str]:
    return mygpo.new_user()


@pytest.fixture
def devices(tmp_path: Path, keyring_bus: str, mygpo: MygpoServer,
            user: tuple[str, str]) -> Iterator[tuple[Device, ...]]:
    a, b = (Device(tmp_path / name / "library.db", tmp_path / name / "earmark.conf") for name in ("a", "b"))
    for device, name in ((a, "laptop"), (b, "desktop")):
        done = device.run("sync", "login", mygpo.url, user[0], "--device", name, stdin=user[1] + "\n")
        assert f"Logged in to {mygpo.url} as {user[0]}; this device is {name}" in done.stdout
        assert user[1] not in done.stdout + done.stderr
    yield a, b


def test_subscribe_play_and_a_phone_travel_between_devices(devices, feed_server: FeedServer, mygpo: MygpoServer,
                                                            user: tuple[str, str]) -> None:
    a, b = devices
    feed = serve_podcast(feed_server)
    # Subscribe on library A and sync; sync B: B has the podcast.
    a.run("subscribe", feed)
    assert a.json("sync")["subscriptions_sent"] == 1  # type: ignore[index]
    report = b.json("sync")
    assert isinstance(report, dict) and report["subscriptions_added"] == 1 and report["errors"] == []
    assert [source["url"] for source in b.json("sources")] == [feed]  # type: ignore[union-attr]
    assert b.episode(1)["title"] == "cast episode 1"
    # An action posted by the phone appears on both.
    Phone(mygpo, user).play(feed, feed_server, 2, 120)
    for device in (a, b):
        report = device.json("sync")
        assert (report["actions_received"], report["positions_applied"]) == (1, 1)  # type: ignore[index]
        assert device.episode(2)["position"] == 120
    # A change made offline on A is sent at the next sync.
    mygpo.stop()
    try:
        a.run("mark-played", str(a.episode(3)["id"]))
        report = a.json("sync", ok=False)
        assert report["errors"] and "could not be reached" in report["errors"][0]  # type: ignore[index]
        assert a.json("sync", "status")["pending"] == 1  # type: ignore[index]
    finally:
        mygpo.start()
    assert a.json("sync")["actions_sent"] == 1  # type: ignore[index]
    assert b.json("sync")["positions_applied"] == 1  # type: ignore[index]
    assert b.episode(3)["played"] is True
    played = [x for x in Phone(mygpo, user).actions() if x["device"] == "laptop" and x["action"] == "play"]
    assert [(x["position"], x["total"]) for x in played] == [(DURATION, DURATION)]


def test_status_logout_and_no_password_anywhere(devices, feed_server: FeedServer, user: tuple[str, str],
                                                tmp_path: Path) -> None:
    a, _b = devices
    a.run("subscribe", serve_podcast(feed_server))
    a.run("sync")
    status = a.json("sync", "status")
    assert isinstance(status, dict) and status["logged_in"] is True and status["pending"] == 0
    assert status["user"] == user[0] and status["device"] == "laptop" and status["last_sync"]
    a.run("backup", str(tmp_path / "export.json"))
    a.run("export-opml", str(tmp_path / "export.opml"))
    a.run("backups", "--now")
    holding = [str(p) for p in tmp_path.rglob("*") if p.is_file() and user[1].encode() in p.read_bytes()]
    assert holding == []  # not in the libraries, their backups or the exports
    assert "Logged out" in a.run("sync", "logout").stdout
    assert a.json("sync", "status")["logged_in"] is False  # type: ignore[index]
    done = a.run("sync", ok=False)
    assert "no password for" in done.stderr and "log in again" in done.stderr


def test_killing_a_sync_loses_nothing_and_sends_nothing_twice(devices, feed_server: FeedServer, mygpo: MygpoServer,
                                                               user: tuple[str, str]) -> None:
    a, _b = devices
    feed = serve_podcast(feed_server)
    a.run("subscribe", feed)
    a.run("sync")
    proxy = SyncProxy(mygpo.url).up()
    try:
        a.run("sync", "login", proxy.url, user[0], "--device", "laptop", stdin=user[1] + "\n")
        a.run("mark-played", str(a.episode(1)["id"]), str(a.episode(2)["id"]))
        proxy.fault("/api/2/episodes/", Fault(swallow=True, method="POST"))  # the server takes them, no answer
        syncing = subprocess.Popen(a.command("sync"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=a.env())
        deadline = time.monotonic() + 60
        while ("POST", f"/api/2/episodes/{user[0]}.json") not in proxy.forwarded:
            assert time.monotonic() < deadline and syncing.poll() is None, "the sync never sent its actions"
            time.sleep(0.05)
        os.kill(syncing.pid, signal.SIGKILL)
        syncing.communicate()
        assert a.json("sync", "status")["pending"] == 2  # type: ignore[index]  # the journal is intact
        proxy.faults.clear()
        report = a.json("sync")
        assert report["errors"] == [] and report["actions_sent"] == 0  # type: ignore[index]  # the server had them
        assert a.json("sync", "status")["pending"] == 0  # type: ignore[index]
    finally:
        proxy.down()
    played = sorted(x["episode"] for x in Phone(mygpo, user).actions() if x["device"] == "laptop"
                    and x["action"] == "play")
    assert played == sorted(feed_server.url(f"cast/audio/{n}.mp3") for n in (1, 2))  # each once
