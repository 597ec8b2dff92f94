"""Finding podcasts and changing settings: ``earmark find``, ``earmark setting``, ``earmark directory-secret``."""

from __future__ import annotations

import argparse
import sys

from earmark.cli.common import add_opt_in, count, opt_in_if_asked, print_json, read_password
from earmark.core.db.database import Database
from earmark.core.directory.configured import NAMES
from earmark.core.plurals import counted

# The directory clients (urllib) are imported by the commands that use them: the window's start-up parses argv too.


def find_command(find: argparse.ArgumentParser) -> None:
    """search the podcast directories for podcasts by name or words"""
    find.add_argument("query", nargs="+", metavar="QUERY", help="the podcast's name, or words about it")
    find.add_argument("--directory", action="append", choices=NAMES, metavar="NAME",
                      help=f"ask this directory ({', '.join(NAMES)}; repeatable; default: the directory.* settings)")
    find.add_argument("--limit", type=count, default=25, help="at most this many podcasts from each (default 25)")
    find.add_argument("--json", action="store_true", help="print a JSON array")
    find.set_defaults(run=_find)


def setting_command(setting: argparse.ArgumentParser) -> None:
    """print a setting, or set it to VALUE"""
    setting.add_argument("key", metavar="KEY", help="the setting's key, as in docs/settings.md")
    setting.add_argument("value", nargs="?", metavar="VALUE", help="the new value (yes/no, a number, text, JSON)")
    setting.set_defaults(run=_setting)


def directory_secret_command(secret: argparse.ArgumentParser) -> None:
    """keep your Podcast Index API key, and its secret (read from standard input) in the keyring, and ask it"""
    secret.add_argument("key", metavar="API_KEY")
    add_opt_in(secret)
    secret.set_defaults(run=_directory_secret)


def _find(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.directory.configured import directory_specs, search_all
    from earmark.core.directory.results import DirectoryResult, merged
    from earmark.core.directory.subscribed import subscribed_keys, subscribed_source

    specs = directory_specs(db, args.directory)
    if not specs:
        print("earmark: no directory is chosen: turn one on (earmark setting directory.apple yes) or name one "
              "with --directory.", file=sys.stderr)
        return 1
    answers: dict[str, list[DirectoryResult]] = {}
    for spec, answer in search_all(specs, " ".join(args.query), args.limit):
        if isinstance(answer, list):
            answers[spec.name] = answer
        else:
            print(f"earmark: {answer}", file=sys.stderr)
    if not answers:
        return 1
    found = merged(r for spec in specs for r in answers.get(spec.name, []))  # in the directories' order
    keys = subscribed_keys(db)
    rows = [{**r.as_json(), "subscribed": subscribed_source(keys, r) is not None} for r in found]
    if args.json:
        print_json(rows)
        return 0
    for row in rows:
        facts = [counted(int(str(row["episodes"])), "episode")] if row["episodes"] is not None else []
        facts += [f"latest {str(row['latest'])[:10]}"] if row["latest"] else []
        facts += ["subscribed"] if row["subscribed"] else []
        print(f"{row['title']} — {row['author'] or 'unknown author'} ({', '.join(facts) or row['directory']})")
        print(f"    {row['feed_url']}")
    if not rows:
        print(f"Nothing found for “{' '.join(args.query)}”.")
    return 0


def _setting(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.setting_text import parsed_value, setting_named, shown_value
    from earmark.core.settings import get_setting, set_setting

    setting = setting_named(args.key)
    if setting.store == "desktop":
        from earmark.gui.preferences import DesktopSettings

        desktop = DesktopSettings()
        if args.value is not None:
            desktop.set_value(setting.key, parsed_value(setting, args.value))
        print(shown_value(desktop.value(setting.key)))
        return 0
    if args.value is not None:
        set_setting(db, setting.key, parsed_value(setting, args.value))
    print(shown_value(get_setting(db, setting.key)))
    return 0


def _directory_secret(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.directory.configured import keep_podcastindex_key

    opt_in_if_asked(db, args)
    keep_podcastindex_key(db, args.key, read_password("Podcast Index API secret: "))
    print("Podcast Index's key and secret are kept; searches ask Podcast Index from now on.")
    return 0
