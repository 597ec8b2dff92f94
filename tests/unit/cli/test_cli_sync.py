"""``earmark sync``, ``sync login``, ``sync status`` and ``sync logout`` as a person types them, against the real
mygpo server: per-library passwords in a real keyring, what is said when no keyring can be reached, and a login
that fails."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from earmark.core.feeds.subscribe import subscribe
from earmark.core.sync.account import get_account
from earmark.core.sync.session import log_in, sync_now
from helpers.cli import Cli
from helpers.feed_server import FeedServer, closed_port
from helpers.mygpo_server import MygpoServer
from helpers.sync_devices import DURATION, device, serve_podcast
from helpers.sync_proxy import Fault, SyncProxy


def _cli(tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / f"{name}.db", capsys)


def test_logging_out_of_one_library_leaves_the_others_logged_in(tmp_path: Path, mygpo: MygpoServer,
                                                                keyring_bus: str,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    user = mygpo.new_user()
    a, b = (device(tmp_path, name, passwords_in_library=False) for name in ("a", "b"))
    for db in (a, b):
        log_in(db, "gpodder", mygpo.url, *user)
    code, out, _err = _cli(tmp_path, "a", capsys)("sync", "logout")
    assert code == 0 and "in this library" in out and "Other libraries logged in as" in out, out
    assert sync_now(b).errors == []  # still logged in: its own keyring entry
    code, _out, err = _cli(tmp_path, "a", capsys)("sync")
    assert code != 0 and "This library has no password for" in err, err
    code, out, _err = _cli(tmp_path, "a", capsys)("sync", "status")
    assert "logged out (no password kept)" in out


def test_no_keyring_is_said_as_such_with_the_opt_in_named(tmp_path: Path, mygpo: MygpoServer, keyring_bus: str,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    user = mygpo.new_user()
    log_in(device(tmp_path, "a", passwords_in_library=False), "gpodder", mygpo.url, *user)
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS")  # the keyring is not running now
    cli = _cli(tmp_path, "a", capsys)
    code, _out, err = cli("sync")
    assert code != 0 and "No system keyring is running" in err and "--store-in-library" in err, err
    assert "log in again" in err and "logged out" not in err
    code, out, _err = cli("sync", "status")
    assert "no system keyring can be reached" in out and "logged out" not in out, out
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{user[1]}\n"))
    code, _out, err = cli("sync", "login", mygpo.url, user[0])
    assert code != 0 and "--store-in-library" in err and "nothing was stored" in err, err


@pytest.mark.parametrize("fault", ["500", "closed port"])
def test_a_failed_login_says_nothing_was_stored(tmp_path: Path, mygpo: MygpoServer, fault: str,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    proxy = SyncProxy(mygpo.url).up()
    try:
        proxy.fault("/api/2/", Fault(status=500))
        url = proxy.url if fault == "500" else f"http://127.0.0.1:{closed_port()}"
        device(tmp_path, "a").close()
        monkeypatch.setattr("sys.stdin", io.StringIO("secret-pw\n"))
        code, _out, err = _cli(tmp_path, "a", capsys)("sync", "login", url, "someone")
    finally:
        proxy.down()
    assert code != 0 and "Nothing was stored: check the server's address" in err, err
    assert "try again later" not in err and "changes are kept" not in err, err
    assert get_account(device(tmp_path, "a")) is None


def test_the_sync_sentence_counts_what_was_sent_and_received_alike(tmp_path: Path, mygpo: MygpoServer,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    user = mygpo.new_user()
    db = device(tmp_path, "a")
    log_in(db, "gpodder", mygpo.url, *user, device="laptop")
    with FeedServer(tmp_path) as feed_server:
        feed = serve_podcast(feed_server)
        subscribe(db, feed)
        assert sync_now(db).errors == []
        cli = _cli(tmp_path, "a", capsys)
        assert cli("unsubscribe", str(db.execute("SELECT id FROM sources").fetchone()[0]))[0] == 0
        other = serve_podcast(feed_server, "other")
        when = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S")
        mygpo.call("POST", f"/api/2/episodes/{user[0]}.json", user, [
            {"podcast": other, "episode": feed_server.url(f"other/audio/{n}.mp3"), "action": "play",
             "timestamp": when, "device": "phone", "position": 60, "total": DURATION} for n in range(1, 1201)])
        code, out, _err = cli("sync")
        assert code == 0
        assert out.strip() == ("0 subscriptions added and 0 removed here; 1 subscription change and 0 episode "
                               "changes sent; 1,200 episode actions received, 0 of those applied."), out
        subscribe(db, other)  # the phone's plays of its episodes waited for them
        code, out, _err = cli("sync", "--json")
    report = json.loads(out)
    assert (report["earlier_applied"], report["positions_applied"], report["actions_received"]) == (3, 0, 0)
