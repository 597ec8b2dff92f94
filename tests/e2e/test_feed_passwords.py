"""Feed passwords through the real command line, with a real keyring: a password typed inside a feed address
is kept in the keyring and never shows (sources, OPML, backups, the library file); a feed that moves for good
to another server does not take its password along; redirects lead to web addresses only."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

from earmark.core.secrets.vault import KeyringVault
from helpers.feed_server import FeedServer, rss

SECRET = "s3cret-typed-in-url"


def earmark(tmp_path: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "EARMARK_CONFIG": str(tmp_path / "earmark.conf")}
    done = subprocess.run([sys.executable, "-m", "earmark", "--library", str(tmp_path / "lib" / "library.db"),
                           *args], capture_output=True, text=True, timeout=60, env=env)
    assert (done.returncode == 0) == ok, done.stderr
    return done


def feed() -> bytes:
    return rss("Members Only", [{"title": "Bonus", "guid": "b1", "enclosure": "https://example.com/b1.mp3"}])


def test_a_password_in_a_feed_address_goes_to_the_keyring_and_shows_nowhere(tmp_path: Path, keyring_bus: str) -> None:
    with FeedServer(tmp_path) as server:
        url = server.serve_feed("/private.xml", feed(), auth=("alice", SECRET))
        typed = url.replace("http://", f"http://alice:{SECRET}@")
        earmark(tmp_path, "subscribe", typed)
        sources = json.loads(earmark(tmp_path, "sources", "--json").stdout)
        assert [source["url"] for source in sources] == [url]
        shown = [earmark(tmp_path, "sources", "--json").stdout, earmark(tmp_path, "export-opml", "-").stdout]
        earmark(tmp_path, "backup", str(tmp_path / "backup.json"))
        earmark(tmp_path, "backups", "--now")
        assert not any(SECRET in text for text in shown)
        files = [p for p in tmp_path.rglob("*") if p.is_file() and p.suffix != ".xml"]
        assert {p.name for p in files} >= {"library.db", "backup.json", "backup.opml"}
        assert [str(p) for p in files if SECRET.encode() in p.read_bytes()] == []
        port = url.split(":")[2].split("/")[0]
        assert KeyringVault().get(f"earmark feed http://127.0.0.1:{port}", "alice") == SECRET
        refreshed = json.loads(earmark(tmp_path, "refresh", "--json").stdout)  # the keyring's password opens it
        assert [outcome["status"] for outcome in refreshed] in (["ok"], ["not_modified"])
        assert server.received_for("/private.xml")[-1].header("Authorization") is not None


def test_without_a_keyring_a_typed_password_is_not_kept(tmp_path: Path) -> None:
    with FeedServer(tmp_path) as server:
        url = server.serve_feed("/private.xml", feed(), auth=("alice", SECRET))
        done = earmark(tmp_path, "subscribe", url.replace("http://", f"http://alice:{SECRET}@"), ok=False)
        assert done.stderr.startswith("earmark: Subscribed to Members Only, but without its password: No system "
                                      "keyring is running")
        library = tmp_path / "lib" / "library.db"
        assert [p.name for p in library.parent.iterdir() if SECRET.encode() in p.read_bytes()] == []


def test_a_move_to_another_server_drops_the_password(tmp_path: Path, keyring_bus: str) -> None:
    with FeedServer(tmp_path / "a") as old, FeedServer(tmp_path / "b") as new:
        url = old.serve_feed("/private.xml", feed(), auth=("alice", SECRET))
        earmark(tmp_path, "subscribe", url.replace("http://", f"http://alice:{SECRET}@"))
        moved = new.serve_feed("/moved.xml", feed())
        old.serve_redirect("/private.xml", moved, status=301)  # the host moves the feed for good, elsewhere
        outcome = json.loads(earmark(tmp_path, "refresh", "--json").stdout)[0]
        assert "another server than the one its password was given for" in outcome["warning"]
        source = json.loads(earmark(tmp_path, "sources", "--json").stdout)[0]
        assert (source["url"], source["status"]) == (moved, "auth")  # it asks for credentials again
        assert "were not sent there and are forgotten" in source["last_error"]
        earmark(tmp_path, "refresh", "--json")  # the next refresh goes to the new address, without them
        assert len(new.received_for("/moved.xml")) == 2
        assert all(r.header("Authorization") is None for r in new.received_for("/moved.xml"))
        port = url.split(":")[2].split("/")[0]
        assert KeyringVault().get(f"earmark feed http://127.0.0.1:{port}", "alice") is None  # forgotten


def test_a_redirect_to_ftp_is_not_followed(tmp_path: Path) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.2)
    knocked = threading.Event()

    def watch() -> None:
        try:
            conn, _ = listener.accept()
            knocked.set()
            conn.close()
        except OSError:
            pass

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with FeedServer(tmp_path) as server:
            ftp = f"ftp://127.0.0.1:{listener.getsockname()[1]}/feed.xml"
            url = server.serve_redirect("/feed.xml", ftp, status=302)
            done = earmark(tmp_path, "subscribe", url, ok=False)
        assert "not a web address; Earmark follows redirects to http and https only" in done.stderr
        assert not knocked.is_set()
    finally:
        watcher.join()
        listener.close()
