"""Passwords in the system keyring (a real Secret Service: gnome-keyring-daemon on a private bus), the library
file only by choice, and the plain-text passwords of older versions moved out and wiped, backups included."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from earmark.core.db.backups import make_backup
from earmark.core.db.connection import open_library
from earmark.core.errors import NoKeyringError
from earmark.core.feeds.opml import OpmlDocument, OpmlFeed, read_opml
from earmark.core.feeds.subscriptions import export_opml, import_opml
from earmark.core.secrets.feeds import feed_key
from earmark.core.secrets.legacy import settle_secrets
from earmark.core.secrets.store import SecretKey, Secrets
from earmark.core.secrets.vault import KeyringVault
from earmark.core.settings import set_setting
from helpers.old_library import library_with_plain_passwords

KEY = SecretKey("feed", "https://feeds.example.com:443", "alice")


def files_hold(folder: Path, secret: bytes) -> list[str]:
    """The files under ``folder`` whose bytes hold ``secret`` (the library, its -wal, backups…)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and secret in p.read_bytes())


def test_a_password_goes_to_the_keyring_and_never_into_the_file(keyring_bus: str, library_file: Path) -> None:
    db = open_library(library_file)
    secrets = Secrets(db, KeyringVault())
    secrets.set(KEY, "hunter2-in-keyring")
    assert secrets.get(KEY) == "hunter2-in-keyring"
    assert KeyringVault().get(KEY.service, "alice") == "hunter2-in-keyring"  # really in the Secret Service
    db.close()
    assert files_hold(library_file.parent, b"hunter2-in-keyring") == []
    db = open_library(library_file)
    Secrets(db, KeyringVault()).delete(KEY)
    assert KeyringVault().get(KEY.service, "alice") is None
    db.close()


def test_without_a_keyring_nothing_is_stored_unless_opted_in(library) -> None:
    secrets = Secrets(library, KeyringVault())  # no session bus in tests: no keyring
    with pytest.raises(NoKeyringError, match="No system keyring is running.*the password was not stored"):
        secrets.set(KEY, "pw")
    assert secrets.get(KEY) is None
    set_setting(library, "secrets.store_in_library", True)
    secrets.set(KEY, "pw-in-file")
    assert secrets.get(KEY) == "pw-in-file"
    assert library.execute("SELECT count(*) FROM secrets").fetchone()[0] == 1


def test_backups_never_hold_a_password_even_one_kept_in_the_file(library, library_file: Path) -> None:
    set_setting(library, "secrets.store_in_library", True)
    Secrets(library).set(KEY, "kept-by-choice-123")
    backup = make_backup(library_file, "daily")
    assert b"kept-by-choice-123" not in backup.path.read_bytes()
    copy = sqlite3.connect(backup.path)
    assert copy.execute("SELECT count(*) FROM secrets").fetchone()[0] == 0
    copy.close()


def test_passwords_of_an_older_library_move_to_the_keyring_and_are_wiped(keyring_bus: str, tmp_path: Path) -> None:
    library_file = tmp_path / "library.db"
    library_with_plain_passwords(library_file)
    db = open_library(library_file)  # schema 8 moves them out of the rows and the address
    assert db.execute("SELECT url, auth_user, auth_password FROM sources ORDER BY id").fetchall() == [
        ("https://feeds.example.com/private.xml", "alice", None), ("https://other.example.com/feed.xml", "bob", None)]
    assert settle_secrets(db, library_file) is None
    assert db.execute("SELECT count(*) FROM secrets").fetchone()[0] == 0
    secrets = Secrets(db)
    assert secrets.get(feed_key("https://feeds.example.com/private.xml", "alice")) == "plain-row-pw"
    assert secrets.get(feed_key("https://other.example.com/feed.xml", "bob")) == "plain-url-pw"
    make_backup(library_file, "daily")
    db.close()
    for secret in (b"plain-row-pw", b"plain-url-pw"):
        assert files_hold(tmp_path, secret) == []  # the library, its -wal, the backup before the upgrade, daily


def test_without_a_keyring_they_wait_in_the_file_and_it_says_so(tmp_path: Path) -> None:
    library_file = tmp_path / "library.db"
    library_with_plain_passwords(library_file)
    db = open_library(library_file)
    sentence = settle_secrets(db, library_file)
    assert sentence is not None and sentence.startswith("2 passwords are still kept in the library file")
    assert Secrets(db).get(feed_key("https://feeds.example.com/private.xml", "alice")) == "plain-row-pw"  # not lost
    db.close()


def test_an_opml_address_with_a_password_is_stored_without_it(library) -> None:
    set_setting(library, "secrets.store_in_library", True)
    typed = "https://ann:opml-secret@feeds.example.com/members.xml"
    result = import_opml(library, OpmlDocument(None, [OpmlFeed(url=typed, title="Members")], []))
    assert result.skipped == []
    assert library.execute("SELECT url, auth_user FROM sources").fetchall() == [
        ("https://feeds.example.com/members.xml", "ann")]
    assert Secrets(library).get(feed_key("https://feeds.example.com/members.xml", "ann")) == "opml-secret"
    assert b"opml-secret" not in export_opml(library)


def test_without_a_keyring_an_opml_password_is_skipped_with_a_sentence(library) -> None:
    typed = "https://ann:opml-secret@feeds.example.com/members.xml"
    result = import_opml(library, OpmlDocument(None, [OpmlFeed(url=typed, title="Members")], []))
    assert len(result.added) == 1 and result.skipped[0].startswith(
        "The password of https://feeds.example.com/members.xml was not stored: No system keyring is running")


def test_an_opml_outline_without_a_title_is_never_titled_with_its_password(library) -> None:
    set_setting(library, "secrets.store_in_library", True)
    typed = "https://ann:opml-secret@feeds.example.com/members.xml"
    import_opml(library, read_opml(f'<opml version="2.0"><body><outline type="rss" xmlUrl="{typed}"/></body></opml>'
                                   .encode(), "list.opml"))
    assert library.execute("SELECT url, title, user_title FROM sources").fetchall() == [
        ("https://feeds.example.com/members.xml", "https://feeds.example.com/members.xml", 0)]
    assert b"opml-secret" not in export_opml(library)
