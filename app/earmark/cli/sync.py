"""The sync commands: ``earmark sync [--json]``, ``sync login``, ``sync status``, ``sync logout``; and
``unsubscribe``, whose change sync carries to the other devices."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from earmark.cli.common import add_opt_in, opt_in_if_asked, print_json, read_password, record_id
from earmark.core.db.database import Database
from earmark.core.sync.server import KINDS

if TYPE_CHECKING:
    from earmark.core.sync.session import SyncStatus

# The sync modules (urllib, http.client, cookies) are imported by the commands that use them: the window's
# start-up imports this module too.


def sync_command(sync: argparse.ArgumentParser) -> None:
    """sync subscriptions and play positions with a gpodder.net or Nextcloud server (set up with: sync login)"""
    sync.add_argument("--json", action="store_true", help="print what the sync did as a JSON object")
    sync.set_defaults(run=_sync)
    steps = sync.add_subparsers(dest="sync_command", metavar="SUBCOMMAND")
    login = steps.add_parser("login", help="set up sync: check the password (read from standard input) with the "
                                           "server and keep it in the keyring")
    login.add_argument("url", metavar="URL", help="the server's address (a Nextcloud's own address for nextcloud)")
    login.add_argument("username", metavar="USERNAME")
    login.add_argument("--device", metavar="NAME",
                       help="this library's device id on the server (default: earmark-HOSTNAME-XXXXXX, XXXXXX this "
                            "library's own; sync status shows it)")
    login.add_argument("--kind", choices=KINDS, default="gpodder",
                       help="gpodder (the gpodder.net API, default) or nextcloud (the gPodder Sync app)")
    add_opt_in(login)
    login.set_defaults(run=_login)
    status = steps.add_parser("status", help="the server, user, device, last sync and changes waiting")
    status.add_argument("--json", action="store_true", help="print a JSON object")
    status.set_defaults(run=_status)
    logout = steps.add_parser("logout", help="forget the sync password (the library and its changes stay)")
    logout.set_defaults(run=_logout)


def unsubscribe_command(leave: argparse.ArgumentParser) -> None:
    """remove a subscription and its episodes (those with notes or marked favourite stay)"""
    leave.add_argument("source_id", type=record_id, metavar="SOURCE_ID")
    leave.set_defaults(run=_unsubscribe)


def _login(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.sync.session import log_in

    password = read_password(f"Password for {args.username}: ")
    opt_in_if_asked(db, args)
    done = log_in(db, args.kind, args.url, args.username, password, args.device)
    account = done.account
    for sentence in done.warnings:
        print(f"earmark: {sentence}", file=sys.stderr)
    print(f"Logged in to {account.server} as {account.user}; this device is {account.device}. Sync with: "
          "earmark sync")
    return 0


def _sync(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.sync.session import sync_now

    report = sync_now(db)
    if args.json:
        print_json(report.as_json())
    else:
        print(report.sentence)
        for sentence in report.warnings:
            print(f"earmark: {sentence}", file=sys.stderr)
    for sentence in report.errors:
        print(f"earmark: {sentence}", file=sys.stderr)
    return 1 if report.errors else 0


def _status(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.sync.session import sync_status

    status = sync_status(db)
    if args.json:
        print_json(status.as_json())
        return 0
    account = status.account
    print(f"{account.kind} server {account.server}, user {account.user}, device {account.device}")
    print(f"last sync: {account.last_sync or 'never'}; changes waiting: {status.pending}{_password_state(status)}")
    if account.last_error:
        print(f"last problem: {account.last_error}")
    return 0


def _password_state(status: SyncStatus) -> str:
    if status.logged_in:
        return ""
    if not status.keyring:
        return ("; no system keyring can be reached, so the password cannot be read (earmark sync says how to start "
                "one, or log in again with --store-in-library)")
    return "; logged out (no password kept)"


def _logout(db: Database, _args: argparse.Namespace) -> int:
    from earmark.core.sync.session import log_out

    print(log_out(db))
    return 0


def _unsubscribe(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.feeds.unsubscribe import unsubscribe

    print(unsubscribe(db, args.source_id).message)
    return 0
