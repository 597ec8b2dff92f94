"""The command line: the same core operations as the window, scriptable, with ``--json`` listings.

Each command is named once, in its group's line of ``commands.GROUPS``; the group (the module of this package of
that name) has a function ``NAME_command(parser)`` for it (``-`` as ``_``), whose docstring is the command's help,
that adds its arguments and ``set_defaults(run=FUNCTION)``: ``FUNCTION(db, args) -> exit code`` runs on the open
library (or ``run_on_path=FUNCTION(library_path, args)`` for commands that must work when it cannot be opened);
``before_open=FUNCTION(library_path, args)`` starts what can run while it opens.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import inspect
import logging
import os
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from earmark import __version__
from earmark.cli.commands import GROUPS, command_names, group_of
from earmark.cli.targets import split_targets, window_options
from earmark.core.settings import LIBRARY_ENV, default_library_path

if TYPE_CHECKING:
    from earmark.core.db.database import Database


def groups(only: str | None = None) -> dict[str, ModuleType]:
    """The command groups by name, in the order ``earmark --help`` lists them, or the group named ``only``
    (imported only when a command may run: opening the window needs none of them)."""
    return {name: importlib.import_module(f"earmark.cli.{name}") for name in GROUPS if only in (None, name)}


def declare(commands: argparse._SubParsersAction, group: ModuleType, name: str) -> None:
    """Add the command ``name`` of ``group``: its help and arguments as its ``NAME_command`` declares them."""
    command = getattr(group, f"{name.replace('-', '_')}_command")
    command(commands.add_parser(name, help=inspect.cleandoc(command.__doc__ or "")))


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line: the global options and every group's commands (or those of the group ``only``:
    then an error in the global options or the command's name raises argparse.ArgumentError instead of exiting,
    for the whole parser to say it)."""
    from earmark.cli.free_text import TextParser

    parser = TextParser(prog="earmark", description="A library for podcasts and articles.",  # commands' too
                        exit_on_error=only is None)
    parser.add_argument("--version", action="version", version=f"earmark {__version__}")
    parser.add_argument("--library", type=Path, metavar="PATH",
                        help="library file to use (default: $EARMARK_LIBRARY or the user data folder)")
    parser.add_argument("--minimised", "--minimized", action="store_true",
                        help="start the window in the tray icon (minimised where the desktop has no tray)")
    parser.add_argument("--smoke-test", action="store_true",
                        help="open the window, play a sample episode for a second, check the saved position")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, group in groups(only).items():
        for command in GROUPS[name]:
            declare(commands, group, command)
    return parser


def main(argv: Sequence[str]) -> int:
    """Run one command (or the GUI when none is given); returns the exit code."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    window = window_options(argv)
    if window is not None:  # only the window's own options: the quick way to it, without the commands
        return _open_window(_library_path(window[0]), [], minimised=window[1])
    argv, targets = split_targets(argv, command_names())
    parser, args = _parse(argv)
    if targets and (args.command is not None or args.smoke_test):
        parser.error("feed URLs and .opml files are opened by the window, not with a command")
    library_path = _library_path(args.library)
    if args.command is None and not args.smoke_test:
        return _open_window(library_path, targets, minimised=args.minimised)
    gc.enable()  # off while the program started (see earmark.__main__): a command's work makes garbage
    if args.smoke_test:
        from earmark.gui.smoke import run_smoke_test

        return run_smoke_test(library_path)
    return _run_command(library_path, args)


def _parse(argv: list[str]) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """The arguments, parsed with the parser of the named command's group alone when that is enough."""
    group = group_of(argv)
    if group is not None:
        parser = build_parser(group)
        try:
            return parser, parser.parse_args(argv)
        except argparse.ArgumentError:
            pass  # the whole parser says what is wrong, as it would have
    parser = build_parser()
    return parser, parser.parse_args(argv)


def _open_window(library_path: Path, targets: list[str], minimised: bool) -> int:
    from earmark.gui.application import run

    return run(library_path, targets, minimised=minimised)


def _library_path(given: Path | None) -> Path:
    """The library named by --library, else the one chosen before (see ``_chosen_library``)."""
    return given.expanduser() if given else _chosen_library()


def _run_command(library_path: Path, args: argparse.Namespace) -> int:
    """Run the command on the library; an error the user can act on is one sentence on stderr and exit 1."""
    from earmark.core.db.connection import library_error, open_library_or_read_only
    from earmark.core.errors import EarmarkError, LibraryReadOnlyError

    read_only_reason = None
    try:
        if hasattr(args, "run_on_path"):  # backups: they must work when the library cannot be opened
            return int(args.run_on_path(library_path, args))
        if hasattr(args, "before_open"):
            args.before_open(library_path, args)
        db, read_only_reason = open_library_or_read_only(library_path)
        args.library = library_path
        args.read_only = read_only_reason is not None
        if not args.read_only:
            _settle_secrets(db, library_path)
        try:
            return int(args.run(db, args))
        finally:
            db.close()
    except LibraryReadOnlyError as exc:
        # Opened read-only, a write fails as read-only: say why it is (a full disk, a read-only folder).
        print(f"earmark: {read_only_reason or exc}", file=sys.stderr)
        return 1
    except EarmarkError as exc:
        print(f"earmark: {exc}", file=sys.stderr)
        return 1
    except sqlite3.Error as exc:
        print(f"earmark: {library_error(exc, library_path)}", file=sys.stderr)
        return 1
    except UnicodeEncodeError as exc:
        if "surrogates" not in exc.reason:
            raise
        # Found by fuzzing: bytes of an argument that are not UTF-8 arrive as lone surrogates (Python's
        # surrogateescape), which SQLite cannot take: `earmark search x --tag $'\xff'` ended in a traceback.
        print("earmark: an argument holds bytes that are not UTF-8 text, which Earmark cannot store or search for.",
              file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader went away (``earmark list | head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _settle_secrets(db: Database, library: Path) -> None:
    """What an older version left readable is tightened; its passwords go to the keyring (said when they cannot
    yet)."""
    from earmark.core.db.private_files import tighten_data
    from earmark.core.secrets.legacy import settle_secrets

    tighten_data(db)
    if waiting := settle_secrets(db, library):
        print(f"earmark: {waiting}", file=sys.stderr)


def _chosen_library() -> Path:
    """$EARMARK_LIBRARY, else the library chosen in the settings dialog, else the default."""
    if os.environ.get(LIBRARY_ENV):
        return default_library_path()
    from earmark.gui.preferences import chosen_library_path  # QtCore's QSettings: only when needed

    return chosen_library_path()
