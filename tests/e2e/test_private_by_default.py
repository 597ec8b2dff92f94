"""Private by default, as the security probe tried it: a second local user and a umask of 022. What Earmark
writes (library, -wal and -shm, backups, downloads, exports) is its user's only, also what older versions made;
the single-instance socket cannot be taken or reached by another user."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from earmark.gui.single_instance import hand_over
from helpers.feed_server import FeedServer, rss
from helpers.other_user import SYSTEM_PYTHON, other_user, shared_folder

UMASK = 0o022


def earmark(tmp_path: Path, library: Path, *args: str, env: dict[str, str] | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "EARMARK_CONFIG": str(tmp_path / "earmark.conf"),
                   **(env or {})}
    done = subprocess.run([sys.executable, "-m", "earmark", "--library", str(library), *args], capture_output=True,
                          text=True, timeout=timeout, env=environment, umask=UMASK)
    assert done.returncode == 0, done.stderr
    return done


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def podcast(server: FeedServer) -> str:
    server.serve_media("/ep1.mp3", b"ID3" + bytes(4000), content_type="audio/mpeg")
    return server.serve_body("/feed.xml", rss("Private Cast", [{"title": "One", "guid": "one",
                                                                "enclosure": server.url("/ep1.mp3")}]))


def test_everything_earmark_writes_is_its_users_only(tmp_path: Path) -> None:
    other = other_user()
    with shared_folder() as home, FeedServer(tmp_path) as server:
        library = home / "data" / "library.db"  # Earmark makes the folder
        feed = podcast(server)
        earmark(tmp_path, library, "subscribe", feed)
        with sqlite3.connect(library) as conn:  # the settings file says where downloads go
            conn.execute("INSERT INTO settings VALUES ('downloads.folder', ?)", [json.dumps(str(home / "dl"))])
        item = json.loads(earmark(tmp_path, library, "list", "--json").stdout)[0]["id"]
        earmark(tmp_path, library, "download", str(item))
        earmark(tmp_path, library, "backups", "--now")
        earmark(tmp_path, library, "export-opml", str(home / "subs.opml"))
        earmark(tmp_path, library, "note", str(item), "a private thought")
        earmark(tmp_path, library, "export-notes", "--format", "markdown", "--out", str(home / "notes"))
        earmark(tmp_path, library, "backup", str(home / "backup.json"))
        backups = library.parent / "backups"
        download = next((home / "dl").rglob("*.mp3"))
        folders = [library.parent, backups, home / "dl", download.parent, home / "notes"]
        files = [library, *backups.iterdir(), download, home / "subs.opml", home / "backup.json",
                 home / "backup.opml", *(home / "notes").iterdir()]
        assert {str(p): oct(mode(p)) for p in folders} == {str(p): "0o700" for p in folders}
        assert {str(p): oct(mode(p)) for p in files} == {str(p): "0o600" for p in files}
        conn = sqlite3.connect(library)  # SQLite gives -wal and -shm the library's mode, whatever the umask
        try:
            conn.execute("SELECT count(*) FROM items").fetchone()
            assert mode(library.with_name("library.db-wal")) == mode(library.with_name("library.db-shm")) == 0o600
        finally:
            conn.close()
        readable = [str(p) for p in [*folders, *files] if other.can_read(p)]
        assert readable == []


def test_what_an_older_version_made_readable_is_tightened_at_start(tmp_path: Path) -> None:
    other = other_user()
    with shared_folder() as home, FeedServer(tmp_path) as server:
        library = home / "library.db"
        earmark(tmp_path, library, "subscribe", podcast(server))
        with sqlite3.connect(library) as conn:
            conn.execute("INSERT INTO settings VALUES ('downloads.folder', ?)", [json.dumps(str(home / "dl"))])
        earmark(tmp_path, library, "download", "1")
        earmark(tmp_path, library, "backups", "--now")
        backups = library.parent / "backups"
        download = next((home / "dl").rglob("*.mp3"))
        opened = [library, backups, *backups.iterdir(), home / "dl", download.parent, download]
        for path in opened:  # as an older Earmark left them
            path.chmod(0o755 if path.is_dir() else 0o644)
        assert other.can_read(library)
        earmark(tmp_path, library, "list")
        assert {str(p): oct(mode(p)) for p in opened} == {str(p): "0o700" if p.is_dir() else "0o600" for p in opened}
        assert [str(p) for p in opened if other.can_read(p)] == []


IMPOSTOR = r"""
import socket, sys
path, log = sys.argv[1], sys.argv[2]
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(path)
server.listen(5)
print("listening", flush=True)
while True:
    conn, _ = server.accept()
    data = conn.recv(65536)
    with open(log, "ab") as out:
        out.write(data)
    conn.sendall(b"ok\n")
    conn.close()
"""


@pytest.mark.vlc
def test_another_user_cannot_take_the_single_instance_socket(tmp_path: Path) -> None:
    """The probe's attack: another user binds the name Earmark used in /tmp first and answers "ok"; the
    next launch's arguments (a private feed link) must not reach it, and the window must open."""
    import getpass
    import hashlib

    other = other_user()
    with shared_folder() as shared:
        library = tmp_path / "library.db"
        digest = hashlib.sha1(str(library.resolve()).encode()).hexdigest()[:12]
        old_name = Path("/tmp") / f"earmark-{getpass.getuser()}-{digest}"  # where Earmark listened before
        log = shared / "stolen"
        script = shared / "impostor.py"
        script.write_text(IMPOSTOR)
        shared.chmod(0o777)
        impostors = [other.popen(SYSTEM_PYTHON, str(script), str(path), str(log))
                     for path in (old_name, shared / "socket")]
        try:
            for impostor in impostors:
                assert impostor.stdout is not None and impostor.stdout.readline().strip() == "listening"
            env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "EARMARK_CONFIG": str(tmp_path / "earmark.conf")}
            secret = "podcast://127.0.0.1:9/feed.xml?token=very-secret"
            window = subprocess.Popen([sys.executable, "-m", "earmark", "--library", str(library), secret],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                                      umask=UMASK)
            try:
                time.sleep(3)  # a launch that handed over exits within a second; a window keeps running
                assert window.poll() is None, window.communicate()
            finally:
                window.terminate()
                window.communicate(timeout=30)
            # The client side's own check: a socket of another user's is never handed anything.
            assert not hand_over(str(shared / "socket"), ["podcast://example.com/x?token=also-secret"])
        finally:
            for impostor in impostors:
                impostor.kill()
                impostor.communicate()
            old_name.unlink(missing_ok=True)
        assert not log.exists() or b"secret" not in log.read_bytes()
