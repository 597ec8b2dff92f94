"""Every command, named once, in its group: a command builds the parser of its own group alone from this table
(the group's ``NAME_command`` functions declare each command's help and arguments: see ``earmark.cli``).

Importing every group and declaring every command cost ~40 ms of each command's start (the groups import most
of core/), paid again by the window's ``earmark update-relations`` after every refresh.
"""

from __future__ import annotations

from collections.abc import Sequence

# Each group (the module earmark.cli.NAME) and its commands, in the order ``earmark --help`` lists them.
GROUPS: dict[str, tuple[str, ...]] = {
    "library": ("load-sample", "list", "search", "favourite", "unfavourite", "save-search", "smart-lists",
                "delete-smart-list", "mark-played", "mark-unplayed"),
    "tags": ("tag", "untag", "tags", "tag-source", "untag-source", "rename-tag", "delete-tag", "tag-colour"),
    "feeds": ("subscribe", "sources", "refresh", "import-opml", "export-opml", "set-credentials"),
    "sync": ("sync", "unsubscribe"),
    "playback": ("queue", "download", "downloads"),
    "listening": ("stats", "silence"),
    "notes": ("note", "notes", "export-notes", "export-history", "backup", "restore"),
    "transcribe": ("transcribe",),
    "graph": ("related", "topics", "path", "export-graph"),
    "relations": ("update-relations",),
    "reading": ("add-article", "add-links", "import-reading-list", "export-reading-list", "archive", "unarchive",
                "highlight"),
    "backups": ("backups", "restore-backup", "compact"),
    "directory": ("find", "setting", "directory-secret"),
    "ask": ("ask", "index-passages"),
    "chapters": ("chapters",),
}
# Global options that may come before the command: with any other (``--help``, an abbreviation), every group.
_FLAGS = ("--minimised", "--minimized", "--smoke-test")


def command_names() -> set[str]:
    """Every command's name."""
    return {name for names in GROUPS.values() for name in names}


def group_of(argv: Sequence[str]) -> str | None:
    """The group of the command ``argv`` names after the global options; None when it names none, or when an
    option other than ``--library PATH`` and the window's flags comes first (the whole parser then answers)."""
    words = iter(argv)
    for word in words:
        if word == "--library":
            next(words, None)
        elif not (word.startswith("--library=") or word in _FLAGS):
            return next((group for group, names in GROUPS.items() if word in names), None)
    return None
